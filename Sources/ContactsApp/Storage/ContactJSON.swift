import JSONBytes

/// The JSON stored in the `phones`, `emails`, `addresses`, `tags` and `extra` columns, written
/// and read with the program's one JSON layer (`JSONBytes`), straight between a contact's
/// values and bytes.
///
/// Not through `JSONEncoder`/`JSONDecoder`: measured with `perf`, the encoder was 12 % of an
/// import and the decoder most of an export (a coder, its containers and boxes per row).
/// `encode` writes compact JSON with sorted keys and the layer's escaping (`/` as it is);
/// rows written by older builds (`\/`, other spacing) read the same. `decode` returns nil
/// for text that is not the expected shape, so the caller can still try `JSONDecoder`.
enum ContactJSON {
    // MARK: - Writing

    static func encode(_ values: [LabeledValue]) -> String {
        if values.isEmpty { return "[]" }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 48)
        out.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendRaw(#"{"label":"#, to: &out); JSONWriter.appendString(value.label, to: &out)
            JSONWriter.appendRaw(#","value":"#, to: &out); JSONWriter.appendString(value.value, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    static func encode(_ values: [PostalAddress]) -> String {
        if values.isEmpty { return "[]" }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 128)
        out.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            // Sorted keys: city, country, label, postalCode, region, street.
            JSONWriter.appendRaw(#"{"city":"#, to: &out); JSONWriter.appendString(value.city, to: &out)
            JSONWriter.appendRaw(#","country":"#, to: &out); JSONWriter.appendString(value.country, to: &out)
            JSONWriter.appendRaw(#","label":"#, to: &out); JSONWriter.appendString(value.label, to: &out)
            JSONWriter.appendRaw(#","postalCode":"#, to: &out); JSONWriter.appendString(value.postalCode, to: &out)
            JSONWriter.appendRaw(#","region":"#, to: &out); JSONWriter.appendString(value.region, to: &out)
            JSONWriter.appendRaw(#","street":"#, to: &out); JSONWriter.appendString(value.street, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    static func encode(_ values: [String]) -> String {
        if values.isEmpty { return "[]" }
        var out: [UInt8] = []
        out.reserveCapacity(values.reduce(2) { $0 + $1.utf8.count + 3 })
        out.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(value, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
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
                let country = fields["country"]
            else { return nil }
            return PostalAddress(
                label: label, street: street, city: city, region: region,
                postalCode: postalCode, country: country)
        }
    }

    static func decodeStrings(_ text: String) -> [String]? {
        if text == "[]" { return [] }
        return read(text) { reader, _ throws(JSONReader.Failure) -> [String]? in
            guard reader.take(UInt8(ascii: "[")) else { return nil }
            var result: [String] = []
            if !reader.take(UInt8(ascii: "]")) {
                repeat {
                    result.append(try reader.string())
                } while reader.take(UInt8(ascii: ","))
                guard reader.take(UInt8(ascii: "]")) else { return nil }
            }
            return result
        }
    }

    /// An array of objects whose values are all strings; `make` builds one element from its
    /// fields (nil when one is missing).
    private static func decodeObjects<T>(_ text: String, _ make: (Fields) -> T?) -> [T]? {
        if text == "[]" { return [] }
        return read(text) { reader, bytes throws(JSONReader.Failure) -> [T]? in
            guard reader.take(UInt8(ascii: "[")) else { return nil }
            var result: [T] = []
            if reader.take(UInt8(ascii: "]")) { return result }
            var fields = Fields(bytes: bytes)
            repeat {
                guard reader.take(UInt8(ascii: "{")) else { return nil }
                fields.removeAll()
                if !reader.take(UInt8(ascii: "}")) {
                    repeat {
                        // A key spelled with escapes is no field we know: it is read and left out.
                        let key = try reader.plainString()
                        guard reader.take(UInt8(ascii: ":")) else { return nil }
                        let value = try reader.string()
                        if let key { fields.append(key: key, value: value) }
                    } while reader.take(UInt8(ascii: ","))
                    guard reader.take(UInt8(ascii: "}")) else { return nil }
                }
                guard let element = make(fields) else { return nil }
                result.append(element)
            } while reader.take(UInt8(ascii: ","))
            guard reader.take(UInt8(ascii: "]")) else { return nil }
            return result
        }
    }

    /// What `body` reads from the whole of `text`, or nil when it gives up, fails, or leaves
    /// anything but whitespace after.
    private static func read<T>(
        _ text: String,
        _ body: (inout JSONReader, UnsafeBufferPointer<UInt8>) throws(JSONReader.Failure) -> T?
    ) -> T? {
        var text = text
        return text.withUTF8 { bytes -> T? in
            var reader = JSONReader(bytes)
            do {
                guard let result = try body(&reader, bytes) else { return nil }
                try reader.expectEnd()
                return result
            } catch {
                return nil
            }
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
            for index in keys.indices.reversed()
            where keys[index].count == wanted.count
                && bytes[keys[index]].elementsEqual(wanted)
            {
                return values[index]
            }
            return nil
        }
    }
}
