/// A JSON value that keeps what JSON-RPC needs to see: integers apart from other numbers
/// (ids are echoed with their type, integer parameters must be JSON integers) and `null`
/// apart from a missing key.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number written without a fraction or exponent that fits `Int`.
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

    /// Parses one JSON text. Invalid UTF-8 is refused first, so every string read after is valid.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> JSONValue {
        guard isValidUTF8(bytes) else { throw .invalidUTF8 }
        return try bytes.withUnsafeBufferPointer { buffer throws(ParseError) -> JSONValue in
            var reader = JSONReader(buffer)
            let value = try reader.value()
            try reader.expectEnd()
            return value
        }
    }

    /// Parses one JSON text as `parse(_:)` does, except that a top-level array of more than
    /// `arrayLimit` elements gives nil and its length: each of its elements is still read (so a
    /// text that is not JSON is refused the same way) but dropped, so memory stays bounded by
    /// the limit however long the array. For the other values, `arrayLength` is 0.
    public static func parse(_ bytes: [UInt8], arrayLimit: Int) throws(ParseError) -> (
        value: JSONValue?, arrayLength: Int
    ) {
        guard isValidUTF8(bytes) else { throw .invalidUTF8 }
        return try bytes.withUnsafeBufferPointer { buffer throws(ParseError) -> (value: JSONValue?, arrayLength: Int) in
            var reader = JSONReader(buffer)
            let parsed = try reader.value(arrayLimit: arrayLimit)
            try reader.expectEnd()
            return parsed
        }
    }

    /// Reads a top-level object member by member without building it: `body` gets each key, as
    /// its bytes, and the reader at its value, in order; it reads that one value (`value()`, or
    /// `take(_:)` for a value known in advance) and returns false to stop. Returns true when the
    /// text is one valid object whose keys are plain ASCII (no escape), read to its end; false for
    /// anything else (invalid UTF-8 or JSON, another value, a key with an escape or a byte beyond
    /// ASCII, a value `body` could not read) and when `body` stopped: the caller then parses the
    /// text the usual way, which says why or reads what this does not. A JSON-RPC envelope is read
    /// this way: its few keys compared in place, no dictionary and no `String` for them (issue 32).
    public static func forEachMember(
        in bytes: [UInt8],
        _ body: (_ key: UnsafeBufferPointer<UInt8>, _ value: inout JSONReader) throws(ParseError) -> Bool
    ) -> Bool {
        guard isValidUTF8(bytes) else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            return (try? reader.forEachPlainMember(body)) ?? false
        }
    }

    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        // ASCII is valid UTF-8: most messages skip building a String just to validate them.
        let ascii = bytes.withUnsafeBufferPointer { buffer in
            var any: UInt8 = 0
            for byte in buffer { any |= byte }
            return any < 0x80
        }
        return ascii || String(validating: bytes, as: UTF8.self) != nil
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
}

extension JSONValue {
    /// The JSON text: keys sorted so output is deterministic, and (compact) never a raw
    /// newline, which newline-delimited framing depends on.
    public func serialized(pretty: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        if pretty { JSONWriter.appendPretty(self, indent: 0, to: &out) } else { JSONWriter.append(self, to: &out) }
        return out
    }

    /// Appends the compact text, the bytes `serialized()` returns.
    public func appendCompact(to out: inout [UInt8]) {
        JSONWriter.append(self, to: &out)
    }

    /// `serialized()` as a string, for logs, tests and the line session.
    public var text: String { String(decoding: serialized(), as: UTF8.self) }
}

/// A `JSONValue` inside an `Encodable` (a ViewModel holding JSON) encodes as itself. Reading goes
/// through `JSONValue.parse`, never a `Decoder`.
extension JSONValue: Encodable {
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
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
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
