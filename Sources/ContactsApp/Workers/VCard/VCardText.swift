/// vCard's value escaping (RFC 6350 §3.4): `\\`, `\n`, `\,` and `\;`, and the structured values
/// built on it (compound values split on `;`, lists on `,`).
enum VCardText {
    /// Escapes text for a value: backslash, newline, comma and semicolon.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var previousCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": if !previousCR { result += "\\n" }
            case "\r": result += "\\n"
            case ",": result += "\\,"
            case ";": result += "\\;"
            default: result.unicodeScalars.append(scalar)
            }
            previousCR = scalar == "\r"
        }
        return result
    }

    /// Undoes `escape`; `\N` is a newline too, and an unknown escape keeps its character. A line
    /// break left raw in a value (CR or CRLF) is one newline, as `escape` writes it, so a value
    /// read, written and read again stays the same (a lone CR did not; found by fuzz-vcard).
    /// By scalars: a backslash followed by a combining mark is one Character.
    static func unescape(_ text: String) -> String {
        guard text.containsASCII(UInt8(ascii: "\\")) || text.containsASCII(0x0D) else { return text }
        var result = String.UnicodeScalarView(), escaped = false
        for scalar in text.unicodeScalars {
            if escaped {
                result.append(scalar == "n" || scalar == "N" ? "\n" : scalar)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else {
                result.append(scalar)
            }
        }
        if escaped { result.append("\\") }
        return String(result).normalizingLineBreaks
    }

    /// The unescaped components of a compound value (`N`, `ADR`, `ORG`).
    static func components(_ value: String) -> [String] { split(value, on: ";").map(unescape) }

    /// The unescaped items of a list value (`CATEGORIES`, `NICKNAME`).
    static func list(_ value: String) -> [String] { split(value, on: ",").map(unescape) }

    /// Splits on a separator that is not escaped; the parts stay escaped. By bytes: the
    /// separator and the backslash are ASCII, and no byte of a multi-byte character is. Over
    /// the contiguous bytes, each part made from its slice: stepping the string's UTF-8 view and
    /// making each part from a `Substring` cost 4,500 instructions a compound value, every
    /// card's N and ADR (bench/FINDINGS.md, branch `import6read`).
    static func split(_ value: String, on separator: Character) -> [String] {
        let separatorByte = separator.asciiValue!, backslash = UInt8(ascii: "\\")
        var value = value
        return value.withUTF8 { bytes in
            var parts: [String] = [], start = 0, escaped = false
            for index in 0..<bytes.count {
                let byte = bytes[index]
                if escaped {
                    escaped = false
                } else if byte == backslash {
                    escaped = true
                } else if byte == separatorByte {
                    parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                    start = index + 1
                }
            }
            parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
            return parts
        }
    }
}
