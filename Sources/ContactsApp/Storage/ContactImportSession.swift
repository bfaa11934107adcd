import Foundation

/// A store that makes a large import fast, apart from the ordinary `ContactStore` work so that
/// ordinary store doubles need not carry it: what each contact's save needs is worked out on
/// the thread reading the file (`prepareForImport`), and the import's session says whether the
/// book was empty (then no UID need be looked up). `SQLiteContactStore` is one; a store that is
/// not gets its imports through `importInBatches`, with nothing prepared.
public protocol ImportSessionStore: ContactStore {
    /// What the store can work out for a contact of an import before the import's transaction,
    /// touching no storage: an import calls it on the thread that reads the file, so the thread
    /// holding the transaction only writes. Nil when the store has nothing to prepare.
    func prepareForImport(_ contact: Contact) -> PreparedContact?
    /// `prepareForImport` of each contact of a batch the file gave, in order, on the same
    /// reading thread: a store may work out there what the batch's rows share as well.
    func prepareForImport(batch contacts: [Contact]) -> [PreparedContact?]
    /// `importInBatches`, with the session's speed plumbing: one transaction, all or nothing.
    func importSession(_ body: (ContactImportSession) throws -> Void) throws -> ImportedIDs
}

/// One import's transaction with the speed plumbing of an `ImportSessionStore`.
public protocol ContactImportSession: ContactImportTransaction {
    /// Whether the book held no contacts when the import began: then only the import's own
    /// saves can match a UID, and an import that never repeats one need not look any up.
    var bookWasEmpty: Bool { get }
    /// Saves one batch, each contact with the rules of `insert` and `update`. `prepared` is
    /// empty, or holds what `prepareForImport` gave for each contact of `inserting`, in order:
    /// prepared from that same contact, whose `uid`, `id`, `version` and dates alone may have
    /// changed since.
    func save(inserting: [Contact], prepared: [PreparedContact?], updating: [Contact]) throws
    /// Those of `uids` that this session's saves have added: an import gives a UID it meets a
    /// second time a new one, and asks the store which it added rather than keeping a set that
    /// grows with the file.
    func addedUIDs(among uids: [String]) throws -> Set<String>
}

extension ImportSessionStore {
    /// Each contact prepared alone.
    public func prepareForImport(batch contacts: [Contact]) -> [PreparedContact?] {
        contacts.map(prepareForImport)
    }
}

extension ContactImportSession {
    /// Saves one batch with nothing prepared.
    public func save(inserting: [Contact], updating: [Contact]) throws {
        try save(inserting: inserting, prepared: [], updating: updating)
    }
}

/// What a store works out from a contact's own fields ahead of an import's transaction
/// (`ImportSessionStore.prepareForImport`); only the store that made it reads it.
public protocol PreparedContact: Sendable {}

/// An ordinary import transaction as a session: nothing prepared, the book not known to be
/// empty (so every batch's UIDs are looked up).
final class PlainImportSession: ContactImportSession {
    private let transaction: ContactImportTransaction
    /// The UIDs added: an ordinary transaction may hold its saves until the end, out of sight of
    /// `contacts(uids:)` (and then holds the whole import in memory anyway).
    private var added = Set<String>()
    init(_ transaction: ContactImportTransaction) { self.transaction = transaction }

    var bookWasEmpty: Bool { false }
    func contacts(uids: [String]) throws -> [Contact] { try transaction.contacts(uids: uids) }
    func save(inserting: [Contact], prepared: [PreparedContact?], updating: [Contact]) throws {
        try transaction.save(inserting: inserting, updating: updating)
        added.formUnion(inserting.map(\.uid))
    }
    func addedUIDs(among uids: [String]) throws -> Set<String> { added.intersection(uids) }
}

extension ContactStore {
    /// Runs an import in one session: the store's own (`ImportSessionStore`), or its ordinary
    /// `importInBatches` transaction as one.
    func withImportSession(_ body: (ContactImportSession) throws -> Void) throws -> ImportedIDs {
        if let sessions = self as? ImportSessionStore { return try sessions.importSession(body) }
        return try importInBatches { transaction in try body(PlainImportSession(transaction)) }
    }
}
