import Foundation
import GRDB

/// The import's speed plumbing (`ImportSessionStore`): rows prepared on the reading thread, a
/// larger page cache, and, into an empty book, the sort indexes and page anchors built once at
/// the end.
extension SQLiteContactStore: ImportSessionStore {
    public func prepareForImport(_ contact: Contact) -> PreparedContact? { PreparedRow(contact) }

    /// A batch's rows, and their word list gathered here on the reading thread (`BatchWords`):
    /// added word by word on the saving thread, it was 4 % of that thread's instructions.
    public func prepareForImport(batch contacts: [Contact]) -> [PreparedContact?] {
        let rows = contacts.map(PreparedRow.init)
        let batch = BatchWords(rows)
        return rows.map { BatchRow(row: $0, batch: batch) }
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
                    // A book with no group members has no group rows to add for each card.
                    let linkingGroups = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM group_member)") ?? true
                    let transaction = Transaction(
                        db: db, anchors: deferred == nil ? anchors : nil, bookWasEmpty: bookWasEmpty,
                        recorder: bookWasEmpty ? nil : recorder, linkingGroups: linkingGroups)
                    defer { transaction.db = nil }
                    try body(transaction)
                    try transaction.flushWords(db)
                    if let deferred {
                        // SQLite sorts a CREATE INDEX in memory up to the cache size, then in temp files:
                        // a small cache for the build keeps that sort from growing with the book.
                        try db.execute(sql: "PRAGMA cache_size = -\(Self.indexBuildCacheKiB)")
                        // The build runs after the last card is read, on one core while the
                        // reading thread's is idle: SQLite's sorter hands its sorts to helper
                        // threads (bench/FINDINGS.md, branch `import4`).
                        let threads = try Int.fetchOne(db, sql: "PRAGMA threads") ?? 0
                        try db.execute(sql: "PRAGMA threads = \(Self.indexBuildThreads)")
                        defer { try? db.execute(sql: "PRAGMA threads = \(threads)") }
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
    /// SQLite's helper threads for the sorts of that build (`PRAGMA threads`): none on one core.
    /// The five indexes of a 100k book, SQLite alone: the building thread's CPU 1.7 s with none,
    /// 1.1–1.3 s with one, 1.0 s with two, the rest on the idle core; the import's peak RSS
    /// 160 → 186 MB (each helper's sort buffer, bounded by `indexBuildCacheKiB`).
    static var indexBuildThreads: Int { ProcessInfo.processInfo.activeProcessorCount > 1 ? 2 : 0 }

    /// The import session `importSession` hands out; usable only inside it.
    private final class Transaction: ContactImportSession {
        var db: Database?
        var ids = ImportedIDs()
        /// The inserted contacts' words, added to the word list in bulk: a statement per word and
        /// card (most are repeated) would add a lookup to every card. Flushed whenever it holds
        /// `wordsFlushedAt` words (`addWords` merges), so a file of unique words (an email each)
        /// does not grow the import's memory with its length.
        var words = WordStarts()
        static let wordsFlushedAt = 50_000
        /// The UIDs this import added, for `addedUIDs`: most asked are not, and the book is
        /// asked only about those the filter may hold.
        var addedFilter = UIDFilter()
        /// Nil while the anchors wait to be built at the end (`DeferredIndexes`).
        let anchors: AnchorKeeper?
        let bookWasEmpty: Bool
        /// Records each save's images; nil into an empty book (the change set names the ids added).
        let recorder: JournalRecorder?
        let linkingGroups: Bool
        /// Looked up at the first save, then reused for every card (`RowStatements`).
        var statements: RowStatements?
        /// The first id this import added: the ids it adds are consecutive (one writer, one
        /// transaction), so every id from here on is its own (no set growing with the file).
        var firstAdded: Int64? { ids.added.runs.first?.lowerBound }
        init(db: Database, anchors: AnchorKeeper?, bookWasEmpty: Bool, recorder: JournalRecorder?, linkingGroups: Bool)
        {
            self.db = db; self.anchors = anchors; self.bookWasEmpty = bookWasEmpty; self.recorder = recorder
            self.linkingGroups = linkingGroups
        }

        func flushWords(_ db: Database) throws {
            try SQLiteContactStore.addWords(words.entries, db)
            words.removeAll()
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
            let uids = uids.filter(addedFilter.mayContain)
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
            guard let db else { throw ContactStoreError.storage("The import transaction has ended.") }
            precondition(prepared.isEmpty || prepared.count == inserting.count, "one prepared row per insert, or none")
            let statements = try self.statements ?? RowStatements(db)
            self.statements = statements
            // Inserting exactly a batch's rows, its words gathered on the reading thread are merged
            // once; any other rows (a batch with updates or unchanged cards in it) add their own.
            let gathered = BatchWords.whole(prepared, inserting: inserting.count)
            for (index, contact) in inserting.enumerated() {
                let item = prepared.isEmpty ? nil : prepared[index]
                let row = (item as? BatchRow)?.row ?? (item as? PreparedRow) ?? PreparedRow(contact)
                let saved = try SQLiteContactStore.insert(
                    contact, row, anchors: anchors, counting: false,
                    addingWords: false, linkingGroups: linkingGroups, statements: statements, db)
                ids.added.append(saved.id!)
                addedFilter.insert(contact.uid)
                if gathered == nil { for (word, starts) in row.insideWords { words.add(word, starts) } }
            }
            if let gathered { words.merge(gathered.words) }
            if words.count >= Self.wordsFlushedAt { try flushWords(db) }
            if !inserting.isEmpty { try SQLiteContactStore.addToContactCount(inserting.count, db) }
            for contact in updating {
                // A contact this import added (a UID repeated in the file) is in the range already.
                let addedHere = firstAdded.flatMap { first in contact.id.map { $0 >= first } } ?? false
                let recorder = addedHere ? nil : recorder
                let saved = try recorder?.update(contact) ?? SQLiteContactStore.update(contact, anchors: anchors, db)
                if addedHere { addedFilter.insert(saved.uid) }
                ids.updated.append(saved.id!)
            }
        }
    }

    /// The words an import's contacts hold and where other words start in them
    /// (`ContactSearch.insideWordsWithStarts`), each word's starts those all its contacts share
    /// (`addWords` keeps the same rule). One hash lookup a word, and no allocation: the
    /// dictionary's `subscript(_:default:)` modified in place allocated twice per word
    /// (bench/FINDINGS.md, `import6save`).
    struct WordStarts {
        private var index: [String: Int] = [:]
        private var words: [String] = []
        private var starts: [Int64] = []

        var count: Int { words.count }

        mutating func add(_ word: String, _ starts: Int64) {
            if let at = index[word] {
                self.starts[at] &= starts
            } else {
                index[word] = words.count
                words.append(word)
                self.starts.append(starts)
            }
        }

        /// `other`'s words added in its order: the same entries as adding each of its words here.
        mutating func merge(_ other: WordStarts) {
            for (word, starts) in zip(other.words, other.starts) { add(word, starts) }
        }

        /// Each word once, in the order first added.
        var entries: [(word: String, starts: Int64)] { zip(words, starts).map { (word: $0, starts: $1) } }

        mutating func removeAll() {
            index.removeAll(keepingCapacity: true)
            words.removeAll(keepingCapacity: true)
            starts.removeAll(keepingCapacity: true)
        }
    }

    /// The word list of one batch's rows (`WordStarts`), gathered on the thread that prepared
    /// them, shared by the batch's `BatchRow`s.
    final class BatchWords: Sendable {
        let words: WordStarts
        /// How many rows the batch has.
        let rows: Int

        init(_ rows: [PreparedRow]) {
            var words = WordStarts()
            for row in rows { for (word, starts) in row.insideWords { words.add(word, starts) } }
            self.words = words
            self.rows = rows.count
        }

        /// The batch whose rows `prepared` holds, when it holds every row of one batch and no
        /// other (a save of the whole batch): the rows are distinct, so all of one batch and as
        /// many as it has are exactly its rows.
        static func whole(_ prepared: [PreparedContact?], inserting count: Int) -> BatchWords? {
            guard prepared.count == count, let first = prepared.first.flatMap({ $0 as? BatchRow }),
                first.batch.rows == count
            else { return nil }
            let batch = first.batch
            return prepared.allSatisfy { ($0 as? BatchRow)?.batch === batch } ? batch : nil
        }
    }

    /// A row prepared with its batch (`prepareForImport(batch:)`).
    final class BatchRow: PreparedContact {
        let row: PreparedRow
        let batch: BatchWords
        init(row: PreparedRow, batch: BatchWords) { self.row = row; self.batch = batch }
    }

    /// A Bloom filter of UIDs, of a fixed size (1 MiB): `mayContain` is false only for a UID
    /// never inserted; true for one that was, and for a few that were not (4 in 100,000 after
    /// 100k UIDs). An import asks the book which of a batch's UIDs it added; the filter leaves
    /// out of that question the ones it did not, 7,600 instructions a UID at 10k cards.
    struct UIDFilter {
        private static let bits = 1 << 23
        private var words = [UInt64](repeating: 0, count: UIDFilter.bits / 64)

        private static func positions(_ uid: String) -> (Int, Int, Int) {
            var hasher = Hasher()
            hasher.combine(uid)
            let hash = UInt64(bitPattern: Int64(hasher.finalize()))
            let first = hash & 0xFFFF_FFFF, step = (hash >> 32) | 1
            let mask = UInt64(bits - 1)
            return (Int(first & mask), Int((first &+ step) & mask), Int((first &+ 2 &* step) & mask))
        }

        mutating func insert(_ uid: String) {
            let (a, b, c) = Self.positions(uid)
            words[a >> 6] |= 1 << UInt64(a & 63)
            words[b >> 6] |= 1 << UInt64(b & 63)
            words[c >> 6] |= 1 << UInt64(c & 63)
        }

        func mayContain(_ uid: String) -> Bool {
            let (a, b, c) = Self.positions(uid)
            return words[a >> 6] & (1 << UInt64(a & 63)) != 0 && words[b >> 6] & (1 << UInt64(b & 63)) != 0
                && words[c >> 6] & (1 << UInt64(c & 63)) != 0
        }
    }
}
