import Foundation

/// A `ContactStore` in a dictionary, for unit tests of Workers and scenes.
///
/// It follows `SQLiteContactStore`'s rules exactly (same `ContactSearch` matching, same
/// `ContactKeys` sort keys compared byte-wise like SQLite, same versions and errors), so a
/// test that passes here means the same against the real store. The shared store test suite
/// runs against both to keep it that way.
public final class InMemoryContactStore: ContactStore {
    private var contacts: [Int64: Contact] = [:]
    private var lastID: Int64 = 0
    private let lock = NSLock()

    public init(_ seed: [Contact] = []) {
        for contact in seed { _ = try? insert(contact) }
    }

    public func page(_ query: ContactQuery) throws -> ContactPage {
        let search = ContactSearch(query.search)
        let matches = sorted(query.sort).filter {
            search.matches(words: ContactSearch.words(ContactKeys.searchText($0)), phoneDigits: $0.phoneDigits)
        }
        let (limit, offset) = query.window
        let start = min(offset, matches.count)
        let end = start + min(limit, matches.count - start)
        return ContactPage(contacts: Array(matches[start..<end]), total: matches.count)
    }

    public func contact(id: Int64) throws -> Contact? {
        lock.withLock { contacts[id] }
    }

    public func insert(_ contact: Contact) throws -> Contact {
        guard !contact.uid.isEmpty else { throw ContactStoreError.storage("missing uid") }
        return try lock.withLock {
            guard !contacts.values.contains(where: { $0.uid == contact.uid }) else {
                throw ContactStoreError.storage("Another contact already has this UID.")
            }
            lastID += 1
            var saved = contact
            saved.id = lastID
            saved.version = 1
            contacts[lastID] = saved
            return saved
        }
    }

    public func update(_ contact: Contact) throws -> Contact {
        guard let id = contact.id else { throw ContactStoreError.storage("The contact was never saved.") }
        return try lock.withLock {
            try check(id: id, expected: contact.version)
            guard !contacts.values.contains(where: { $0.uid == contact.uid && $0.id != id }) else {
                throw ContactStoreError.storage("Another contact already has this UID.")
            }
            var saved = contact
            saved.version += 1
            contacts[id] = saved
            return saved
        }
    }

    public func delete(id: Int64, expectedVersion: Int?) throws {
        try lock.withLock {
            try check(id: id, expected: expectedVersion)
            contacts[id] = nil
        }
    }

    public func position(of id: Int64, sort: SortOrder) throws -> Int {
        guard let index = sorted(sort).firstIndex(where: { $0.id == id }) else {
            throw ContactStoreError.notFound(id: id)
        }
        return index
    }

    /// Sorted by (sort key, id) with keys compared as UTF-8 bytes, as SQLite's BINARY collation does.
    private func sorted(_ order: SortOrder) -> [Contact] {
        lock.withLock { Array(contacts.values) }
            .map { (key: ContactKeys.sortKey($0, order), contact: $0) }
            .sorted { a, b in
                a.key.utf8.elementsEqual(b.key.utf8) ? a.contact.id! < b.contact.id! : a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
            }
            .map(\.contact)
    }

    private func check(id: Int64, expected: Int?) throws {
        guard let stored = contacts[id] else { throw ContactStoreError.notFound(id: id) }
        if let expected, stored.version != expected {
            throw ContactStoreError.staleVersion(id: id, expected: expected, actual: stored.version)
        }
    }
}
