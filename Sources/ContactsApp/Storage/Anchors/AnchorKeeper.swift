import Foundation
import GRDB

/// Keeps the page anchors (`SQLiteContactStore+Anchors.swift`) in step with the writes of one
/// write transaction: `add` when a contact takes its place in an order (its row written),
/// `remove` when it leaves one, `finish` before the transaction commits. Usable only inside
/// that transaction; if it rolls back, so does everything the keeper wrote.
///
/// The rules, whatever the storage: the bucket holding the place gains or loses 1; a bucket
/// past 2B is split B entries after its anchor (a walk of the sort index); a bucket that holds,
/// with the one before it, B or fewer is merged into that one (never the first bucket).
///
/// Two ways to store them while the transaction runs:
/// - **in SQL** (`cached: false`), for a single save or delete: a seek of the anchors' primary
///   key and an UPDATE per change, a few µs.
/// - **in memory** (`cached: true`), for an import: both orders' anchors read once (~1,000 rows
///   each at 1M contacts), found by binary search, and written back by `finish`, only those
///   that changed. Per row in SQL (four more statements per card) an import took 20% more
///   CPU time than without anchors (10k cards, medians of 8 interleaved runs: 1.73 s → 2.08 s);
///   in memory, 1.77 s, and at 100k no difference the shared machine could show.
final class AnchorKeeper {
    typealias IndexEntry = SQLiteContactStore.IndexEntry

    private let db: Database
    private let bucket: Int
    private let cached: Bool
    private var orders: [SortOrder: CachedOrder] = [:]

    init(_ db: Database, bucket: Int, cached: Bool) {
        self.db = db
        self.bucket = max(1, bucket)
        self.cached = cached
    }

    /// A contact now sits at `entry` in `sort`'s order.
    func add(_ entry: IndexEntry, _ sort: SortOrder) throws {
        let table = try self.table(sort)
        var index = try table.holding(entry)
        var n = table.count(at: index) + 1
        try table.setCount(n, at: index)
        // Split off everything after the first B entries (more than once only if the book was
        // kept with a larger B than this store's).
        while n > 2 * bucket {
            let start = table.entry(at: index)
            guard let next = try SQLiteContactStore.entries(sort, from: start, skip: bucket, take: 1, db).first
            else { break }
            try table.setCount(bucket, at: index)
            n -= bucket
            index = try table.insert(next, n: n, after: index)
        }
    }

    /// The contact that sat at `entry` in `sort`'s order has left it (deleted, or moved).
    func remove(_ entry: IndexEntry, _ sort: SortOrder) throws {
        let table = try self.table(sort)
        let index = try table.holding(entry)
        let n = table.count(at: index) - 1
        // Deletes do not leave a trail of near-empty buckets for every deep page to sum.
        if let previous = try table.before(index), table.count(at: previous) + n <= bucket {
            try table.setCount(table.count(at: previous) + n, at: previous)
            try table.delete(at: index)
        } else {
            try table.setCount(n, at: index)
        }
    }

    /// Writes what the in-memory tables changed; call once, before the transaction commits.
    func finish() throws {
        for (sort, order) in orders.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try order.write(sort, db)
        }
        orders = [:]
    }

    private func table(_ sort: SortOrder) throws -> AnchorTable {
        guard cached else { return SQLTable(db: db, sort: sort) }
        if let order = orders[sort] { return order }
        let order = try CachedOrder(sort, db)
        orders[sort] = order
        return order
    }
}

/// Anchors of one order, addressed by an opaque position (`Int`).
private protocol AnchorTable {
    /// The bucket holding `entry`: the last anchor at or before it.
    func holding(_ entry: SQLiteContactStore.IndexEntry) throws -> Int
    /// The anchor before the one at `index`, if any.
    func before(_ index: Int) throws -> Int?
    func entry(at index: Int) -> SQLiteContactStore.IndexEntry
    func count(at index: Int) -> Int
    func setCount(_ n: Int, at index: Int) throws
    /// Adds an anchor just after the one at `index`; returns the new one's position.
    func insert(_ entry: SQLiteContactStore.IndexEntry, n: Int, after index: Int) throws -> Int
    func delete(at index: Int) throws
}

/// Straight in the table, each change written at once. A position is a row read since the last
/// `holding` (kept in `rows`), enough for one `add` or `remove`.
private final class SQLTable: AnchorTable {
    typealias IndexEntry = SQLiteContactStore.IndexEntry
    let db: Database
    let sort: SortOrder
    private var rows: [SQLiteContactStore.Anchor] = []

    init(db: Database, sort: SortOrder) { self.db = db; self.sort = sort }

    func holding(_ entry: IndexEntry) throws -> Int {
        rows = [try SQLiteContactStore.anchor(holding: entry, sort, db)]
        return 0
    }

    func before(_ index: Int) throws -> Int? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT key, id, n FROM contact_anchor WHERE sort = ? AND (key, id) < (?, ?)
                        ORDER BY key DESC, id DESC LIMIT 1
                        """), arguments: [sort.rawValue, rows[index].entry.key, rows[index].entry.id])
        else { return nil }
        rows.append(SQLiteContactStore.Anchor(entry: IndexEntry(key: row[0], id: row[1]), n: row[2]))
        return rows.count - 1
    }

    func entry(at index: Int) -> IndexEntry { rows[index].entry }
    func count(at index: Int) -> Int { rows[index].n }

    func setCount(_ n: Int, at index: Int) throws {
        rows[index].n = n
        try db.cachedStatement(sql: "UPDATE contact_anchor SET n = ? WHERE sort = ? AND key = ? AND id = ?")
            .execute(arguments: [n, sort.rawValue, rows[index].entry.key, rows[index].entry.id])
    }

    func insert(_ entry: IndexEntry, n: Int, after index: Int) throws -> Int {
        try db.cachedStatement(sql: "INSERT INTO contact_anchor (sort, key, id, n) VALUES (?, ?, ?, ?)")
            .execute(arguments: [sort.rawValue, entry.key, entry.id, n])
        rows.append(SQLiteContactStore.Anchor(entry: entry, n: n))
        return rows.count - 1
    }

    func delete(at index: Int) throws {
        try db.cachedStatement(sql: "DELETE FROM contact_anchor WHERE sort = ? AND key = ? AND id = ?")
            .execute(arguments: [sort.rawValue, rows[index].entry.key, rows[index].entry.id])
    }
}

/// All of one order's anchors in memory, in (key bytes, id) order, as SQLite's BINARY
/// collation orders them (Swift's `String` comparison would not: it compares canonically
/// equivalent texts as equal); written back by `write`.
private final class CachedOrder: AnchorTable {
    typealias IndexEntry = SQLiteContactStore.IndexEntry
    private struct Item {
        var bytes: [UInt8]
        var entry: IndexEntry
        var n: Int
    }
    private struct Place: Hashable {
        var bytes: [UInt8]
        var id: Int64
    }
    private var items: [Item]
    /// The counts as read, to write back only what changed.
    private let stored: [Place: Int]

    init(_ sort: SortOrder, _ db: Database) throws {
        items = try Row.fetchAll(
            db, sql: "SELECT key, id, n FROM contact_anchor WHERE sort = ? ORDER BY key, id",
            arguments: [sort.rawValue]
        ).map { row in
            let key: String = row[0]
            return Item(bytes: Array(key.utf8), entry: IndexEntry(key: key, id: row[1]), n: row[2])
        }
        stored = Dictionary(
            items.map { (Place(bytes: $0.bytes, id: $0.entry.id), $0.n) }, uniquingKeysWith: { a, _ in a })
    }

    private static func precedes(_ a: [UInt8], _ aID: Int64, _ b: [UInt8], _ bID: Int64) -> Bool {
        a == b ? aID < bID : a.lexicographicallyPrecedes(b)
    }

    func holding(_ entry: IndexEntry) throws -> Int {
        let bytes = Array(entry.key.utf8)
        // The number of anchors at or before `entry`, by binary search.
        var low = 0, high = items.count
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(bytes, entry.id, items[middle].bytes, items[middle].entry.id) {
                high = middle
            } else {
                low = middle + 1
            }
        }
        guard low > 0 else { throw ContactStoreError.storage("The contacts database's page index is missing.") }
        return low - 1
    }

    func before(_ index: Int) throws -> Int? { index > 0 ? index - 1 : nil }
    func entry(at index: Int) -> IndexEntry { items[index].entry }
    func count(at index: Int) -> Int { items[index].n }
    func setCount(_ n: Int, at index: Int) throws { items[index].n = n }

    func insert(_ entry: IndexEntry, n: Int, after index: Int) throws -> Int {
        items.insert(Item(bytes: Array(entry.key.utf8), entry: entry, n: n), at: index + 1)
        return index + 1
    }

    func delete(at index: Int) throws { items.remove(at: index) }

    /// Writes the anchors that are new or whose count changed, and deletes those that went.
    func write(_ sort: SortOrder, _ db: Database) throws {
        var kept = Set<Place>()
        for item in items {
            let place = Place(bytes: item.bytes, id: item.entry.id)
            kept.insert(place)
            guard stored[place] != item.n else { continue }
            try db.cachedStatement(
                sql: """
                    INSERT INTO contact_anchor (sort, key, id, n) VALUES (?, ?, ?, ?)
                    ON CONFLICT (sort, key, id) DO UPDATE SET n = excluded.n
                    """
            ).execute(arguments: [sort.rawValue, item.entry.key, item.entry.id, item.n])
        }
        for place in stored.keys where !kept.contains(place) {
            try db.cachedStatement(sql: "DELETE FROM contact_anchor WHERE sort = ? AND key = ? AND id = ?")
                .execute(arguments: [sort.rawValue, String(decoding: place.bytes, as: UTF8.self), place.id])
        }
    }
}
