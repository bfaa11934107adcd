import Foundation

/// What the list asks the store for: one page of contacts, optionally filtered by a search.
public struct ContactQuery: Equatable, Sendable {
    /// Free text; every whitespace-separated term must match a name, nickname, organisation,
    /// email, tag, note or address (word prefixes, case- and diacritic-insensitive; a term of
    /// 3 letters or more also inside words, those matches after the word-start ones) or phone
    /// (digits, any formatting). See `ContactSearch`.
    public var search: String
    public var sort: SortOrder
    /// 1-based page number.
    public var page: Int
    public var limit: Int
    /// Whether the page says where the search found each contact (`ContactPage.matches`); a
    /// mail client's query prints none of it, and working it out cost that command a tenth of
    /// its start-up (bench/STARTUP.md).
    public var locatesMatches: Bool
    /// Only the members of a group, or only the contacts in none (`list --group`, `--ungrouped`).
    public var group: GroupFilter?
    /// Only the contacts of this address book (`list --book NAME`); nil: every book.
    public var book: String?
    /// Whether a page past the end answers the last page (the list's `next` on its last page, or
    /// rows deleted meanwhile) rather than none: the store decides it from the total it counts
    /// in the same read, so the list reads one page, not an empty one and then the last.
    /// The page served is then `lastPage(total:)`.
    public var lastPageWhenPastTheEnd: Bool

    public init(
        search: String = "", sort: SortOrder = .last, page: Int = 1, limit: Int = 20, locatesMatches: Bool = true,
        group: GroupFilter? = nil, book: String? = nil, lastPageWhenPastTheEnd: Bool = false
    ) {
        self.search = search; self.sort = sort; self.page = page; self.limit = limit
        self.locatesMatches = locatesMatches; self.group = group; self.book = book
        self.lastPageWhenPastTheEnd = lastPageWhenPastTheEnd
    }

    /// The number of the last page of `total` contacts (1 when there are none).
    public func lastPage(total: Int) -> Int { max(1, (total + max(limit, 1) - 1) / max(limit, 1)) }
}

/// One page of a query's results and the total number of matches.
public struct ContactPage: Equatable, Sendable {
    public var contacts: [Contact]
    public var total: Int
    /// For a search, where it found each contact of the page, by contact id (`SearchMatch`).
    public var matches: [Int64: SearchMatch]
    /// The book of each contact of the page, when the file has more than one book in use
    /// (filled by `ContactsWorker`); empty otherwise.
    public var books: [Int64: String] = [:]
    public init(contacts: [Contact], total: Int, matches: [Int64: SearchMatch] = [:]) {
        self.contacts = contacts; self.total = total; self.matches = matches
    }
}

/// Which field of a contact a search matched, and that field's text (one email, one tag, the
/// note, one address): what a list shows beside a row found by something other than its name.
public struct SearchMatch: Equatable, Sendable {
    /// In the order a search looks at them.
    public enum Field: String, CaseIterable, Sendable {
        case name, nickname, organization, email, tag, note, address, website, phone
    }
    public var field: Field
    public var text: String
    public init(field: Field, text: String) { self.field = field; self.text = text }
}

/// Why the store refused an operation.
public enum ContactStoreError: Error, Equatable {
    case notFound(id: Int64)
    /// Someone else saved the contact after the edit started; nothing was written.
    case staleVersion(id: Int64, expected: Int, actual: Int)
    /// The storage itself failed (disk, corruption, locking); the message is for people.
    case storage(String)
}

/// Where contacts live. Workers use this protocol; `SQLiteContactStore` is the real one,
/// `InMemoryContactStore` serves unit tests.
public protocol ContactStore: AnyObject {
    /// One page of contacts in sort order, paged by the store (never the whole book).
    func page(_ query: ContactQuery) throws -> ContactPage
    func contact(id: Int64) throws -> Contact?
    /// Stores a new contact; returns it with its id and `version` 1.
    /// The caller sets `uid`, `createdAt` and `updatedAt`.
    func insert(_ contact: Contact) throws -> Contact
    /// Replaces a stored contact if its stored version is still `contact.version`;
    /// returns it with the version incremented. Throws `staleVersion` or `notFound` otherwise.
    func update(_ contact: Contact) throws -> Contact
    /// Deletes a contact; with `expectedVersion`, only if nobody changed it since.
    func delete(id: Int64, expectedVersion: Int?) throws
    /// 0-based position of a contact in the whole book in the given order.
    func position(of id: Int64, sort: SortOrder) throws -> Int
    /// The stored contacts whose UID is one of `uids`, so an import can match its cards to the
    /// contacts they came from. Several may share a UID (cards of two servers, or two cards of
    /// one): they come in id order, the oldest first, the one a UID names.
    func contacts(uids: [String]) throws -> [Contact]
    /// Saves an import in one transaction: every insert and every update (each with the rules
    /// of `insert` and `update`), or, if any one of them fails, none at all.
    /// Returns the saved contacts, inserts first, each list in the order given.
    func importContacts(inserting: [Contact], updating: [Contact]) throws -> [Contact]
    /// Saves an import that arrives in batches, all in one transaction: `body` looks up and
    /// saves batch after batch through the transaction it is handed; if it throws, or any save
    /// fails, nothing at all is saved. Returns the ids added and updated, in the order saved.
    /// A large file is read and saved a batch at a time this way, never held whole in memory.
    func importInBatches(_ body: (ContactImportTransaction) throws -> Void) throws -> ImportedIDs
    /// Hands every contact matching `search`, in sort order, to `body` in batches of at most
    /// `batchSize`; returns how many there were. An export walks the book this way: never the
    /// whole book in memory, and never a page found by skipping all the rows before it.
    func forEachBatch(search: String, sort: SortOrder, batchSize: Int, _ body: ([Contact]) throws -> Void) throws -> Int
    /// As `forEachBatch`, for a vCard export: a contact that keeps its card (`Contact.card`) may
    /// come with only what `VCardWriter` writes a carded contact from (its card, UID and the
    /// parts of its name), its other fields empty.
    func forEachBatchForVCardExport(
        search: String, sort: SortOrder, batchSize: Int,
        _ body: ([Contact]) throws -> Void
    ) throws -> Int
    /// The duplicate index's keys shared by two contacts or more (`SharedMatchKey`), phones in
    /// their international form with `defaultCountry` (`MatchKeys.phone`).
    func sharedMatchKeys(defaultCountry: String?) throws -> [SharedMatchKey]
    /// The contacts with these ids that exist, in the order asked.
    func contacts(ids: [Int64]) throws -> [Contact]
    /// The UIDs held by two contacts or more (cards of two servers, or two cards of one), each
    /// with its contacts' ids, ascending.
    func sharedUIDs() throws -> [String: [Int64]]
    /// Every contact with a birthday, in no particular order.
    func contactsWithBirthdays() throws -> [Contact]
    /// The ids of the contacts holding each email key (`MatchKeys.email`), for the keys held by
    /// any: whether an editor's recipients are in the book, in one look-up.
    func contactIDs(withEmailKeys keys: [String]) throws -> [String: [Int64]]
    /// Saves a merge in one transaction: `kept` updated (the rules of `update`) and every one of
    /// `removing` deleted, each only if nobody changed it since its `version`; if any step fails,
    /// nothing is written. Returns `kept` as saved.
    func merge(keeping kept: Contact, removing: [Contact]) throws -> Contact
}

/// One import's transaction, as `ContactStore.importInBatches` hands it out.
public protocol ContactImportTransaction: AnyObject {
    /// The stored contacts whose UID is one of `uids`, as `ContactStore.contacts(uids:)`.
    func contacts(uids: [String]) throws -> [Contact]
    /// Saves one batch, each contact with the rules of `insert` and `update`.
    func save(inserting: [Contact], updating: [Contact]) throws
}

/// The ids an import added and updated. The added ones are kept as runs: an import's are
/// consecutive (one writer, one transaction), so a million of them take one range, not 8 MB.
public struct ImportedIDs: Equatable, Sendable {
    public var added = IDRuns()
    public var updated: [Int64] = []
    public init(added: [Int64] = [], updated: [Int64] = []) { self.added = IDRuns(added); self.updated = updated }
}

/// Contact ids in the order added, kept as runs of consecutive ids: memory grows with the
/// number of gaps, not of ids.
public struct IDRuns: Collection, Equatable, Sendable {
    public private(set) var runs: [ClosedRange<Int64>] = []
    public private(set) var count = 0

    public init() {}
    public init(_ ids: some Sequence<Int64>) { for id in ids { append(id) } }

    public mutating func append(_ id: Int64) {
        if let last = runs.last, last.upperBound < .max, id == last.upperBound + 1 {
            runs[runs.count - 1] = last.lowerBound...id
        } else {
            runs.append(id...id)
        }
        count += 1
    }

    public struct Index: Comparable, Sendable {
        let run: Int, offset: Int64
        public static func < (lhs: Index, rhs: Index) -> Bool { (lhs.run, lhs.offset) < (rhs.run, rhs.offset) }
    }
    public var startIndex: Index { Index(run: 0, offset: 0) }
    public var endIndex: Index { Index(run: runs.count, offset: 0) }
    public var isEmpty: Bool { runs.isEmpty }
    public var last: Int64? { runs.last?.upperBound }
    public subscript(position: Index) -> Int64 { runs[position.run].lowerBound + position.offset }
    public func index(after position: Index) -> Index {
        let run = runs[position.run]
        return run.lowerBound + position.offset < run.upperBound
            ? Index(run: position.run, offset: position.offset + 1) : Index(run: position.run + 1, offset: 0)
    }
}

extension ContactStore {
    /// Collects every batch and saves them with one `importContacts(inserting:updating:)` at the
    /// end: right for small stores; `SQLiteContactStore` saves each batch as it comes instead.
    public func importInBatches(_ body: (ContactImportTransaction) throws -> Void) throws -> ImportedIDs {
        let pending = CollectedImport(store: self)
        try body(pending)
        guard !pending.inserts.isEmpty || !pending.updates.isEmpty else { return ImportedIDs() }
        let saved = try importContacts(inserting: pending.inserts, updating: pending.updates)
        return ImportedIDs(
            added: saved.prefix(pending.inserts.count).compactMap(\.id),
            updated: pending.updates.compactMap(\.id))
    }

    /// Whole contacts: right for stores that hold them whole.
    public func forEachBatchForVCardExport(
        search: String, sort: SortOrder, batchSize: Int,
        _ body: ([Contact]) throws -> Void
    ) throws -> Int {
        try forEachBatch(search: search, sort: sort, batchSize: batchSize, body)
    }

    /// Page by page through `page(_:)`: right for small stores; `SQLiteContactStore` walks one cursor instead.
    public func forEachBatch(
        search: String, sort: SortOrder, batchSize: Int,
        _ body: ([Contact]) throws -> Void
    ) throws -> Int {
        var page = 1, count = 0
        while true {
            let chunk = try self.page(ContactQuery(search: search, sort: sort, page: page, limit: batchSize))
            guard !chunk.contacts.isEmpty else { break }
            try body(chunk.contacts)
            count += chunk.contacts.count
            if count >= chunk.total { break }
            page += 1
        }
        return count
    }
}

/// The batches of an import, kept until the end (see `ContactStore.importInBatches`).
private final class CollectedImport: ContactImportTransaction {
    let store: ContactStore
    var inserts: [Contact] = [], updates: [Contact] = []
    init(store: ContactStore) { self.store = store }
    func contacts(uids: [String]) throws -> [Contact] { try store.contacts(uids: uids) }
    func save(inserting: [Contact], updating: [Contact]) throws {
        inserts += inserting
        updates += updating
    }
}
