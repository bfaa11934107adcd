import Foundation
import GRDB
import GRDBSQLite

extension SQLiteContactStore {
    /// One step of the schema's history: the name GRDB records in the book once it has run
    /// (saying what it does), its SQL and the data step beside it. Never edited after release:
    /// add a new one instead.
    struct Migration: Sendable {
        let name: String
        /// The identifier books made before migrations had names hold for it (`v1` to `v5`);
        /// `adoptNames` renames it, so those books are not migrated again.
        let legacyIdentifier: String?
        /// Runs in the migration's transaction; `anchorBucket` is B of the page anchors.
        let migrate: @Sendable (_ db: Database, _ anchorBucket: Int) throws -> Void
    }

    /// The schema's history, oldest first. Each migration runs once per book, in its own
    /// transaction.
    static let migrations: [Migration] = [
        createContacts, addPhoneGramsSortKeysByIDAndCount, indexLettersAndDigitsApart, addPageAnchors,
        addWordVocabulary, addNameOrderAndSortPastParticles, indexTagsNotesAndAddresses, addWordListForInsideWords,
        addMatchKeys, addChangeJournalAndTrash, addSyncState, addWordStartsInsideWords, addSyncConflictSetting,
        orderMatchKeysByKey, keepCardsAndDisplayNames, scopeUIDs, addSeenAddresses, addWebsites, addGroups,
        addAddressBooks, addDirectorySources, addBookJournalAndGroupBooks, addGroupRowsByContact,
        markDirectorySourcesInHeader,
    ]

    static let createContacts = Migration(
        name: "create contacts with word and phone indexes", legacyIdentifier: "v1"
    ) { db, _ in
        try db.execute(
            sql: """
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
                    extra TEXT NOT NULL DEFAULT '[]'      -- unknown vCard properties, JSON [String]
                );
                CREATE INDEX contact_sort_first ON contact(sort_first, id);
                CREATE INDEX contact_sort_last ON contact(sort_last, id);
                -- rowid = contact.id; both kept in step with contact by the store, in the same transaction.
                CREATE VIRTUAL TABLE contact_text USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
                CREATE VIRTUAL TABLE contact_phone USING fts5(digits, tokenize = 'trigram');
                """)
    }

    /// Phone fragments of `ContactSearch.gramLength` digits or more, found through their digit
    /// grams (`ContactSearch.digitGramText`); contentless, so FTS5 keeps no second copy of the
    /// text. Both sort keys by id: sorting a search's matches reads their keys from this index,
    /// a fifteenth of the table's size. The number of contacts, kept by the store in the
    /// transaction of every insert and delete: COUNT(*) reads a whole index (40 ms per listed
    /// page at 1M), and triggers made every insert open a statement journal.
    static let addPhoneGramsSortKeysByIDAndCount = Migration(
        name: "add phone digit grams, sort keys by id and the kept count", legacyIdentifier: "v2"
    ) { db, _ in
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE contact_phone_gram USING fts5(
                    grams, tokenize = 'unicode61', content = '', columnsize = 0);
                CREATE INDEX contact_id_sorts ON contact(id, sort_first, sort_last);
                CREATE TABLE contact_count (one INTEGER PRIMARY KEY CHECK (one = 1), n INTEGER NOT NULL);
                INSERT INTO contact_count (one, n) SELECT 1, COUNT(*) FROM contact;
                """)
        // The stored phones' grams, from the phone index.
        let rows = try Row.fetchCursor(db, sql: "SELECT rowid, digits FROM contact_phone")
        let insert = try db.makeStatement(sql: "INSERT INTO contact_phone_gram(rowid, grams) VALUES (?, ?)")
        while let row = try rows.next() {
            let grams = AddPhoneGramsFrozen.gramText(row["digits"])
            if !grams.isEmpty { try insert.execute(arguments: [row["rowid"] as Int64, grams]) }
        }
    }

    /// The word index rebuilt with letters and digits apart ("kowalczyk1023" → "kowalczyk
    /// 1023", `ContactSearch.separatingDigits`), plus a marked word for each letter-digit pair
    /// (`ContactSearch.indexedText`): a prefix search expanded to one word per numbered email
    /// handle. Filled from the old index's text, then renamed into its place: one pass, rows in
    /// rowid order, the fastest way to build an FTS5 index.
    static let indexLettersAndDigitsApart = Migration(
        name: "index letters and digits as separate words", legacyIdentifier: "v3"
    ) { db, _ in
        // The old text is the folded words joined by spaces; separating its digits gives
        // exactly what `ContactKeys.searchText` then made, indexed with its letter-digit pairs.
        let separating = DatabaseFunction("contactsbook_separating_digits", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map(IndexLettersAndDigitsApartFrozen.separatingDigitsAddingPairs)
        }
        db.add(function: separating)
        defer { db.remove(function: separating) }
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE contact_text_v3 USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
                INSERT INTO contact_text_v3(rowid, text)
                    SELECT rowid, contactsbook_separating_digits(text) FROM contact_text ORDER BY rowid;
                DROP TABLE contact_text;
                ALTER TABLE contact_text_v3 RENAME TO contact_text;
                """)
    }

    /// Page anchors (`Anchors/SQLiteContactStore+Anchors.swift`): per sort order, the (sort
    /// key, id) where each bucket of the order's index starts and how many contacts it holds.
    /// Kept by the store in the transaction of every write; filled from the sort indexes.
    static let addPageAnchors = Migration(name: "add page anchors", legacyIdentifier: "v4") { db, anchorBucket in
        try db.execute(
            sql: """
                CREATE TABLE contact_anchor (
                    sort TEXT NOT NULL,    -- 'first' | 'last' (SortOrder), the order of sort_first | sort_last
                    key TEXT NOT NULL,     -- the bucket starts at (key, id), inclusive, in that order's
                    id INTEGER NOT NULL,   -- (sort key, id) index, and ends at the next anchor, exclusive
                    n INTEGER NOT NULL,    -- the contacts in the bucket
                    PRIMARY KEY (sort, key, id)
                ) WITHOUT ROWID;
                """)
        try AddPageAnchorsFrozen.fill(bucket: anchorBucket, db)
    }

    /// The word index's vocabulary, each word with how many contacts hold it (FTS5's own
    /// `fts5vocab`, read from the index; it stores nothing): `MatchRun.isWholeByVocabulary`.
    static let addWordVocabulary = Migration(name: "add word vocabulary", legacyIdentifier: "v5") { db, _ in
        try db.execute(sql: "CREATE VIRTUAL TABLE contact_text_vocab USING fts5vocab(contact_text, 'row')")
    }

    /// A name order per contact (`NameOrder`), and last-name sort keys past a family name's
    /// particles ("van Beethoven" sorts under B): the keys of names that may hold one are
    /// recomputed, and the page anchors refilled if any moved.
    static let addNameOrderAndSortPastParticles = Migration(
        name: "add name order; sort family names past their particles", legacyIdentifier: nil
    ) { db, anchorBucket in
        // A book whose migration records were rewritten (tests of legacy books) may have it already.
        if try !db.columns(in: "contact").contains(where: { $0.name == "name_order" }) {
            try db.execute(sql: "ALTER TABLE contact ADD COLUMN name_order TEXT NOT NULL DEFAULT 'given-first'")
        }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT id, given, family, organization, sort_last FROM contact
                WHERE family LIKE '% %' OR family LIKE 'al-%' OR family LIKE 'el-%'
                """)
        var moved = false
        for row in rows {
            let key = NameOrderFrozen.lastNameSortKey(
                given: row["given"], family: row["family"],
                organization: row["organization"])
            guard key != row["sort_last"] as String else { continue }
            try db.execute(sql: "UPDATE contact SET sort_last = ? WHERE id = ?", arguments: [key, row["id"] as Int64])
            moved = true
        }
        if moved {
            try db.execute(sql: "DELETE FROM contact_anchor")
            try AddPageAnchorsFrozen.fill(bucket: anchorBucket, db)
        }
    }

    /// The word index rebuilt from the rows with tags, notes and addresses in each contact's
    /// text (`ContactKeys.foldedText`), so a search finds them too. Built in a new table in
    /// rowid order, then renamed into place (as `indexLettersAndDigitsApart` did); its
    /// vocabulary is made again over it.
    static let indexTagsNotesAndAddresses = Migration(
        name: "index tags, notes and addresses", legacyIdentifier: nil
    ) { db, _ in
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE contact_text_new USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
                """)
        // The columns as they were when this was written, read by name: today's row code
        // would select columns a book made before them does not have yet.
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT id, given, family, nickname, organization, notes, emails, addresses, tags FROM contact ORDER BY id
                """)
        let insert = try db.makeStatement(sql: "INSERT INTO contact_text_new(rowid, text) VALUES (?, ?)")
        while let row = try rows.next() {
            try insert.execute(arguments: [row["id"] as Int64, try IndexTagsNotesAndAddressesFrozen.indexedText(row)])
        }
        try db.execute(
            sql: """
                DROP TABLE contact_text_vocab;
                DROP TABLE contact_text;
                ALTER TABLE contact_text_new RENAME TO contact_text;
                CREATE VIRTUAL TABLE contact_text_vocab USING fts5vocab(contact_text, 'row');
                """)
    }

    /// The words a term may match inside (`ContactSearch.insideWordCandidates`), each once
    /// (`contact_word`), and their trigrams (`contact_word_gram`), so a term of 3 letters or
    /// more finds the few words that hold it without reading the whole word index. Filled from
    /// the word index's text. Words stay when the last contact holding them goes: they only
    /// widen the lookup of the contacts that hold them, which then finds none.
    static let addWordListForInsideWords = Migration(
        name: "add word list for inside-word search", legacyIdentifier: nil
    ) { db, _ in
        try db.execute(
            sql: """
                CREATE TABLE contact_word (word TEXT PRIMARY KEY) WITHOUT ROWID;
                CREATE VIRTUAL TABLE contact_word_gram USING fts5(word, tokenize = 'trigram');
                """)
        var words = Set<String>()
        let texts = try String.fetchCursor(db, sql: "SELECT text FROM contact_text")
        while let text = try texts.next() { words.formUnion(AddWordListFrozen.candidates(text)) }
        // The word list as this migration made it (`addWords` now also fills `starts`, added after).
        let insertWord = try db.makeStatement(sql: "INSERT INTO contact_word(word) VALUES (?)")
        let insertGram = try db.makeStatement(sql: "INSERT INTO contact_word_gram(word) VALUES (?)")
        for word in words.sorted() {
            try insertWord.execute(arguments: [word])
            try insertGram.execute(arguments: [word])
        }
    }

    /// For each word of the word list, where in it every contact holding it has another word
    /// starting (`ContactSearch.insideWordsWithStarts`, intersected over the holders): a term
    /// found there is a word-start match for all of them, so the search leaves the word out of
    /// its inside-word lookup. The generated 1M book's `search Kowal` checked 43 email handles
    /// ("marykowalczyk") against the name's matches on every search, 4x its time at 10k
    /// (bench/FINDINGS.md, seventh round). Filled from the word index's text.
    static let addWordStartsInsideWords = Migration(
        name: "add where other words start inside the word list's words", legacyIdentifier: nil
    ) { db, _ in
        try db.execute(sql: "ALTER TABLE contact_word ADD COLUMN starts INTEGER NOT NULL DEFAULT 0")
        var starts: [String: Int64] = [:]
        let texts = try String.fetchCursor(db, sql: "SELECT text FROM contact_text")
        while let text = try texts.next() {
            for (word, at) in AddWordStartsFrozen.wordsWithStarts(text) {
                starts[word] = starts[word].map { $0 & at } ?? at
            }
        }
        let update = try db.makeStatement(sql: "UPDATE contact_word SET starts = ? WHERE word = ?")
        for (word, at) in starts where at != 0 { try update.execute(arguments: [at, word]) }
    }

    /// The keys `duplicates` groups contacts by (`MatchKeys.storedKeys`: emails, phones in a
    /// country-independent form, name blocks), one row per contact and key, kept by the store in
    /// the transaction of every save; filled here for the contacts already in the book. Grouping
    /// reads this index in key order instead of comparing every pair of contacts.
    static let addMatchKeys = Migration(name: "add match keys for duplicates", legacyIdentifier: nil) { db, _ in
        // A rowid table with its indexes beside it, made after the rows are in: each index is
        // then built in one sorted pass, and an import into an empty book sets them aside the
        // same way (`DeferredIndexes`), instead of inserting into a keyed tree in random order.
        try db.execute(
            sql: """
                CREATE TABLE contact_key (
                    kind TEXT NOT NULL,    -- 'email' | 'phone' | 'name' (DuplicateReason.Kind)
                    key TEXT NOT NULL,     -- MatchKeys.storedKeys
                    id INTEGER NOT NULL    -- contact.id
                );
                """)
        // The columns as they were when this was written, read by name (see `indexTagsNotesAndAddresses`).
        let rows = try Row.fetchCursor(
            db, sql: "SELECT id, given, family, organization, phones, emails FROM contact ORDER BY id")
        let insert = try db.makeStatement(sql: "INSERT INTO contact_key(kind, key, id) VALUES (?, ?, ?)")
        while let row = try rows.next() {
            let id: Int64 = row["id"]
            for (kind, key) in try AddMatchKeysFrozen.storedKeys(row) {
                try insert.execute(arguments: [kind, key, id])
            }
        }
        try db.execute(
            sql: """
                CREATE INDEX contact_key_lookup ON contact_key(kind, key, id);
                CREATE INDEX contact_key_id ON contact_key(id);
                """)
    }

    /// The duplicate index's lookup ordered by key, then kind (it was kind, then key): with three
    /// kinds, nearly every comparison of the sort that builds it tied on the kind and went on to
    /// compare whole records, so building it at the end of an import (`DeferredIndexes`) cost
    /// about twice as much (bench/FINDINGS.md, "importcpu"). `duplicates` reads along it: the
    /// emails grouped, the phones and names in key order.
    static let orderMatchKeysByKey = Migration(name: "order the duplicate index by key", legacyIdentifier: nil) {
        db, _ in
        try db.execute(
            sql: """
                DROP INDEX IF EXISTS contact_key_lookup;
                CREATE INDEX contact_key_by_key ON contact_key(key, kind, id);
                """)
    }

    /// The change journal (`Journal/SQLiteContactStore+Journal.swift`): one `change_set` per
    /// command, each contact's before and after images in `change_entry` (JSON of `Contact`),
    /// written in the transaction of the change itself; deleted contacts kept whole in
    /// `contact_trash` until restored or purged; `journal_clock` moves on with every change set
    /// recorded, undone or redone, so other sessions find what they have not seen yet.
    static let addChangeJournalAndTrash = Migration(name: "add change journal and trash", legacyIdentifier: nil) {
        db, _ in
        // IF NOT EXISTS: a book whose migration records were rewritten (tests of legacy books) has it already.
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS journal_clock (one INTEGER PRIMARY KEY CHECK (one = 1), seq INTEGER NOT NULL);
                INSERT OR IGNORE INTO journal_clock (one, seq) VALUES (1, 0);
                CREATE TABLE IF NOT EXISTS change_set (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    seq INTEGER NOT NULL,           -- journal_clock.seq when recorded, undone or redone last
                    at REAL NOT NULL,               -- seconds since 1970, the session's clock
                    origin TEXT NOT NULL,           -- front end: repl | line | rpc | mcp | sync
                    session TEXT NOT NULL,          -- the recording store's random token (notices skip their own)
                    kind TEXT NOT NULL,             -- ChangeKind
                    summary TEXT NOT NULL,          -- 'deleted Bob Stone'
                    undone INTEGER NOT NULL DEFAULT 0,
                    added_first INTEGER,            -- an import: the ids it added, with no
                    added_last INTEGER              -- entries for them until it is undone
                );
                CREATE INDEX IF NOT EXISTS change_set_seq ON change_set(seq);
                CREATE TABLE IF NOT EXISTS change_entry (
                    change_set INTEGER NOT NULL REFERENCES change_set(id) ON DELETE CASCADE,
                    contact_id INTEGER NOT NULL,
                    uid TEXT NOT NULL,
                    before TEXT,                    -- JSON Contact, NULL: did not exist
                    after TEXT,                     -- JSON Contact, NULL: deleted
                    PRIMARY KEY (change_set, contact_id)
                ) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS change_entry_contact ON change_entry(contact_id, change_set);
                CREATE TABLE IF NOT EXISTS contact_trash (
                    id INTEGER PRIMARY KEY,         -- the contact's own id, given back by restore
                    uid TEXT NOT NULL,
                    image TEXT NOT NULL,            -- JSON Contact, whole
                    deleted_at REAL NOT NULL
                );
                """)
    }

    /// The migrations, each registered once by its name; `anchorBucket` is B of the page
    /// anchors `addPageAnchors` fills.
    static func migrator(anchorBucket: Int = defaultAnchorBucket) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations {
            migrator.registerMigration(migration.name) { db in try migration.migrate(db, anchorBucket) }
        }
        return migrator
    }

    /// Whether the book records every migration above: what `migrator().hasCompletedMigrations`
    /// answers (true too for a book that also records migrations newer than this program), in one
    /// `COUNT(*)` stepped through SQLite's C API. The migrator reads the names with
    /// `String.fetchSet`, whose generic cursor types cost two scans of the binary's conformance
    /// records (0.68M instructions against 0.28M here, bench/STARTUP.md, "qstart"). Throws if
    /// the book has no `grdb_migrations` table.
    static func recordsEveryMigration(_ db: Database) throws -> Bool {
        try integer(db, sql: recordsEveryMigrationSQL) == 1
    }

    /// Whether opening the book needs no migration and no renaming: it records every migration
    /// (as `recordsEveryMigration`) and no legacy identifier (`hasLegacyIdentifiers`), in one
    /// statement stepped through SQLite's C API. Throws if the book has no `grdb_migrations` table.
    static func needsNoMigration(_ db: Database) throws -> Bool {
        try integer(db, sql: needsNoMigrationSQL) == 1
    }

    /// The two checks' statements, the names written in as SQL strings: binding them as 29
    /// arguments cost more than a quarter of the check (bench/FINDINGS.md, `pipe9`).
    private static let recordsEveryMigrationSQL =
        "SELECT (SELECT COUNT(*) FROM grdb_migrations WHERE identifier IN (\(sqlList(migrations.map(\.name))))) = "
        + "\(migrations.count)"
    private static let needsNoMigrationSQL =
        recordsEveryMigrationSQL
        + " AND NOT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier IN (\(sqlList(migrations.compactMap(\.legacyIdentifier)))))"

    /// Texts as an SQL list of strings, each quote doubled (`add the sync accounts' conflict setting`).
    private static func sqlList(_ texts: [String]) -> String {
        let quote = UInt8(ascii: "'")
        var bytes: [UInt8] = []
        for (index, text) in texts.enumerated() {
            if index > 0 { bytes += ", ".utf8 }
            bytes.append(quote)
            for byte in text.utf8 {
                bytes.append(byte)
                if byte == quote { bytes.append(quote) }
            }
            bytes.append(quote)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the book records a migration by its legacy identifier (`Migration.legacyIdentifier`).
    static func hasLegacyIdentifiers(_ db: Database) throws -> Bool {
        guard try db.tableExists("grdb_migrations") else { return false }
        let legacy = migrations.compactMap(\.legacyIdentifier)
        return try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier IN (\(legacy.map { _ in "?" }.joined(separator: ", "))))
                """, arguments: StatementArguments(legacy)) ?? false
    }

    /// Renames the legacy identifiers a book records to the migrations' names, so the
    /// migrations it has run are not run again. Books made before migrations had names.
    static func adoptNames(_ db: Database) throws {
        guard try db.tableExists("grdb_migrations") else { return }
        for migration in migrations {
            guard let legacy = migration.legacyIdentifier else { continue }
            try db.execute(
                sql: "UPDATE grdb_migrations SET identifier = ? WHERE identifier = ?",
                arguments: [migration.name, legacy])
        }
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
