import Foundation

/// A group and how many members it has, as `groups` lists them.
public struct GroupSummary: Equatable, Sendable {
    public let group: ContactGroup
    /// The members whose card is in this book (the others are kept, and counted in `group.members`).
    public let inBook: Int
    public init(group: ContactGroup, inBook: Int) { self.group = group; self.inBook = inBook }
}

/// Where groups live, beside the contacts: a group is a card of its own, never a person, so it
/// is in none of the contacts' pages, searches, counts, duplicates or birthdays. Every write is
/// journalled as a change set of its own (`undo` takes it back).
public protocol ContactGroupStore: AnyObject {
    /// Every group, by name (case-insensitive), then id.
    func groups() throws -> [GroupSummary]
    /// Every group's id and name, by name: all a mail client's query reads to match names.
    func groupNames() throws -> [(id: Int64, name: String)]
    /// The groups a contact with this UID is a member of, by name.
    func groups(containing uid: String) throws -> [ContactGroup]
    /// A group's members whose card is in this book, in last-name order, with what a mail
    /// client's line needs: id, UID, the name's parts and order, organisation and emails (a
    /// store may leave every other field empty).
    func mailContacts(inGroup id: Int64) throws -> [Contact]
    /// Saves a group in one change set of `kind` saying `summary`: a new one (no id) is inserted
    /// with version 1; a stored one is replaced if its stored version is still `group.version`.
    func saveGroup(_ group: ContactGroup, kind: ChangeKind, summary: String) throws -> ContactGroup
    /// Deletes a group (its card; its members stay) if nobody changed it since its version.
    func deleteGroup(_ group: ContactGroup, summary: String) throws
    /// Saves groups read from a file in one change set: each inserted, or, when a group with its
    /// UID is stored, replacing it. Returns how many were added and updated.
    func importGroups(_ groups: [ContactGroup], summary: String) throws -> (added: Int, updated: Int)
}

/// A group's card on a CardDAV server: where, its ETag, the card as the server last had it
/// (the base of the three-way merge of members), and ours as it was then.
public struct GroupLink: Equatable, Sendable {
    public var account: String
    public var href: String
    public var uid: String
    public var etag: String
    public var base: String
    public var card: String
    public init(account: String, href: String, uid: String, etag: String, base: String, card: String) {
        self.account = account; self.href = href; self.uid = uid; self.etag = etag; self.base = base; self.card = card
    }
}

/// Where sync keeps its links to groups' cards (the SQLite book; the in-memory store syncs nothing).
public protocol GroupSyncStore: AnyObject {
    func groupLinks(account: String) throws -> [GroupLink]
    func linkGroup(_ link: GroupLink) throws
    func forgetGroup(account: String, href: String) throws
    /// The UIDs of the groups linked to any account.
    func allGroupUIDs() throws -> [String]
    /// The books (sync links' account names) a group's card is linked to.
    func groupBooks(uid: String) throws -> [String]
    /// `group new NAME --book B`: the group goes to book `B` at its first push, not to the default book.
    func setGroupBook(uid: String, book: String) throws
    /// Each group's book chosen so (by UID).
    func chosenGroupBooks() throws -> [String: String]
}
