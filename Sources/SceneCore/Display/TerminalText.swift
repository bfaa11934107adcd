/// Text safety and width for terminals.
///
/// Written by hand: no package on these machines offers `wcwidth`, and Foundation has no
/// display-width API. The ranges below cover the wide (East Asian) and zero-width characters
/// names and notes actually contain; anything else counts as one column.
public enum TerminalText {
    /// Removes escape sequences and control characters so stored text can never drive the
    /// terminal: ESC, C0 and C1 controls and DEL become "?" (visible, so nothing hides),
    /// tabs and newlines become spaces.
    public static func sanitize(_ text: String) -> String {
        // Nearly every cell is clean: returned as it is, without building it again one scalar
        // at a time (0.54M instructions of a piped `search`'s 20 rows: bench/FINDINGS.md, `start6`).
        guard text.unicodeScalars.contains(where: needsReplacing) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: result.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: result.append("?")
            default: result.append(isBidiOverride(scalar) ? "?" : scalar)
            }
        }
        return String(result)
    }

    /// What `sanitize` replaces: the controls and the bidi overrides.
    static func needsReplacing(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        default: return isBidiOverride(scalar)
        }
    }

    /// The bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): they reorder
    /// the rest of a terminal line, so stored text may not hold them and output never shows them.
    public static func isBidiOverride(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// Columns the text takes on a terminal.
    public static func width(_ text: String) -> Int {
        // By the UTF-8 bytes while every scalar is below U+0300 (lead bytes below 0xCC), one
        // column each but NUL: a page's cells nearly always are, and the scalar walk was 3 % of
        // a piped `search` (bench/FINDINGS.md, `pipe9`).
        var columns = 0
        for byte in text.utf8 {
            if byte >= 0xCC { return text.unicodeScalars.reduce(0) { $0 + width(of: $1) } }
            if byte & 0xC0 != 0x80 && byte != 0 { columns += 1 }
        }
        return columns
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v == 0 { return 0 }
        // Below U+0300 (the first combining mark) every scalar is one column: nearly every one a
        // page shows, whose general category was 7 % of a piped `search` (bench/FINDINGS.md, `start4`).
        if v < 0x300 { return 1 }
        if scalar.properties.generalCategory == .nonspacingMark
            || scalar.properties.generalCategory == .enclosingMark
            || v == 0x200B || v == 0x200C || v == 0x200D || (0xFE00...0xFE0F).contains(v)
        {
            return 0
        }
        if (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v)
            || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v)
            || (0x20000...0x3FFFD).contains(v)
        {
            return 2
        }
        return 1
    }

    /// Pads to a display width (left-aligned, or right-aligned).
    public static func pad(_ text: String, to columns: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, columns - width(text)))
        return right ? fill + text : text + fill
    }

    /// The text cut to `columns` display columns, its last one `…`, whole characters only (a
    /// wide character is never split, a combining mark stays with its letter).
    public static func truncate(_ text: String, to columns: Int) -> String {
        guard width(text) > columns else { return text }
        guard columns > 0 else { return "" }
        var kept = "", used = 0
        for character in text {
            let taken = width(String(character))
            if used + taken > columns - 1 { break }
            kept.append(character); used += taken
        }
        return kept + "…"
    }

    /// A line broken at spaces into lines of at most `width` columns, each after the first
    /// starting with `indent` spaces (at most half the width); a word longer than a line is cut.
    public static func wrap(_ line: String, width: Int, indent: Int) -> [String] {
        let indent = min(max(0, indent), max(0, width / 2))
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = [], current = "", used = 0, atStart = true, spaces = ""
        func breakLine() { lines.append(current); current = margin; used = indent; atStart = true; spaces = "" }
        for (text, isSpace) in runs(line) {
            if isSpace {
                // Leading spaces stay (the line's own indentation); others wait for the next word.
                if lines.isEmpty && current.isEmpty { current = text; used = text.count } else { spaces = text }
                continue
            }
            var word = Substring(text)
            if !atStart, used + spaces.count + self.width(String(word)) > width { breakLine() }
            if !atStart { current += spaces; used += spaces.count }
            spaces = ""
            while used + self.width(String(word)) > width {
                var piece = "", taken = 0
                for character in word {
                    let columns = self.width(String(character))
                    if used + taken + columns > width { break }
                    piece.append(character); taken += columns
                }
                if piece.isEmpty && atStart, let first = word.first { piece = String(first); taken = self.width(piece) }
                current += piece; used += taken
                word = word.dropFirst(piece.count)
                breakLine()
            }
            if !word.isEmpty { current += word; used += self.width(String(word)); atStart = false }
        }
        if !atStart || lines.isEmpty { lines.append(current) }
        return lines.map { $0.trimmingTrailingSpaces() }
    }

    /// Runs of spaces and of other characters, in order.
    private static func runs(_ line: String) -> [(String, Bool)] {
        var runs: [(String, Bool)] = []
        for character in line {
            let space = character == " "
            if let last = runs.last, last.1 == space {
                runs[runs.count - 1].0.append(character)
            } else {
                runs.append((String(character), space))
            }
        }
        return runs
    }

    /// Where a line's continuation lines start: under the text after its first gap of two
    /// spaces or more (`  name   what it does`), else under its first word; at most half the width.
    public static func hangingIndent(of line: String, width: Int) -> Int {
        let characters = Array(line)
        let lead = characters.prefix { $0 == " " }.count
        var index = lead
        while index + 1 < characters.count {
            if characters[index] == " ", characters[index + 1] == " " {
                var end = index
                while end < characters.count, characters[end] == " " { end += 1 }
                let column = self.width(String(characters[..<end]))
                return column <= width / 2 ? column : lead
            }
            index += 1
        }
        return lead
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
