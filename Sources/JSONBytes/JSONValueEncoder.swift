import Foundation

/// A value that builds its `JSONValue` itself, without going through an `Encoder`.
///
/// `JSONValueEncoder` uses it when a value adopts it: values found in nearly every JSON-RPC
/// result (the scene stack, routes, messages) are measured several times faster built by hand
/// than through any `Encoder`. Each conversion must give exactly what the type's `Encodable`
/// conformance gives; tests compare them with `JSONValueEncoder.referenceValue`.
public protocol JSONValueConvertible {
    var jsonValue: JSONValue { get }
}

/// An `Encoder` that builds a `JSONValue` straight from any `Encodable` (a ViewModel, a Route);
/// a value that is `JSONValueConvertible` builds its own.
///
/// Hand-written for speed, measured: going through `JSONEncoder` and parsing its text back was
/// 35 % of a pipelined `session/stack` request. The result is the value that round trip gives:
/// - strings, booleans, integers that fit `Int`, arrays and objects are built directly (a later
///   key replaces an earlier one, as in `JSONEncoder`; a nested value that encodes nothing is `{}`);
/// - `Double` and `Float` are numbers as their shortest text reads (a non-finite one is refused,
///   as `JSONEncoder` refuses it);
/// - the types whose JSON form `JSONEncoder` decides with its strategies (`Date`, `Data`, `URL`,
///   `Decimal`, integers beyond `Int`, `Int128`) still go through `JSONEncoder` and the reader,
///   one value at a time, so their form stays exactly what `JSONEncoder` writes.
public enum JSONValueEncoder {
    public static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        if let convertible = value as? JSONValueConvertible { return convertible.jsonValue }
        if let special = try Self.special(value) { return special }
        let encoder = ValueEncoder(parent: nil, key: nil)
        try value.encode(to: encoder)
        guard let result = encoder.take() else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [],
                    debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return result
    }

    /// What `JSONEncoder` writes for `value`, read back: the reference the fast path is tested
    /// against, and the path for the types whose form `JSONEncoder` decides.
    public static func referenceValue<T: Encodable>(_ value: T) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try JSONValue.parse(Array(try encoder.encode(value)))
    }

    /// The value for types whose JSON form `JSONEncoder` decides, or nil for every other type.
    static func special<T: Encodable>(_ value: T) throws -> JSONValue? {
        let type = T.self
        if type == Double.self { return try number(unsafeBitCast(value, to: Double.self), value) }
        if type == Float.self { return try number(unsafeBitCast(value, to: Float.self), value) }
        guard
            type == Date.self || type == Data.self || type == URL.self || type == Decimal.self
                || type == Int128.self || type == UInt128.self
        else { return nil }
        return try referenceValue(value)
    }

    /// A finite number as `JSONEncoder` writes it, read back: its shortest text, without a
    /// trailing `.0` (so `1.0` is the integer 1, and `Float(0.1)` the double 0.1).
    static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ number: F, _ value: Any) throws
        -> JSONValue
    {
        guard number.isFinite else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [],
                    debugDescription:
                        "Unable to encode \(F.self).\(number) directly in JSON."))
        }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return try JSONValue.parse(Array(text.utf8))
    }

    static func integer<T: BinaryInteger & Encodable>(_ value: T) throws -> JSONValue {
        if let exact = Int(exactly: value) { return .integer(exact) }
        return try referenceValue(value)
    }
}

/// Where a container's values go: containers are structs handed out by value, so what they
/// write must live in a shared box until the encoder is done.
private final class ObjectBox {
    /// In the order written; the dictionary is built once, at the end (a later key wins).
    var members: [(key: String, slot: Slot)] = []
}

private final class ArrayBox {
    var elements: [Slot] = []
}

private enum Slot {
    case value(JSONValue)
    case object(ObjectBox)
    case array(ArrayBox)
    /// A nested encoder (`superEncoder`), read when the parent is finished.
    case encoder(ValueEncoder)

    var value: JSONValue {
        switch self {
        case .value(let value): return value
        case .object(let box):
            var members = [String: JSONValue](minimumCapacity: box.members.count)
            for (key, slot) in box.members { members[key] = slot.value }
            return .object(members)
        case .array(let box): return .array(box.elements.map(\.value))
        case .encoder(let encoder): return encoder.take() ?? .object([:])
        }
    }
}

private final class ValueEncoder: Encoder {
    let parent: ValueEncoder?
    let key: CodingKey?
    var storage: Slot?
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(parent: ValueEncoder?, key: CodingKey?) { self.parent = parent; self.key = key }

    /// Built only when asked for (errors, unusual `encode(to:)`s): most values never need it.
    var codingPath: [CodingKey] {
        var path: [CodingKey] = []
        var node: ValueEncoder? = self
        while let current = node {
            if let key = current.key { path.append(key) }
            node = current.parent
        }
        return path.reversed()
    }

    func take() -> JSONValue? { storage?.value }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: ObjectBox
        if case .object(let existing) = storage {
            box = existing
        } else {
            precondition(storage == nil, "a keyed container was asked for after another kind of value was encoded")
            box = ObjectBox()
            storage = .object(box)
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, box: box))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        let box: ArrayBox
        if case .array(let existing) = storage {
            box = existing
        } else {
            precondition(storage == nil, "an unkeyed container was asked for after another kind of value was encoded")
            box = ArrayBox()
            storage = .array(box)
        }
        return UnkeyedContainer(encoder: self, box: box)
    }

    func singleValueContainer() -> SingleValueEncodingContainer { SingleContainer(encoder: self) }

    /// A nested `Encodable`: its own encoder, whose result is taken at once.
    func encoded<T: Encodable>(_ value: T, key: CodingKey?) throws -> JSONValue {
        // The common element types of arrays, which reach here through the generic `encode`.
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .integer(unsafeBitCast(value, to: Int.self)) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if let special = try JSONValueEncoder.special(value) { return special }
        let child = ValueEncoder(parent: self, key: key)
        try value.encode(to: child)
        return child.take() ?? .object([:])
    }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) {}
    init?(intValue: Int) { return nil }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder
    let box: ObjectBox
    var codingPath: [CodingKey] { encoder.codingPath }

    private func set(_ value: JSONValue, _ key: Key) { box.members.append((key.stringValue, .value(value))) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(try JSONValueEncoder.number(value, value), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try JSONValueEncoder.number(value, value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.integer(Int(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.integer(Int(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.integer(Int(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(try JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(try JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.integer(Int(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.integer(Int(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(try JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(try JSONValueEncoder.integer(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try encoder.encoded(value, key: key), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectBox()
        box.members.append((key.stringValue, .object(nested)))
        let child = ValueEncoder(parent: encoder, key: key)
        child.storage = .object(nested)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: child, box: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        let nested = ArrayBox()
        box.members.append((key.stringValue, .array(nested)))
        let child = ValueEncoder(parent: encoder, key: key)
        child.storage = .array(nested)
        return UnkeyedContainer(encoder: child, box: nested)
    }

    mutating func superEncoder() -> Encoder { superEncoder(key: SuperKey()) }
    mutating func superEncoder(forKey key: Key) -> Encoder { superEncoder(key: key) }

    private func superEncoder(key: CodingKey) -> Encoder {
        let child = ValueEncoder(parent: encoder, key: key)
        box.members.append((key.stringValue, .encoder(child)))
        return child
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoder
    let box: ArrayBox
    var codingPath: [CodingKey] { encoder.codingPath }
    var count: Int { box.elements.count }

    private func append(_ value: JSONValue) { box.elements.append(.value(value)) }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try JSONValueEncoder.number(value, value)) }
    mutating func encode(_ value: Float) throws { append(try JSONValueEncoder.number(value, value)) }
    mutating func encode(_ value: Int) throws { append(.integer(value)) }
    mutating func encode(_ value: Int8) throws { append(.integer(Int(value))) }
    mutating func encode(_ value: Int16) throws { append(.integer(Int(value))) }
    mutating func encode(_ value: Int32) throws { append(.integer(Int(value))) }
    mutating func encode(_ value: Int64) throws { append(try JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt) throws { append(try JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt8) throws { append(.integer(Int(value))) }
    mutating func encode(_ value: UInt16) throws { append(.integer(Int(value))) }
    mutating func encode(_ value: UInt32) throws { append(try JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt64) throws { append(try JSONValueEncoder.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try encoder.encoded(value, key: IndexKey(box.elements.count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let nested = ObjectBox()
        let child = ValueEncoder(parent: encoder, key: IndexKey(box.elements.count))
        box.elements.append(.object(nested))
        child.storage = .object(nested)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: child, box: nested))
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let nested = ArrayBox()
        let child = ValueEncoder(parent: encoder, key: IndexKey(box.elements.count))
        box.elements.append(.array(nested))
        child.storage = .array(nested)
        return UnkeyedContainer(encoder: child, box: nested)
    }

    mutating func superEncoder() -> Encoder {
        let child = ValueEncoder(parent: encoder, key: IndexKey(box.elements.count))
        box.elements.append(.encoder(child))
        return child
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: ValueEncoder
    var codingPath: [CodingKey] { encoder.codingPath }

    private func set(_ value: JSONValue) {
        precondition(encoder.storage == nil, "a single value was encoded twice, or after a container")
        encoder.storage = .value(value)
    }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try JSONValueEncoder.number(value, value)) }
    mutating func encode(_ value: Float) throws { set(try JSONValueEncoder.number(value, value)) }
    mutating func encode(_ value: Int) throws { set(.integer(value)) }
    mutating func encode(_ value: Int8) throws { set(.integer(Int(value))) }
    mutating func encode(_ value: Int16) throws { set(.integer(Int(value))) }
    mutating func encode(_ value: Int32) throws { set(.integer(Int(value))) }
    mutating func encode(_ value: Int64) throws { set(try JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt) throws { set(try JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt8) throws { set(.integer(Int(value))) }
    mutating func encode(_ value: UInt16) throws { set(.integer(Int(value))) }
    mutating func encode(_ value: UInt32) throws { set(try JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt64) throws { set(try JSONValueEncoder.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { set(try encoder.encoded(value, key: nil)) }
}
