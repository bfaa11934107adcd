import Foundation

/// What `contactsbook query` prints, in the format of mutt's `query_command`.
public struct MailQueryAnswer: Equatable, Sendable {
    /// The whole of stdout: a first line for people, then `address<TAB>name<TAB>info` per address.
    public let text: String
    /// Whether any address matched; a mail client reads exit status 1 as "none".
    public let found: Bool
}

/// The shapes of `query`'s lines: what each reader of them expects.
public enum MailQueryFormat: String, CaseIterable, Sendable {
    /// mutt's and neomutt's `query_command`: a first line for people, then `address<TAB>name<TAB>info`.
    case mutt
    /// mutt's lines alone, for scripts and lbdb: no first line, nothing when nothing matches.
    case plain
    /// aerc's `address-book-cmd`: `address<TAB>name`, nothing when nothing matches.
    case aerc
}

/// Formats a mail client's matches (mutt, neomutt, aerc): in mutt's format a message line, then
/// one line per address, and "No matches" when there are none; the other formats only the
/// lines (exit status 1 says "none"). Fields never hold tabs or line breaks.
public struct MailQueryPresenter {
    public init() {}

    public func present(_ matches: [MailQueryMatch], format: MailQueryFormat = .mutt) -> MailQueryAnswer {
        var text = ""
        if format == .mutt {
            guard !matches.isEmpty else { return MailQueryAnswer(text: "No matches\n", found: false) }
            let groups = matches.filter { $0.members != nil }.count, addresses = matches.count - groups
            let counted =
                (groups == 0 ? [] : [groups == 1 ? "1 group" : "\(groups) groups"])
                + (addresses == 0 && groups > 0 ? [] : [addresses == 1 ? "1 address" : "\(addresses) addresses"])
            text = "contactsbook: \(counted.joined(separator: ", "))\n"
        }
        // Built once: the getter builds a new set on every call.
        let controls = CharacterSet.controlCharacters
        for match in matches {
            let fields =
                format == .aerc ? [match.address, match.name] : [Self.address(of: match), match.name, match.info]
            text += fields.map { Self.field($0, controls) }.joined(separator: "\t") + "\n"
        }
        return MailQueryAnswer(text: text, found: !matches.isEmpty)
    }

    /// mutt and neomutt name a lone address without a name of its own after the line's name field,
    /// so a group of one member would put "Book club <ann@…>" in the header: its one address
    /// carries the member's name instead. Two or more addresses are taken as they are.
    private static func address(of match: MailQueryMatch) -> String {
        guard let members = match.members, members.count == 1, !members[0].name.isEmpty else { return match.address }
        return mailbox(name: members[0].name, address: members[0].address)
    }

    /// `Name <address>`, the name quoted when it holds one of RFC 5322's specials (`Lee, Ann`).
    static func mailbox(name: String, address: String) -> String {
        let specials = CharacterSet(charactersIn: "()<>[]:;@\\,.\"")
        guard name.unicodeScalars.contains(where: specials.contains) else { return "\(name) <\(address)>" }
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(escaped)\" <\(address)>"
    }

    /// One field of a line: tabs, line breaks and other control characters become spaces.
    /// Printable ASCII (most addresses and many names) has none, and a field without one is
    /// returned as it is: rebuilding every field scalar by scalar was a tenth of a `query`'s
    /// own work with 50 directory lines (bench/DIRECTORY.md), a sixth of `query GROUP`'s.
    private static func field(_ text: String, _ controls: CharacterSet) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        guard text.unicodeScalars.contains(where: { isControl($0, controls) }) else { return text }
        return String(text.unicodeScalars.map { controls.contains($0) ? " " : Character($0) })
    }

    /// `controls.contains(scalar)` (Unicode's Cc and Cf), answered without the set below U+0600,
    /// where Cc is C0, DEL and C1 and Cf is only the soft hyphen: Latin, Greek and Cyrillic names
    /// asked the set for every letter (a third of 50 directory lines' formatting).
    private static func isControl(_ scalar: Unicode.Scalar, _ controls: CharacterSet) -> Bool {
        let value = scalar.value
        guard value >= 0x600 else { return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0xAD }
        return controls.contains(scalar)
    }
}
