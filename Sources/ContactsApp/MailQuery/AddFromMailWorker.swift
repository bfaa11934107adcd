import Foundation

/// One address of a message as `contactsbook add-email` weighs it.
public struct MailCandidate: Equatable, Sendable {
    public enum Status: Equatable, Sendable {
        /// Not in the book: offered.
        case new
        /// In the book already, held by these contacts: skipped.
        case known([Contact])
        /// Not an email address (`ContactRules.isEmail`): skipped.
        case invalid
    }

    public let mailbox: MailMessage.Mailbox
    public let field: MailMessage.Field
    public let status: Status
}

/// What `contactsbook add-email` does with a message (as `abook --add-email` and `khard
/// add-email`): finds the sender (`all`: every address of the message), says which are in the
/// book already, records every address seen for frecency, and adds the ones the person accepts
/// as one change set of the journal (undo takes it back). Asking is the front end's business.
public final class AddFromMailWorker {
    private let environment: ContactsEnvironment
    private let seen: SeenAddressStore
    private let journal: ContactJournal?

    public init(environment: ContactsEnvironment, seen: SeenAddressStore) {
        self.environment = environment; self.seen = seen; journal = environment.journal
    }

    /// The senders (with `all`, every mailbox of the message, senders first), each address once.
    public func candidates(in message: MailMessage, all: Bool) throws -> [MailCandidate] {
        var fields: [(MailMessage.Mailbox, MailMessage.Field)] = []
        var taken = Set<String>()
        for field in all ? MailMessage.Field.allCases : [.from] {
            for mailbox in message.mailboxes[field] ?? [] where taken.insert(mailbox.address.lowercased()).inserted {
                fields.append((mailbox, field))
            }
        }
        return try fields.map { mailbox, field in
            guard ContactRules.isEmail(mailbox.address) else {
                return MailCandidate(mailbox: mailbox, field: field, status: .invalid)
            }
            let holders = try seen.contacts(withEmail: mailbox.address)
            return MailCandidate(mailbox: mailbox, field: field, status: holders.isEmpty ? .new : .known(holders))
        }
    }

    /// Records every address of the message as seen now: how often and how recently a person
    /// meets an address ranks the searches (`Frecency`). Invalid ones are left out.
    public func recordSeen(_ message: MailMessage) throws {
        let addresses = message.everyone.map(\.address).filter(ContactRules.isEmail)
        try seen.recordSeen(addresses: addresses, at: environment.now())
    }

    /// Adds a contact for each mailbox, all in one change set ("added José Ñúñez from mail");
    /// returns them as saved, in order.
    public func add(_ mailboxes: [MailMessage.Mailbox]) throws -> [Contact] {
        guard !mailboxes.isEmpty else { return [] }
        // New contacts go to the default book: not one that is read-only.
        try BookAccess(store: environment.store).checkNewContacts()
        let now = environment.now()
        let contacts = mailboxes.map { mailbox -> Contact in
            var contact = Self.contact(for: mailbox)
            contact.uid = environment.makeUID()
            contact.createdAt = now
            contact.updatedAt = now
            return contact
        }
        let first = contacts[0].fullName.isEmpty ? mailboxes[0].address : contacts[0].fullName
        let summary =
            contacts.count == 1 ? "added \(first) from mail" : "added \(first) and \(contacts.count - 1) more from mail"
        guard let journal else { return try contacts.map(environment.store.insert) }
        return try journal.recordChangeSet(kind: .add, summary: summary, origin: nil) { writer in
            try contacts.map { try writer.insert($0, keepingID: false) }
        }
    }

    /// The contact a mailbox gives: its name split into given and family names ("Ñúñez, José"
    /// as family, given; a family name keeps its particles: "Ludwig van Beethoven"), its address
    /// as an email without a label. A mailbox without a name gives a contact named by its email
    /// (its display name, vCard `FN`), as a card without a name is.
    static func contact(for mailbox: MailMessage.Mailbox) -> Contact {
        let (given, family) = splitName(mailbox.name)
        return Contact(
            givenName: given, familyName: family, emails: [LabeledValue(label: "", value: mailbox.address)],
            formattedName: given.isEmpty && family.isEmpty ? mailbox.address : "")
    }

    static func splitName(_ name: String) -> (given: String, family: String) {
        // A name that is the address again says nothing more.
        guard !name.isEmpty, !name.contains("@") else { return ("", "") }
        let commaParts = name.split(separator: ",", omittingEmptySubsequences: true).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if commaParts.count == 2 { return (commaParts[1], commaParts[0]) }
        var words = name.split(separator: " ").map(String.init)
        guard words.count > 1 else { return (name, "") }
        var family = [words.removeLast()]
        while words.count > 1, let last = words.last, PersonName.particles.contains(last.lowercased()) {
            family.insert(words.removeLast(), at: 0)
        }
        return (words.joined(separator: " "), family.joined(separator: " "))
    }
}

/// How mail writes an address: `José Ñúñez <jose@correo.es>`, the name quoted when RFC 5322
/// needs it (`"Lee, Ann" <ann@example.org>`), the bare address without a name.
public enum MailAddressFormat {
    /// The characters a display name cannot hold unquoted (RFC 5322 `specials`).
    private static let specials = Set("()<>[]:;@\\,.\"")

    public static func mailbox(name: String, address: String) -> String {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return address }
        guard name.contains(where: { specials.contains($0) }) else { return "\(name) <\(address)>" }
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(escaped)\" <\(address)>"
    }
}
