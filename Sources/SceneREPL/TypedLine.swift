/// The text before the cursor split into words as `CommandLineParser` splits a line, but
/// tolerant of what is still being typed: an open quote or a trailing backslash.
struct TypedLine {
    struct Fragment: Equatable {
        /// The value typed so far, quotes removed.
        var text: String
        /// Unicode scalars from where it starts (opening quote included) to the cursor.
        var length: Int
    }

    struct Word {
        var text: String
        /// Offset in Unicode scalars where the word starts.
        var start: Int
    }

    /// Every word, the one under the cursor last (empty after a space).
    private(set) var words: [Word] = []
    private let raw: [Unicode.Scalar]

    init(_ text: String) {
        raw = Array(text.unicodeScalars)
        var current = ""
        var start: Int?
        var quote: Unicode.Scalar?
        var escaped = false
        for (offset, scalar) in raw.enumerated() {
            if escaped {
                current.unicodeScalars.append(scalar); escaped = false
            } else if scalar == "\\" && quote != "'" {
                escaped = true; start = start ?? offset
            } else if let open = quote {
                if scalar == open { quote = nil } else { current.unicodeScalars.append(scalar) }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar; start = start ?? offset
            } else if scalar.properties.isWhitespace {
                if let begin = start { words.append(Word(text: current, start: begin)); current = ""; start = nil }
            } else {
                current.unicodeScalars.append(scalar); start = start ?? offset
            }
        }
        words.append(Word(text: current, start: start ?? raw.count))
    }

    /// The word under the cursor.
    var fragment: Fragment {
        let last = words[words.count - 1]
        return Fragment(text: last.text, length: raw.count - last.start)
    }

    /// Everything from word `index` to the cursor, verbatim, as a trailing text parameter takes it.
    func rest(from index: Int) -> Fragment {
        let start = words[min(index, words.count - 1)].start
        var text = ""
        text.unicodeScalars.append(contentsOf: raw[start...])
        return Fragment(text: text, length: raw.count - start)
    }
}

/// Spelling values so that `CommandLineParser` reads them back unchanged.
enum Quoting {
    /// A plain word as it is; otherwise double-quoted with `\` before `"` and `\`.
    /// A trailing text parameter takes several plain words verbatim, so they need no quotes.
    static func quote(_ value: String, rest: Bool = false) -> String {
        needsQuotes(value, rest: rest) ? open(value, rest: false) + "\"" : value
    }

    /// Like `quote` but leaves the quote open, for a common prefix still to be completed.
    static func open(_ value: String, rest: Bool) -> String {
        guard needsQuotes(value, rest: rest) else { return value }
        var text = "\""
        for character in value {
            if character == "\"" || character == "\\" { text.append("\\") }
            text.append(character)
        }
        return text
    }

    static func commonPrefix(_ values: [String]) -> String {
        guard var prefix = values.first.map(Array.init) else { return "" }
        for value in values.dropFirst() {
            prefix = Array(zip(prefix, value).prefix { $0 == $1 }.map(\.0))
        }
        return String(prefix)
    }

    private static func needsQuotes(_ value: String, rest: Bool) -> Bool {
        let special = value.contains { $0 == "\"" || $0 == "'" || $0 == "\\" }
        let spaced = value.contains { $0.isWhitespace }
        return special || (spaced && !rest) || value.isEmpty
    }
}
