import Foundation
import SceneCore

/// An address met in a mail (a recipient of a draft): a display name, possibly empty, and the email.
public struct MailRecipient: Equatable, Hashable, Sendable {
    public let name: String
    public let email: String
    public init(name: String, email: String) { self.name = name; self.email = email }
}

/// One completion for an address being typed: the mail client's match (ranked as
/// `contactsbook query` ranks it) and the contact it belongs to.
public struct AddressCompletion: Equatable, Sendable {
    public let match: MailQueryMatch
    public let contact: Contact?
}

/// What an editor's mail buffer needs from the book: completions ranked as `contactsbook query`
/// ranks them, whether addresses are known, the contacts behind them, and adding recipients
/// (journalled, so `undo` takes an add back, in any session).
public final class MailAddressWorker {
    let store: ContactStore
    let journal: ContactJournal?
    let now: () -> Date
    let makeUID: () -> String
    let changes: ChangeNotifier?
    let environment: ContactsEnvironment
    /// The organisation's directories, asked after the book (`MailAddressWorker+Directory.swift`).
    let directories: ContactsDirectoryLogic?
    /// Hears what a directory could not answer (a front end says it once).
    public var directoryNotices: (([String]) -> Void)?

    public init(environment: ContactsEnvironment) {
        self.environment = environment
        store = environment.store; journal = environment.journal; now = environment.now
        makeUID = environment.makeUID; changes = environment.changes
        directories = (environment.store as? DirectorySourceStore).map {
            DirectoryWorker(sources: $0, now: environment.now)
        }
    }

    /// The addresses matching `text`, through the very search and ranking of `contactsbook
    /// query` (`MailQueryWorker`), each with its contact; at most `limit` contacts are read.
    public func completions(for text: String, limit: Int = 25) throws -> [AddressCompletion] {
        let (matches, contacts) = try translating {
            try MailQueryWorker(store: store, groups: store as? ContactGroupStore).matchesAndContacts(
                for: text, limit: limit)
        }
        var byID: [Int64: Contact] = [:]
        for contact in contacts { if let id = contact.id { byID[id] = contact } }
        return matches.map { AddressCompletion(match: $0, contact: $0.contactID.flatMap { byID[$0] }) }
            + directoryCompletions(for: text)
    }

    /// The emails of `emails` that no contact holds (compared as `MatchKeys.email` does).
    public func unknown(_ emails: [String]) throws -> Set<String> {
        let keys = emails.compactMap(MatchKeys.email)
        let known = try translating { try store.contactIDs(withEmailKeys: keys) }
        return Set(emails.filter { MatchKeys.email($0).map { known[$0] == nil } ?? false })
    }

    /// The contacts holding `email`.
    public func contacts(withEmail email: String) throws -> [Contact] {
        guard let key = MatchKeys.email(email) else { return [] }
        let ids = try translating { try store.contactIDs(withEmailKeys: [key]) }[key] ?? []
        return try translating { try store.contacts(ids: ids) }
    }

    /// One page of contacts matching `text` (every contact for an empty one), in the list's
    /// order: what an editor's picker shows.
    public func search(_ text: String, limit: Int) throws -> ContactPage {
        try translating {
            try store.page(ContactQuery(search: text, sort: .last, page: 1, limit: limit, locatesMatches: false))
        }
    }

    /// The contact a person names: an id ("3", "#3"), a UID, an email, or a name only one
    /// contact has (the list's rule).
    public func resolve(_ reference: String) throws -> Contact {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        if trimmed.contains("@"), let byEmail = try contacts(withEmail: trimmed).first { return byEmail }
        return try ContactsWorker(environment: environment).resolve(trimmed)
    }

    /// Adds each recipient not in the book yet (valid addresses only) as a contact named as
    /// the mail names them, all in one change set: one `undo` takes them all back. Returns the
    /// contacts added, in order (none when every one was known).
    public func add(_ recipients: [MailRecipient]) throws -> [Contact] {
        var seen = Set<String>()
        let wanted = recipients.filter { recipient in
            guard ContactRules.isEmail(recipient.email), let key = MatchKeys.email(recipient.email) else {
                return false
            }
            return seen.insert(key).inserted
        }
        let unknown = try self.unknown(wanted.map(\.email))
        let new = wanted.filter { unknown.contains($0.email) }.map(contact(for:))
        guard !new.isEmpty else { return [] }
        // New contacts go to the default book: not one that is read-only.
        try BookAccess(store: store).checkNewContacts()
        let summary = new.count == 1 ? "added \(new[0].fullName)" : "added \(new.count) contacts"
        let added: [Contact]
        if let journal {
            added = try translating {
                try journal.recordChangeSet(kind: .add, summary: summary, origin: nil) { writer in
                    try new.map { try writer.insert($0, keepingID: false) }
                }
            }
        } else {
            added = try translating { try new.map { try store.insert($0) } }
        }
        for contact in added {
            if let id = contact.id { changes?.post(DataChange(topic: "contacts", kind: "created", ids: [String(id)])) }
        }
        return added
    }

    /// A new contact for a recipient: the display name split at its last space (given, then
    /// family), or, for an address alone, named by its address as an import names such a card.
    func contact(for recipient: MailRecipient) -> Contact {
        var contact = Contact(
            uid: makeUID(), emails: [LabeledValue(label: "", value: recipient.email)],
            createdAt: now(), updatedAt: now())
        var name = recipient.name.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        // A name the form would refuse (control characters, too long) is left out, not stored.
        if ContactRules.lineProblem(name) != nil { name = "" }
        if name.isEmpty {
            contact.formattedName = recipient.email
        } else if let space = name.lastIndex(of: " ") {
            contact.givenName = String(name[..<space])
            contact.familyName = String(name[name.index(after: space)...])
        } else {
            contact.givenName = name
        }
        return contact
    }

    private func translating<T>(_ work: () throws -> T) throws -> T {
        do { return try work() } catch let error as ContactStoreError {
            switch error {
            case .notFound(let id): throw ContactsFailure.notFound(reference: "#\(id)")
            case .staleVersion(let id, _, _): throw ContactsFailure.notFound(reference: "#\(id)")
            case .storage(let message): throw ContactsFailure.storage(message)
            }
        }
    }
}
