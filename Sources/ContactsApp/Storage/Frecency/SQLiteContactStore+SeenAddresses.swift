import Foundation
import GRDB

extension SQLiteContactStore: SeenAddressStore {
    /// The addresses `contactsbook add-email` has seen, for frecency (`Frecency`): one row per
    /// address in `MatchKeys.email` form, matched to contacts through `contact_key`'s email
    /// keys, so a contact's addresses need no column of their own. Plain SQL only: a migration
    /// must mean the same whatever later code does.
    static let addSeenAddresses = Migration(name: "add the addresses seen in mail", legacyIdentifier: nil) { db, _ in
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS address_seen (
                    address TEXT PRIMARY KEY,   -- MatchKeys.email: trimmed, lower case
                    count INTEGER NOT NULL,     -- messages it was seen in
                    last_seen REAL NOT NULL     -- seconds since 1970, the reading's clock
                ) WITHOUT ROWID;
                """)
    }

    public func recordSeen(addresses: [String], at date: Date) throws {
        let keys = Set(addresses.compactMap(MatchKeys.email))
        guard !keys.isEmpty else { return }
        try guarded {
            try writer.write { db in
                let upsert = try db.makeStatement(
                    sql: """
                        INSERT INTO address_seen(address, count, last_seen) VALUES (?, 1, ?)
                        ON CONFLICT(address) DO UPDATE SET count = count + 1, last_seen = max(last_seen, excluded.last_seen)
                        """)
                for key in keys.sorted() { try upsert.execute(arguments: [key, date.timeIntervalSince1970]) }
            }
        }
    }

    public func seenAddresses() throws -> [SeenAddress] {
        try guarded {
            try reader.read { db in
                try Row.fetchAll(db, sql: "SELECT address, count, last_seen FROM address_seen ORDER BY address").map {
                    SeenAddress(address: $0[0], count: $0[1], lastSeen: Date(timeIntervalSince1970: $0[2]))
                }
            }
        }
    }

    public func contacts(withEmail address: String) throws -> [Contact] {
        guard let key = MatchKeys.email(address) else { return [] }
        let ids = try guarded {
            try reader.read { db in
                try Int64.fetchAll(
                    db, sql: "SELECT DISTINCT id FROM contact_key WHERE key = ? AND kind = 'email' ORDER BY id",
                    arguments: [key])
            }
        }
        return try contacts(ids: ids)
    }

    /// The matches of a non-empty search that hold an address seen in mail, highest frecency
    /// first (equal ones in sort order); empty when no address seen belongs to a match, which
    /// costs one look-up when the book has seen none.
    static func rankedMatches(_ search: ResolvedSearch, sort: SortOrder, _ db: Database) throws -> [Contact] {
        // CROSS JOIN keeps address_seen outside: a plain JOIN let SQLite scan every contact key
        // (100k contacts: 40-60 ms of each search and `query`, when few or no addresses were seen).
        let seen = try Row.fetchAll(
            db,
            sql: """
                SELECT k.id, s.address, s.count, s.last_seen FROM address_seen s
                CROSS JOIN contact_key k ON k.key = s.address AND k.kind = 'email'
                """
        ).map { row -> (contactID: Int64, seen: SeenAddress) in
            (row[0], SeenAddress(address: row[1], count: row[2], lastSeen: Date(timeIntervalSince1970: row[3])))
        }
        guard !seen.isEmpty, let latest = try Double.fetchOne(db, sql: "SELECT MAX(last_seen) FROM address_seen") else {
            return []
        }
        let scores = Frecency.scores(seen, latest: Date(timeIntervalSince1970: latest))
        let (filter, arguments) = filter(search)
        let ids = ResolvedSearch.list(scores.keys.sorted())
        let rows = try rows(ids: "SELECT id FROM contact WHERE id IN (\(ids)) AND \(filter)", arguments, sort: sort, db)
        return Frecency.ranked(try rows.map(contact(from:)), scores: scores)
    }
}
