/// A strict JSON parser for the common case, straight from UTF-8 bytes to `JSONValue`.
///
/// `JSONValue.init(from: Decoder)` finds a value's type by trying each one in turn, and every
/// failed try throws a `DecodingError`: an object nested three deep cost hundreds of thrown
/// errors, and decoding was half of every JSON-RPC request's time. This parser reads each byte
/// once. It returns nil for anything it does not handle exactly as Foundation's `JSONDecoder`
/// would (numbers with a fraction or exponent, integers beyond `Int`, duplicate keys, lone
/// surrogates, and every kind of invalid JSON); the caller then falls back to the decoder, so
/// results and error messages stay what they were.
struct JSONFastParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    private static let maximumDepth = 512

    static func parse(_ input: [UInt8]) -> JSONValue? {
        // Careful: JSONValue is ExpressibleByNilLiteral, so every nil here is spelled `.none`.
        input.withUnsafeBufferPointer { buffer -> JSONValue? in
            var parser = JSONFastParser(bytes: buffer)
            parser.skipSpace()
            guard let value = parser.value() else { return Optional.none }
            parser.skipSpace()
            return parser.index == buffer.count ? Optional.some(value) : Optional.none
        }
    }

    /// The members of a top-level object with a few unique keys, in order, or nil for anything
    /// else (then the caller parses the text the usual way). A JSON-RPC envelope needs no dictionary.
    static func objectMembers(_ input: [UInt8]) -> [(key: String, value: JSONValue)]? {
        input.withUnsafeBufferPointer { buffer -> [(key: String, value: JSONValue)]? in
            var parser = JSONFastParser(bytes: buffer)
            parser.skipSpace()
            guard parser.current == UInt8(ascii: "{"), let members = parser.members() else { return nil }
            parser.skipSpace()
            return parser.index == buffer.count ? members : nil
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private mutating func members() -> [(key: String, value: JSONValue)]? {
        depth += 1
        defer { depth -= 1 }
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(4)
        skipSpace()
        if current == UInt8(ascii: "}") { index += 1; return members }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard current == UInt8(ascii: ":") else { return nil }
            index += 1
            skipSpace()
            guard let element = value() else { return nil }
            // Duplicate keys, and objects too big for a linear search, go the usual way.
            guard members.count < 16, !members.contains(where: { $0.key == key }) else { return nil }
            members.append((key, element))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return members
            default: return nil
            }
        }
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return nil }
        let start = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] { return nil }
        index += count
        return value
    }

    private mutating func value() -> JSONValue? {
        guard let byte = current else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer()
        default: return nil
        }
    }

    private mutating func object() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { return nil }
        index += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard current == UInt8(ascii: ":") else { return nil }
            index += 1
            skipSpace()
            guard let element = value() else { return nil }
            guard members.updateValue(element, forKey: key) == nil else { return nil } // duplicate key
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: return nil
            }
        }
    }

    private mutating func array() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { return nil }
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipSpace()
            guard let element = value() else { return nil }
            elements.append(element)
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: return nil
            }
        }
    }

    /// `-?(0|[1-9][0-9]*)` fitting `Int`; anything with a fraction or exponent is left to the decoder.
    private mutating func integer() -> JSONValue? {
        let negative = current == UInt8(ascii: "-")
        if negative { index += 1 }
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return nil }
        var value = 0
        var digits = 0
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let digit = Int(byte - UInt8(ascii: "0"))
            let (sum, overflow2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            digits += 1
            index += 1
        }
        if first == UInt8(ascii: "0") && digits > 1 { return nil } // leading zero: invalid JSON
        if let next = current, next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            return nil
        }
        return .integer(value)
    }

    private mutating func string() -> String? {
        index += 1 // the opening quote
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { return nil }
            index += 1
        }
        var buffer: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: buffer, as: UTF8.self) // valid: the input was checked, escapes are scalars
            case UInt8(ascii: "\\"):
                index += 1
                guard let escape = current else { return nil }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    guard let unit = hex4() else { return nil }
                    let scalar: Unicode.Scalar?
                    if (0xD800...0xDBFF).contains(unit) {
                        guard current == UInt8(ascii: "\\") else { return nil }
                        index += 1
                        guard current == UInt8(ascii: "u") else { return nil }
                        index += 1
                        guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                        scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                    } else {
                        scalar = Unicode.Scalar(unit) // nil for a lone low surrogate
                    }
                    guard let scalar else { return nil }
                    buffer.append(contentsOf: String(scalar).utf8)
                default: return nil
                }
            default:
                if byte < 0x20 { return nil }
                buffer.append(byte)
                index += 1
            }
        }
        return nil // unterminated
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
