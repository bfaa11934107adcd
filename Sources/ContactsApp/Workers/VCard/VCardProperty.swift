import Foundation

/// One content line parsed: `group.NAME;PARAM=a,b;BARE:value`.
///
/// The value is decoded (quoted-printable and `CHARSET` undone) but still vCard-escaped:
/// only the reader knows whether a property's value is text, a list or a compound.
struct VCardProperty {
    /// `item1` in `item1.TEL`; Apple and Google pair a property with its `X-ABLabel` this way.
    var group: String?
    /// Upper-cased.
    var name: String
    /// Parameter names upper-cased. Bare 2.1 parameters (`TEL;CELL;PREF:`) become `TYPE`
    /// values, or `ENCODING` for `QUOTED-PRINTABLE` and `BASE64`.
    var parameters: [(name: String, values: [String])]
    var value: String
    /// The line as it should be kept when the property is not modelled: the original text, or,
    /// when it had to be decoded (quoted-printable, another charset), the decoded value with
    /// `ENCODING` and `CHARSET` left out so the line means the same in vCard 3.0 and 4.0.
    var raw: String

    func values(of parameter: String) -> [String] {
        parameters.filter { $0.name == parameter }.flatMap(\.values)
    }

    /// Every `TYPE` value, lower-cased, `TYPE=a,b` and repeated `TYPE`s alike.
    var types: [String] {
        values(of: "TYPE").flatMap { $0.split(separator: ",").map { $0.lowercased() } }
    }

    /// `PREF`, as a `TYPE=pref` (3.0) or a `PREF=n` parameter (4.0).
    var isPreferred: Bool {
        types.contains("pref") || parameters.contains { $0.name == "PREF" }
    }

    struct Failure: Error { let reason: String }

    private static let bareEncodings: Set<String> = ["QUOTED-PRINTABLE", "BASE64", "B", "8BIT", "7BIT"]

    /// Parses one logical line. Throws `Failure` with a reason for people.
    init(_ line: VCardContentLine) throws {
        let bytes = line.bytes
        guard let colon = Self.firstColon(bytes) else {
            throw Failure(reason: "not a vCard property (no ':' in \(Self.excerpt(bytes)))")
        }
        guard let head = String(bytes: bytes[..<colon], encoding: .utf8) else {
            throw Failure(reason: "the property name is not valid UTF-8")
        }
        let segments = Self.split(head, on: ";")
        let qualified = segments[0]
        if let dot = qualified.lastIndex(of: ".") {
            group = String(qualified[..<dot])
            name = qualified[qualified.index(after: dot)...].uppercased()
        } else {
            group = nil
            name = qualified.uppercased()
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw Failure(reason: "not a vCard property name: \(Self.excerpt(Array(qualified.utf8)))")
        }
        var parameters: [(name: String, values: [String])] = []
        var keptSegments = [qualified]
        for segment in segments.dropFirst() where !segment.isEmpty {
            let parameter: (name: String, values: [String])
            if let equals = segment.firstIndex(of: "=") {
                let values = Self.split(String(segment[segment.index(after: equals)...]), on: ",")
                parameter = (segment[..<equals].uppercased(), values.map(Self.parameterValue))
            } else if Self.bareEncodings.contains(segment.uppercased()) {
                parameter = ("ENCODING", [segment.uppercased()])
            } else {
                parameter = ("TYPE", [segment])
            }
            parameters.append(parameter)
            if parameter.name != "ENCODING" && parameter.name != "CHARSET" { keptSegments.append(segment) }
        }
        self.parameters = parameters

        var valueBytes = Array(bytes[(colon + 1)...])
        let encoding = parameters.first { $0.name == "ENCODING" }?.values.first?.uppercased()
        let quotedPrintable = encoding == "QUOTED-PRINTABLE"
        if quotedPrintable { valueBytes = Self.decodeQuotedPrintable(valueBytes) }
        let charset = parameters.first { $0.name == "CHARSET" }?.values.first?.uppercased() ?? "UTF-8"
        guard let value = Self.decode(valueBytes, charset: charset) else {
            throw Failure(reason: "\(name) is not valid \(charset == "UTF-8" ? "UTF-8" : charset) text")
        }
        self.value = value
        if quotedPrintable || charset != "UTF-8" {
            // QP can carry real line breaks; as kept text they must be escaped.
            let escaped = value.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
            raw = keptSegments.joined(separator: ";") + ":" + escaped
        } else {
            raw = String(decoding: bytes, as: UTF8.self)
        }
    }

    // MARK: - Helpers

    /// The colon that ends the name and parameters: the first one outside a quoted parameter value.
    private static func firstColon(_ bytes: [UInt8]) -> Int? {
        var quoted = false
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: ":") && !quoted { return index }
        }
        return nil
    }

    /// Splits on a separator outside double quotes.
    private static func split(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = [], current = "", quoted = false
        for ch in text {
            if ch == "\"" { quoted.toggle() }
            if ch == separator && !quoted { parts.append(current); current = "" } else { current.append(ch) }
        }
        return parts + [current]
    }

    /// Unquotes a parameter value and undoes RFC 6868's escapes (`^n`, `^^`, `^'`).
    private static func parameterValue(_ text: String) -> String {
        var value = text
        if value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
        guard value.contains("^") else { return value }
        var result = "", caret = false
        for ch in value {
            if caret {
                switch ch {
                case "n", "N": result.append("\n")
                case "^": result.append("^")
                case "'": result.append("\"")
                default: result.append("^"); result.append(ch)
                }
                caret = false
            } else if ch == "^" {
                caret = true
            } else {
                result.append(ch)
            }
        }
        return caret ? result + "^" : result
    }

    /// `=XX` hex escapes to bytes; a malformed escape is kept as written.
    static func decodeQuotedPrintable(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "="), let high = hexValue(bytes, index + 1), let low = hexValue(bytes, index + 2) {
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(byte)
                index += 1
            }
        }
        return result
    }

    private static func hexValue(_ bytes: [UInt8], _ index: Int) -> UInt8? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return bytes[index] - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return bytes[index] - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return bytes[index] - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// The charsets real 2.1 exports use; anything else is tried as UTF-8.
    private static func decode(_ bytes: [UInt8], charset: String) -> String? {
        switch charset {
        case "WINDOWS-1252", "CP1252": return String(bytes: bytes, encoding: .windowsCP1252)
        case "ISO-8859-1", "LATIN1", "ISO8859-1": return String(bytes: bytes, encoding: .isoLatin1)
        default: return String(bytes: bytes, encoding: .utf8)
        }
    }

    /// The start of a bad line, printable, for an error message.
    private static func excerpt(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
            .map { $0.isASCII && ($0.isLetter || $0.isNumber || $0.isPunctuation || $0 == " ") ? $0 : "?" }
        return "'" + String(text) + (bytes.count > 40 ? "...'" : "'")
    }
}
