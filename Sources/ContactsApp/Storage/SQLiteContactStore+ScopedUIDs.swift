import GRDB

extension SQLiteContactStore {
    /// A UID is no longer unique in the book (issue 26): two servers may hold one UID, and one
    /// server may hold it twice; each card is a contact of its own (`duplicates` shows them).
    /// SQLite cannot drop a column's UNIQUE, so the table is made again from its own
    /// `CREATE TABLE` without it (whatever columns the book has by now: none is named here),
    /// with every row, index and the AUTOINCREMENT counter (an id is never given twice),
    /// plus a plain index on `uid` for the lookups by UID. Plain SQL on the book's own schema:
    /// it means the same whatever later code does.
    static let scopeUIDs = Migration(name: "let contacts share a UID", legacyIdentifier: nil) { db, _ in
        guard
            let create = try String.fetchOne(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'contact'")
        else { throw ContactStoreError.storage("The contacts database has no contact table.") }
        let unique = "uid TEXT NOT NULL UNIQUE", head = "CREATE TABLE contact ("
        guard create.components(separatedBy: unique).count == 2, create.hasPrefix(head) else {
            // Already without it (a book whose migration records were rewritten).
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS contact_uid ON contact(uid)")
            return
        }
        let rebuilt =
            "CREATE TABLE contact_scoped_uids ("
            + create.dropFirst(head.count)
            .replacingOccurrences(of: unique, with: "uid TEXT NOT NULL")
        let indexes = try String.fetchAll(
            db,
            sql: """
                SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'contact' AND sql IS NOT NULL ORDER BY name
                """)
        let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'contact'")
        try db.execute(sql: rebuilt)
        try db.execute(
            sql: """
                INSERT INTO contact_scoped_uids SELECT * FROM contact ORDER BY id;
                DROP TABLE contact;
                ALTER TABLE contact_scoped_uids RENAME TO contact;
                """)
        for index in indexes { try db.execute(sql: index) }
        try db.execute(sql: "CREATE INDEX contact_uid ON contact(uid)")
        // The dropped table's counter went with it: the ids of contacts deleted last stay unused.
        if let sequence {
            try db.execute(
                sql: "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'contact'", arguments: [sequence])
            if db.changesCount == 0 {
                try db.execute(
                    sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('contact', ?)", arguments: [sequence])
            }
        }
    }
}
