import Foundation
import SceneCore

/// What the `directory` commands print, and the directories' lines of `query`.
public struct DirectoryPresenter {
    public init() {}

    public func added(_ source: DirectorySource) -> String {
        "Added directory \(source.name): \(describe(source))\n"
            + "Try it with 'contactsbook directory test \(source.name)'.\n"
    }

    public func sources(_ sources: [DirectorySource]) -> String {
        guard !sources.isEmpty else {
            return "No directories. Add one with 'contactsbook directory add NAME ldaps://HOST/BASE-DN'.\n"
        }
        return sources.map { "\($0.name)\t\(describe($0))\n" }.joined()
    }

    public func removed(_ name: String) -> String { "Removed directory \(name); nothing in the book changed.\n" }

    /// `directory test`: what was reached and how, or why not.
    public func tested(_ source: DirectorySource, _ answer: DirectoryAnswer) -> (text: String, ok: Bool) {
        if let failure = answer.failure { return (sanitize(failure.description) + "\n", false) }
        let how = source.bindDN.map { "bound as \($0)" } ?? "anonymously"
        let found =
            answer.entries.isEmpty
            ? "found no person under \(source.baseDN) (check the base DN and --filter)"
            : "found people under \(source.baseDN), e.g. \(answer.entries[0].dn)"
        return (
            sanitize("directory \(source.name): connected with \(security(source.security)), \(how); \(found)") + "\n",
            true
        )
    }

    /// `directory show`: the entry's fields, one per line.
    public func entry(_ model: ListContacts.ShowDirectoryEntry.ViewModel) -> String {
        let width = model.fields.map(\.label.count).max() ?? 0
        return model.name + "\n"
            + model.fields.map {
                $0.label + String(repeating: " ", count: width - $0.label.count) + "  " + $0.value + "\n"
            }.joined()
    }

    public func copied(_ contact: Contact, from directory: String) -> String {
        sanitize("Copied \(contact.fullName) from directory \(directory) as #\(contact.id ?? 0)") + "\n"
    }

    /// The directories' addresses for a mail client, after the book's: one per `mail` value, the
    /// info naming the directory ("corp directory · Acme").
    public func mailMatches(_ search: DirectorySearch) -> [MailQueryMatch] {
        search.entries.flatMap(mailMatches(for:))
    }

    /// `mailMatches` of one entry: `query` maps each as it arrives, on the thread asking the
    /// directory, while the next ones are still on their way (bench/DIRECTORY.md, `directory5`).
    public func mailMatches(for entry: DirectoryEntry) -> [MailQueryMatch] {
        let contact = DirectoryMapping.mailContact(from: entry)
        guard !contact.emails.isEmpty else { return [] }
        let info =
            contact.organization.isEmpty
            ? "\(entry.source) directory" : "\(entry.source) directory · \(contact.organization)"
        let name = contact.fullName
        return contact.emails.map { MailQueryMatch(address: $0.value, name: name, info: info) }
    }

    public func describe(_ source: DirectorySource) -> String {
        var parts = [source.url, security(source.security)]
        parts.append(source.bindDN.map { "bind \($0)" } ?? "anonymous")
        if let filter = source.filter { parts.append("filter \(filter)") }
        if let ca = source.caFile { parts.append("CA \(ca)") }
        parts.append("at most \(source.sizeLimit) entries in \(seconds(source.timeLimit))")
        return sanitize(parts.joined(separator: " · "))
    }

    private func security(_ security: DirectorySource.Security) -> String {
        switch security {
        case .startTLS: return "StartTLS"
        case .ldaps: return "LDAPS"
        case .plaintext: return "plain text (no TLS)"
        }
    }

    private func seconds(_ value: Double) -> String { value == value.rounded() ? "\(Int(value)) s" : "\(value) s" }

    private func sanitize(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.sanitize(String($0)) }
            .joined(separator: "\n")
    }
}
