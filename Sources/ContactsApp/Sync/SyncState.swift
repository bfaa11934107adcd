import Foundation

/// Which side keeps its value when the same field was changed differently here and on the
/// server (`account add|set --conflicts`). The other value stays in the contact's history.
public enum ConflictWinner: String, CaseIterable, Equatable, Sendable {
    /// The server's value wins: what the user's phone shows (the default).
    case server
    /// The value edited here wins and is sent to the server.
    case local
}

/// A CardDAV account: where its address book is and who to sign in as. The password is never
/// stored: `passwordCommand` is run at each sync.
public struct SyncAccount: Equatable, Sendable {
    public var name: String
    /// The URL the user gave (discovery started there).
    public var serverURL: String
    /// The address book discovery found (or `--book` chose).
    public var bookURL: String
    public var user: String
    public var passwordCommand: String?
    /// The server takes vCard 4.0; we send 3.0 otherwise.
    public var acceptsVCard4: Bool
    /// The RFC 6578 token of the last sync; nil before the first.
    public var syncToken: String?
    /// New local contacts go to the default account; with none, they stay local-only.
    public var isDefault: Bool
    /// Who wins a field changed differently on both sides.
    public var conflicts: ConflictWinner
    /// When syncing one book: the server does not let us write it, or the person marked it
    /// read-only. Nothing is pushed to it.
    public var readOnly = false

    public init(
        name: String, serverURL: String, bookURL: String, user: String, passwordCommand: String? = nil,
        acceptsVCard4: Bool = false, syncToken: String? = nil, isDefault: Bool = false,
        conflicts: ConflictWinner = .server
    ) {
        self.name = name; self.serverURL = serverURL; self.bookURL = bookURL; self.user = user
        self.passwordCommand = passwordCommand; self.acceptsVCard4 = acceptsVCard4
        self.syncToken = syncToken; self.isDefault = isDefault; self.conflicts = conflicts
    }
}

/// What the book knows of one contact on one account's server.
public struct SyncItem: Equatable, Sendable {
    public var account: String
    public var href: String
    public var contactID: Int64
    /// The server's ETag when last synced; meaningless while `onServer` is false.
    public var etag: String
    /// The vCard text last synced: the base of the three-way merge.
    public var base: String
    /// The contact's `version` when last synced: another version means a local edit to push.
    public var syncedVersion: Int
    /// False for a contact that must be created on the server again (it was deleted there
    /// while edited here: the edit wins).
    public var onServer: Bool

    public init(
        account: String, href: String, contactID: Int64, etag: String, base: String, syncedVersion: Int,
        onServer: Bool = true
    ) {
        self.account = account; self.href = href; self.contactID = contactID; self.etag = etag
        self.base = base; self.syncedVersion = syncedVersion; self.onServer = onServer
    }
}

/// The local side of one pull, written in one transaction (`SyncStateStore.apply`): a sync cut
/// off before it leaves the book as it was, and the next sync starts again from the old token.
public struct SyncPull: Equatable, Sendable {
    public enum Write: Equatable, Sendable {
        /// A card new here: the contact is inserted and linked to `href`.
        case insert(Contact, href: String, etag: String, base: String)
        /// A stored contact replaced (checked against its version); with `pushPending` the
        /// merged result still has local changes to send.
        case update(Contact, href: String, etag: String, base: String, pushPending: Bool)
        /// A card deleted on the server and unchanged here: the contact goes too.
        case delete(contactID: Int64, version: Int, href: String)
        /// The link to `href` set as it is (the contact itself untouched).
        case link(SyncItem)
        /// The link to `href` dropped (its contact was already deleted here).
        case forget(href: String)
    }

    public var account: String
    public var writes: [Write] = []
    /// The token to keep once the writes are saved.
    public var token: String?

    public init(account: String, writes: [Write] = [], token: String? = nil) {
        self.account = account; self.writes = writes; self.token = token
    }
}

/// The contacts a sync created, updated or deleted here, for the session's change notices.
public struct SyncedChanges: Equatable, Sendable {
    public var created: [Int64] = []
    public var updated: [Int64] = []
    public var deleted: [Int64] = []

    public init(created: [Int64] = [], updated: [Int64] = [], deleted: [Int64] = []) {
        self.created = created; self.updated = updated; self.deleted = deleted
    }
}

/// A contact holding a UID, and where it is linked: what decides whether a server's card with
/// that UID may be matched to it (`SyncWorker`: only a contact linked nowhere is).
public struct UIDHolder: Equatable, Sendable {
    public var contact: Contact
    /// The account and href it is linked to; nil for a contact linked to no account.
    public var account: String?
    public var href: String?

    public init(contact: Contact, account: String? = nil, href: String? = nil) {
        self.contact = contact; self.account = account; self.href = href
    }
}

/// Where sync keeps its accounts and per-contact state, beside the contacts
/// (`SQLiteContactStore+Sync.swift`).
public protocol SyncStateStore: AnyObject {
    func accounts() throws -> [SyncAccount]
    /// Adds an account; the first one added becomes the default. Throws if the name is taken.
    func addAccount(_ account: SyncAccount) throws
    /// Changes an account's settings: who wins conflicts (when given), and with `makeDefault`
    /// makes it the default (the others stop being it). Throws if there is no such account.
    func updateAccount(named name: String, conflicts: ConflictWinner?, makeDefault: Bool) throws
    /// Removes an account and its links; its contacts stay in the book, local-only. Returns how
    /// many contacts were linked to it.
    func removeAccount(named name: String) throws -> Int
    /// The links of `account` without their bases (`base` empty): what a sync compares on every
    /// run, without reading every card's text back (3.4 MB for 5,000 cards).
    func itemsWithoutBase(account: String) throws -> [SyncItem]
    /// The vCard last synced at `href`: the base of a merge.
    func base(account: String, href: String) throws -> String?
    /// The contacts linked to `account` with an edit not yet sent (or not on the server).
    func changedContacts(account: String) throws -> [Contact]
    /// The contacts linked to no book that go to `book`: moved there, or in no book of their
    /// own when it is the default book.
    func unlinkedContacts(book: String, isDefault: Bool) throws -> [Contact]
    /// The token of `book`'s last sync.
    func syncToken(book: String) throws -> String?
    /// The hrefs of `book` whose contacts were moved to another book and whose DELETE is still
    /// to send: not pulled back in as new contacts.
    func movingHrefs(book: String) throws -> Set<String>
    /// Adds an account with the books chosen (`addAccount` adds one, named as the account).
    func addAccount(_ account: SyncAccount, books: [AddressBook]) throws
    /// The contacts whose UID is one of `uids`, each with its link, oldest first.
    func holders(uids: [String]) throws -> [UIDHolder]
    /// The links of `account` whose contact was deleted here.
    func orphanedItems(account: String) throws -> [SyncItem]
    /// Applies a pull in one transaction: every write and the token, or nothing. Returns the
    /// contacts it created, updated and deleted here.
    @discardableResult
    func apply(_ pull: SyncPull) throws -> SyncedChanges
    /// Applies a pull whose writes come in batches, in one transaction all the same: `body`
    /// runs inside it and hands each batch to `write` as it comes (the download of the next
    /// goes on meanwhile), with, for each write, nil or what `prepareForImport` gave for the
    /// contact it inserts (worked out on the downloading thread); the token, asked once `body`
    /// is done (a first download learns it from the listing that brings the cards), is kept
    /// after the last. A throw from `body` rolls back everything. `large`: thousands of writes,
    /// written as an import is.
    func apply(
        account: String, token: () -> String?, large: Bool,
        _ body: (_ write: ([SyncPull.Write], [PreparedContact?]) throws -> Void) throws -> Void
    ) throws -> SyncedChanges
    /// What the store can work out for a contact it will insert before the transaction that
    /// inserts it (`ImportSessionStore.prepareForImport`); nil when it has nothing to prepare.
    func prepareForInsert(_ contact: Contact) -> PreparedContact?
    /// Whether another thread may read the book while a write transaction is open (a book in a
    /// file, in WAL mode: the reads see it as it was before); false for an in-memory one.
    var readsDuringWrites: Bool { get }
    /// Records one push: the link as it now is.
    func link(_ item: SyncItem) throws
    func forget(account: String, href: String) throws
}

extension SyncStateStore {
    /// The writes gathered, then applied as one pull.
    public func apply(
        account: String, token: () -> String?, large: Bool,
        _ body: (_ write: ([SyncPull.Write], [PreparedContact?]) throws -> Void) throws -> Void
    ) throws -> SyncedChanges {
        var pull = SyncPull(account: account, token: nil)
        try body { writes, _ in pull.writes += writes }
        pull.token = token()
        return try apply(pull)
    }

    public func prepareForInsert(_ contact: Contact) -> PreparedContact? { nil }

    public var readsDuringWrites: Bool { false }

    public func syncToken(book: String) throws -> String? { try accounts().first { $0.name == book }?.syncToken }

    public func movingHrefs(book: String) throws -> Set<String> { [] }

    public func addAccount(_ account: SyncAccount, books: [AddressBook]) throws { try addAccount(account) }
}
