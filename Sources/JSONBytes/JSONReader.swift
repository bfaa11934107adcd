/// Reads JSON (RFC 8259) from UTF-8 bytes, each byte once: whole values for JSON-RPC, and the
/// pieces (`take`, `string`, `plainString`) a typed reader such as the app's contact columns
/// needs to read its own shapes without building `JSONValue`s.
///
/// Strict: no trailing commas, comments, leading zeros or unescaped control characters; a
/// `\uD83D\uDE00` surrogate pair is one scalar, a lone surrogate is refused; nesting deeper than
/// `maximumDepth` is refused (so hostile input cannot exhaust the stack). Where an object repeats
/// a key, the later value wins. The caller checks UTF-8 first (`JSONValue.parse` does).
public struct JSONReader {
    public typealias Failure = JSONValue.ParseError

    /// Arrays and objects nested deeper than this are refused.
    public static let maximumDepth = 512

    // Visible to inlined code: `take`, called for every bracket and comma a typed reader reads,
    // is inlined into it (measured: an export's column reading, 3 % of its instructions otherwise).
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var index = 0
    private var depth = 0

    public init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    // MARK: - Pieces

    /// Skips whitespace, then consumes `byte` if it comes next.
    @inlinable
    public mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Skips whitespace, then consumes `literal`'s bytes if they come next: a value known in
    /// advance (`"2.0"`) compared in place, without reading it into a `JSONValue`.
    public mutating func take(_ literal: StaticString) -> Bool {
        skipSpace()
        let count = literal.utf8CodeUnitCount, expected = literal.utf8Start
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
        index += count
        return true
    }

    /// Fails unless only whitespace is left.
    public mutating func expectEnd() throws(Failure) {
        skipSpace()
        guard index == bytes.count else { throw failure("unexpected \(describe(bytes[index])) after the value") }
    }

    /// The next value, which must be a string.
    public mutating func string() throws(Failure) -> String {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a string") }
        return try stringBody()
    }

    /// The next value, which must be a string: the range of its bytes when it holds no escape
    /// (read in place, for keys compared with known names), or nil when it does (it is skipped).
    public mutating func plainString() throws(Failure) -> Range<Int>? {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a string") }
        let start = index + 1
        var scan = start
        while scan < bytes.count {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "\"") { index = scan + 1; return start..<scan }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { index = scan; throw failure("a control character in a string must be escaped") }
            scan += 1
        }
        _ = try stringBody()
        return nil
    }

    // MARK: - Values

    /// The next whole value.
    public mutating func value() throws(Failure) -> JSONValue {
        skipSpace()
        guard index < bytes.count else { throw failure("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try stringBody())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case let byte: throw failure("unexpected \(describe(byte))")
        }
    }

    /// The next whole value, as `value()` reads it, except an array of more than `limit`
    /// elements: nil and its length, its elements read one by one and dropped.
    public mutating func value(arrayLimit limit: Int) throws(Failure) -> (value: JSONValue?, arrayLength: Int) {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return (try value(), 0) }
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = [], length = 0
        if !take(UInt8(ascii: "]")) {
            repeat {
                let element = try value()
                length += 1
                if length <= limit { elements.append(element) } else if !elements.isEmpty { elements = [] }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")) else { throw failure("expected ',' or ']' in an array") }
        }
        return (length > limit ? nil : .array(elements), length)
    }

    /// A whole text that is one object, member by member: `body` gets each key's bytes and this
    /// reader, positioned at the member's value, which it reads (`value()`, `take(_:)`...), and
    /// returns false to stop. True when the text was read to its end; false when it is another
    /// value, a key holds an escape or a byte beyond ASCII (so bytes compare as the `String`s
    /// would), or `body` stopped. The object counts one level of nesting, as `value()` counts it,
    /// so the same texts are refused for depth.
    mutating func forEachPlainMember(
        _ body: (_ key: UnsafeBufferPointer<UInt8>, _ value: inout JSONReader) throws(Failure) -> Bool
    ) throws(Failure) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        try enter()
        if !take(UInt8(ascii: "}")) {
            repeat {
                guard let range = try plainString() else { return false }
                let key = UnsafeBufferPointer(rebasing: bytes[range])
                for byte in key where byte >= 0x80 { return false }
                guard take(UInt8(ascii: ":")) else { throw failure("expected ':' after an object key") }
                guard try body(key, &self) else { return false }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { throw failure("expected ',' or '}' in an object") }
        }
        depth -= 1
        try expectEnd()
        return true
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [String: JSONValue] = [:]
        if take(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            let key = try string()
            guard take(UInt8(ascii: ":")) else { throw failure("expected ':' after an object key") }
            members[key] = try value()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { throw failure("expected ',' or '}' in an object") }
        return .object(members)
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        if take(UInt8(ascii: "]")) { return .array(elements) }
        repeat {
            elements.append(try value())
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { throw failure("expected ',' or ']' in an array") }
        return .array(elements)
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            depth -= 1
            throw failure("arrays and objects nest deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            UnsafeBufferPointer(rebasing: bytes[index..<index + count]).elementsEqual(
                UnsafeBufferPointer(start: word.utf8Start, count: count))
        else {
            throw failure("unexpected \(describe(bytes[index]))")
        }
        index += count
        return value
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`: an integer when it has neither fraction
    /// nor exponent and fits `Int`, else a double; a number beyond `Double`'s range is refused.
    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected a digit") }
        let firstDigit = index
        var integer = 0
        var fits = true
        while index < bytes.count, isDigit(bytes[index]) {
            let digit = Int(bytes[index] &- UInt8(ascii: "0"))
            let (times10, overflow1) = integer.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) =
                negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            if overflow1 || overflow2 { fits = false } else { integer = sum }
            index += 1
        }
        if bytes[firstDigit] == UInt8(ascii: "0") && index - firstDigit > 1 {
            index = firstDigit
            throw failure("a number has a leading zero")
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            try digits()
        }
        if isInteger && fits { return .integer(integer) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else { throw .invalidJSON("a number is out of range") }
        return .double(double)
    }

    private mutating func digits() throws(Failure) {
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected a digit") }
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// A string whose opening quote is at `index`.
    private mutating func stringBody() throws(Failure) -> String {
        index += 1
        let start = index
        // Most strings have no escape: made from their bytes in place.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw failure("a control character in a string must be escaped") }
            index += 1
        }
        var text = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"): try escape(into: &text)
            default:
                guard byte >= 0x20 else { index -= 1; throw failure("a control character in a string must be escaped") }
                text.append(byte)
            }
        }
        throw failure("a string is not closed")
    }

    private mutating func escape(into text: inout [UInt8]) throws(Failure) {
        guard index < bytes.count else { throw failure("a string is not closed") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var unit = try hex4()
            if (0xD800..<0xDC00).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw failure("a high surrogate is not followed by a low one") }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else {
                    throw failure("a high surrogate is not followed by a low one")
                }
                unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(unit) else { throw failure("a lone low surrogate") }
            text.append(contentsOf: String(scalar).utf8)
        default:
            index -= 1
            throw failure("unknown escape \(describe(escape)) after a backslash")
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("\\u needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("\\u needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    @inlinable
    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    // MARK: - Errors

    /// The reason, and where: the byte offset (from 0) reading stopped at.
    private func failure(_ reason: String) -> Failure {
        .invalidJSON("\(reason) at byte \(index)")
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }
}
