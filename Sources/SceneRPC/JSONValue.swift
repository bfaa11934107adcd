import Foundation

/// A JSON value that keeps what JSON-RPC needs to see: integers apart from other numbers
/// (ids are echoed with their type, integer parameters must be JSON integers) and `null`
/// apart from a missing key.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    /// A number with a fraction or exponent, or one too large for `Int`.
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Why bytes are not a JSON value.
    public enum ParseError: Error, Equatable {
        case invalidUTF8
        case invalidJSON(String)
    }

    /// Parses one JSON text. Invalid UTF-8 is refused first, because decoders differ on it.
    public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        // ASCII is valid UTF-8: most messages skip building a String just to validate them.
        guard isASCII(bytes) || String(validating: bytes, as: UTF8.self) != nil else { throw ParseError.invalidUTF8 }
        if let value = JSONFastParser.parse(bytes) { return value }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw ParseError.invalidJSON(Self.reason(error))
        }
    }

    static func isASCII(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var any: UInt8 = 0
            for byte in buffer { any |= byte }
            return any < 0x80
        }
    }

    /// Converts any `Encodable` through its JSON text, as `JSONEncoder` writes it and the parser
    /// reads it back. `JSONValueEncoder` gives the same value without the text, much faster;
    /// this is the reference it is tested against.
    public static func encoding<T: Encodable>(_ value: T) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        if let fast = JSONFastParser.parse(Array(data)) { return fast }
        return try JSONDecoder().decode(JSONValue.self, from: data)
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The JSON type name used in error data ("string", "integer", ...).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    private static func reason(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        default: return "\(error)"
        }
    }
}

extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Order matters: Bool before numbers (so `true` is not 1), Int before Double.
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .double(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else if let value = try? container.decode([String: JSONValue].self) { self = .object(value) }
        else {
            // What the decoder accepts that is none of the above: a number beyond Double's range.
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a number is out of range")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var members = [String: JSONValue](minimumCapacity: elements.count)
        for (key, value) in elements { members[key] = value } // a later key wins
        self = .object(members)
    }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// The JSON text: keys sorted so output is deterministic, and (compact) never a raw
    /// newline, which newline-delimited framing depends on.
    public func serialized(pretty: Bool = false) -> [UInt8] {
        // Written directly: through JSONEncoder, writing the response was 45 % of a request.
        if !pretty, let bytes = compactBytes() { return bytes }
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
                                          : [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case maps to a JSON value (doubles come from JSON, so finite).
        return (try? Array(encoder.encode(self))) ?? Array("null".utf8)
    }

    /// `serialized()` as a string, for logs, tests and the line session.
    public var text: String { String(decoding: serialized(), as: UTF8.self) }
}

extension JSONValue {
    /// The compact form exactly as `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]`
    /// writes it (keys in `String` order; `"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t` escaped, other
    /// control characters as `\u00xx`), or nil when the value holds a double, whose text is left
    /// to the encoder.
    func compactBytes() -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        return Self.write(self, to: &out) ? out : nil
    }

    /// Appends the compact form to `out`; false (with `out` partly written) when the value holds
    /// a double, whose text is left to the encoder.
    func appendCompact(to out: inout [UInt8]) -> Bool {
        Self.write(self, to: &out)
    }

    static func write(_ value: JSONValue, to out: inout [UInt8]) -> Bool {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let number): out.append(contentsOf: String(number).utf8)
        case .double: return false
        case .string(let text): writeString(text, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                guard write(element, to: &out) else { return false }
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            guard members.count <= 16 ? writeSmall(members, to: &out) : writeSorted(members, to: &out) else { return false }
            out.append(UInt8(ascii: "}"))
        }
        return true
    }

    private static func writeMember(_ key: String, _ value: JSONValue, first: Bool, to out: inout [UInt8]) -> Bool {
        if !first { out.append(UInt8(ascii: ",")) }
        writeString(key, to: &out)
        out.append(UInt8(ascii: ":"))
        return write(value, to: &out)
    }

    private static func writeSorted(_ members: [String: JSONValue], to out: inout [UInt8]) -> Bool {
        for (position, (key, value)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
            guard writeMember(key, value, first: position == 0, to: &out) else { return false }
        }
        return true
    }

    /// The members of a small object in key order, sorted by insertion into a buffer on the
    /// stack: most objects have a handful of keys, and `sorted()` allocated an array for each.
    private static func writeSmall(_ members: [String: JSONValue], to out: inout [UInt8]) -> Bool {
        typealias Index = Dictionary<String, JSONValue>.Index
        return withUnsafeTemporaryAllocation(of: Index.self, capacity: max(members.count, 1)) { order -> Bool in
            var count = 0
            var index = members.startIndex
            while index != members.endIndex {
                let key = members[index].key
                var slot = count
                while slot > 0 && key < members[order[slot - 1]].key {
                    (order.baseAddress! + slot).initialize(to: order[slot - 1])
                    slot -= 1
                }
                (order.baseAddress! + slot).initialize(to: index)
                count += 1
                members.formIndex(after: &index)
            }
            defer { order.baseAddress!.deinitialize(count: count) }
            for position in 0..<count {
                let (key, value) = members[order[position]]
                guard writeMember(key, value, first: position == 0, to: &out) else { return false }
            }
            return true
        }
    }

    static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Runs that need no escape are copied whole.
            var run = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                run = index + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
                case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
                case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                default:
                    let hex: StaticString = "0123456789abcdef"
                    out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                            hex.utf8Start[Int(byte >> 4)], hex.utf8Start[Int(byte & 0xF)]])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
