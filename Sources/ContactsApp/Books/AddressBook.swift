import Foundation

/// One address book of the book file (issue 30): the local one, or one collection of a CardDAV
/// account. A contact is in exactly one: the book of its sync link, else the one it was moved
/// to, else the default book (where new contacts go).
public struct AddressBook: Equatable, Sendable {
    /// The local book's name: contacts that live only in this file.
    public static let localName = "local"

    /// What the person types (`list --book NAME`, `move ... NAME`); unique in the file. An
    /// account's sync links name their book by it.
    public var name: String
    /// The account it belongs to; nil for the local book.
    public var account: String?
    /// The collection's URL; nil for the local book.
    public var url: String?
    /// The server's `displayname`.
    public var displayName: String
    /// The server takes vCard 4.0.
    public var acceptsVCard4: Bool
    /// The RFC 6578 token of this book's last sync.
    public var syncToken: String?
    /// The server does not let us write it (`current-user-privilege-set` without `write`).
    public var serverReadOnly: Bool
    /// The person marked it read-only (`book readonly NAME on`).
    public var markedReadOnly: Bool
    /// New contacts go here.
    public var isDefault: Bool
    /// How many contacts it holds (filled by `addressBooks()`).
    public var count: Int

    public init(
        name: String, account: String? = nil, url: String? = nil, displayName: String = "",
        acceptsVCard4: Bool = false, syncToken: String? = nil, serverReadOnly: Bool = false,
        markedReadOnly: Bool = false, isDefault: Bool = false, count: Int = 0
    ) {
        self.name = name; self.account = account; self.url = url; self.displayName = displayName
        self.acceptsVCard4 = acceptsVCard4; self.syncToken = syncToken; self.serverReadOnly = serverReadOnly
        self.markedReadOnly = markedReadOnly; self.isDefault = isDefault; self.count = count
    }

    public var isReadOnly: Bool { serverReadOnly || markedReadOnly }
    public var isLocal: Bool { account == nil }
}

/// A contact taken out of a server's book (`move`), whose card there is still to delete: kept
/// until the contact is on the server of its new book (the PUT first), then deleted (the
/// DELETE); a DELETE that fails leaves it for the next sync.
public struct BookMove: Equatable, Sendable {
    public var contactID: Int64
    public var fromBook: String
    public var href: String
    public var etag: String
    public var toBook: String

    public init(contactID: Int64, fromBook: String, href: String, etag: String, toBook: String) {
        self.contactID = contactID; self.fromBook = fromBook; self.href = href; self.etag = etag; self.toBook = toBook
    }
}

/// Where the books are kept (`SQLiteContactStore+Books.swift`). A store without it (the
/// in-memory one of the unit tests) has the local book alone, writable.
public protocol AddressBookStore: AnyObject {
    /// Every book, the local one first, then by name; with `counting`, each with its count
    /// (a pass over every contact).
    func addressBooks(counting: Bool) throws -> [AddressBook]
    /// Whether there is more than one book: what `addressBooks(counting: false).count > 1` says.
    func hasSeveralBooks() throws -> Bool
    /// The book of each contact of `ids`.
    func bookNames(of ids: [Int64]) throws -> [Int64: String]
    func setBookReadOnly(_ name: String, _ readOnly: Bool) throws
    func setDefaultBook(_ name: String) throws
    /// Puts the contacts in `book`, in one transaction: a contact linked to another server book
    /// leaves its link for a `BookMove`; one not yet on a server is pinned to `book`.
    /// With a `summary`, one change set of the journal (`undo` moves them back); without, not
    /// journalled.
    func move(_ ids: [Int64], to book: String, summary: String?) throws
    /// Inserts new contacts straight into `book` (which exists), in one change set saying
    /// `summary`: one `undo` takes every copy back, and a `redo` puts them in that book again.
    func insertCopies(_ contacts: [Contact], into book: String, summary: String) throws -> [Contact]
    /// The moves whose DELETE is still to send, from the books of `account`.
    func pendingMoves(account: String) throws -> [BookMove]
    /// The move's card was deleted (or is gone): forgotten.
    func finishMove(_ move: BookMove) throws
    /// Whether the contact is on the server of its new book (or its new book is local, or it is gone).
    func moveIsReady(_ move: BookMove) throws -> Bool
    /// Records what the server says of a book's rights, found again at each sync.
    func setServerReadOnly(_ name: String, _ readOnly: Bool) throws
}

extension AddressBookStore {
    public func move(_ ids: [Int64], to book: String) throws { try move(ids, to: book, summary: nil) }
}

extension AddressBookStore {
    public func hasSeveralBooks() throws -> Bool { try addressBooks(counting: false).count > 1 }
}
