#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Text helpers on the import path that avoid Foundation's `NSString` bridging: on Linux,
/// `trimmingCharacters(in:)`, `contains(_:)` and `replacingOccurrences(of:with:)` on `String`
/// go through `NSString` and `CFStringFind`, and were a third of an import's time.
extension StringProtocol {
    /// Unicode space separators (general category Zs) and tab trimmed from both ends, without
    /// leaving the standard library; returns the text unchanged when nothing is trimmed.
    /// `trimmingCharacters(in: .whitespaces)` also trims U+200B ZERO WIDTH SPACE (see
    /// `trimmingWhitespaces`); the import has always kept it.
    var trimmingSpaces: String {
        // Most values start and end with ASCII that is no space or tab: told from two bytes,
        // where the scalar views' `first` and `last` were most of an import's 200,000 calls.
        let ends = utf8.withContiguousStorageIfAvailable { $0.isEmpty ? nil : ($0[0], $0[$0.count - 1]) } ?? nil
        if let (first, last) = ends, first < 0x80, last < 0x80, first != 0x20, first != 0x09, last != 0x20,
            last != 0x09
        {
            return String(self)
        }
        return trimming(where: Self.isSpace)
    }

    /// Exactly `trimmingCharacters(in: .whitespaces)`, without `NSString`: CoreFoundation's
    /// whitespace set is Zs, tab and U+200B ZERO WIDTH SPACE (a space separator in Unicode 3,
    /// a format character since 4.0.1; tested against `CharacterSet` for every scalar).
    /// `contactsbook query` trims its text this way: through `NSString` the trimming alone was a
    /// tenth of the command's instructions (bench/STARTUP.md).
    var trimmingWhitespaces: String { trimming(where: Self.isWhitespace) }

    private func trimming(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return "" }
        if !isTrimmed(first) && !isTrimmed(last) { return String(self) }
        guard let start = scalars.firstIndex(where: { !isTrimmed($0) }),
            let end = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[start...end])
        return String(result)
    }

    /// General category Zs, and tab.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || scalar == "\t" }
        return scalar.properties.generalCategory == .spaceSeparator
    }

    /// `CharacterSet.whitespaces`: general category Zs, tab, and U+200B.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        isSpace(scalar) || scalar == "\u{200B}"
    }

    /// Whether the UTF-8 text contains this ASCII byte. `memchr` over the contiguous bytes:
    /// `utf8.contains` stepped through the view's iterator byte by byte, 4 % of an import's
    /// instructions (every vCard value is looked at twice).
    func containsASCII(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            bytes.count > 0 && memchr(bytes.baseAddress!, Int32(byte), bytes.count) != nil
        } ?? utf8.contains(byte)
    }
}

extension String {
    /// Every line break (CRLF, or a lone CR) as one `\n`, costing nothing when there is no CR.
    /// A lone CR too: the writers write it as a newline, so a value read, written and read
    /// again stays the same.
    var normalizingLineBreaks: String {
        guard containsASCII(0x0D) else { return self }
        var result = ""
        result.reserveCapacity(utf8.count)
        var afterCR = false
        for scalar in unicodeScalars {
            if scalar == "\r" {
                result.unicodeScalars.append("\n")
            } else if scalar != "\n" || !afterCR {
                result.unicodeScalars.append(scalar)
            }
            afterCR = scalar == "\r"
        }
        return result
    }
}

extension StringProtocol {
    /// `components(separatedBy:)` for a separator of ASCII text, without Foundation: the CSV
    /// import split every multi-value cell through `_range(of:)` and `NSString`, a tenth of its
    /// reading thread at 100k rows. The separator is matched by its bytes, left to right,
    /// without overlaps, and empty parts are kept, as Foundation does. Where Foundation compares
    /// Characters, a combining mark right after the separator, or U+037E GREEK QUESTION MARK
    /// (canonically `;`), would split differently; our CSV format defines its separators as
    /// text, so the bytes are the rule.
    func splitting(onASCII separator: String) -> [String] {
        let pattern = Array(separator.utf8)
        precondition(!pattern.isEmpty && pattern.allSatisfy { $0 < 0x80 }, "an ASCII separator")
        if let parts = utf8.withContiguousStorageIfAvailable({ Self.split($0, on: pattern) }) { return parts }
        return Array(utf8).withUnsafeBufferPointer { Self.split($0, on: pattern) }
    }

    private static func split(_ bytes: UnsafeBufferPointer<UInt8>, on pattern: [UInt8]) -> [String] {
        var parts: [String] = []
        var start = 0, index = 0
        let count = bytes.count, length = pattern.count, first = pattern[0]
        while index + length <= count {
            if bytes[index] == first && (1..<length).allSatisfy({ bytes[index + $0] == pattern[$0] }) {
                parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                index += length
                start = index
            } else {
                index += 1
            }
        }
        parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<count]), as: UTF8.self))
        return parts
    }
}

extension StringProtocol {
    /// The text before and after the first `separator`, found among Unicode scalars. Searching
    /// Characters misses a `:` followed by a combining mark (`N:ؘ…` is one grapheme `:ؘ`), and
    /// the vCard grammar's separators are octets (RFC 6350 §3.3).
    func splitAtFirst(_ separator: Unicode.Scalar) -> (head: String, rest: String)? {
        // An ASCII separator's byte is that scalar and nothing else in UTF-8, so both sides are
        // sliced at scalar boundaries from the bytes: appending scalar by scalar was 14 % of an
        // export (the UID line of every card; bench/FINDINGS.md, issue 32).
        if separator.isASCII {
            guard let index = utf8.firstIndex(of: UInt8(truncatingIfNeeded: separator.value)) else { return nil }
            return (String(self[..<index]), String(self[utf8.index(after: index)...]))
        }
        let scalars = unicodeScalars
        guard let index = scalars.firstIndex(of: separator) else { return nil }
        var head = String.UnicodeScalarView(), rest = String.UnicodeScalarView()
        head.append(contentsOf: scalars[..<index])
        rest.append(contentsOf: scalars[scalars.index(after: index)...])
        return (String(head), String(rest))
    }
}
