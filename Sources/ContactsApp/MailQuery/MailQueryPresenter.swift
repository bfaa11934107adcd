import Foundation

/// What `contactsbook query` prints, in the format of mutt's `query_command`.
public struct MailQueryAnswer: Equatable, Sendable {
    /// The whole of stdout: a first line for people, then `address<TAB>name<TAB>info` per address.
    public let text: String
    /// Whether any address matched; a mail client reads exit status 1 as "none".
    public let found: Bool
}

/// Formats a mail client's matches (mutt, neomutt, aerc): a message line, then one line per
/// address; "No matches" when there are none. Fields never hold tabs or line breaks.
public struct MailQueryPresenter {
    public init() {}

    public func present(_ matches: [MailQueryMatch]) -> MailQueryAnswer {
        guard !matches.isEmpty else { return MailQueryAnswer(text: "No matches\n", found: false) }
        var text = "contactsbook: \(matches.count == 1 ? "1 address" : "\(matches.count) addresses")\n"
        // Built once: the getter builds a new set on every call.
        let controls = CharacterSet.controlCharacters
        for match in matches {
            text += [match.address, match.name, match.info].map { Self.field($0, controls) }.joined(separator: "\t") + "\n"
        }
        return MailQueryAnswer(text: text, found: true)
    }

    /// One field of a line: tabs, line breaks and other control characters become spaces.
    private static func field(_ text: String, _ controls: CharacterSet) -> String {
        String(text.unicodeScalars.map { controls.contains($0) ? " " : Character($0) })
    }
}
