import Foundation
import SceneCore

/// The journal work the list's and the contact screen's Interactors delegate (their seam:
/// tests put a spy here): undo, redo, history, trash, restore and purge.
public protocol ContactsJournalLogic {
    /// The most recent change, or the one numbered so in `history`.
    func undo(_ changeSet: Int64?) throws -> ChangeSetRecord
    func redo() throws -> ChangeSetRecord
    /// Newest first; with a contact, only the change sets that touched it.
    func history(of contact: Contact?) throws -> [ChangeSetRecord]
    func trash() throws -> [TrashedContact]
    /// The trashed contact a user means: "#12", "12", or a name matching one trashed contact.
    func resolveTrashed(_ reference: String) throws -> TrashedContact
    func restore(_ trashed: TrashedContact) throws -> Contact
    /// Erases one trashed contact, or all of them; returns how many.
    func purge(_ trashed: TrashedContact?) throws -> Int
}

/// The journal of the book (`ContactJournal`), its refusals translated to `ContactsFailure`
/// and each change it makes announced (`ChangeNotifier`).
public final class JournalWorker: ContactsJournalLogic {
    let journal: ContactJournal?
    let changes: ChangeNotifier?
    /// How many change sets `history` shows.
    static let historyLimit = 50

    public init(environment: ContactsEnvironment) {
        journal = environment.journal
        changes = environment.changes
    }

    private func book() throws -> ContactJournal {
        guard let journal else { throw ContactsFailure.badInput("This book keeps no history.") }
        return journal
    }

    public func undo(_ changeSet: Int64?) throws -> ChangeSetRecord {
        let undone = try translating("undo") { try book().undo(changeSet: changeSet) }
        announce(undone, reversed: true)
        return undone
    }

    public func redo() throws -> ChangeSetRecord {
        let redone = try translating("redo") { try book().redo() }
        announce(redone, reversed: false)
        return redone
    }

    public func history(of contact: Contact?) throws -> [ChangeSetRecord] {
        try translating("history") { try book().history(contactID: contact?.id, limit: Self.historyLimit) }
    }

    public func trash() throws -> [TrashedContact] {
        try translating("trash") { try book().trash() }
    }

    public func resolveTrashed(_ reference: String) throws -> TrashedContact {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        let items = try trash()
        let digits = trimmed.hasPrefix("#") ? String(trimmed.dropFirst()) : trimmed
        if let id = Int64(digits) {
            guard let item = items.first(where: { $0.contact.id == id }) else {
                throw ContactsFailure.badInput("No contact in the trash is #\(id); see 'trash'.")
            }
            return item
        }
        let wanted = ContactKeys.fold(trimmed)
        let matches = items.filter { ContactKeys.fold($0.contact.fullName).contains(wanted) }
        let exact = matches.filter { ContactKeys.fold($0.contact.fullName) == wanted }
        if matches.count == 1 { return matches[0] }
        if exact.count == 1 { return exact[0] }
        if matches.isEmpty {
            throw ContactsFailure.badInput("No contact in the trash matches '\(trimmed)'; see 'trash'.")
        }
        throw ContactsFailure.ambiguous(reference: trimmed, matches: matches.map(\.contact))
    }

    public func restore(_ trashed: TrashedContact) throws -> Contact {
        let restored = try translating("restore") { try book().restore(id: trashed.contact.id ?? 0) }
        if let id = restored.id { changes?.post(DataChange(topic: "contacts", kind: "created", ids: [String(id)])) }
        return restored
    }

    public func purge(_ trashed: TrashedContact?) throws -> Int {
        try translating("purge") { try book().purge(id: trashed?.contact.id) }
    }

    /// Tells this session's clients what an undo or redo changed.
    private func announce(_ change: ChangeSetRecord, reversed: Bool) {
        var byKind: [String: [String]] = [:]
        for entry in change.entries {
            let (from, to) = reversed ? (entry.after, entry.before) : (entry.before, entry.after)
            let kind = from == nil ? "created" : to == nil ? "deleted" : "updated"
            byKind[kind, default: []].append(String(entry.contactID))
        }
        // A contact moved back or again: updated (its book is shown).
        byKind["updated", default: []] += change.moves.map { String($0.contactID) }
        for kind in ["created", "updated", "deleted"] {
            if let ids = byKind[kind], !ids.isEmpty {
                changes?.post(DataChange(topic: "contacts", kind: kind, ids: ids))
            }
        }
    }

    private func translating<T>(_ action: String, _ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch let refusal as JournalRefusal {
            throw ContactsFailure.journal(refusal, action: action)
        } catch let error as ContactStoreError {
            switch error {
            case .notFound(let id): throw ContactsFailure.notFound(reference: "#\(id)")
            case .staleVersion(let id, _, _):
                throw ContactsFailure.badInput("#\(id) was changed meanwhile; nothing was done.")
            case .storage(let message): throw ContactsFailure.storage(message)
            }
        }
    }
}
