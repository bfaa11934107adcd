import Foundation

/// What one change set did, as a kind: the command it records.
public enum ChangeKind: String, Sendable, Codable, CaseIterable {
    case add, edit, delete, `import`, restore, merge, sync, move
}

/// One contact's part in a change set: how it was before and after (nil: it did not exist,
/// or was deleted). Images are whole contacts: every field, kept vCard properties, UID.
public struct ChangeEntry: Equatable, Sendable {
    public let contactID: Int64
    public let uid: String
    public let before: Contact?
    public let after: Contact?
    public init(contactID: Int64, uid: String, before: Contact?, after: Contact?) {
        self.contactID = contactID; self.uid = uid; self.before = before; self.after = after
    }
}

/// One contact's move between address books (`move`): the book it left, whether a pin had put
/// it there (else its link, or the default book), and the book it went to.
public struct BookChange: Equatable, Sendable {
    public let contactID: Int64
    public let from: String
    public let to: String
    public let fromPinned: Bool
    public init(contactID: Int64, from: String, to: String, fromPinned: Bool) {
        self.contactID = contactID; self.from = from; self.to = to; self.fromPinned = fromPinned
    }
}

/// One change set of the journal: what one command did to the book.
public struct ChangeSetRecord: Equatable, Sendable {
    public let id: Int64
    public let at: Date
    /// The front end it came from: `repl`, `line`, `rpc`, `mcp`, `sync`.
    public let origin: String
    public let kind: ChangeKind
    /// "deleted Bob Stone", "imported 3 contacts": data, capitalised and framed by Presenters.
    public let summary: String
    public let undone: Bool
    /// Each contact's before and after images (none for an import into an empty book until it is undone).
    public let entries: [ChangeEntry]
    /// An import into an empty book records only the range of ids it added.
    public let addedIDs: ClosedRange<Int64>?
    /// The contacts a `move` took from one book to another.
    public let moves: [BookChange]
    public init(
        id: Int64, at: Date, origin: String, kind: ChangeKind, summary: String, undone: Bool,
        entries: [ChangeEntry] = [], addedIDs: ClosedRange<Int64>? = nil, moves: [BookChange] = []
    ) {
        self.id = id; self.at = at; self.origin = origin; self.kind = kind; self.summary = summary
        self.undone = undone; self.entries = entries; self.addedIDs = addedIDs; self.moves = moves
    }
}

/// A deleted contact, kept whole until it is restored or purged.
public struct TrashedContact: Equatable, Sendable {
    public let contact: Contact
    public let deletedAt: Date
    public init(contact: Contact, deletedAt: Date) { self.contact = contact; self.deletedAt = deletedAt }
}

/// Why the journal refused an undo, a redo or a restore; nothing was changed.
public enum JournalRefusal: Error, Equatable {
    case nothingToUndo
    case nothingToRedo
    /// A later change set (`later`) touched a contact of `change`: undoing would overwrite it.
    case changedLater(change: ChangeSetRecord, later: ChangeSetRecord)
    /// The contact is no longer as `change` left it (changed outside the journal, or gone).
    case changedSince(change: ChangeSetRecord, contactID: Int64)
    /// No contact in the trash is named so.
    case notInTrash(String)
    /// No change set of that number (pruned, purged or never made), or it is undone already.
    case noSuchChange(Int64)
    /// A move's book is read-only now (`readOnly`), or no longer exists: its contacts stay put.
    case bookUnavailable(change: ChangeSetRecord, book: String, readOnly: Bool)
}

/// How long the journal keeps change sets: both bounds apply, whichever drops more.
/// Pruned every `pruneEvery` change sets, in the transaction that records one.
public struct JournalRetention: Equatable, Sendable {
    public var days: Int
    public var changeSets: Int
    public var pruneEvery: Int64
    public init(days: Int = 90, changeSets: Int = 10_000, pruneEvery: Int64 = 32) {
        self.days = days; self.changeSets = changeSets; self.pruneEvery = pruneEvery
    }

    /// The defaults, overridden by `CONTACTSBOOK_HISTORY_DAYS` and `CONTACTSBOOK_HISTORY_CHANGES`.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> JournalRetention
    {
        var retention = JournalRetention()
        if let days = environment["CONTACTSBOOK_HISTORY_DAYS"].flatMap(Int.init), days > 0 { retention.days = days }
        if let count = environment["CONTACTSBOOK_HISTORY_CHANGES"].flatMap(Int.init), count > 0 {
            retention.changeSets = count
        }
        return retention
    }
}

/// The writes of one change set (`ContactJournal.recordChangeSet`): each is journalled with
/// its before and after images, in the change set's transaction.
public protocol JournalWriter: AnyObject {
    /// Stores a new contact (rules of `ContactStore.insert`); with `keepingID`, under the id it has.
    func insert(_ contact: Contact, keepingID: Bool) throws -> Contact
    /// Replaces a stored contact if its stored version is still `contact.version`.
    func update(_ contact: Contact) throws -> Contact
    /// Deletes a contact (only if still at `expectedVersion`, when given); `toTrash` keeps it in the trash.
    func delete(id: Int64, expectedVersion: Int?, toTrash: Bool) throws -> Contact
    func contact(id: Int64) throws -> Contact?
}

/// The book's change journal: every change set is written in the same transaction as the
/// change it records, so a crash leaves both or neither.
///
/// Sync and merges record their work through `recordChangeSet`: one change set per sync, each
/// contact's before and after image, undoable like any other.
public protocol ContactJournal: AnyObject {
    /// Runs `body` in one write transaction as one change set of `kind`, from `origin` (nil:
    /// the journal's own, the session's front end). All its writes, or none, are stored.
    func recordChangeSet<T>(
        kind: ChangeKind, summary: String, origin: String?,
        _ body: (JournalWriter) throws -> T
    ) throws -> T
    /// Takes back the most recent change set not undone yet, or the one numbered `changeSet`;
    /// returns it.
    func undo(changeSet: Int64?) throws -> ChangeSetRecord
    /// Applies again the change set undone last (when nothing was changed since); returns it.
    func redo() throws -> ChangeSetRecord
    /// Change sets newest first; with `contactID`, only those touching that contact.
    func history(contactID: Int64?, limit: Int) throws -> [ChangeSetRecord]
    /// Deleted contacts, most recently deleted first.
    func trash() throws -> [TrashedContact]
    /// Brings a trashed contact back whole (same id and UID) as a `restore` change set.
    func restore(id: Int64) throws -> Contact
    /// Erases trashed contacts for good (one, or all when nil), and their images in the journal.
    /// Returns how many were erased.
    func purge(id: Int64?) throws -> Int
    /// The journal's clock: it moves on with every change set recorded, undone or redone.
    func lastSequence() throws -> Int64
    /// What other sessions did after `sequence`, oldest first, and the sequence reached.
    func changes(after sequence: Int64) throws -> (changes: [JournalChange], sequence: Int64)
}

/// One change set as a notice for other sessions: ids and what happened to them.
public struct JournalChange: Hashable, Sendable {
    /// `created`, `updated`, `deleted` (the kinds of `DataChange`).
    public let kind: String
    public let ids: [Int64]
    public init(kind: String, ids: [Int64]) { self.kind = kind; self.ids = ids }
}
