import Foundation
import GRDB

extension SQLiteContactStore {
    /// The schema's history, oldest first. Each migration runs once per database file, in its
    /// own transaction, and is never edited after release: add a new one instead.
    static let migrations: [(name: String, sql: String)] = [
        ("v1", """
            CREATE TABLE contact (
                id INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: a stale id cannot name someone else
                uid TEXT NOT NULL UNIQUE,
                given TEXT NOT NULL DEFAULT '',
                family TEXT NOT NULL DEFAULT '',
                nickname TEXT NOT NULL DEFAULT '',
                organization TEXT NOT NULL DEFAULT '',
                title TEXT NOT NULL DEFAULT '',
                notes TEXT NOT NULL DEFAULT '',
                phones TEXT NOT NULL DEFAULT '[]',    -- JSON [LabeledValue]
                emails TEXT NOT NULL DEFAULT '[]',    -- JSON [LabeledValue]
                addresses TEXT NOT NULL DEFAULT '[]', -- JSON [PostalAddress]
                tags TEXT NOT NULL DEFAULT '[]',      -- JSON [String]
                birthday TEXT,                        -- Birthday.isoString
                created_at REAL NOT NULL,             -- seconds since 1970
                updated_at REAL NOT NULL,
                version INTEGER NOT NULL,
                sort_first TEXT NOT NULL,             -- ContactKeys.sortKey(_, .first)
                sort_last TEXT NOT NULL,              -- ContactKeys.sortKey(_, .last)
                extra TEXT NOT NULL DEFAULT '[]'      -- reserved: unknown vCard properties; never written by updates
            );
            CREATE INDEX contact_sort_first ON contact(sort_first, id);
            CREATE INDEX contact_sort_last ON contact(sort_last, id);
            -- rowid = contact.id; both kept in step with contact by the store, in the same transaction.
            CREATE VIRTUAL TABLE contact_text USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
            CREATE VIRTUAL TABLE contact_phone USING fts5(digits, tokenize = 'trigram');
            """),
        // Phone fragments of `ContactSearch.gramLength` digits or more, found through their
        // digit grams (see `ContactSearch.digitGramText`); contentless, so FTS5 keeps no
        // second copy of the text. Filled from the phone index by `fill`.
        //
        // Both sort keys by id: sorting a search's matches reads their keys from this index,
        // a fifteenth of the table's size, instead of from their rows spread over the file.
        ("v2", """
            CREATE VIRTUAL TABLE contact_phone_gram USING fts5(
                grams, tokenize = 'unicode61', content = '', columnsize = 0);
            CREATE INDEX contact_id_sorts ON contact(id, sort_first, sort_last);
            -- The number of contacts, kept by the store in the transaction of every insert and
            -- delete: without a memory map, COUNT(*) reads a whole index through pread(), 40 ms
            -- per listed page at 1M. (Triggers would keep it too, but made every insert open a
            -- statement journal: an import of 10k cards took 35% longer.)
            CREATE TABLE contact_count (one INTEGER PRIMARY KEY CHECK (one = 1), n INTEGER NOT NULL);
            INSERT INTO contact_count (one, n) SELECT 1, COUNT(*) FROM contact;
            """),
        // The word index rebuilt with letters and digits apart ("kowalczyk1023" → "kowalczyk
        // 1023", `ContactSearch.separatingDigits`), plus a marked word for each letter-digit
        // pair (`ContactSearch.indexedText`): a prefix search expanded to one word per numbered
        // email handle. Filled by `fill` from the v2 index's text, then renamed into
        // its place: one pass, rows in rowid order, the fastest way to build an FTS5 index.
        ("v3", """
            CREATE VIRTUAL TABLE contact_text_v3 USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
            """),
        // Page anchors (SQLiteContactStore+Anchors.swift): per sort order, the (sort key, id)
        // where each bucket of the order's index starts and how many contacts the bucket holds,
        // so a deep page or a position sums bucket counts and walks one bucket instead of the
        // index up to it. Kept by the store in the transaction of every write, like
        // `contact_count`; filled from the sort indexes by `fill`.
        ("v4", """
            CREATE TABLE contact_anchor (
                sort TEXT NOT NULL,    -- 'first' | 'last' (SortOrder), the order of sort_first | sort_last
                key TEXT NOT NULL,     -- the bucket starts at (key, id), inclusive, in that order's
                id INTEGER NOT NULL,   -- (sort key, id) index, and ends at the next anchor, exclusive
                n INTEGER NOT NULL,    -- the contacts in the bucket
                PRIMARY KEY (sort, key, id)
            ) WITHOUT ROWID;
            """),
        // The word index's vocabulary, each word with how many contacts hold it (FTS5's own
        // `fts5vocab`, read from the index; it stores nothing): a search of one word that only
        // one indexed word begins is counted from its list in C, not row by row
        // (`SQLiteContactStore.WholeCluster.isWholeByVocabulary`).
        ("v5", """
            CREATE VIRTUAL TABLE contact_text_vocab USING fts5vocab(contact_text, 'row');
            """),
    ]

    /// Work a migration does after its SQL: filling new tables from the rows already stored.
    static func fill(after migration: String, anchorBucket: Int, _ db: Database) throws {
        switch migration {
        case "v2":
            let rows = try Row.fetchCursor(db, sql: "SELECT rowid, digits FROM contact_phone")
            while let row = try rows.next() {
                let digits: String = row["digits"]
                try indexDigitGrams(ContactSearch.digitGramText(digits.split(separator: " ").map(String.init)),
                                    id: row["rowid"], db)
            }
        case "v3":
            // The v2 text is the folded words joined by spaces; separating its digits gives
            // exactly what `ContactKeys.searchText` now makes, and the store indexes that
            // with its letter-digit pairs (`ContactSearch.indexedText`).
            let separating = DatabaseFunction("contactsbook_separating_digits", argumentCount: 1, pure: true) {
                values in
                String.fromDatabaseValue(values[0]).map { ContactSearch.scanWords($0, addingPairs: true) }
            }
            db.add(function: separating)
            defer { db.remove(function: separating) }
            try db.execute(sql: """
                INSERT INTO contact_text_v3(rowid, text)
                    SELECT rowid, contactsbook_separating_digits(text) FROM contact_text ORDER BY rowid;
                DROP TABLE contact_text;
                ALTER TABLE contact_text_v3 RENAME TO contact_text;
                """)
        case "v4":
            try fillAnchors(bucket: anchorBucket, db)
        default:
            break
        }
    }

    /// The migrations; `anchorBucket` is B of the page anchors v4 fills.
    static func migrator(anchorBucket: Int = defaultAnchorBucket) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations {
            migrator.registerMigration(migration.name) { db in
                try db.execute(sql: migration.sql)
                try fill(after: migration.name, anchorBucket: anchorBucket, db)
            }
        }
        return migrator
    }

    /// Creates the parent directory (0700) and an empty database file (0600) unless they exist.
    /// SQLite would create the file with the umask's mode, typically world-readable; contacts
    /// are private. SQLite gives its `-wal` and `-shm` files the database file's mode.
    static func createFileIfMissing(at path: String) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            Foundation.close(fd)
        } else if errno != EEXIST {
            let reason = String(cString: strerror(errno))
            throw ContactStoreError.storage("Cannot create the contacts database at \(path): \(reason)")
        }
    }
}
