import Foundation
import GRDB

/// The import's speed plumbing (`ImportSessionStore`): rows prepared on the reading thread, a
/// larger page cache, and, into an empty book, the sort indexes and page anchors built once at
/// the end.
extension SQLiteContactStore: ImportSessionStore {
    public func prepareForImport(_ contact: Contact) -> PreparedContact? { PreparedRow(contact) }

    public func prepareForImport(batch prepared: [PreparedContact?]) -> PreparedBatch? { PreparedWords(prepared) }

    /// A batch's words for the word list (`PreparedRow.insideWords`), each with the places
    /// where another word starts in every one of the batch's texts that held it (bits and'ed, as
    /// `addWords` keeps them), merged on the reading thread: card by card on the saving thread,
    /// hashing each word into the import's table was 4 % of that thread at 100k cards.
    final class PreparedWords: PreparedBatch {
        let words: [String: Int64]
        /// The rows it was made from: it stands for a batch saved with these rows only.
        let rows: Int

        init?(_ prepared: [PreparedContact?]) {
            // A row some other store prepared is made again on the saving thread.
            guard prepared.allSatisfy({ $0 is PreparedRow }) else { return nil }
            var words: [String: Int64] = [:]
            for case let row as PreparedRow in prepared {
                for (word, starts) in row.insideWords { words[word] = words[word].map { $0 & starts } ?? starts }
            }
            self.words = words
            rows = prepared.count
        }
    }

    /// One write transaction for the whole import; each batch is looked up and saved as it
    /// comes, so the caller never holds the whole file's contacts.
    public func importSession(_ body: (ContactImportSession) throws -> Void) throws -> ImportedIDs {
        try guarded {
            try write(cachingAnchors: true) { db, anchors in
                // A larger page cache while the import runs: with SQLite's default (2 MB) the
                // index pages of a large import were evicted and read back over and over.
                let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
                try db.execute(sql: "PRAGMA cache_size = -\(Self.importCacheKiB)")
                defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
                // Asked of the table itself (one seek), not of the kept count.
                let bookWasEmpty = try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM contact)") ?? false
                // Into an empty book the rows go in without the sort indexes and page anchors,
                // which are built once from them at the end (`DeferredIndexes`).
                let deferred = bookWasEmpty ? try DeferredIndexes(dropping: db) : nil
                // One change set for the whole import. It names the range of ids it added (one
                // writer, one transaction: consecutive), no images of them: an undo takes them then
                // (`entriesForUndo`). Only the contacts it updated get before and after images.
                return try journalled(.import, origin: nil, db, anchors: anchors) { recorder in
                    let transaction = Transaction(
                        db: db, anchors: deferred == nil ? anchors : nil, bookWasEmpty: bookWasEmpty,
                        recorder: bookWasEmpty ? nil : recorder)
                    defer { transaction.db = nil }
                    try body(transaction)
                    try transaction.flushWords(db)
                    if let deferred {
                        // SQLite sorts a CREATE INDEX in memory up to the cache size, then in temp files:
                        // a small cache for the build keeps that sort from growing with the book.
                        try db.execute(sql: "PRAGMA cache_size = -\(Self.indexBuildCacheKiB)")
                        try deferred.build(anchorBucket: anchorBucket, db)
                    }
                    let ids = transaction.ids
                    if let first = ids.added.runs.first?.lowerBound, let last = ids.added.runs.last?.upperBound {
                        recorder.addedIDs = first...last
                    }
                    recorder.summary = Self.importSummary(added: ids.added.count, updated: Set(ids.updated).count)
                    return ids
                }
            }
        }
    }

    /// The contact table's indexes other than the UID's, and the duplicate index's (`contact_key`),
    /// set aside while an import fills an empty book, and the page anchors with them: each index is then made in one sorted pass
    /// over the imported rows, not entry by entry in random order, and the anchors are counted
    /// from the made indexes (`fillAnchors`, as migration v4 does). Measured with
    /// `bench/import-floor.sh`, SQLite alone: 100k rows with their indexes 1.27 s, against 0.52 s
    /// for the rows and 0.39 s for the three indexes after. The UID's index stays: each batch
    /// asks the book which of its UIDs this import added (`addedUIDs`). All inside the import's transaction: if the import fails, the indexes and
    /// anchors are back as they were with everything else.
    private struct DeferredIndexes {
        /// Each dropped index's own `CREATE INDEX`, as SQLite stored it, so what is made again
        /// is what the migrations made.
        let definitions: [String]

        init(dropping db: Database) throws {
            let indexes = try Row.fetchAll(
                db,
                sql: """
                    SELECT name, sql FROM sqlite_master
                    WHERE type = 'index' AND tbl_name IN ('contact', 'contact_key') AND sql IS NOT NULL
                      AND name != 'contact_uid'
                    ORDER BY name
                    """)
            for index in indexes {
                let name: String = index["name"]
                try db.execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
            }
            definitions = indexes.map { $0["sql"] }
        }

        func build(anchorBucket: Int, _ db: Database) throws {
            for sql in definitions { try db.execute(sql: sql) }
            try db.execute(sql: "DELETE FROM contact_anchor")
            try SQLiteContactStore.fillAnchors(bucket: anchorBucket, db)
        }
    }

    /// Measured at 100k cards: system time 2.4 s → 0.55 s, peak RSS 59 → 128 MB (bounded by
    /// this, not by the book's size).
    static let importCacheKiB = 65_536
    /// The cache, and so the sort's memory, while the set-aside indexes are built (`DeferredIndexes`).
    static let indexBuildCacheKiB = 16_384

    /// The import session `importSession` hands out; usable only inside it.
    private final class Transaction: ContactImportSession {
        var db: Database?
        var ids = ImportedIDs()
        /// The inserted contacts' words, added to the word list in bulk: a statement per word and
        /// card (most are repeated) would add a lookup to every card. Flushed whenever it holds
        /// `wordsFlushedAt` words (`addWords` merges), so a file of unique words (an email each)
        /// does not grow the import's memory with its length.
        var words: [String: Int64] = [:]
        static let wordsFlushedAt = 50_000
        /// Nil while the anchors wait to be built at the end (`DeferredIndexes`).
        let anchors: AnchorKeeper?
        let bookWasEmpty: Bool
        /// Records each save's images; nil into an empty book (the change set names the ids added).
        let recorder: JournalRecorder?
        /// The first id this import added: the ids it adds are consecutive (one writer, one
        /// transaction), so every id from here on is its own (no set growing with the file).
        var firstAdded: Int64? { ids.added.runs.first?.lowerBound }
        init(db: Database, anchors: AnchorKeeper?, bookWasEmpty: Bool, recorder: JournalRecorder?) {
            self.db = db; self.anchors = anchors; self.bookWasEmpty = bookWasEmpty; self.recorder = recorder
        }

        /// The statements adding the batch's index entries, made once for the import.
        private var bulk: BulkIndex?
        private func bulkIndex(_ db: Database) throws -> BulkIndex {
            if let bulk { return bulk }
            let made = try BulkIndex(db)
            bulk = made
            return made
        }

        func flushWords(_ db: Database) throws {
            // In the words' order: the same book from every run (a dictionary's order is not),
            // and the word list's B-tree filled from left to right.
            try SQLiteContactStore.addWords(
                words.sorted { $0.key < $1.key }.map { (word: $0.key, starts: $0.value) }, db)
            words.removeAll(keepingCapacity: true)
        }

        func contacts(uids: [String]) throws -> [Contact] {
            guard let db else { throw ContactStoreError.storage("The import transaction has ended.") }
            return try SQLiteContactStore.contacts(uids: uids, db)
        }

        /// Asked of the book (the UID's own index), not of a set: the import's rows are its rows
        /// from `firstAdded` on.
        func addedUIDs(among uids: [String]) throws -> Set<String> {
            guard let db else { throw ContactStoreError.storage("The import transaction has ended.") }
            guard let firstAdded, !uids.isEmpty else { return [] }
            var added = Set<String>()
            // In chunks: SQLite limits the number of arguments of one statement.
            for start in stride(from: 0, to: uids.count, by: 500) {
                let chunk = uids[start..<min(start + 500, uids.count)]
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let statement = try db.cachedStatement(
                    sql: "SELECT uid FROM contact WHERE uid IN (\(marks)) AND id >= ?")
                let found = try String.fetchCursor(
                    statement, arguments: StatementArguments(Array(chunk)) + [firstAdded])
                while let uid = try found.next() { added.insert(uid) }
            }
            return added
        }

        func save(inserting: [Contact], prepared: [PreparedContact?], updating: [Contact]) throws {
            try save(inserting: inserting, prepared: prepared, batch: nil, updating: updating)
        }

        func save(inserting: [Contact], prepared: [PreparedContact?], batch: PreparedBatch?, updating: [Contact])
            throws
        {
            guard let db else { throw ContactStoreError.storage("The import transaction has ended.") }
            precondition(prepared.isEmpty || prepared.count == inserting.count, "one prepared row per insert, or none")
            let batchWords = (batch as? PreparedWords).flatMap { $0.rows == inserting.count ? $0 : nil }
            var rows: [(row: PreparedRow, id: Int64)] = []
            rows.reserveCapacity(inserting.count)
            for (index, contact) in inserting.enumerated() {
                let row = (prepared.isEmpty ? nil : prepared[index] as? PreparedRow) ?? PreparedRow(contact)
                let id = try SQLiteContactStore.insertRow(contact, row, anchors: anchors, db)
                ids.added.append(id)
                rows.append((row, id))
                if batchWords == nil {
                    for (word, starts) in row.insideWords { words[word] = words[word].map { $0 & starts } ?? starts }
                }
            }
            if let batchWords {
                words.merge(batchWords.words) { $0 & $1 }
            }
            // The new ids (AUTOINCREMENT never reuses one) have no index entries to remove.
            try bulkIndex(db).add(rows, db)
            if words.count >= Self.wordsFlushedAt { try flushWords(db) }
            if !inserting.isEmpty { try SQLiteContactStore.addToContactCount(inserting.count, db) }
            for contact in updating {
                // A contact this import added (a UID repeated in the file) is in the range already.
                let addedHere = firstAdded.flatMap { first in contact.id.map { $0 >= first } } ?? false
                let recorder = addedHere ? nil : recorder
                let saved = try recorder?.update(contact) ?? SQLiteContactStore.update(contact, anchors: anchors, db)
                ids.updated.append(saved.id!)
            }
        }
    }

    /// An import's index entries for a batch of new rows, table by table, many rows to a
    /// statement: the same entries in the same order as `index` adds them row by row, but each
    /// statement stepped once for `rowsPerStatement` rows. Row by row, an import of 100k cards
    /// stepped a million statements (a cursor opened and a statement reset for each row).
    final class BulkIndex {
        /// Rows of one statement (twice as many parameters for two columns, three times for three).
        static let rowsPerStatement = 64
        private let text, phones, grams, keys: RowsInsert

        init(_ db: Database) throws {
            text = try RowsInsert(db, "INSERT INTO contact_text(rowid, text) VALUES", columns: 2)
            phones = try RowsInsert(db, "INSERT INTO contact_phone(rowid, digits) VALUES", columns: 2)
            grams = try RowsInsert(db, "INSERT INTO contact_phone_gram(rowid, grams) VALUES", columns: 2)
            keys = try RowsInsert(db, "INSERT INTO contact_key(kind, key, id) VALUES", columns: 3)
        }

        func add(_ rows: [(row: PreparedRow, id: Int64)], _ db: Database) throws {
            try text.insert(rows, db) {
                $1.integer($0.id); $1.text($0.row.text)
            }
            try phones.insert(rows, db) {
                $1.integer($0.id); $1.text($0.row.digits)
            }
            // Nothing for phones shorter than a gram (`indexDigitGrams`).
            try grams.insert(rows.filter { !$0.row.grams.isEmpty }, db) {
                $1.integer($0.id); $1.text($0.row.grams)
            }
            let keyRows = rows.flatMap { row, id in row.matchKeys.lazy.map { (kind: $0.kind, key: $0.key, id: id) } }
            try keys.insert(keyRows, db) {
                $1.text($0.kind.storedText); $1.text($0.key); $1.integer($0.id)
            }
        }
    }

    /// One `INSERT … VALUES` for `BulkIndex.rowsPerStatement` rows and one for a single row, for
    /// what is left over.
    struct RowsInsert {
        let many, one: Statement

        init(_ db: Database, _ insert: String, columns: Int) throws {
            let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
            many = try db.makeStatement(
                sql: insert + " " + Array(repeating: row, count: BulkIndex.rowsPerStatement).joined(separator: ", "))
            one = try db.makeStatement(sql: insert + " " + row)
        }

        func insert<Element>(_ rows: [Element], _ db: Database, _ bind: (Element, inout Binder) -> Void) throws {
            var start = 0
            let size = BulkIndex.rowsPerStatement
            while rows.count - start >= size {
                try SQLiteContactStore.run(many, db) { binder in
                    for index in start..<start + size { bind(rows[index], &binder) }
                }
                start += size
            }
            for index in start..<rows.count {
                try SQLiteContactStore.run(one, db) { bind(rows[index], &$0) }
            }
        }
    }
}
