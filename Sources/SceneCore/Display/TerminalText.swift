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

    /// The bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): they reorder
    /// the rest of a terminal line, so stored text may not hold them and output never shows them.
    public static func isBidiOverride(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// Columns the text takes on a terminal.
    public static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v == 0 { return 0 }
        if scalar.properties.generalCategory == .nonspacingMark
            || scalar.properties.generalCategory == .enclosingMark
            || v == 0x200B || v == 0x200C || v == 0x200D || (0xFE00...0xFE0F).contains(v) { return 0 }
        if (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v)
            || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v)
            || (0x20000...0x3FFFD).contains(v) { return 2 }
        return 1
    }

    /// Pads to a display width (left-aligned, or right-aligned).
    public static func pad(_ text: String, to columns: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, columns - width(text)))
        return right ? fill + text : text + fill
    }
}
