/// A mail draft as an editor holds it (mutt's, aerc's, Emacs's message buffer): RFC 5322 header
/// fields, then a blank line (or message-mode's `--text follows this line--`), then the body.
/// It knows the address fields (To, Cc, Bcc, From, Reply-To) with their folded continuation
/// lines, and the addresses in them, each with where it is and what is wrong with it.
///
/// Places are a line and a UTF-8 byte column in that line: the LSP layer converts them to the
/// client's encoding. Nothing here touches the book.
public struct MailDraft: Equatable, Sendable {
    /// The fields whose value is an address list, lowercased.
    public static let addressFieldNames: Set<String> = ["to", "cc", "bcc", "from", "reply-to"]
    /// The line Emacs's message-mode and mail-mode put between headers and body.
    public static let messageModeSeparator = "--text follows this line--"

    /// A line and a byte column in it.
    public struct Location: Equatable, Comparable, Sendable {
        public var line: Int
        public var column: Int
        public init(line: Int, column: Int) { self.line = line; self.column = column }
        public static func < (a: Location, b: Location) -> Bool { (a.line, a.column) < (b.line, b.column) }
    }

    /// One header field: its name as written and its lines (the first, then continuations).
    public struct Field: Equatable, Sendable {
        public let name: String
        public let lines: ClosedRange<Int>
        /// Where the value starts: after the colon on the first line.
        public let valueStart: Location
        public var isAddressList: Bool { MailDraft.addressFieldNames.contains(name.lowercased()) }
    }

    /// One address of an address field, as written.
    public struct Address: Equatable, Sendable {
        /// The field it is in ("To", "Cc"), as written.
        public let field: String
        /// The display name, unquoted and without comments ("José Ñúñez"); empty when none.
        public let displayName: String
        /// The address itself (`jose@example.org`), as written; empty when there is none.
        public let email: String
        /// What makes it invalid, in words for the user; nil for a valid address.
        public let problem: String?
        public let start: Location
        /// Just past its last character.
        public let end: Location
    }

    /// What completion replaces at a place: the address being typed, on the cursor's line.
    public struct CompletionSite: Equatable, Sendable {
        /// The words typed so far (quotes and angle brackets left out), to search for.
        public let search: String
        public let line: Int
        public let startColumn: Int
        public let endColumn: Int
    }

    /// The number of header lines: lines from this one on are the separator and the body.
    public let headerLineCount: Int
    public let fields: [Field]
    public let addresses: [Address]
    private let values: [FieldValue]

    public init(text: String) {
        var lines: [String] = []
        var current = ""
        var scalars = text.unicodeScalars.makeIterator()
        var pendingCR = false
        while let scalar = scalars.next() {
            if pendingCR {
                pendingCR = false
                lines.append(current)
                current = ""
                if scalar == "\n" { continue }
            }
            if scalar == "\r" {
                pendingCR = true
            } else if scalar == "\n" {
                lines.append(current)
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        lines.append(current)
        self.init(lines: lines)
    }

    /// A draft from its lines, without line breaks.
    public init(lines: [String]) {
        let bytes = lines.map { Array($0.utf8) }
        var fields: [Field] = []
        var values: [FieldValue] = []
        var open: (name: String, first: Int, colon: Int, last: Int)?
        func close() {
            guard let field = open else { return }
            let item = Field(
                name: field.name, lines: field.first...field.last,
                valueStart: Location(line: field.first, column: field.colon + 1))
            fields.append(item)
            if item.isAddressList {
                values.append(FieldValue(field: item, lines: bytes))
            }
            open = nil
        }
        var index = 0
        // A draft starts with a field; text that does not is all body.
        if let first = bytes.first, Self.fieldNameEnd(first) != nil {
            while index < bytes.count {
                let line = bytes[index]
                if line.isEmpty || lines[index] == Self.messageModeSeparator { break }
                if line[0] == 0x20 || line[0] == 0x09 {
                    open?.last = index
                } else {
                    close()
                    if let colon = Self.fieldNameEnd(line) {
                        open = (String(decoding: line[..<colon], as: UTF8.self), index, colon, index)
                    }
                }
                index += 1
            }
            close()
        }
        headerLineCount = index
        self.fields = fields
        self.values = values
        addresses = values.flatMap { $0.addresses() }
    }

    /// The address at a place (a place just after an address counts as on it).
    public func address(at location: Location) -> Address? {
        addresses.first { $0.start <= location && location <= $0.end }
    }

    /// The address being typed at a place in an address field, or nil elsewhere (a field name,
    /// another field, the body).
    public func completionSite(at location: Location) -> CompletionSite? {
        guard location.line < headerLineCount,
            let value = values.first(where: { $0.field.lines.contains(location.line) }),
            location.line > value.field.lines.lowerBound || location.column >= value.field.valueStart.column
        else { return nil }
        return value.completionSite(at: location)
    }

    /// The index of the colon ending a field name at the start of `line` (printable ASCII but
    /// the colon, RFC 5322's ftext), or nil when the line does not start a field.
    static func fieldNameEnd(_ line: [UInt8]) -> Int? {
        for (index, byte) in line.enumerated() {
            if byte == UInt8(ascii: ":") { return index > 0 ? index : nil }
            if byte < 33 || byte > 126 { return nil }
        }
        return nil
    }
}

/// The unfolded value of one address field: its lines' bytes after the colon, joined as they
/// are (unfolding removes only the line breaks), with where each piece came from.
struct FieldValue: Equatable, Sendable {
    let field: MailDraft.Field
    let bytes: [UInt8]
    /// Where each line's piece starts in `bytes`, its line and its first column.
    let pieces: [(offset: Int, line: Int, column: Int)]

    static func == (a: FieldValue, b: FieldValue) -> Bool { a.field == b.field && a.bytes == b.bytes }

    init(field: MailDraft.Field, lines: [[UInt8]]) {
        self.field = field
        var bytes: [UInt8] = []
        var pieces: [(offset: Int, line: Int, column: Int)] = []
        for line in field.lines {
            let column = line == field.lines.lowerBound ? field.valueStart.column : 0
            pieces.append((bytes.count, line, column))
            bytes += lines[line][min(column, lines[line].count)...]
        }
        self.bytes = bytes
        self.pieces = pieces
    }

    /// The place of an offset of the value; at a piece boundary, the end of the earlier line
    /// (`preferEnd`) or the start of the later.
    func location(_ offset: Int, preferEnd: Bool) -> MailDraft.Location {
        var chosen = pieces[0]
        for piece in pieces where piece.offset < offset || (piece.offset == offset && !preferEnd) { chosen = piece }
        return MailDraft.Location(line: chosen.line, column: chosen.column + offset - chosen.offset)
    }

    /// The offset of a place in the value (clamped to its line's piece).
    func offset(_ location: MailDraft.Location) -> Int {
        guard let index = pieces.firstIndex(where: { $0.line == location.line }) else { return 0 }
        let piece = pieces[index]
        let end = index + 1 < pieces.count ? pieces[index + 1].offset : bytes.count
        return min(max(piece.offset + location.column - piece.column, piece.offset), end)
    }

    /// The value split into address segments at top-level `,` and `;`; a group's name (up to
    /// its top-level `:`) belongs to no address. Quotes, comments and angle brackets are
    /// skipped over; one left open runs to the end.
    func segments() -> [Range<Int>] {
        var segments: [Range<Int>] = []
        var start = 0
        var scanner = AddressScanner()
        for (index, byte) in bytes.enumerated() {
            guard scanner.step(byte) else { continue }
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: ";"):
                segments.append(start..<index)
                start = index + 1
            case UInt8(ascii: ":"):
                start = index + 1
            default: break
            }
        }
        segments.append(start..<bytes.count)
        return segments
    }

    func addresses() -> [MailDraft.Address] {
        segments().compactMap { segment in
            let trimmed = Self.trimmed(segment, in: bytes)
            guard !trimmed.isEmpty else { return nil }
            let parsed = ParsedAddress(bytes[trimmed])
            return MailDraft.Address(
                field: field.name, displayName: parsed.displayName, email: parsed.email,
                problem: parsed.problem,
                start: location(trimmed.lowerBound, preferEnd: false),
                end: location(trimmed.upperBound, preferEnd: true))
        }
    }

    func completionSite(at location: MailDraft.Location) -> MailDraft.CompletionSite? {
        let cursor = offset(location)
        guard let segment = segments().first(where: { $0.lowerBound <= cursor && cursor <= $0.upperBound }) else {
            return nil
        }
        let trimmed = Self.trimmed(segment, in: bytes)
        var start = min(trimmed.isEmpty ? cursor : trimmed.lowerBound, cursor)
        var end = max(trimmed.isEmpty ? cursor : trimmed.upperBound, cursor)
        // The edit stays on the cursor's line (LSP's text edits are one line long).
        guard let piece = pieces.firstIndex(where: { $0.line == location.line }) else { return nil }
        let lineStart = pieces[piece].offset
        let lineEnd = piece + 1 < pieces.count ? pieces[piece + 1].offset : bytes.count
        if start < lineStart {
            start = lineStart
            while start < cursor, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        }
        if end > lineEnd {
            end = lineEnd
            while end > cursor, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        }
        let typed = bytes[start..<cursor].map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "\\"), 0x09:
                return 0x20
            default: return byte
            }
        }
        let search = String(decoding: typed, as: UTF8.self).split(separator: " ").joined(separator: " ")
        let first = self.location(start, preferEnd: false), last = self.location(end, preferEnd: true)
        return MailDraft.CompletionSite(
            search: search, line: location.line, startColumn: first.column,
            endColumn: last.line == location.line ? last.column : first.column)
    }

    static func trimmed(_ range: Range<Int>, in bytes: [UInt8]) -> Range<Int> {
        var start = range.lowerBound, end = range.upperBound
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return start..<end
    }
}

/// Where a scan of an address list is: inside a quoted string, a comment (they nest) or angle
/// brackets. `step` says whether a byte is at the top level, where `,` `;` `:` `<` mean something.
struct AddressScanner {
    var inQuote = false
    var commentDepth = 0
    var inAngle = false
    private var escaped = false

    mutating func step(_ byte: UInt8) -> Bool {
        if escaped { escaped = false; return false }
        if inQuote {
            if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inQuote = false }
            return false
        }
        if commentDepth > 0 {
            switch byte {
            case UInt8(ascii: "\\"): escaped = true
            case UInt8(ascii: "("): commentDepth += 1
            case UInt8(ascii: ")"): commentDepth -= 1
            default: break
            }
            return false
        }
        switch byte {
        case UInt8(ascii: "\""): inQuote = true; return false
        case UInt8(ascii: "("): commentDepth = 1; return false
        default: break
        }
        if inAngle {
            if byte == UInt8(ascii: ">") { inAngle = false }
            return false
        }
        if byte == UInt8(ascii: "<") { inAngle = true; return false }
        return true
    }

    var isOpen: Bool { inQuote || commentDepth > 0 || inAngle }
}

/// One address read from its text: `Name <addr>`, `"Name" <addr>`, `addr (comment)` or `addr`.
struct ParsedAddress {
    var displayName = ""
    var email = ""
    var problem: String?

    init(_ text: ArraySlice<UInt8>) {
        var scanner = AddressScanner()
        var open: Int?, close: Int?, angles = 0
        for index in text.indices {
            let before = scanner
            _ = scanner.step(text[index])
            if !before.inAngle, scanner.inAngle {
                angles += 1
                if open == nil { open = index }
            }
            if before.inAngle, !scanner.inAngle, close == nil { close = index }
        }
        if angles > 1 { problem = "has more than one <…>" }
        if scanner.inQuote { problem = "has an unclosed quote (\")" }
        if scanner.commentDepth > 0 { problem = "has an unclosed comment (()" }
        if let open {
            displayName = Self.phrase(text[text.startIndex..<open])
            let specEnd = close ?? text.endIndex
            email = Self.withoutComments(text[(open + 1)..<specEnd]).trimmedSpaces
            if close == nil {
                problem = problem ?? "has no closing >"
            } else if let close, !Self.withoutComments(text[(close + 1)...]).trimmedSpaces.isEmpty {
                problem = problem ?? "has text after >"
            }
        } else {
            email = Self.withoutComments(text).trimmedSpaces
            if problem == nil, email.contains(where: { $0 == " " || $0 == "\t" }) {
                problem = email.contains("@") ? "needs <…> around the address after a name" : "is not an email address"
            }
        }
        if problem == nil { problem = Self.addrSpecProblem(email) }
    }

    /// A display name as a person reads it: quotes and escapes removed, comments dropped,
    /// runs of spaces made one.
    static func phrase(_ text: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var scanner = AddressScanner()
        var escaped = false
        for byte in text {
            let wasComment = scanner.commentDepth > 0
            let wasQuote = scanner.inQuote
            _ = scanner.step(byte)
            if wasComment || scanner.commentDepth > 0 { continue }
            if wasQuote {
                if escaped { out.append(byte); escaped = false; continue }
                if byte == UInt8(ascii: "\\") { escaped = true; continue }
                if byte == UInt8(ascii: "\"") { continue }
                out.append(byte)
            } else if byte != UInt8(ascii: "\"") {
                out.append(byte == 0x09 ? 0x20 : byte)
            }
        }
        return String(decoding: out, as: UTF8.self).split(separator: " ").joined(separator: " ")
    }

    /// The text without comments.
    static func withoutComments(_ text: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var scanner = AddressScanner()
        for byte in text {
            let wasComment = scanner.commentDepth > 0
            _ = scanner.step(byte)
            if wasComment || scanner.commentDepth > 0 { continue }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// What is wrong with an addr-spec (`local@domain`), or nil: one `@` after a local part
    /// (a dot-atom or a quoted string), and a domain of two or more labels (the book's own rule
    /// for emails, so every address found valid can be added).
    static func addrSpecProblem(_ spec: String) -> String? {
        if spec.isEmpty { return "has no email address" }
        let bytes = Array(spec.utf8)
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return "is not an email address (no @)" }
        let local = bytes[..<at], domain = bytes[(at + 1)...]
        if local.isEmpty { return "has nothing before the @" }
        if domain.isEmpty { return "has nothing after the @" }
        if bytes.count > 254 { return "is longer than 254 characters" }
        let quoted = local.count >= 2 && local.first == UInt8(ascii: "\"") && local.last == UInt8(ascii: "\"")
        if !quoted, !isDotAtom(local) { return "has a character not allowed before the @" }
        if domain.first == UInt8(ascii: "[") {
            return domain.last == UInt8(ascii: "]") ? nil : "has an unclosed [ in its domain"
        }
        let labels = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if labels.count < 2 || labels.contains(where: \.isEmpty) {
            return "has a domain that is not a full name (like example.org)"
        }
        for label in labels
        where label.contains(where: { !(isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 >= 0x80) }) {
            return "has a character not allowed in its domain"
        }
        return nil
    }

    /// RFC 5322's dot-atom: atext (and any non-ASCII, RFC 6532) between single dots.
    static func isDotAtom(_ bytes: ArraySlice<UInt8>) -> Bool {
        let atomSpecials = Set("!#$%&'*+-/=?^_`{|}~".utf8)
        var previousDot = true
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                if previousDot { return false }
                previousDot = true
                continue
            }
            guard isLetterOrDigit(byte) || atomSpecials.contains(byte) || byte >= 0x80 else { return false }
            previousDot = false
        }
        return !previousDot
    }

    static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}

extension String {
    var trimmedSpaces: String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
