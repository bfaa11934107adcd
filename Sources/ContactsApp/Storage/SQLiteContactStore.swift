import CProcessSupport
import Foundation
import GRDB
import GRDBSQLite

/// The embedded contact store: one SQLite file, shared safely by several processes.
///
/// - WAL mode (a `DatabasePool`) lets a REPL read while an editor plugin writes; a writer
///   waits up to 5 seconds for another process's lock instead of failing at once.
/// - Every save checks the stored `version` in the same statement that writes, so two
///   processes editing the same contact cannot overwrite each other silently: the later one
///   gets `ContactStoreError.staleVersion`.
/// - Lists are paged in SQL and searched through FTS5 indexes (words, phone-digit trigrams
///   and runs of phone digits), so showing a page never loads the whole book.
public final class SQLiteContactStore: ContactStore {
    /// The book's connection(s); waits for the open when it runs on another thread
    /// (`toOpen`), and makes the full open of a store that has only read so far
    /// (`openReadingFirst`), which throws if that open fails.
    var writer: any DatabaseWriter {
        get throws {
            switch connection {
            case .open(let writer): return writer
            case .opening(let opening): return opening.writer
            case .readingFirst(let book): return try book.writer()
            }
        }
    }

    /// Where reads go: the writer's pool, or the one connection of a store that has not written
    /// yet (`openReadingFirst`), which never makes the full open.
    var reader: any DatabaseReader {
        switch connection {
        case .open(let writer): return writer
        case .opening(let opening): return opening.writer
        case .readingFirst(let book): return book.reader
        }
    }
    let connection: Connection
    /// Opened by `openForReading(path:)`: every write is refused.
    private let readOnly: Bool
    /// Set by `close()`; every call checks it first, as GRDB does not guard a closed queue.
    private var isClosed = false
    private let closing = NSLock()
    /// B of the page anchors (`SQLiteContactStore+Anchors.swift`): buckets hold B to 2B contacts.
    /// Only tests change it (2 to 4, so that a few contacts split and merge buckets); any B keeps
    /// exact counts, in a book kept with another B too.
    let anchorBucket: Int

    /// The change journal's settings (`Journal/SQLiteContactStore+Journal.swift`), set by the
    /// composition root before the first write: the front end recorded with each change set,
    /// the clock it is stamped with, and how long change sets are kept.
    public var journalOrigin = "line"
    public var journalClock: @Sendable () -> Date = { Date() }
    public var journalRetention = JournalRetention()
    /// This store's token in the change sets it records: notices for other sessions skip their own.
    let journalSession = UUID().uuidString

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    ///
    /// A new file is created with mode 0600, its directory with 0700: contacts are private.
    /// `":memory:"` gives a private, empty, in-memory database that lives as long as the store.
    /// `upgrading` is called before the schema of a book made by an older version is brought up
    /// to date, which can take a while once (rebuilding the word index of a 1M-contact book
    /// takes about a minute): a front end can say so instead of seeming to hang.
    /// - Throws: `ContactStoreError.storage` when the file cannot be created, opened or migrated.
    public convenience init(
        path: String, anchorBucket: Int = SQLiteContactStore.defaultAnchorBucket,
        upgrading: (() -> Void)? = nil
    ) throws {
        try self.init(path: path, anchorBucket: anchorBucket, tuning: PagingTuning(), upgrading: upgrading)
    }

    /// How much of a search's matches paging keeps to use again (`PagingTuning`); tests keep
    /// none, so the plans that search the indexes a second time run too.
    let tuning: PagingTuning

    /// `init(path:anchorBucket:)` with paging's tuning knobs.
    init(
        path: String, anchorBucket: Int = SQLiteContactStore.defaultAnchorBucket, tuning: PagingTuning,
        upgrading: (() -> Void)? = nil
    ) throws {
        readOnly = false
        self.tuning = tuning
        self.anchorBucket = max(1, anchorBucket)
        connection = .open(try Self.openWriter(path: path, anchorBucket: self.anchorBucket, upgrading: upgrading))
    }

    /// Opens (creating if needed) the book at `path` and brings its schema up to date.
    /// `leaving`, asked once the book's first connection is open and before anything is written
    /// when the book needs no migration, says whether the caller no longer needs the book
    /// (`Opening.end()`; it may wait to know): the book is then left as it is (`LeftUnopened`
    /// thrown), without the WAL set-up's write.
    static func openWriter(
        path: String, anchorBucket: Int, upgrading: (() -> Void)?, leaving: (@Sendable () -> Bool)? = nil
    ) throws -> any DatabaseWriter {
        let config = Self.configuration(leaving: leaving)
        do {
            let writer: any DatabaseWriter
            if path == ":memory:" {
                writer = try DatabaseQueue(configuration: config)
            } else {
                try Self.createFileIfMissing(at: path)
                writer = try DatabasePool(path: path, configuration: config)
            }
            // The open's checks read on the writer's connection, which GRDB has just opened and
            // read the schema on: `read` would open a reader connection and parse the schema
            // again, a tenth of a session's start-up that waits or only writes (bench/STARTUP.md).
            // A book this version made or upgraded (nearly every open) needs none of what follows,
            // and one statement says so: the migrator reads the table twice through GRDB's generic
            // fetches and the legacy check builds GRDB's schema cache, 2.4M instructions and a
            // tenth of an `--rpc` start-up (bench/STARTUP.md, issue 32).
            if (try? writer.writeWithoutTransaction(Self.needsNoMigration)) == true { return writer }
            // A book made before migrations had names: they are renamed first (never run again).
            if try writer.writeWithoutTransaction(Self.hasLegacyIdentifiers) { try writer.write(Self.adoptNames) }
            let migrator = Self.migrator(anchorBucket: anchorBucket)
            // An upgrade: some migrations done (a new file has none), not all.
            if let upgrading,
                try writer.writeWithoutTransaction({ db in
                    try !migrator.hasCompletedMigrations(db) && !migrator.completedMigrations(db).isEmpty
                })
            {
                upgrading()
            }
            try migrator.migrate(writer)
            return writer
        } catch let left as LeftUnopened {
            throw left
        } catch {
            throw Self.storageError(error)
        }
    }

    init(connection: Connection) {
        tuning = PagingTuning()
        self.connection = connection
        readOnly = false
        anchorBucket = Self.defaultAnchorBucket
    }

    private init(writer: any DatabaseWriter, readOnly: Bool) {
        tuning = PagingTuning()
        connection = .open(writer)
        self.readOnly = readOnly
        anchorBucket = Self.defaultAnchorBucket
    }

    /// Opens the book at `path` for reading only, the way a one-shot reader such as
    /// `contactsbook query` (run by a mail client on every lookup) uses it: one read-only
    /// connection that cannot write, no WAL set-up and no migration, which were a tenth of that
    /// command's time.
    /// A file that does not exist yet, or whose schema is older than this program's, is opened
    /// with `init(path:)` instead (created or migrated), so the answer is the same either way.
    /// Every write through the returned store fails with `ContactStoreError.storage`.
    public static func openForReading(path: String, upgrading: (() -> Void)? = nil) throws -> SQLiteContactStore {
        guard path != ":memory:", FileManager.default.fileExists(atPath: path) else {
            return try SQLiteContactStore(path: path)
        }
        // Not SQLite's read-only open: a read-only connection cannot remove the `-wal` and
        // `-shm` files when it closes, and would leave them beside the book. The store refuses
        // writes itself instead (`write(_:)`).
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration())
            // Every migration this program knows (a book missing one, or recording legacy
            // identifiers, is migrated below): one statement, in SQLite's own transaction.
            if try queue.unsafeRead(recordsEveryMigration) {
                return SQLiteContactStore(writer: queue, readOnly: true)
            }
        } catch {
            // Not readable as it is (say a WAL file only a writer may recover): the full open
            // below reports the error, or repairs what SQLite can.
        }
        return try SQLiteContactStore(path: path, upgrading: upgrading)
    }

    /// Opens the book at `path` for a session that may only read (a piped line session): read
    /// through one connection as `openForReading` does, with the full open (`init(path:)`) made
    /// at the store's first write (`ReadingFirst`). A book that `init(path:)` would change or
    /// report on at once (a new file, one to upgrade or rename, one that is not a book, one
    /// that cannot be written) is opened with it now, so what the session says and does is the
    /// same either way.
    public static func openReadingFirst(path: String, upgrading: (() -> Void)? = nil) throws -> SQLiteContactStore {
        if path != ":memory:", FileManager.default.fileExists(atPath: path),
            let queue = try? DatabaseQueue(path: path, configuration: configuration())
        {
            // One statement, in SQLite's own transaction: GRDB's read transaction is four more.
            let readsAsToday = try? queue.unsafeRead { db in
                try needsNoMigration(db) && sqlite3_db_readonly(db.sqliteConnection, "main") == 0
            }
            if readsAsToday == true {
                return SQLiteContactStore(
                    connection: .readingFirst(ReadingFirst(queue: queue, path: path, anchorBucket: defaultAnchorBucket))
                )
            }
            try? queue.close()
        }
        return try SQLiteContactStore(path: path, upgrading: upgrading)
    }

    /// Closes the book now rather than when the store is released; SQLite removes the `-wal`
    /// and `-shm` files when its last connection closes. Call it when no other call on the
    /// store is under way; any call afterwards fails with `ContactStoreError.storage`, and
    /// closing again does nothing. If SQLite cannot close the book, this throws and the store
    /// stays open.
    ///
    /// A one-shot command that exits right after (`contactsbook query`) closes the book this
    /// way and never releases the store: releasing a GRDB queue removes notification observers
    /// and disposes of its dispatch queue, which starts a libdispatch worker thread, a tenth of
    /// that command's instructions for nothing (bench/STARTUP.md).
    public func close() throws {
        closing.lock()
        defer { closing.unlock() }
        guard !isClosed else { return }
        // A session ending before its book has been opened (`toOpen`) leaves it as it is when it
        // need not wait for more (`Opening.end()`); a failed open is reported here, as before.
        if case .opening(let opening) = connection, !opening.end() {
            isClosed = true
            return
        }
        // The reading connection first, so that the pool's writer, if the store wrote, is the
        // last to close; alone, it removes the `-wal` and `-shm` files as `query`'s does.
        if case .readingFirst(let book) = connection {
            do { try book.queue.close() } catch { throw Self.storageError(error) }
            if !book.hasWritten {
                isClosed = true
                return
            }
        }
        // GRDB closes a pool's writer before its readers, which are read-only connections and
        // cannot remove the `-wal` and `-shm` files: after a session that had read, both stayed
        // beside the book. Closing the idle readers first leaves the writer the last connection.
        do {
            let writer = try writer
            (writer as? DatabasePool)?.releaseMemory()
            try writer.close()
        } catch { throw Self.storageError(error) }
        isClosed = true
    }

    /// SQLite's process-wide settings, made once before the first connection opens
    /// (`csqlite_configure_connections_per_thread`): GRDB uses each connection from one thread at
    /// a time, so SQLite's own mutex around every call was cost without use.
    static let sqliteConfigured: Bool = csqlite_configure_connections_per_thread() == 0

    private static func configuration(leaving: (@Sendable () -> Bool)? = nil) -> Configuration {
        _ = sqliteConfigured
        var config = Configuration()
        // A writer waits for another process's write as long as an import can hold the book (one
        // transaction for the whole file): with 5 s, a save beside a 2,000-card import on a loaded
        // machine told its user "busy" (Tests/python/test_concurrency.py).
        config.busyMode = .timeout(60)
        // No memory map: with one (1 GiB until v2), every database page a search had touched
        // stayed in the process's resident memory, 826 MiB after a session at 1M contacts
        // against 33 MiB at 10k (28 MiB at both without). Searches read less than they did (the
        // walk, the (id, sort keys) index, the digit grams, the kept count); through pread() and
        // SQLite's small page cache a name search at 1M costs ~10% more than through the map,
        // and long walks of the sort index more (the last page of 1M: 53 ms vs 33 ms).
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA mmap_size = 0")
            // Here, before GRDB's WAL set-up on the writer's connection, which writes a transaction
            // whenever the `-wal` file is missing (every first open of a book) and costs two syncs
            // then and two more for the checkpoint at close. Only a book that reads as today's (the
            // check every open makes first) and can be written is asked about (and may be held
            // there, `Opening`), so whatever a full open would report (not a book, an upgrade to
            // make, read-only) is still found and done.
            if let leaving, !db.configuration.readonly, (try? Self.needsNoMigration(db)) == true,
                sqlite3_db_readonly(db.sqliteConnection, "main") == 0, leaving()
            {
                throw LeftUnopened()
            }
        }
        return config
    }

    public func contact(id: Int64) throws -> Contact? {
        try guarded {
            try reader.read { db in
                try Row.fetchOne(db, sql: "SELECT \(Self.readColumns) FROM contact WHERE id = ?", arguments: [id])
                    .map(Self.contact(from:))
            }
        }
    }

    /// Recorded as an `add` change set, in the same transaction.
    public func insert(_ contact: Contact) throws -> Contact {
        try recordChangeSet(kind: .add, summary: "added \(contact.fullName)", origin: nil) {
            try $0.insert(contact, keepingID: false)
        }
    }

    /// Recorded as an `edit` change set, in the same transaction.
    public func update(_ contact: Contact) throws -> Contact {
        try recordChangeSet(kind: .edit, summary: "edited \(contact.fullName)", origin: nil) { try $0.update(contact) }
    }

    public func contacts(uids: [String]) throws -> [Contact] {
        try guarded {
            try reader.read { db in try Self.contacts(uids: uids, db) }
        }
    }

    static func contacts(uids: [String], _ db: Database) throws -> [Contact] {
        // In chunks: SQLite limits the number of arguments of one statement.
        let found = try stride(from: 0, to: uids.count, by: 500).flatMap { start in
            let chunk = Array(uids[start..<min(start + 500, uids.count)])
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            return try Row.fetchAll(
                db, sql: "SELECT \(readColumns) FROM contact WHERE uid IN (\(marks))",
                arguments: StatementArguments(chunk)
            ).map(Self.contact(from:))
        }
        // Contacts may share a UID (two servers hold it): the oldest first, the one a UID names.
        return found.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
    }

    /// One write transaction, one `import` change set: an error from any save rolls back all of them.
    public func importContacts(inserting: [Contact], updating: [Contact]) throws -> [Contact] {
        try guarded {
            try write(cachingAnchors: true) { db, anchors in
                try journalled(.import, origin: nil, db, anchors: anchors) { recorder in
                    let saved =
                        try inserting.map { try recorder.insert($0, keepingID: false) }
                        + updating.map { try recorder.update($0) }
                    recorder.summary = Self.importSummary(added: inserting.count, updated: updating.count)
                    return saved
                }
            }
        }
    }

    /// The import's own session (`SQLiteContactStore+Import.swift`), as an ordinary transaction.
    public func importInBatches(_ body: (ContactImportTransaction) throws -> Void) throws -> ImportedIDs {
        try importSession(body)
    }

    /// One read transaction and one statement walking the (sort key, id) index: an export of
    /// 1M contacts in pages found by OFFSET re-read the index up to each page (quadratic).
    public func forEachBatch(
        search: String, sort: SortOrder, batchSize: Int,
        _ body: ([Contact]) throws -> Void
    ) throws -> Int {
        try walk(
            search: search, sort: sort, batchSize: batchSize, select: Self.readColumns, read: Self.contact(from:), body)
    }

    /// Recorded as a `delete` change set; the contact is kept whole in the trash.
    public func delete(id: Int64, expectedVersion: Int?) throws {
        try guarded {
            try write { db, anchors in
                try journalled(.delete, origin: nil, db, anchors: anchors) { recorder in
                    let removed = try recorder.delete(id: id, expectedVersion: expectedVersion, toTrash: true)
                    recorder.summary = "deleted \(removed.fullName)"
                }
            }
        }
    }

    /// One transaction: the kept contact's update and every delete, or nothing.
    public func merge(keeping kept: Contact, removing: [Contact]) throws -> Contact {
        try guarded {
            try write { db, anchors in
                try journalled(.merge, origin: nil, db, anchors: anchors) { recorder in
                    let saved = try recorder.update(kept)
                    for contact in removing {
                        guard let id = contact.id else {
                            throw ContactStoreError.storage("The contact was never saved.")
                        }
                        _ = try recorder.delete(id: id, expectedVersion: contact.version, toTrash: true)
                    }
                    recorder.summary =
                        "merged \(removing.map(\.fullName).joined(separator: ", ")) into \(saved.fullName)"
                    return saved
                }
            }
        }
    }

    /// Deletes a row and its index entries, only if still at `expectedVersion` when given;
    /// returns the contact as it was.
    static func deleteRow(id: Int64, expectedVersion: Int?, anchors: AnchorKeeper?, _ db: Database) throws -> Contact {
        guard
            let stored = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(readColumns) FROM contact WHERE id = ?"), arguments: [id]
            ).map(contact(from:))
        else { throw ContactStoreError.notFound(id: id) }
        if let expected = expectedVersion, stored.version != expected {
            throw ContactStoreError.staleVersion(id: id, expected: expected, actual: stored.version)
        }
        // The deleted row's sort keys, for its page anchors.
        guard
            let removed = try Row.fetchOne(
                db, sql: "DELETE FROM contact WHERE id = ? RETURNING sort_first, sort_last", arguments: [id])
        else { throw ContactStoreError.notFound(id: id) }
        try addToContactCount(-1, db)
        try anchors?.remove(IndexEntry(key: removed[0], id: id), .first)
        try anchors?.remove(IndexEntry(key: removed[1], id: id), .last)
        try unindex(id: id, db)
        try unlinkContact(id: id, db)
        return stored
    }

    public func position(of id: Int64, sort: SortOrder) throws -> Int {
        let column = Self.sortColumn(sort)
        return try guarded {
            try reader.read { db in
                guard
                    let key = try String.fetchOne(
                        db, sql: "SELECT \(column) FROM contact WHERE id = ?", arguments: [id])
                else { throw ContactStoreError.notFound(id: id) }
                // The buckets before the contact's, then its place in its bucket: COUNT(*) of
                // the entries before it walked up to the whole index.
                return try Self.anchoredPosition(of: IndexEntry(key: key, id: id), sort, db)
            }
        }
    }

    // MARK: - Helpers

    /// A contact back under the id it had (restore, undo of a delete): AUTOINCREMENT never gave
    /// that id to anyone else. Keeps its version.
    static func insertKeepingID(_ contact: Contact, anchors: AnchorKeeper?, _ db: Database) throws -> Contact {
        guard let id = contact.id, !contact.uid.isEmpty else { throw ContactStoreError.storage("missing id or uid") }
        let row = PreparedRow(contact)
        try run(insertKeepingIDSQL, db) {
            $0.integer(id); bindSaved(contact, row, &$0); $0.integer(Int64(max(1, contact.version)))
        }
        try addToContactCount(+1, db)
        try anchors?.add(IndexEntry(key: row.keys.first, id: id), .first)
        try anchors?.add(IndexEntry(key: row.keys.last, id: id), .last)
        try index(row, id: id, db, isNew: true)
        try linkContact(id: id, uid: contact.uid, keys: row.keys, db)
        var saved = contact
        saved.version = max(1, contact.version)
        return saved
    }

    /// Inserts a contact with what was prepared from it; `counting` false leaves
    /// `contact_count` to the caller (an import adds a batch's inserts at once), no `anchors`
    /// leaves the page anchors to it too (`DeferredIndexes`), `addingWords` false the word list,
    /// and `linkingGroups` false the group rows (an import into a book with no group members).
    static func insert(
        _ contact: Contact, _ row: PreparedRow, anchors: AnchorKeeper?, counting: Bool, addingWords: Bool = true,
        linkingGroups: Bool = true, statements: RowStatements? = nil, _ db: Database
    ) throws -> Contact {
        guard !contact.uid.isEmpty else { throw ContactStoreError.storage("missing uid") }
        try run(statements?.insert ?? db.cachedStatement(sql: insertSQL), db) { bindSaved(contact, row, &$0) }
        let id = db.lastInsertedRowID
        if counting { try addToContactCount(+1, db) }
        try anchors?.add(IndexEntry(key: row.keys.first, id: id), .first)
        try anchors?.add(IndexEntry(key: row.keys.last, id: id), .last)
        var saved = contact
        saved.id = id
        saved.version = 1
        // A new id (AUTOINCREMENT never reuses one) has no index entries to remove.
        try index(row, id: id, db, isNew: true, addingWords: addingWords, statements: statements)
        if linkingGroups { try linkContact(id: id, uid: contact.uid, keys: row.keys, db) }
        return saved
    }

    /// Keeps `contact_count` in step with the table, in the transaction that inserts or deletes.
    static func addToContactCount(_ change: Int, _ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE contact_count SET n = n + ? WHERE one = 1").execute(arguments: [change])
    }

    static func update(_ contact: Contact, anchors: AnchorKeeper?, _ db: Database) throws -> Contact {
        guard let id = contact.id else { throw ContactStoreError.storage("The contact was never saved.") }
        // Whatever changed the fields, the card says the same before it is saved.
        let contact = CardPatch.reconciled(contact)
        let row = PreparedRow(contact)
        let keys = row.keys
        // The stored sort keys, for the page anchors when a key moves.
        let stored = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT sort_first, sort_last, uid FROM contact WHERE id = ?"), arguments: [id])
        try run(updateSQL, db) {
            bindSaved(contact, row, &$0); $0.integer(id); $0.integer(Int64(contact.version))
        }
        guard db.changesCount == 1, let stored else {
            throw try refusal(id: id, expected: contact.version, db)
        }
        for (sort, old, new) in [(SortOrder.first, stored[0] as String, keys.first), (.last, stored[1], keys.last)]
        where old != new {
            try anchors?.remove(IndexEntry(key: old, id: id), sort)
            try anchors?.add(IndexEntry(key: new, id: id), sort)
        }
        // The group rows hold the sort keys and were found by the UID.
        let uidChanged = stored[2] as String != contact.uid
        if uidChanged || stored[0] as String != keys.first || stored[1] as String != keys.last {
            try relinkContact(id: id, uid: contact.uid, keys: keys, uidChanged: uidChanged, db)
        }
        try index(row, id: id, db)
        var saved = contact
        saved.version += 1
        return saved
    }

    /// Every write goes through here: one write transaction, refused by a store opened for
    /// reading, whose changes keep the page anchors through the `AnchorKeeper` it is handed
    /// (with the anchors in memory when `cachingAnchors`, for imports; written back before the
    /// commit).
    func write<T>(cachingAnchors: Bool = false, _ updates: (Database, AnchorKeeper) throws -> T) throws -> T {
        guard !readOnly else { throw ContactStoreError.storage("This book was opened for reading only.") }
        return try writer.write { db in
            let anchors = AnchorKeeper(db, bucket: anchorBucket, cached: cachingAnchors)
            let result = try updates(db, anchors)
            try anchors.finish()
            return result
        }
    }

    func guarded<T>(_ body: () throws -> T) throws -> T {
        closing.lock()
        let closed = isClosed
        closing.unlock()
        guard !closed else { throw ContactStoreError.storage("This book is closed.") }
        do { return try body() } catch { throw Self.storageError(error) }
    }

    /// The first column of the first row of `sql` (no arguments) as an integer, stepped through
    /// SQLite's C API (GRDB's generic fetches scan the binary's conformances on first use).
    /// Throws if there is no row.
    static func integer(_ db: Database, sql: String) throws -> Int64 {
        let statement = try db.makeStatement(sql: sql)
        return try withExtendedLifetime(statement) {
            let raw = statement.sqliteStatement
            defer { sqlite3_reset(raw) }
            let code = sqlite3_step(raw)
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: sql)
            }
            return sqlite3_column_int64(raw, 0)
        }
    }

    static func sortColumn(_ sort: SortOrder) -> String {
        switch sort {
        case .first: return "sort_first"
        case .last: return "sort_last"
        }
    }

    /// Why a guarded write touched no row: the contact is gone, or someone saved it first.
    static func refusal(id: Int64, expected: Int, _ db: Database) throws -> ContactStoreError {
        guard let actual = try Int.fetchOne(db, sql: "SELECT version FROM contact WHERE id = ?", arguments: [id])
        else { return .notFound(id: id) }
        return .staleVersion(id: id, expected: expected, actual: actual)
    }
}
