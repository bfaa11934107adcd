/// Text helpers on the import path that avoid Foundation's `NSString` bridging: on Linux,
/// `trimmingCharacters(in:)`, `contains(_:)` and `replacingOccurrences(of:with:)` on `String`
/// go through `NSString` and `CFStringFind`, and were a third of an import's time.
extension StringProtocol {
    /// The same as `trimmingCharacters(in: .whitespaces)` (Unicode space separators and tab),
    /// without leaving the standard library; returns the text unchanged when nothing is trimmed.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return "" }
        if !Self.isSpace(first) && !Self.isSpace(last) { return String(self) }
        guard let start = scalars.firstIndex(where: { !Self.isSpace($0) }),
              let end = scalars.lastIndex(where: { !Self.isSpace($0) }) else { return "" }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[start...end])
        return String(result)
    }

    /// `CharacterSet.whitespaces`: general category Zs, and tab.
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || scalar == "\t" }
        return scalar.properties.generalCategory == .spaceSeparator
    }

    /// Whether the UTF-8 text contains this ASCII byte.
    func containsASCII(_ byte: UInt8) -> Bool { utf8.contains(byte) }
}

extension String {
    /// `replacingOccurrences(of: "\r\n", with: "\n")` that costs nothing when there is no CR.
    var normalizingCRLF: String {
        guard utf8.contains(0x0D) else { return self }
        var result = ""
        result.reserveCapacity(utf8.count)
        var pendingCR = false
        for scalar in unicodeScalars {
            if pendingCR && scalar != "\n" { result.unicodeScalars.append("\r") }
            pendingCR = scalar == "\r"
            if !pendingCR { result.unicodeScalars.append(scalar) }
        }
        if pendingCR { result.unicodeScalars.append("\r") }
        return result
    }
}
