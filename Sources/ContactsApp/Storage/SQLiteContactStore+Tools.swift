import Foundation
import GRDB

/// What `duplicates` and `birthdays` read: the duplicate index (`contact_key`) and the
/// contacts with a birthday, each in one read transaction.
extension SQLiteContactStore {
    /// Emails grouped by SQL along the index's key order (`contact_key_by_key`); phones and name
    /// keys read from the index into `SharedKeyCollector` (a phone's stored form does not know
    /// the book's country; a name block compares its distinct given names).
    public func sharedMatchKeys(defaultCountry: String?) throws -> [SharedMatchKey] {
        try guarded {
            try reader.read { db in
                // One UID held by several contacts (two servers hold it).
                var shared = try Self.sharedUIDs(db).map { SharedMatchKey(kind: .uid, key: $0.key, ids: $0.value) }
                    .sorted { $0.key < $1.key }
                let groups = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT kind, key, group_concat(id) FROM contact_key WHERE kind = 'email'
                        GROUP BY kind, key HAVING COUNT(*) > 1
                        """)
                while let row = try groups.next() {
                    guard let kind = DuplicateReason.Kind(rawValue: row[0]) else { continue }
                    let ids = (row[2] as String).split(separator: ",").compactMap { Int64($0) }.sorted()
                    shared.append(SharedMatchKey(kind: kind, key: row[1], ids: ids))
                }
                var collector = SharedKeyCollector(defaultCountry: defaultCountry)
                // In key order, along the covering index: the collector's dictionaries then meet
                // each key's rows together (in the table's order `duplicates` took 7 % longer at 100k).
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT kind, key, id FROM contact_key WHERE kind IN ('phone', 'name') ORDER BY key
                        """)
                while let row = try rows.next() {
                    guard let kind = DuplicateReason.Kind(rawValue: row[0]) else { continue }
                    collector.add(kind, row[1], id: row[2])
                }
                return shared + collector.shared()
            }
        }
    }

    public func sharedUIDs() throws -> [String: [Int64]] {
        try guarded { try reader.read(Self.sharedUIDs) }
    }

    /// Along the UID's index: one pass counting, then the ids of the UIDs held twice. A
    /// `group_concat` of every UID's ids (a string built for each of 100k UIDs to keep a few)
    /// was 7 % of an export (bench/FINDINGS.md, branch export5).
    static func sharedUIDs(_ db: Database) throws -> [String: [Int64]] {
        var shared: [String: [Int64]] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT uid, id FROM contact
                WHERE uid IN (SELECT uid FROM contact GROUP BY uid HAVING COUNT(*) > 1) ORDER BY uid, id
                """)
        // One entry per UID as SQLite groups them (by bytes), as the grouped query gave.
        var uid: String?, ids: [Int64] = []
        while let row = try rows.next() {
            let rowUID: String = row[0]
            if let current = uid, !current.utf8.elementsEqual(rowUID.utf8) {
                shared[current] = ids
                ids = []
            }
            uid = rowUID
            ids.append(row[1])
        }
        if let uid { shared[uid] = ids }
        return shared
    }

    /// Along the duplicate index's key order (`contact_key_by_key`): one probe per key.
    public func contactIDs(withEmailKeys keys: [String]) throws -> [String: [Int64]] {
        try guarded {
            try reader.read { db in
                var found: [String: [Int64]] = [:]
                let statement = try db.cachedStatement(
                    sql: "SELECT id FROM contact_key WHERE key = ? AND kind = 'email' ORDER BY id")
                for key in Set(keys) {
                    let ids = try Int64.fetchAll(statement, arguments: [key])
                    if !ids.isEmpty { found[key] = ids }
                }
                return found
            }
        }
    }

    public func contacts(ids: [Int64]) throws -> [Contact] {
        try guarded {
            try reader.read { db in
                var byID: [Int64: Contact] = [:]
                // In chunks: SQLite limits the number of arguments of one statement.
                for start in stride(from: 0, to: ids.count, by: 500) {
                    let chunk = Array(ids[start..<min(start + 500, ids.count)])
                    let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                    for row in try Row.fetchAll(
                        db, sql: "SELECT \(Self.readColumns) FROM contact WHERE id IN (\(marks))",
                        arguments: StatementArguments(chunk))
                    {
                        let contact = try Self.contact(from: row)
                        if let id = contact.id { byID[id] = contact }
                    }
                }
                return ids.compactMap { byID[$0] }
            }
        }
    }

    public func contactsWithBirthdays() throws -> [Contact] {
        try guarded {
            try reader.read { db in
                try Row.fetchAll(db, sql: "SELECT \(Self.readColumns) FROM contact WHERE birthday IS NOT NULL")
                    .map(Self.contact(from:))
            }
        }
    }
}
