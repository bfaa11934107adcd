import Foundation

/// The address headers of a mail message (RFC 5322), as `contactsbook add-email` reads a message
/// a mail client pipes to it: the header block up to the first empty line, folded lines joined,
/// names decoded from RFC 2047 encoded-words (`=?UTF-8?B?...?=`, `=?ISO-8859-1?Q?...?=`).
/// The body is never read.
public struct MailMessage: Equatable, Sendable {
    /// One mailbox: the display name (decoded, unquoted; empty without one) and the address.
    public struct Mailbox: Equatable, Sendable {
        public let name: String
        public let address: String
        public init(name: String, address: String) { self.name = name; self.address = address }
    }

    /// The header fields whose mailboxes are read, in the order `add-email` offers them.
    public enum Field: String, CaseIterable, Sendable {
        case from, replyTo = "reply-to", to, cc, bcc
    }

    /// By field, each field's mailboxes in order (a field given twice adds to the first).
    public let mailboxes: [Field: [Mailbox]]
    /// The message's `Date:` as written, if any (not interpreted).
    public let date: String?

    public init(mailboxes: [Field: [Mailbox]], date: String? = nil) { self.mailboxes = mailboxes; self.date = date }

    /// The sender: `From`'s mailboxes.
    public var senders: [Mailbox] { mailboxes[.from] ?? [] }

    /// Every mailbox of every address field, in `Field` order, each address once (the first
    /// spelling and name kept; compared without case).
    public var everyone: [Mailbox] {
        var seen = Set<String>(), all: [Mailbox] = []
        for field in Field.allCases {
            for mailbox in mailboxes[field] ?? [] where seen.insert(mailbox.address.lowercased()).inserted {
                all.append(mailbox)
            }
        }
        return all
    }

    /// Reads the header block of `bytes` (UTF-8 as RFC 6532 allows, a byte that is not read as
    /// Latin-1). A message without headers gives no mailboxes.
    public static func parse(_ bytes: some Collection<UInt8>) -> MailMessage {
        var mailboxes: [Field: [Mailbox]] = [:]
        var date: String?
        for (name, value) in headerFields(text(of: Array(bytes))) {
            if name == "date" { date = date ?? value.trimmingCharacters(in: .whitespaces) }
            guard let field = Field(rawValue: name) else { continue }
            mailboxes[field, default: []] += addressList(value)
        }
        return MailMessage(mailboxes: mailboxes, date: date)
    }

    // MARK: The header block

    /// The header block as text: UTF-8 when it is, else each byte as Latin-1 (an old mailer's
    /// raw 8-bit header), so no message is refused for its bytes.
    static func text(of bytes: [UInt8]) -> String {
        var end = bytes.count
        // The block ends at the first empty line (CRLF CRLF or LF LF).
        var index = 0, lineStart = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                let line = bytes[lineStart..<index]
                if line.isEmpty || line == [0x0D] { end = lineStart; break }
                lineStart = index + 1
            }
            index += 1
        }
        let block = bytes[..<end]
        return String(validating: block, as: UTF8.self) ?? String(block.map { Character(Unicode.Scalar($0)) })
    }

    /// `(lower-cased name, unfolded value)` per field; a continuation line (starting with a
    /// space or tab) joins the field before it, its line break removed (RFC 5322 §2.2.3).
    static func headerFields(_ block: String) -> [(String, String)] {
        var fields: [(String, String)] = []
        for rawLine in block.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine[...]
            if let first = line.first, first == " " || first == "\t" {
                if !fields.isEmpty { fields[fields.count - 1].1 += line }
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            fields.append((name, String(line[line.index(after: colon)...])))
        }
        return fields
    }

    // MARK: Address lists

    private enum Token: Equatable {
        case word(String) // atoms and dots: `jose`, `correo.es`
        case quoted(String) // a quoted-string, unescaped
        case comment(String)
        case special(Character) // < > , : ; @
    }

    /// The mailboxes of an address list: `José <j@x>, "Lee, Ann" <a@y>, b@z (Bob), team: c@d;`.
    /// A group's name is dropped and its members kept; an entry with no address is skipped.
    static func addressList(_ value: String) -> [Mailbox] {
        var mailboxes: [Mailbox] = []
        var entry: [Token] = []
        func finish() {
            if let mailbox = mailbox(entry) { mailboxes.append(mailbox) }
            entry = []
        }
        for token in tokens(value) {
            switch token {
            case .special(","), .special(";"): finish()
            case .special(":") where !entry.contains(.special("<")):
                entry = [] // a group's display name
            default: entry.append(token)
            }
        }
        finish()
        return mailboxes
    }

    /// One mailbox from its tokens: `phrase <addr-spec>`, or a bare addr-spec whose name is in
    /// a comment, as old mailers wrote it (`ann@x (Ann Lee)`).
    private static func mailbox(_ tokens: [Token]) -> Mailbox? {
        if let open = tokens.firstIndex(of: .special("<")) {
            let close = tokens[open...].firstIndex(of: .special(">")) ?? tokens.endIndex
            var inside = Array(tokens[tokens.index(after: open)..<close])
            // An obsolete route (`<@relay:ann@x>`) comes before a colon.
            if let colon = inside.lastIndex(of: .special(":")) { inside = Array(inside[(colon + 1)...]) }
            let address = addressText(inside)
            guard address.contains("@") else { return nil }
            var name = phrase(Array(tokens[..<open]))
            if name.isEmpty { name = commentName(Array(tokens[close...])) }
            return Mailbox(name: name, address: address)
        }
        let address = addressText(tokens)
        guard address.contains("@") else { return nil }
        return Mailbox(name: commentName(tokens), address: address)
    }

    private static func addressText(_ tokens: [Token]) -> String {
        tokens.map { token -> String in
            switch token {
            case .word(let text): return text
            case .quoted(let text): return "\"" + text + "\""
            case .special(let character): return String(character)
            case .comment: return ""
            }
        }.joined()
    }

    /// A display name: its words and quoted strings joined by one space, encoded-words decoded
    /// (also inside quotes, where many mailers put them), adjacent encoded-words run together.
    private static func phrase(_ tokens: [Token]) -> String {
        var parts: [String] = []
        for token in tokens {
            switch token {
            case .word(let text), .quoted(let text): parts.append(text)
            case .special(let character) where character == "@" || character == ".": parts.append(String(character))
            default: break
            }
        }
        return clean(EncodedWords.decode(parts.joined(separator: " ")))
    }

    private static func commentName(_ tokens: [Token]) -> String {
        for case .comment(let text) in tokens {
            let name = clean(EncodedWords.decode(text))
            if !name.isEmpty { return name }
        }
        return ""
    }

    /// Runs of spaces made one, control characters dropped, ends trimmed.
    private static func clean(_ text: String) -> String {
        text.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) || $0 == " " }
            .map(String.init).joined()
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private static func tokens(_ value: String) -> [Token] {
        var tokens: [Token] = []
        var chars = Array(value)[...]
        var word = ""
        func flush() { if !word.isEmpty { tokens.append(.word(word)); word = "" } }
        while let c = chars.popFirst() {
            switch c {
            case "\"":
                flush()
                var text = ""
                while let d = chars.popFirst(), d != "\"" {
                    if d == "\\", let escaped = chars.popFirst() { text.append(escaped) } else { text.append(d) }
                }
                tokens.append(.quoted(text))
            case "(":
                flush()
                var depth = 1, text = ""
                while let d = chars.popFirst() {
                    if d == "\\", let escaped = chars.popFirst() { text.append(escaped); continue }
                    if d == "(" { depth += 1 } else if d == ")" { depth -= 1; if depth == 0 { break } }
                    text.append(d)
                }
                tokens.append(.comment(text))
            case "<", ">", ",", ":", ";":
                flush()
                tokens.append(.special(c))
            case " ", "\t", "\r", "\n":
                flush()
            default:
                word.append(c)
            }
        }
        flush()
        return tokens
    }
}

/// RFC 2047 encoded-words: `=?charset?B?base64?=` and `=?charset?Q?quoted?=`. A word that
/// does not decode stays as written.
enum EncodedWords {
    static func decode(_ text: String) -> String {
        guard text.contains("=?") else { return text }
        var out = "", rest = text[...]
        var lastWasEncoded = false, pendingSpace = ""
        while !rest.isEmpty {
            if rest.hasPrefix("=?"), let (decoded, after) = encodedWord(rest) {
                // White space between two encoded-words is not part of the text (§6.2).
                if !lastWasEncoded { out += pendingSpace }
                out += decoded
                pendingSpace = ""
                lastWasEncoded = true
                rest = after
                continue
            }
            let c = rest.removeFirst()
            if c == " " || c == "\t" {
                pendingSpace.append(c)
            } else {
                out += pendingSpace
                pendingSpace = ""
                out.append(c)
                lastWasEncoded = false
            }
        }
        return out + pendingSpace
    }

    /// The decoded text of the encoded-word at the start of `text`, and what follows it.
    private static func encodedWord(_ text: Substring) -> (String, Substring)? {
        let parts = text.dropFirst(2).split(separator: "?", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let end = parts[2].range(of: "?=") else { return nil }
        // RFC 2231 adds a language: `UTF-8*es`.
        let charset = parts[0].split(separator: "*").first.map { $0.lowercased() } ?? ""
        let payload = parts[2][..<end.lowerBound]
        guard !payload.contains(" ") else { return nil }
        let bytes: [UInt8]?
        switch parts[1].uppercased() {
        case "B": bytes = base64(payload)
        case "Q": bytes = quoted(payload)
        default: bytes = nil
        }
        guard let bytes, let decoded = decodeCharset(bytes, charset) else { return nil }
        return (decoded, parts[2][end.upperBound...])
    }

    private static func base64(_ text: Substring) -> [UInt8]? {
        var padded = String(text)
        while padded.count % 4 != 0 { padded += "=" }
        return Data(base64Encoded: padded).map(Array.init)
    }

    private static func quoted(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = [], utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            switch byte {
            case UInt8(ascii: "_"): bytes.append(0x20)
            case UInt8(ascii: "="):
                guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            default: bytes.append(byte)
            }
        }
        return bytes
    }

    /// The charsets mail names are written in; an unknown one is read as UTF-8 if it is valid.
    static func decodeCharset(_ bytes: [UInt8], _ charset: String) -> String? {
        switch charset {
        case "utf-8", "utf8", "us-ascii", "ascii":
            return String(validating: bytes, as: UTF8.self)
        case "iso-8859-1", "latin1", "iso8859-1":
            return String(bytes.map { Character(Unicode.Scalar($0)) })
        case "iso-8859-15", "latin-9", "iso8859-15":
            // Latin-1 but for eight code points (the euro sign among them).
            let changed: [UInt8: Unicode.Scalar] = [
                0xA4: "\u{20AC}", 0xA6: "\u{160}", 0xA8: "\u{161}", 0xB4: "\u{17D}",
                0xB8: "\u{17E}", 0xBC: "\u{152}", 0xBD: "\u{153}", 0xBE: "\u{178}",
            ]
            return String(bytes.map { Character(changed[$0] ?? Unicode.Scalar($0)) })
        case "windows-1252", "cp1252":
            return String(data: Data(bytes), encoding: .windowsCP1252)
        case "iso-8859-2", "latin2":
            return String(data: Data(bytes), encoding: .isoLatin2)
        case "windows-1250", "cp1250":
            return String(data: Data(bytes), encoding: .windowsCP1250)
        case "windows-1251", "cp1251":
            return String(data: Data(bytes), encoding: .windowsCP1251)
        case "iso-2022-jp":
            return String(data: Data(bytes), encoding: .iso2022JP)
        default:
            return String(validating: bytes, as: UTF8.self)
        }
    }
}
