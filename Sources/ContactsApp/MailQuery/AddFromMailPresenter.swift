import Foundation

/// The lines `contactsbook add-email` prints and the questions it asks, from what
/// `AddFromMailWorker` found and did. Names and addresses from a message never carry control
/// characters to the terminal.
public struct AddFromMailPresenter {
    private let formatter: ContactFormatter

    public init(formatter: ContactFormatter) { self.formatter = formatter }

    /// "Add José Ñúñez <jose@correo.es>? [y/N] "
    public func question(_ candidate: MailCandidate) -> String {
        "Add \(mailbox(candidate.mailbox))? [y/N] "
    }

    /// A line for each address not offered: known ones name who holds them, invalid ones say so.
    public func skipped(_ candidates: [MailCandidate]) -> [String] {
        candidates.compactMap { candidate in
            switch candidate.status {
            case .new: return nil
            case .known(let holders):
                let who = holders.map { "\(formatter.displayName($0)) (#\($0.id ?? 0))" }.joined(separator: ", ")
                return "Known: \(Self.safe(candidate.mailbox.address)) is \(who)'s"
            case .invalid: return "Skipped \(Self.safe(candidate.mailbox.address)): not an email address"
            }
        }
    }

    /// "Added José Ñúñez <jose@correo.es> as #3" per contact saved.
    public func added(_ contacts: [Contact]) -> [String] {
        contacts.map { contact in
            "Added \(mailbox(MailMessage.Mailbox(name: contact.fullName, address: contact.emails.first?.value ?? ""))) as #\(contact.id ?? 0)"
        }
    }

    /// For the new ones nobody was asked about (no terminal, no `--yes`).
    public func notAsked(_ candidates: [MailCandidate]) -> [String] {
        candidates.map { "Not added (nobody to ask; --yes adds without asking): \(mailbox($0.mailbox))" }
    }

    /// For the new ones the person declined.
    public func declined(_ candidate: MailCandidate) -> String { "Not added: \(mailbox(candidate.mailbox))" }

    /// When the message gives nothing to offer: no sender (or no address at all, with `--all`).
    public func nothingFound(all: Bool) -> String {
        all
            ? "No address in this message (is it a mail message? its headers come first)"
            : "No sender in this message (no From: header; is it a mail message?)"
    }

    /// Why reading or adding failed, in the words the other commands use.
    public func failure(_ error: Error) -> String {
        if case ContactStoreError.storage(let text)? = error as? ContactStoreError { return text }
        return formatter.message(for: ContactsFailure(error)).text
    }

    private func mailbox(_ mailbox: MailMessage.Mailbox) -> String {
        Self.safe(MailAddressFormat.mailbox(name: mailbox.name, address: mailbox.address))
    }

    private static func safe(_ text: String) -> String {
        String(text.unicodeScalars.map { CharacterSet.controlCharacters.contains($0) ? "?" : Character($0) })
    }
}
