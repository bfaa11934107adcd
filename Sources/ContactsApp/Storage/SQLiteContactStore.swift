import Foundation
import GRDB

/// The embedded contact store: one SQLite file, shared safely by several processes.
///
/// - WAL mode (a `DatabasePool`) lets a REPL read while an editor plugin writes; a writer
///   waits up to 5 seconds for another process's lock instead of failing at once.
/// - Every save checks the stored `version` in the same statement that writes, so two
///   processes editing the same contact cannot overwrite each other silently: the later one
///   gets `ContactStoreError.staleVersion`.
/// - Lists are paged in SQL and searched through two FTS5 indexes (words and phone-digit
///   trigrams), so showing a page never loads the whole book.
public final class SQLiteContactStore: ContactStore {
    private let writer: any DatabaseWriter
    /// Opened by `openForReading(path:)`: every write is refused.
    private let readOnly: Bool

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    ///
    /// A new file is created with mode 0600, its directory with 0700: contacts are private.
    /// `":memory:"` gives a private, empty, in-memory database that lives as long as the store.
    /// - Throws: `ContactStoreError.storage` when the file cannot be created, opened or migrated.
    public init(path: String) throws {
        readOnly = false
        let config = Self.configuration()
        do {
            if path == ":memory:" {
                writer = try DatabaseQueue(configuration: config)
            } else {
                try Self.createFileIfMissing(at: path)
                writer = try DatabasePool(path: path, configuration: config)
            }
            try Self.migrator.migrate(writer)
        } catch {
            throw Self.storageError(error)
        }
    }

    private init(writer: any DatabaseWriter, readOnly: Bool) {
        self.writer = writer
        self.readOnly = readOnly
    }

    /// Opens the book at `path` for reading only, the way a one-shot reader such as
    /// `contactsbook query` (run by a mail client on every lookup) uses it: one read-only
    /// connection that cannot write, no WAL set-up and no migration, which were a tenth of that
    /// command's time.
    /// A file that does not exist yet, or whose schema is older than this program's, is opened
    /// with `init(path:)` instead (created or migrated), so the answer is the same either way.
    /// Every write through the returned store fails with `ContactStoreError.storage`.
    public static func openForReading(path: String) throws -> SQLiteContactStore {
        guard path != ":memory:", FileManager.default.fileExists(atPath: path) else {
            return try SQLiteContactStore(path: path)
        }
        // Not SQLite's read-only open: a read-only connection cannot remove the `-wal` and
        // `-shm` files when it closes, and would leave them beside the book. The store refuses
        // writes itself instead (`write(_:)`).
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration())
            if try queue.read(migrator.hasCompletedMigrations) {
                return SQLiteContactStore(writer: queue, readOnly: true)
            }
        } catch {
            // Not readable as it is (say a WAL file only a writer may recover): the full open
            // below reports the error, or repairs what SQLite can.
        }
        return try SQLiteContactStore(path: path)
    }

    private static func configuration() -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(5)
        // Read pages through a memory map instead of a pread() and copy per page: searches
        // and pages that touch thousands of rows spent a fifth of their time copying.
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 1073741824") }
        return config
    }

    public func page(_ query: ContactQuery) throws -> ContactPage {
        let search = ContactSearch(query.search)
        let (filter, arguments) = Self.filter(search)
        let sortColumn = Self.sortColumn(query.sort)
        let (limit, offset) = query.window
        return try guarded {
            // One read transaction: the page and the total describe the same snapshot.
            try writer.read { db in
                // The total: counted on the search indexes alone (or the table's smallest
                // index), never by looking up every matching row in the table.
                let total: Int
                if search.isEmpty {
                    total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM contact") ?? 0
                } else {
                    let (matches, matchArguments) = Self.matchingIDs(search)
                    total = try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM (\(matches))", arguments: matchArguments) ?? 0
                }
                // The window: ids found in the (sort key, id) index first, so rows skipped by
                // OFFSET are never read from the table; then the page's rows by id.
                let rows = try Row.fetchAll(db, sql: """
                    SELECT * FROM contact WHERE id IN (
                        SELECT id FROM contact WHERE \(filter)
                        ORDER BY \(sortColumn), id LIMIT ? OFFSET ?)
                    ORDER BY \(sortColumn), id
                    """, arguments: arguments + [limit, offset])
                return ContactPage(contacts: try rows.map(Self.contact(from:)), total: total)
            }
        }
    }

    public func contact(id: Int64) throws -> Contact? {
        try guarded {
            try writer.read { db in
                try Row.fetchOne(db, sql: "SELECT * FROM contact WHERE id = ?", arguments: [id])
                    .map(Self.contact(from:))
            }
        }
    }

    public func insert(_ contact: Contact) throws -> Contact {
        try guarded { try write { db in try Self.insert(contact, db) } }
    }

    public func update(_ contact: Contact) throws -> Contact {
        try guarded { try write { db in try Self.update(contact, db) } }
    }

    public func contacts(uids: [String]) throws -> [Contact] {
        try guarded {
            try writer.read { db in try Self.contacts(uids: uids, db) }
        }
    }

    private static func contacts(uids: [String], _ db: Database) throws -> [Contact] {
        // In chunks: SQLite limits the number of arguments of one statement.
        try stride(from: 0, to: uids.count, by: 500).flatMap { start in
            let chunk = Array(uids[start..<min(start + 500, uids.count)])
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            return try Row.fetchAll(db, sql: "SELECT \(readColumns) FROM contact WHERE uid IN (\(marks))",
                                    arguments: StatementArguments(chunk)).map(Self.contact(fromColumns:))
        }
    }

    /// One write transaction: an error from any save rolls back all of them.
    public func importContacts(inserting: [Contact], updating: [Contact]) throws -> [Contact] {
        try guarded {
            try write { db in
                try inserting.map { try Self.insert($0, db) } + updating.map { try Self.update($0, db) }
            }
        }
    }

    /// One write transaction for the whole import; each batch is looked up and saved as it
    /// comes, so the caller never holds the whole file's contacts.
    public func importInBatches(_ body: (ContactImportTransaction) throws -> Void) throws -> ImportedIDs {
        try guarded {
            try write { db in
                // A larger page cache while the import runs: with SQLite's default (2 MB) the
                // index pages of a large import were evicted and read back over and over.
                let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
                try db.execute(sql: "PRAGMA cache_size = -\(Self.importCacheKiB)")
                defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
                let transaction = Transaction(db: db)
                defer { transaction.db = nil }
                try body(transaction)
                return transaction.ids
            }
        }
    }

    /// Measured at 100k cards: system time 2.4 s → 0.55 s, peak RSS 59 → 128 MB (bounded by
    /// this, not by the book's size).
    static let importCacheKiB = 65_536

    /// The import transaction `importInBatches` hands out; usable only inside it.
    private final class Transaction: ContactImportTransaction {
        var db: Database?
        var ids = ImportedIDs()
        init(db: Database) { self.db = db }

        func contacts(uids: [String]) throws -> [Contact] {
            guard let db else { throw ContactStoreError.storage("The import transaction has ended.") }
            return try SQLiteContactStore.contacts(uids: uids, db)
        }

        func save(inserting: [Contact], updating: [Contact]) throws {
            guard let db else { throw ContactStoreError.storage("The import transaction has ended.") }
            for contact in inserting { ids.added.append(try SQLiteContactStore.insert(contact, db).id!) }
            for contact in updating { ids.updated.append(try SQLiteContactStore.update(contact, db).id!) }
        }
    }

    /// One read transaction and one statement walking the (sort key, id) index: an export of
    /// 1M contacts in pages found by OFFSET re-read the index up to each page (quadratic).
    public func forEachBatch(search: String, sort: SortOrder, batchSize: Int,
                             _ body: ([Contact]) throws -> Void) throws -> Int {
        let (filter, arguments) = Self.filter(ContactSearch(search))
        let sortColumn = Self.sortColumn(sort)
        var bodyError: Error?
        let count: Int = try guarded {
            try writer.read { db in
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT \(Self.readColumns) FROM contact WHERE \(filter) ORDER BY \(sortColumn), id",
                    arguments: arguments)
                var batch: [Contact] = [], count = 0
                batch.reserveCapacity(batchSize)
                func flush() -> Bool {
                    guard !batch.isEmpty else { return true }
                    do { try body(batch) } catch { bodyError = error; return false }
                    count += batch.count
                    batch.removeAll(keepingCapacity: true)
                    return true
                }
                while let row = try rows.next() {
                    batch.append(try Self.contact(fromColumns: row))
                    if batch.count >= batchSize, !flush() { return count }
                }
                _ = flush()
                return count
            }
        }
        // The caller's own failure (writing the file) is not a storage error.
        if let bodyError { throw bodyError }
        return count
    }

    public func delete(id: Int64, expectedVersion: Int?) throws {
        try guarded {
            try write { db in
                if let expected = expectedVersion {
                    try db.execute(sql: "DELETE FROM contact WHERE id = ? AND version = ?", arguments: [id, expected])
                    guard db.changesCount == 1 else { throw try Self.refusal(id: id, expected: expected, db) }
                } else {
                    try db.execute(sql: "DELETE FROM contact WHERE id = ?", arguments: [id])
                    guard db.changesCount == 1 else { throw ContactStoreError.notFound(id: id) }
                }
                try Self.unindex(id: id, db)
            }
        }
    }

    public func position(of id: Int64, sort: SortOrder) throws -> Int {
        let column = Self.sortColumn(sort)
        return try guarded {
            try writer.read { db in
                guard let key = try String.fetchOne(
                    db, sql: "SELECT \(column) FROM contact WHERE id = ?", arguments: [id])
                else { throw ContactStoreError.notFound(id: id) }
                // Row-value comparison walks the (sort key, id) index.
                return try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM contact WHERE (\(column), id) < (?, ?)",
                    arguments: [key, id]) ?? 0
            }
        }
    }

    // MARK: - Helpers

    private static let insertSQL: String = {
        let columns = savedColumns.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: savedColumns.count).joined(separator: ", ")
        return "INSERT INTO contact (\(columns), version) VALUES (\(placeholders), 1)"
    }()

    /// Statements are prepared once per connection (`cachedStatement`): an import of 100k cards
    /// spent a quarter of its time parsing the same SQL again.
    private static func insert(_ contact: Contact, _ db: Database) throws -> Contact {
        guard !contact.uid.isEmpty else { throw ContactStoreError.storage("missing uid") }
        try db.cachedStatement(sql: insertSQL).execute(arguments: savedValues(contact))
        var saved = contact
        saved.id = db.lastInsertedRowID
        saved.version = 1
        // A new id (AUTOINCREMENT never reuses one) has no index entries to remove.
        try index(saved, id: db.lastInsertedRowID, db, isNew: true)
        return saved
    }

    private static func update(_ contact: Contact, _ db: Database) throws -> Contact {
        guard let id = contact.id else { throw ContactStoreError.storage("The contact was never saved.") }
        let assignments = savedColumns.map { "\($0) = ?" }.joined(separator: ", ")
        try db.execute(
            sql: "UPDATE contact SET \(assignments), version = version + 1 WHERE id = ? AND version = ?",
            arguments: savedValues(contact) + [id, contact.version])
        guard db.changesCount == 1 else {
            throw try refusal(id: id, expected: contact.version, db)
        }
        try index(contact, id: id, db)
        var saved = contact
        saved.version += 1
        return saved
    }

    /// Every write goes through here: one write transaction, refused by a store opened for reading.
    private func write<T>(_ updates: (Database) throws -> T) throws -> T {
        guard !readOnly else { throw ContactStoreError.storage("This book was opened for reading only.") }
        return try writer.write(updates)
    }

    private func guarded<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw Self.storageError(error) }
    }

    private static func sortColumn(_ sort: SortOrder) -> String {
        switch sort {
        case .first: return "sort_first"
        case .last: return "sort_last"
        }
    }

    /// Why a guarded write touched no row: the contact is gone, or someone saved it first.
    private static func refusal(id: Int64, expected: Int, _ db: Database) throws -> ContactStoreError {
        guard let actual = try Int.fetchOne(db, sql: "SELECT version FROM contact WHERE id = ?", arguments: [id])
        else { return .notFound(id: id) }
        return .staleVersion(id: id, expected: expected, actual: actual)
    }

    /// The ids a non-empty search matches, as a compound SELECT over the two FTS5 tables only;
    /// the same rules as `filter`, so `COUNT(*)` over it is the number of matching contacts
    /// (both indexes are kept in step with the table in every write transaction).
    private static func matchingIDs(_ search: ContactSearch) -> (String, StatementArguments) {
        let text = "SELECT rowid FROM contact_text WHERE contact_text MATCH ?"
        let phone = "SELECT rowid FROM contact_phone WHERE contact_phone MATCH ?"
        var parts: [String] = []
        var arguments: StatementArguments = []
        for term in search.terms {
            arguments += [term.ftsPhrase]
            if let digits = term.digits {
                parts.append("SELECT * FROM (\(text) UNION \(phone))")
                arguments += ["\"\(digits)\""]
            } else {
                parts.append("SELECT * FROM (\(text))")
            }
        }
        var sql = parts.joined(separator: " INTERSECT ")
        if let whole = search.wholeNumberDigits {
            sql = "SELECT * FROM (\(sql)) UNION \(phone)"
            arguments += ["\"\(whole)\""]
        }
        return (sql, arguments)
    }

    /// The WHERE clause for a search, with its arguments; see `ContactSearch` for the rules.
    /// User text only ever reaches SQL as an argument, quoted as an FTS5 string.
    private static func filter(_ search: ContactSearch) -> (String, StatementArguments) {
        guard !search.isEmpty else { return ("1", []) }
        let textMatch = "id IN (SELECT rowid FROM contact_text WHERE contact_text MATCH ?)"
        let phoneMatch = "id IN (SELECT rowid FROM contact_phone WHERE contact_phone MATCH ?)"
        var clauses: [String] = []
        var arguments: StatementArguments = []
        for term in search.terms {
            arguments += [term.ftsPhrase]
            if let digits = term.digits {
                clauses.append("(\(textMatch) OR \(phoneMatch))")
                arguments += ["\"\(digits)\""]
            } else {
                clauses.append(textMatch)
            }
        }
        var sql = "(" + clauses.joined(separator: " AND ") + ")"
        if let whole = search.wholeNumberDigits {
            sql = "(\(sql) OR \(phoneMatch))"
            arguments += ["\"\(whole)\""]
        }
        return (sql, arguments)
    }
}
