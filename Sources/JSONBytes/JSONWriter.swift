/// Writes JSON as UTF-8 bytes, with one escaping rule for every writer in the program.
///
/// The rule: `"` and `\` are escaped, control characters as `\b \t \n \f \r` or `\u00xx`;
/// everything else, `/` and non-ASCII included, is written as it is (valid JSON, shorter, and
/// read back the same by any reader). A compact text never holds a raw newline, which
/// newline-delimited framing depends on. Object keys are written in `String` order, so the
/// same value always gives the same bytes.
public enum JSONWriter {
    /// Appends `text` as a JSON string.
    public static func appendString(_ text: String, to out: inout [UInt8]) {
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
                    out.append(contentsOf: [
                        UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                        hex.utf8Start[Int(byte >> 4)], hex.utf8Start[Int(byte & 0xF)],
                    ])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends ASCII text as it is (a key or punctuation known in advance).
    public static func appendRaw(_ ascii: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: ascii.utf8Start, count: ascii.utf8CodeUnitCount))
    }

    /// Appends a double as the shortest text that reads back as the same double (`1.5`, `1e-05`,
    /// `1.0`: the fraction kept, so it reads back as a double, not an integer). JSON has no
    /// infinity or NaN: those are written as `null` (`JSONValueEncoder` refuses them before).
    public static func appendDouble(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else { return appendRaw("null", to: &out) }
        out.append(contentsOf: value.description.utf8)
    }

    /// Appends the compact text of `value`.
    public static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: appendRaw("null", to: &out)
        case .bool(let flag): flag ? appendRaw("true", to: &out) : appendRaw("false", to: &out)
        case .integer(let number): appendInteger(number, to: &out)
        case .double(let number): appendDouble(number, to: &out)
        case .string(let text): appendString(text, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                append(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            forEachSorted(members) { key, member, first in
                if !first { out.append(UInt8(ascii: ",")) }
                appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                append(member, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The decimal digits of `number`, as `String(number)` spells it, written in place: every
    /// JSON-RPC answer's id goes through here (a String each was 2 % of a pipelined request).
    static func appendInteger(_ number: Int, to out: inout [UInt8]) {
        if number < 0 { out.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned: `Int.min` has none as an Int.
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: enough for 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var at = buffer.count
            repeat {
                at -= 1
                buffer[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[at...]))
        }
    }

    /// Appends `value` indented by two spaces a level, `"key" : value` as `JSONEncoder` prints.
    static func appendPretty(_ value: JSONValue, indent: Int, to out: inout [UInt8]) {
        func newline(_ level: Int) {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
        }
        switch value {
        case .array(let elements) where !elements.isEmpty:
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                appendPretty(element, indent: indent + 1, to: &out)
            }
            newline(indent)
            out.append(UInt8(ascii: "]"))
        case .object(let members) where !members.isEmpty:
            out.append(UInt8(ascii: "{"))
            forEachSorted(members) { key, member, first in
                if !first { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                appendString(key, to: &out)
                appendRaw(" : ", to: &out)
                appendPretty(member, indent: indent + 1, to: &out)
            }
            newline(indent)
            out.append(UInt8(ascii: "}"))
        default: append(value, to: &out)
        }
    }

    /// Calls `body` with each member in key order. A small object (most have a handful of keys)
    /// is sorted by insertion into a buffer on the stack: `sorted()` allocated an array for each.
    private static func forEachSorted(
        _ members: [String: JSONValue],
        _ body: (String, JSONValue, _ first: Bool) -> Void
    ) {
        guard members.count <= 16 else {
            for (position, (key, value)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                body(key, value, position == 0)
            }
            return
        }
        typealias Index = Dictionary<String, JSONValue>.Index
        withUnsafeTemporaryAllocation(of: Index.self, capacity: max(members.count, 1)) { order in
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
                body(key, value, position == 0)
            }
        }
    }
}
