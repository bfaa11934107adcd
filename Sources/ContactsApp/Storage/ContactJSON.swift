import Foundation

/// The JSON stored in the `phones`, `emails`, `addresses`, `tags` and `extra` columns, written
/// and read by hand.
///
/// Hand-written although Foundation has `JSONEncoder`/`JSONDecoder`: measured with `perf`, the
/// encoder was 12 % of an import and the decoder most of an export (a coder, its containers and
/// boxes per row). `encode` writes exactly the bytes `JSONEncoder` with `.sortedKeys` writes (keys
/// in order, `/` escaped as `\/`, control characters as `\b \t \n \f \r` or `\u00xx`), so rows
/// written before and after read the same; tests compare the two byte for byte. `decode` reads
/// that form and, for anything it does not expect (another writer's spacing or escapes), returns
/// nil so the caller falls back to `JSONDecoder`: every existing database keeps working.
enum ContactJSON {
    // MARK: - Writing

    static func encode(_ values: [LabeledValue]) -> String {
        if values.isEmpty { return "[]" }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 48)
        out.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(0x2C) }
            append(#"{"label":"#, &out); appendString(value.label, &out)
            append(#","value":"#, &out); appendString(value.value, &out)
            out.append(0x7D)
        }
        out.append(0x5D)
        return String(decoding: out, as: UTF8.self)
    }

    static func encode(_ values: [PostalAddress]) -> String {
        if values.isEmpty { return "[]" }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 128)
        out.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(0x2C) }
            // Sorted keys: city, country, label, postalCode, region, street.
            append(#"{"city":"#, &out); appendString(value.city, &out)
            append(#","country":"#, &out); appendString(value.country, &out)
            append(#","label":"#, &out); appendString(value.label, &out)
            append(#","postalCode":"#, &out); appendString(value.postalCode, &out)
            append(#","region":"#, &out); appendString(value.region, &out)
            append(#","street":"#, &out); appendString(value.street, &out)
            out.append(0x7D)
        }
        out.append(0x5D)
        return String(decoding: out, as: UTF8.self)
    }

    static func encode(_ values: [String]) -> String {
        if values.isEmpty { return "[]" }
        var out: [UInt8] = []
        out.reserveCapacity(values.reduce(2) { $0 + $1.utf8.count + 3 })
        out.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(0x2C) }
            appendString(value, &out)
        }
        out.append(0x5D)
        return String(decoding: out, as: UTF8.self)
    }

    private static func append(_ ascii: StaticString, _ out: inout [UInt8]) {
        ascii.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// A JSON string as `JSONEncoder` writes it.
    static func appendString(_ text: String, _ out: inout [UInt8]) {
        out.append(0x22)
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x2F else { continue }
                if start < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index])) }
                start = index + 1
                out.append(0x5C)
                switch byte {
                case 0x22, 0x5C, 0x2F: out.append(byte)
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                default:
                    out.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            if start < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...])) }
        }
        out.append(0x22)
    }

    // MARK: - Reading

    static func decodeLabeledValues(_ text: String) -> [LabeledValue]? {
        decodeObjects(text) { fields in
            guard let label = fields["label"], let value = fields["value"] else { return nil }
            return LabeledValue(label: label, value: value)
        }
    }

    static func decodeAddresses(_ text: String) -> [PostalAddress]? {
        decodeObjects(text) { fields in
            guard let label = fields["label"], let street = fields["street"], let city = fields["city"],
                  let region = fields["region"], let postalCode = fields["postalCode"],
                  let country = fields["country"] else { return nil }
            return PostalAddress(label: label, street: street, city: city, region: region,
                                 postalCode: postalCode, country: country)
        }
    }

    static func decodeStrings(_ text: String) -> [String]? {
        if text == "[]" { return [] }
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            var parser = Parser(bytes: bytes)
            guard parser.take(0x5B) else { return nil }
            var result: [String] = []
            if parser.take(0x5D) { return parser.atEnd ? result : nil }
            repeat {
                guard let string = parser.string() else { return nil }
                result.append(string)
            } while parser.take(0x2C)
            guard parser.take(0x5D), parser.atEnd else { return nil }
            return result
        }
    }

    /// An array of objects whose values are all strings; `make` builds one element from its
    /// fields (nil when one is missing).
    private static func decodeObjects<T>(_ text: String, _ make: (Fields) -> T?) -> [T]? {
        if text == "[]" { return [] }
        var text = text
        return text.withUTF8 { bytes -> [T]? in
            var parser = Parser(bytes: bytes)
            guard parser.take(0x5B) else { return nil }
            var result: [T] = []
            if parser.take(0x5D) { return parser.atEnd ? result : nil }
            var fields = Fields(bytes: bytes)
            repeat {
                guard parser.take(0x7B) else { return nil }
                fields.removeAll()
                if !parser.take(0x7D) {
                    repeat {
                        guard let key = parser.plainKey(), parser.take(0x3A), let value = parser.string() else { return nil }
                        fields.append(key: key, value: value)
                    } while parser.take(0x2C)
                    guard parser.take(0x7D) else { return nil }
                }
                guard let element = make(fields) else { return nil }
                result.append(element)
            } while parser.take(0x2C)
            guard parser.take(0x5D), parser.atEnd else { return nil }
            return result
        }
    }

    /// One object's fields, found by comparing the key's bytes in place: a `[String: String]`
    /// per object (a String per key, hashing) was a quarter of an export's time. The last of
    /// repeated keys wins, as in a dictionary.
    private struct Fields {
        let bytes: UnsafeBufferPointer<UInt8>
        private var keys: [Range<Int>] = []
        private var values: [String] = []

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func removeAll() {
            keys.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
        }

        mutating func append(key: Range<Int>, value: String) {
            keys.append(key)
            values.append(value)
        }

        subscript(name: StaticString) -> String? {
            let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            for index in keys.indices.reversed() where keys[index].count == wanted.count
                && bytes[keys[index]].elementsEqual(wanted) {
                return values[index]
            }
            return nil
        }
    }

    /// Compact JSON only (what the encoder writes): any whitespace makes the caller fall back.
    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A key without escapes, as the range of its bytes; nil (the caller falls back to
        /// JSONDecoder) for anything else.
        mutating func plainKey() -> Range<Int>? {
            guard take(0x22) else { return nil }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x22 {
                    index += 1
                    return start..<(index - 1)
                }
                if byte == 0x5C || byte < 0x20 { return nil }
                index += 1
            }
            return nil
        }

        mutating func string() -> String? {
            guard take(0x22) else { return nil }
            let start = index
            // Fast path: no escapes.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x22 {
                    let result = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 1
                    return result
                }
                if byte == 0x5C || byte < 0x20 { break }
                index += 1
            }
            var out = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case 0x22: return String(decoding: out, as: UTF8.self)
                case 0x5C:
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case 0x22, 0x5C, 0x2F: out.append(escape)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "u"):
                        guard var scalar = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(scalar) {
                            guard take(0x5C), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00..<0xE000).contains(low)
                            else { return nil }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { return nil }
                        out.append(contentsOf: Array(String(Character(unicode)).utf8))
                    default: return nil
                    }
                default:
                    guard byte >= 0x20 else { return nil }
                    out.append(byte)
                }
            }
            return nil
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x41 + 10
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }
    }
}
