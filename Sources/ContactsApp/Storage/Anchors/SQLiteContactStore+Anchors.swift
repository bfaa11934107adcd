import Foundation
import GRDB

/// Page anchors: an order-statistic index over each sort order, so a deep page of the whole
/// book, or a contact's position in it, costs one bucket of the (sort key, id) index instead of
/// every entry before it (OFFSET and COUNT(*) walk them all: 54 ms for the last page of 1M).
///
/// Table `contact_anchor` (migration v4) holds, per order (`sort` = 'first' or 'last'), rows
/// (key, id, n) in (key, id) order. Each row starts a bucket: the contacts whose (sort key, id)
/// is at or after (key, id) and before the next row's (key, id); `n` is exactly how many there
/// are. The first bucket of each order starts at ('', 0), below every contact, so each contact
/// lies in exactly one bucket. An anchor is only a boundary: the contact it was taken from may
/// have moved or gone since.
///
/// The store keeps it in the transaction of every insert, update that moves a sort key, delete
/// and import, as it keeps `contact_count` (no triggers: they made every insert open a
/// statement journal), through an `AnchorKeeper`: a contact entering a bucket adds 1 to it (the
/// last anchor at or before it: one seek); a bucket past 2B is split B entries after its anchor
/// (a walk of B index entries, once per B inserts or so); a contact leaving takes 1 off, and a
/// bucket that holds, with the one before it, B or fewer is merged into that one. So buckets
/// hold at most 2B and there are about total / B of them: at 1M contacts and B = 1,000,
/// finding a page's bucket sums at most ~1,000 small rows, read from the nearer end of the book.
///
/// A program without anchors (a binary from before v4) writing to the book would leave them
/// stale, pages and positions off by what it changed, as a binary from before v2 would leave
/// `contact_count`; nothing detects that (no such binary was released).
extension SQLiteContactStore {
    /// B: buckets hold about this many contacts (at most twice as many).
    public static let defaultAnchorBucket = 1_000

    /// A (sort key, id) place in one order's index.
    struct IndexEntry: Equatable {
        var key: String
        var id: Int64
    }

    struct Anchor {
        var entry: IndexEntry
        /// The contacts in its bucket.
        var n: Int
    }

    /// Where every order's first bucket starts: before any contact (ids start at 1, and a sort
    /// key is never empty).
    static let lowestEntry = IndexEntry(key: "", id: 0)

    // MARK: - Keeping them

    /// The last anchor at or before `entry`: the start of the bucket holding it (one seek of the
    /// primary key, which SQLite searches by the row value `(key, id)`).
    static func anchor(holding entry: IndexEntry, _ sort: SortOrder, _ db: Database) throws -> Anchor {
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT key, id, n FROM contact_anchor WHERE sort = ? AND (key, id) <= (?, ?)
                    ORDER BY key DESC, id DESC LIMIT 1
                    """), arguments: [sort.rawValue, entry.key, entry.id])
        guard let row else { throw ContactStoreError.storage("The contacts database's page index is missing.") }
        return Anchor(entry: IndexEntry(key: row[0], id: row[1]), n: row[2])
    }

    /// Builds both orders' anchors from the rows already stored (migration v4): one walk of each
    /// sort index, an anchor every `bucket` entries.
    static func fillAnchors(bucket: Int, _ db: Database) throws {
        for sort in SortOrder.allCases {
            let column = sortColumn(sort)
            var anchors = [Anchor(entry: lowestEntry, n: 0)]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(column), id FROM contact INDEXED BY contact_\(column) ORDER BY \(column), id")
            var index = 0
            while let row = try rows.next() {
                // Columns are decoded only for the entries that become anchors.
                if index > 0, index % bucket == 0 {
                    anchors.append(Anchor(entry: IndexEntry(key: row[0], id: row[1]), n: 0))
                }
                anchors[anchors.count - 1].n += 1
                index += 1
            }
            for anchor in anchors {
                try db.execute(
                    sql: "INSERT INTO contact_anchor (sort, key, id, n) VALUES (?, ?, ?, ?)",
                    arguments: [sort.rawValue, anchor.entry.key, anchor.entry.id, anchor.n])
            }
        }
    }

    // MARK: - Reading through them

    /// The ids of the `limit` contacts from `offset` on in `sort`'s order of the whole book of
    /// `total`: the bucket holding `offset` found by summing bucket counts from the nearer end,
    /// then a walk of at most that bucket's entries. Nil when the counts do not add up to
    /// `total` (never, while every writer keeps both): the caller's OFFSET answers instead.
    static func anchoredPageIDs(
        _ sort: SortOrder, offset: Int, limit: Int, total: Int,
        _ db: Database
    ) throws -> [Int64]? {
        guard offset < total, limit > 0 else { return [] }
        let descending = offset >= total / 2
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT key, id, n FROM contact_anchor WHERE sort = ?
                ORDER BY key \(descending ? "DESC" : "ASC"), id \(descending ? "DESC" : "ASC")
                """, arguments: [sort.rawValue])
        // Positions of the book are [start, end) for the bucket at hand.
        var start = 0, end = total
        while let row = try rows.next() {
            let n: Int = row[2]
            if descending { start = end - n } else { end = start + n }
            if start <= offset, offset < end {
                let anchor = IndexEntry(key: row[0], id: row[1])
                return try entries(sort, from: anchor, skip: offset - start, take: limit, db).map(\.id)
            }
            if descending { end = start } else { start = end }
        }
        return nil
    }

    /// The 0-based position of `entry` in `sort`'s order: the counts of the buckets before its
    /// own, plus its place in its bucket.
    static func anchoredPosition(of entry: IndexEntry, _ sort: SortOrder, _ db: Database) throws -> Int {
        let anchor = try self.anchor(holding: entry, sort, db)
        let before =
            try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT COALESCE(SUM(n), 0) FROM contact_anchor WHERE sort = ? AND (key, id) < (?, ?)
                        """), arguments: [sort.rawValue, anchor.entry.key, anchor.entry.id]) ?? 0
        return before + (try entryCount(sort, from: anchor.entry, before: entry, db))
    }

    /// Up to `take` entries of `sort`'s index at or after `start`, after skipping `skip` of them.
    ///
    /// Two exact index ranges, not `WHERE (sort_last, id) >= (?, ?)`: SQLite (3.40 here) seeks an
    /// index by a row value only over table columns, and `id` is the rowid, so EXPLAIN QUERY
    /// PLAN shows `contact_sort_last (sort_last>?)`: a seek to the key and a walk of every entry
    /// sharing it (up to 234 in the 1M benchmark book; unbounded in a book full of one name).
    /// `sort_last = ? AND id >= ?` and `sort_last > ?` are both seeks.
    static func entries(
        _ sort: SortOrder, from start: IndexEntry, skip: Int, take: Int,
        _ db: Database
    ) throws -> [IndexEntry] {
        guard take > 0 else { return [] }
        let column = sortColumn(sort)
        func fetch(_ sql: String, _ arguments: StatementArguments) throws -> [IndexEntry] {
            try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
                .map { IndexEntry(key: $0[0], id: $0[1]) }
        }
        // The start's own key, from its id on.
        var found = try fetch(
            """
            SELECT \(column), id FROM contact INDEXED BY contact_\(column) WHERE \(column) = ? AND id >= ?
            ORDER BY id LIMIT ? OFFSET ?
            """, [start.key, start.id, take, skip])
        guard found.count < take else { return found }
        // That run of the key is over: how much of `skip` it used (all of the run if it reached
        // the page, else counted, at most `skip` entries).
        let run =
            !found.isEmpty
            ? skip + found.count
            : try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT COUNT(*) FROM (SELECT 1 FROM contact INDEXED BY contact_\(column)
                                              WHERE \(column) = ? AND id >= ? LIMIT ?)
                        """), arguments: [start.key, start.id, skip]) ?? 0
        // The keys after it.
        found += try fetch(
            """
            SELECT \(column), id FROM contact INDEXED BY contact_\(column) WHERE \(column) > ?
            ORDER BY \(column), id LIMIT ? OFFSET ?
            """, [start.key, take - found.count, max(0, skip - run)])
        return found
    }

    /// How many entries of `sort`'s index lie at or after `start` and before `end` (start ≤ end),
    /// in exact index ranges (see `entries`).
    static func entryCount(
        _ sort: SortOrder, from start: IndexEntry, before end: IndexEntry,
        _ db: Database
    ) throws -> Int {
        let column = sortColumn(sort), index = "contact INDEXED BY contact_\(column)"
        if start.key == end.key {
            return try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT COUNT(*) FROM \(index) WHERE \(column) = ? AND id >= ? AND id < ?
                        """), arguments: [start.key, start.id, end.id]) ?? 0
        }
        return try Int.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT (SELECT COUNT(*) FROM \(index) WHERE \(column) = ?1 AND id >= ?2)
                         + (SELECT COUNT(*) FROM \(index) WHERE \(column) > ?1 AND \(column) < ?3)
                         + (SELECT COUNT(*) FROM \(index) WHERE \(column) = ?3 AND id < ?4)
                    """), arguments: [start.key, start.id, end.key, end.id]) ?? 0
    }
}
