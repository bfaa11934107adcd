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
    /// The addresses seen in mail, by `MatchKeys.email` (`SeenAddressStore`).
    private var seen: [String: SeenAddress] = [:]
    /// The groups, by id (`ContactGroupStore`); no journal here.
    private var groupsByID: [Int64: ContactGroup] = [:]
    private var lastGroupID: Int64 = 0

    public init(_ seed: [Contact] = []) {
        for contact in seed { _ = try? insert(contact) }
    }

    public func page(_ query: ContactQuery) throws -> ContactPage {
        if let filter = query.group { return groupPage(query, filter) }
        let search = ContactSearch(query.search)
        var atWordStarts: [Contact] = [], insideOnly: [Contact] = []
        for contact in sorted(query.sort) {
            let words = ContactSearch.words(ContactKeys.searchText(contact))
            if search.matches(words: words, phoneDigits: contact.phoneDigits, inside: false) {
                atWordStarts.append(contact)
            } else if search.matches(words: words, phoneDigits: contact.phoneDigits) {
                insideOnly.append(contact)
            }
        }
        // Matches at word starts first, then those found only inside words, each in sort order.
        let matches = atWordStarts + insideOnly
        let (limit, offset) = query.window(total: matches.count)
        func ordinary(_ offset: Int, _ limit: Int) -> [Contact] {
            let start = min(offset, matches.count)
            return Array(matches[start..<start + min(limit, matches.count - start)])
        }
        // A search puts the contacts a person writes to first, as the SQLite store does.
        let ranked = search.isEmpty ? [] : rankedMatches(matches)
        let page =
            ranked.isEmpty
            ? ordinary(offset, limit)
            : try Frecency.page(ranked: ranked, offset: offset, limit: limit, ordinary: ordinary)
        return ContactPage(
            contacts: page, total: matches.count, matches: query.locatesMatches ? search.matches(on: page) : [:])
    }

    public func contact(id: Int64) throws -> Contact? {
        lock.withLock { contacts[id] }
    }

    public func insert(_ contact: Contact) throws -> Contact {
        try lock.withLock { try insert(contact, into: &contacts) }
    }

    public func update(_ contact: Contact) throws -> Contact {
        try lock.withLock { try update(contact, in: &contacts) }
    }

    public func contacts(uids: [String]) throws -> [Contact] {
        let wanted = Set(uids)
        return lock.withLock {
            contacts.values.filter { wanted.contains($0.uid) }.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
        }
    }

    /// Applies the batch to a copy of the book and keeps the copy only if every save succeeded,
    /// as SQLite's transaction does.
    public func importContacts(inserting: [Contact], updating: [Contact]) throws -> [Contact] {
        try lock.withLock {
            var book = contacts
            let savedLastID = lastID
            do {
                let inserted = try inserting.map { try insert($0, into: &book) }
                let updated = try updating.map { try update($0, in: &book) }
                contacts = book
                return inserted + updated
            } catch {
                lastID = savedLastID
                throw error
            }
        }
    }

    private func insert(_ contact: Contact, into book: inout [Int64: Contact]) throws -> Contact {
        guard !contact.uid.isEmpty else { throw ContactStoreError.storage("missing uid") }
        lastID += 1
        var saved = contact
        saved.id = lastID
        saved.version = 1
        book[lastID] = saved
        return saved
    }

    private func update(_ contact: Contact, in book: inout [Int64: Contact]) throws -> Contact {
        guard let id = contact.id else { throw ContactStoreError.storage("The contact was never saved.") }
        try check(id: id, expected: contact.version, in: book)
        var saved = CardPatch.reconciled(contact)
        saved.version += 1
        book[id] = saved
        return saved
    }

    public func delete(id: Int64, expectedVersion: Int?) throws {
        try lock.withLock {
            try check(id: id, expected: expectedVersion, in: contacts)
            contacts[id] = nil
        }
    }

    /// On a copy of the book, kept only if the update and every delete succeeded.
    public func merge(keeping kept: Contact, removing: [Contact]) throws -> Contact {
        try lock.withLock {
            var book = contacts
            let saved = try update(kept, in: &book)
            for contact in removing {
                guard let id = contact.id else { throw ContactStoreError.storage("The contact was never saved.") }
                try check(id: id, expected: contact.version, in: book)
                book[id] = nil
            }
            contacts = book
            return saved
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
                a.key.utf8.elementsEqual(b.key.utf8)
                    ? a.contact.id! < b.contact.id! : a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
            }
            .map(\.contact)
    }

    private func check(id: Int64, expected: Int?, in book: [Int64: Contact]) throws {
        guard let stored = book[id] else { throw ContactStoreError.notFound(id: id) }
        if let expected, stored.version != expected {
            throw ContactStoreError.staleVersion(id: id, expected: expected, actual: stored.version)
        }
    }
}

extension InMemoryContactStore: ContactGroupStore {
    /// As `SQLiteContactStore.groupPage`: sort order, every match of a search, no ranking.
    private func groupPage(_ query: ContactQuery, _ filter: GroupFilter) -> ContactPage {
        let search = ContactSearch(query.search)
        let groups = lock.withLock { groupsByID }
        let members: Set<String>
        switch filter {
        case .members(let id): members = Set((groups[id]?.members ?? []).map(GroupCard.memberUID))
        case .ungrouped: members = Set(groups.values.flatMap(\.members).map(GroupCard.memberUID))
        }
        let wanted = sorted(query.sort).filter { contact in
            guard members.contains(GroupCard.memberUID(contact.uid)) == (filter != .ungrouped) else { return false }
            return search.isEmpty
                || search.matches(
                    words: ContactSearch.words(ContactKeys.searchText(contact)),
                    phoneDigits: contact.phoneDigits)
        }
        let (limit, offset) = query.window(total: wanted.count)
        let start = min(offset, wanted.count)
        let page = Array(wanted[start..<start + min(limit, wanted.count - start)])
        return ContactPage(
            contacts: page, total: wanted.count, matches: query.locatesMatches ? search.matches(on: page) : [:])
    }

    public func groups() throws -> [GroupSummary] {
        let uids = lock.withLock { Set(contacts.values.map { GroupCard.memberUID($0.uid) }) }
        return lock.withLock { Array(groupsByID.values) }.sorted(by: Self.byName).map { group in
            GroupSummary(group: group, inBook: group.members.map(GroupCard.memberUID).filter(uids.contains).count)
        }
    }

    public func groupNames() throws -> [(id: Int64, name: String)] {
        try groups().compactMap { summary in summary.group.id.map { ($0, summary.group.name) } }
    }

    public func mailContacts(inGroup id: Int64) throws -> [Contact] {
        groupPage(ContactQuery(sort: .last, page: 1, limit: .max, locatesMatches: false), .members(of: id)).contacts
    }

    public func groups(containing uid: String) throws -> [ContactGroup] {
        let key = GroupCard.memberUID(uid)
        return lock.withLock { groupsByID.values.filter { $0.members.map(GroupCard.memberUID).contains(key) } }.sorted(
            by: Self.byName)
    }

    public func saveGroup(_ group: ContactGroup, kind: ChangeKind, summary: String) throws -> ContactGroup {
        try lock.withLock { try save(group) }
    }

    public func deleteGroup(_ group: ContactGroup, summary: String) throws {
        try lock.withLock {
            guard let id = group.id, let stored = groupsByID[id] else {
                throw ContactStoreError.notFound(id: group.id ?? 0)
            }
            guard stored.version == group.version else {
                throw ContactStoreError.staleVersion(id: id, expected: group.version, actual: stored.version)
            }
            groupsByID[id] = nil
        }
    }

    public func importGroups(_ groups: [ContactGroup], summary: String) throws -> (added: Int, updated: Int) {
        try lock.withLock {
            var added = 0, updated = 0
            for group in groups {
                if let stored = groupsByID.values.first(where: { $0.uid == group.uid }) {
                    guard stored.card != group.card else { continue }
                    var changed = group
                    changed.id = stored.id; changed.version = stored.version; changed.createdAt = stored.createdAt
                    _ = try save(changed)
                    updated += 1
                } else {
                    var new = group
                    new.id = nil
                    _ = try save(new)
                    added += 1
                }
            }
            return (added, updated)
        }
    }

    private func save(_ group: ContactGroup) throws -> ContactGroup {
        var saved = group
        saved.members = GroupCard.read(group.card)?.members ?? group.members
        if let id = group.id {
            guard let stored = groupsByID[id] else { throw ContactStoreError.notFound(id: id) }
            guard stored.version == group.version else {
                throw ContactStoreError.staleVersion(id: id, expected: group.version, actual: stored.version)
            }
            saved.version += 1
        } else {
            lastGroupID += 1
            saved.id = lastGroupID
            saved.version = 1
        }
        groupsByID[saved.id!] = saved
        return saved
    }

    private static func byName(_ a: ContactGroup, _ b: ContactGroup) -> Bool {
        let (x, y) = (a.name.lowercased(), b.name.lowercased())
        return x != y ? x < y : (a.id ?? 0) < (b.id ?? 0)
    }
}

extension InMemoryContactStore: SeenAddressStore {
    public func recordSeen(addresses: [String], at date: Date) throws {
        lock.withLock {
            for key in Set(addresses.compactMap(MatchKeys.email)) {
                let old = seen[key]
                seen[key] = SeenAddress(
                    address: key, count: (old?.count ?? 0) + 1, lastSeen: max(old?.lastSeen ?? date, date))
            }
        }
    }

    public func seenAddresses() throws -> [SeenAddress] {
        lock.withLock { seen.values.sorted { $0.address < $1.address } }
    }

    public func contacts(withEmail address: String) throws -> [Contact] {
        guard let key = MatchKeys.email(address) else { return [] }
        return lock.withLock {
            contacts.values.filter { $0.emails.contains { MatchKeys.email($0.value) == key } }.sorted {
                ($0.id ?? 0) < ($1.id ?? 0)
            }
        }
    }

    /// The matches holding an address seen, highest frecency first (`SQLiteContactStore.rankedMatches`).
    private func rankedMatches(_ matches: [Contact]) -> [Contact] {
        let seen = lock.withLock { self.seen }
        guard !seen.isEmpty else { return [] }
        let pairs = matches.flatMap { contact in
            Set(contact.emails.compactMap { MatchKeys.email($0.value) }).sorted().compactMap { key in
                seen[key].map { (contactID: contact.id ?? 0, seen: $0) }
            }
        }
        // The latest sighting of the whole book, as the SQLite store reads it.
        guard let latest = seen.values.map(\.lastSeen).max() else { return [] }
        let scores = Frecency.scores(pairs, latest: latest)
        return Frecency.ranked(matches.filter { scores[$0.id ?? 0] != nil }, scores: scores)
    }
}
