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
    /// Made only when asked for: most properties are modelled.
    var raw: String { decodedRaw ?? String(decoding: line, as: UTF8.self) }
    private var decodedRaw: String?
    private var line: [UInt8]

    /// `raw`'s bytes appended to a card's record, without making a string of the line.
    func appendKept(to out: inout [UInt8]) {
        if let decodedRaw { out.append(contentsOf: decodedRaw.utf8) } else { out.append(contentsOf: line) }
    }

    var keptByteCount: Int { decodedRaw?.utf8.count ?? line.count }

    /// The control characters of the kept line (not a tab, a line break or a CR, which an export
    /// writes as `\n`) that every export removes (`VCardVersionConverter.ControlCharacters`), each once,
    /// for the import's report. Empty for nearly every line, found by one pass over its bytes.
    var controlCharactersKept: [Unicode.Scalar] {
        let text: String
        if let decodedRaw {
            guard VCardVersionConverter.ControlCharacters.contains(decodedRaw) else { return [] }
            text = decodedRaw
        } else {
            guard line.withUnsafeBufferPointer(VCardVersionConverter.ControlCharacters.contains) else { return [] }
            text = String(decoding: line, as: UTF8.self)
        }
        var found: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars
        where VCardVersionConverter.ControlCharacters.isControl(scalar)
            && scalar != "\r" && scalar != "\n" && !found.contains(scalar)
        {
            found.append(scalar)
        }
        return found
    }

    func values(of parameter: String) -> [String] {
        parameters.filter { $0.name == parameter }.flatMap(\.values)
    }

    /// `values(of:).first`, without making the list (asked of every TEL on an import).
    func firstValue(of parameter: String) -> String? {
        for each in parameters where each.name == parameter {
            if let first = each.values.first { return first }
        }
        return nil
    }

    /// Every `TYPE` value, lower-cased, `TYPE=a,b` and repeated `TYPE`s alike.
    var types: [String] {
        // One loop, and a value with no comma and nothing to lower-case kept as it is: the
        // chain of `filter`, `flatMap`, `split` and `lowercased` was 5 % of an import's reading
        // thread (bench/FINDINGS.md, branch `import5`). `split` omits empty parts, so an empty
        // value gives no type.
        var types: [String] = []
        for parameter in parameters where parameter.name == "TYPE" {
            for value in parameter.values {
                if value.utf8.contains(where: { $0 == 0x2C || $0 >= 0x41 && $0 <= 0x5A || $0 >= 0x80 }) {
                    types += value.split(separator: ",").map { $0.lowercased() }
                } else if !value.isEmpty {
                    types.append(value)
                }
            }
        }
        return types
    }

    /// `PREF`, as a `TYPE=pref` (3.0) or a `PREF=n` parameter (4.0).
    var isPreferred: Bool { isPreferred(types: types) }

    /// `isPreferred`, with `types` already at hand.
    func isPreferred(types: [String]) -> Bool {
        types.contains("pref") || parameters.contains { $0.name == "PREF" }
    }

    /// What reading the value had to change, in words, for the import's report: bytes not valid
    /// in the charset replaced, a quoted-printable escape that was none. Nil for nearly all.
    var repairs: [String]?

    struct Failure: Error {
        let reason: String
        /// The line is a property, but its name is none a vCard may have (Kontact's
        /// `X-messaging/gadu-All`): it costs the line, not the card.
        var costsTheLineOnly = false
    }

    private static let bareEncodings: Set<String> = ["QUOTED-PRINTABLE", "BASE64", "B", "8BIT", "7BIT"]

    /// Parses one logical line. Throws `Failure` with a reason for people when the line is no
    /// property at all; a value that is not valid text is kept, repaired (`repairs` says how).
    /// `charsets` decodes a 2.1 `CHARSET` (one per file, so iconv's descriptors are reused).
    ///
    /// The name and parameters are split as bytes (they are ASCII in practice) and strings made
    /// only for the parts kept: the import spent a quarter of its time here when every segment
    /// was a `String` split character by character.
    init(_ line: VCardContentLine, charsets: VCardCharsets? = nil) throws {
        if let plain = Self.plain(line.bytes) {
            self = plain
            return
        }
        try self.init(general: line, charsets: charsets)
    }

    /// `init(_:charsets:)` by the general rules, for any line (the tests hold `plain` to it).
    init(general line: VCardContentLine, charsets: VCardCharsets? = nil) throws {
        let bytes = line.bytes
        self.line = bytes
        guard let colon = Self.firstColon(bytes) else {
            throw Failure(reason: "not a vCard property (no ':' in \(Self.excerpt(bytes)))")
        }
        guard let head = Self.utf8(bytes[..<colon]) else {
            throw Failure(reason: "the property name is not valid UTF-8")
        }
        let segments = Self.split(head, on: ";")
        let qualified = segments[0]
        if let dot = qualified.utf8.lastIndex(of: UInt8(ascii: ".")) {
            group = String(qualified[..<dot])
            name = Self.uppercasedASCII(String(qualified[qualified.utf8.index(after: dot)...]))
        } else {
            group = nil
            name = Self.uppercasedASCII(qualified)
        }
        guard !name.isEmpty, name.utf8.allSatisfy(Self.isNameByte) else {
            throw Failure(
                reason: "not a vCard property name: \(Self.excerpt(Array(qualified.utf8)))",
                costsTheLineOnly: !name.isEmpty)
        }
        var parameters: [(name: String, values: [String])] = []
        var decodes = false
        for segment in segments.dropFirst() where !segment.isEmpty {
            let parameter: (name: String, values: [String])
            if let equals = segment.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let values = Self.split(String(segment[segment.utf8.index(after: equals)...]), on: ",")
                parameter = (Self.uppercasedASCII(String(segment[..<equals])), values.map(Self.parameterValue))
            } else if Self.bareEncodings.contains(Self.uppercasedASCII(segment)) {
                parameter = ("ENCODING", [Self.uppercasedASCII(segment)])
            } else {
                parameter = ("TYPE", [segment])
            }
            parameters.append(parameter)
            if parameter.name == "ENCODING" || parameter.name == "CHARSET" { decodes = true }
        }
        self.parameters = parameters

        let valueBytes = bytes[(colon + 1)...]
        if !decodes, let value = Self.utf8(valueBytes) {
            // The common case: UTF-8, no encoding; the line is kept as it came.
            self.value = value
            return
        }
        let encoding = parameters.first { $0.name == "ENCODING" }?.values.first?.uppercased()
        if encoding == "BASE64" || encoding == "B" {
            let base64 = Self.base64(valueBytes)
            value = base64.text
            if base64.replaced > 0 {
                repairs = ["\(Self.bytes(base64.replaced)) not valid in base64 text replaced by U+FFFD"]
            }
            if base64.changed { decodedRaw = String(decoding: bytes[..<colon], as: UTF8.self) + ":" + base64.text }
            return
        }
        let quotedPrintable = encoding == "QUOTED-PRINTABLE"
        var decoded = Array(valueBytes)
        var repairs: [String] = []
        defer { self.repairs = repairs.isEmpty ? nil : repairs }
        if quotedPrintable {
            let (unquoted, unquoting) = Self.decodeQuotedPrintable(decoded)
            decoded = unquoted
            repairs += unquoting
        }
        let declared = parameters.first { $0.name == "CHARSET" }?.values.first?.uppercased()
        var charset = declared ?? "UTF-8"
        var text: VCardCharsets.Decoded
        var guessed = false
        if let known = (charsets ?? VCardCharsets()).decode(decoded, charset: charset) {
            text = known
            // No CHARSET and not UTF-8: Windows-1252, what SAP's and Outlook's exports hold (`Töcken`,
            // `Krak=F3w`); as U+FFFD every such letter would be lost, and named only as a count. Not
            // when some of it is UTF-8 (`café` and a stray `=80`): that is UTF-8 with a bad byte.
            if declared == nil, text.replaced > 0,
                !text.text.unicodeScalars.contains(where: { $0.value > 0x7F && $0 != "\u{FFFD}" }),
                let windows = (charsets ?? VCardCharsets()).decode(decoded, charset: "WINDOWS-1252"),
                windows.replaced == 0
            {
                text = windows
                guessed = true
                repairs.append("bytes not valid in UTF-8 and no CHARSET: read as Windows-1252")
            }
        } else {
            repairs.append("CHARSET=\(charset) is not a character set this system knows: read as UTF-8")
            charset = "UTF-8"
            text = VCardCharsets.utf8(decoded)
        }
        if text.replaced > 0 {
            repairs.append("\(Self.bytes(text.replaced)) not valid in \(charset) replaced by U+FFFD")
        }
        let value = text.text
        self.value = value
        if quotedPrintable || parameters.contains(where: { $0.name == "CHARSET" }) || text.replaced > 0 || guessed {
            // QP can carry real line breaks; as kept text they must be escaped.
            let escaped = value.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(
                of: "\n", with: "\\n")
            let keptSegments =
                [qualified]
                + segments.dropFirst().filter { segment in
                    guard !segment.isEmpty else { return false }
                    let parameterName: String
                    if let equals = segment.utf8.firstIndex(of: UInt8(ascii: "=")) {
                        parameterName = Self.uppercasedASCII(String(segment[..<equals]))
                    } else {
                        parameterName = Self.bareEncodings.contains(Self.uppercasedASCII(segment)) ? "ENCODING" : "TYPE"
                    }
                    return parameterName != "ENCODING" && parameterName != "CHARSET"
                }
            decodedRaw = keptSegments.joined(separator: ";") + ":" + escaped
        }
    }

    private init(
        group: String?, name: String, parameters: [(name: String, values: [String])], value: String, line: [UInt8]
    ) {
        self.group = group
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
    }

    /// The common line read straight from its bytes: a name and parameters of printable ASCII
    /// without a `"` or a `^` (so no quoting, no RFC 6868 escape, nothing to validate), no
    /// `ENCODING` or `CHARSET` (bare 2.1 ones neither), and a value that is valid UTF-8. Nil
    /// for any other line, which the general path reads. The general path made a string of the
    /// head, of every segment and every part, then upper-cased and checked each again: 7,000
    /// instructions a property, a sixth of an import's reading thread (bench/FINDINGS.md,
    /// branch `import6read`).
    static func plain(_ bytes: [UInt8]) -> VCardProperty? {
        bytes.withUnsafeBufferPointer { buffer -> VCardProperty? in
            guard let base = buffer.baseAddress, let found = memchr(base, Int32(UInt8(ascii: ":")), buffer.count)
            else { return nil }
            let colon = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            // The group and name, up to the first `;`: the group is what precedes the last dot.
            var index = 0, dot = -1
            while index < colon {
                let byte = buffer[index]
                guard isPlainHeadByte(byte) else { return nil }
                if byte == UInt8(ascii: ";") { break }
                if byte == UInt8(ascii: ".") { dot = index }
                index += 1
            }
            let nameStart = dot + 1
            guard index > nameStart, (nameStart..<index).allSatisfy({ isNameByte(buffer[$0]) }) else { return nil }
            let group = dot < 0 ? nil : ascii(buffer, 0..<dot)
            let name = ascii(buffer, nameStart..<index, uppercased: true)
            // Each parameter, `NAME=a,b` or bare (`CELL`), empty segments skipped.
            var parameters: [(name: String, values: [String])] = []
            while index < colon {
                let start = index + 1
                var end = start, equals = -1
                while end < colon {
                    let byte = buffer[end]
                    guard isPlainHeadByte(byte) else { return nil }
                    if byte == UInt8(ascii: ";") { break }
                    if byte == UInt8(ascii: "="), equals < 0 { equals = end }
                    end += 1
                }
                index = end
                guard end > start else { continue }
                if equals >= 0 {
                    let parameterName = ascii(buffer, start..<equals, uppercased: true)
                    guard parameterName != "ENCODING" && parameterName != "CHARSET" else { return nil }
                    var values: [String] = [], part = equals + 1
                    for at in part..<end where buffer[at] == UInt8(ascii: ",") {
                        values.append(ascii(buffer, part..<at))
                        part = at + 1
                    }
                    values.append(ascii(buffer, part..<end))
                    parameters.append((parameterName, values))
                } else {
                    guard !isBareEncoding(UnsafeBufferPointer(rebasing: buffer[start..<end])) else { return nil }
                    parameters.append(("TYPE", [ascii(buffer, start..<end)]))
                }
            }
            let valueBytes = UnsafeBufferPointer(rebasing: buffer[(colon + 1)...])
            guard !startsWithByteOrderMark(valueBytes), let value = validUTF8(valueBytes) else { return nil }
            return VCardProperty(group: group, name: name, parameters: parameters, value: value, line: bytes)
        }
    }

    /// A byte `plain` reads a head of: printable ASCII but `"` and `^` (`;` and `.` included).
    @inline(__always)
    private static func isPlainHeadByte(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "^")
    }

    /// ASCII bytes as a string, upper-cased if asked (what `uppercased()` does to ASCII).
    @inline(__always)
    private static func ascii(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, uppercased: Bool = false)
        -> String
    {
        guard uppercased, !range.isEmpty else {
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: range.count) { out in
            for (at, index) in range.enumerated() {
                let byte = buffer[index]
                out[at] = byte &- 0x61 < 26 ? byte - 0x20 : byte
            }
            return range.count
        }
    }

    /// `bareEncodings.contains` of the ASCII bytes upper-cased, without making a string.
    private static func isBareEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let upper = { (byte: UInt8) in byte &- 0x61 < 26 ? byte - 0x20 : byte }
        switch bytes.count {
        case 1: return upper(bytes[0]) == UInt8(ascii: "B")
        case 4, 6, 16:
            return bareEncodings.contains {
                $0.utf8.count == bytes.count && $0.utf8.elementsEqual(bytes.lazy.map(upper))
            }
        default: return false
        }
    }

    /// Whether the bytes start with a UTF-8 byte-order mark (which `utf8` leaves to Foundation).
    private static func startsWithByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// Parses one kept line (`raw`, or any unfolded content line written as text).
    init(text: String) throws {
        try self.init(VCardContentLine(bytes: Array(text.utf8), line: 0))
    }

    /// A base64 value as text, without the spaces and tabs 2.1 writers indent its folded lines
    /// with (Outlook's `KEY;X509;ENCODING=BASE64:`, each line after it indented by four
    /// spaces; unfolding takes one): base64 ignores them, and 3.0 and 4.0 allow none.
    private static func base64(_ bytes: ArraySlice<UInt8>) -> (text: String, replaced: Int, changed: Bool) {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        let spaced = bytes.contains(where: isSpace)
        if !spaced, let text = utf8(bytes) { return (text, 0, false) }
        let decoded = VCardCharsets.utf8(spaced ? bytes.filter { !isSpace($0) } : Array(bytes))
        return (decoded.text, decoded.replaced, true)
    }

    // MARK: - Helpers

    /// "1 byte", "3 bytes".
    private static func bytes(_ count: Int) -> String { count == 1 ? "1 byte" : "\(count) bytes" }

    /// The colon that ends the name and parameters: the first one outside a quoted parameter value.
    private static func firstColon(_ bytes: [UInt8]) -> Int? {
        var quoted = false
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: ":") && !quoted { return index }
        }
        return nil
    }

    /// Splits on an ASCII separator outside double quotes (by bytes: every byte of a
    /// multi-byte character is above 0x7F, so the split points are the same as by characters).
    static func split(_ text: String, on separator: Character) -> [String] {
        let separatorByte = separator.asciiValue!, quote = UInt8(ascii: "\"")
        var text = text
        // `memchr` first: most heads and values have no separator, and stepping the string's
        // view byte by byte to find none cost more (bench/FINDINGS.md, branch `import5`).
        let separated = text.withUTF8 { bytes in
            bytes.baseAddress.map { memchr($0, Int32(separatorByte), bytes.count) != nil } ?? false
        }
        guard separated else { return [text] }
        let utf8 = text.utf8
        var parts: [String] = [], start = utf8.startIndex, quoted = false
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == quote { quoted.toggle() }
            if byte == separatorByte && !quoted {
                parts.append(String(text[start..<index]))
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        parts.append(String(text[start...]))
        return parts
    }

    /// `uppercased()`, free when there is nothing to change (names are usually upper case).
    private static func uppercasedASCII(_ text: String) -> String {
        text.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A || $0 >= 0x80 }) ? text.uppercased() : text
    }

    /// Letters, digits and `-`, as ASCII.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x2D
    }

    /// The bytes as text if they are valid UTF-8 (what `String(bytes:encoding: .utf8)` gives,
    /// without Foundation; a leading byte-order mark still goes through Foundation, which may
    /// treat it specially).
    static func utf8(_ bytes: ArraySlice<UInt8>) -> String? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return String(bytes: bytes, encoding: .utf8) }
        // Decoded from the contiguous bytes (repairing) and kept if nothing was repaired: the
        // same answer as `String(validating:as:)`, which on a slice ran the standard library's
        // unspecialised validation, two thirds of it type metadata lookups (every property
        // of every imported card comes here).
        return bytes.withUnsafeBufferPointer(validUTF8)
    }

    /// The bytes as text if they are valid UTF-8 (a byte-order mark kept as U+FEFF).
    private static func validUTF8(_ buffer: UnsafeBufferPointer<UInt8>) -> String? {
        var text = String(decoding: buffer, as: UTF8.self)
        // Compared by memcmp: `elementsEqual` stepped through both byte by byte.
        let same = text.withUTF8 { decoded in
            decoded.count == buffer.count
                && (buffer.isEmpty || memcmp(decoded.baseAddress!, buffer.baseAddress!, buffer.count) == 0)
        }
        return same ? text : nil
    }

    /// Unquotes a parameter value and undoes RFC 6868's escapes (`^n`, `^^`, `^'`). A raw CR
    /// (or CRLF) inside reads as a newline, as in values: the writer writes every line break as
    /// `^n` (a label holding CRs read back with LFs; found by fuzz-vcard).
    /// By bytes and scalars, as the line is split: a quote, caret or `n` and a combining mark after
    /// it are one Character, which is none of them (fuzz-vcard, seed 16).
    private static func parameterValue(_ text: String) -> String {
        var value = text
        let quote = UInt8(ascii: "\"")
        if value.utf8.count >= 2, value.utf8.first == quote, value.utf8.last == quote {
            value = String(value.unicodeScalars.dropFirst().dropLast())
        }
        if value.utf8.contains(UInt8(ascii: "\r")) {
            value = value.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        }
        guard value.utf8.contains(UInt8(ascii: "^")) else { return value }
        var result = String.UnicodeScalarView(), caret = false
        for scalar in value.unicodeScalars {
            if caret {
                switch scalar {
                case "n", "N": result.append("\n")
                case "^": result.append("^")
                case "'": result.append("\"")
                default: result.append("^"); result.append(scalar)
                }
                caret = false
            } else if scalar == "^" {
                caret = true
            } else {
                result.append(scalar)
            }
        }
        if caret { result.append("^") }
        return String(result)
    }

    /// `=XX` hex escapes to bytes. An `=` not followed by two hex digits is kept as written
    /// (a writer that did not escape it meant it); one at the very end (a soft line break with
    /// nothing after it) is dropped. Either is named in the repairs returned.
    static func decodeQuotedPrintable(_ bytes: [UInt8]) -> (bytes: [UInt8], repairs: [String]) {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var repairs: [String] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "=") {
                if let high = hexValue(bytes, index + 1), let low = hexValue(bytes, index + 2) {
                    result.append(high << 4 | low)
                    index += 3
                    continue
                }
                if index == bytes.count - 1 {
                    repairs.append(
                        "the quoted-printable value ends in a soft line break ('=') with nothing after it: the '=' dropped"
                    )
                    break
                }
                let written = String(decoding: bytes[index..<min(index + 3, bytes.count)], as: UTF8.self)
                repairs.append("'\(written)' is not a quoted-printable escape: kept as written")
            }
            result.append(byte)
            index += 1
        }
        return (result, repairs)
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

    /// The start of a bad line, printable, for an error message.
    private static func excerpt(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
            .map { $0.isASCII && ($0.isLetter || $0.isNumber || $0.isPunctuation || $0 == " ") ? $0 : "?" }
        return "'" + String(text) + (bytes.count > 40 ? "...'" : "'")
    }
}
