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
    private let writer: any DatabaseWriter
    /// Opened by `openForReading(path:)`: every write is refused.
    private let readOnly: Bool
    /// Set by `close()`; every call checks it first, as GRDB does not guard a closed queue.
    private var isClosed = false
    private let closing = NSLock()
    /// B of the page anchors (`SQLiteContactStore+Anchors.swift`): buckets hold B to 2B contacts.
    /// Only tests change it (2 to 4, so that a few contacts split and merge buckets); any B keeps
    /// exact counts, in a book kept with another B too.
    let anchorBucket: Int

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    ///
    /// A new file is created with mode 0600, its directory with 0700: contacts are private.
    /// `":memory:"` gives a private, empty, in-memory database that lives as long as the store.
    /// `upgrading` is called before the schema of a book made by an older version is brought up
    /// to date, which can take a while once (rebuilding the word index of a 1M-contact book
    /// takes about a minute): a front end can say so instead of seeming to hang.
    /// - Throws: `ContactStoreError.storage` when the file cannot be created, opened or migrated.
    public convenience init(path: String, anchorBucket: Int = SQLiteContactStore.defaultAnchorBucket,
                            upgrading: (() -> Void)? = nil) throws {
        try self.init(path: path, anchorBucket: anchorBucket, matchLists: MatchLists(), upgrading: upgrading)
    }

    /// How many matching ids a search keeps to use again (`MatchLists`); tests set none, so the
    /// plans that search the indexes a second time run too.
    let matchLists: MatchLists

    /// `init(path:anchorBucket:)` with the store's limits for kept matches.
    init(path: String, anchorBucket: Int = SQLiteContactStore.defaultAnchorBucket, matchLists: MatchLists,
         upgrading: (() -> Void)? = nil) throws {
        readOnly = false
        self.matchLists = matchLists
        self.anchorBucket = max(1, anchorBucket)
        let config = Self.configuration()
        do {
            if path == ":memory:" {
                writer = try DatabaseQueue(configuration: config)
            } else {
                try Self.createFileIfMissing(at: path)
                writer = try DatabasePool(path: path, configuration: config)
            }
            let migrator = Self.migrator(anchorBucket: self.anchorBucket)
            // An upgrade: some migrations done (a new file has none), not all.
            if let upgrading, try writer.read({ db in
                try !migrator.hasCompletedMigrations(db) && !migrator.completedMigrations(db).isEmpty
            }) {
                upgrading()
            }
            try migrator.migrate(writer)
        } catch {
            throw Self.storageError(error)
        }
    }

    private init(writer: any DatabaseWriter, readOnly: Bool) {
        matchLists = MatchLists()
        self.writer = writer
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
            // Every migration this program knows, in its order, and no other (GRDB compares the
            // applied names with the registered ones: a book missing v4 is migrated below).
            if try queue.read(migrator().hasCompletedMigrations) {
                return SQLiteContactStore(writer: queue, readOnly: true)
            }
        } catch {
            // Not readable as it is (say a WAL file only a writer may recover): the full open
            // below reports the error, or repairs what SQLite can.
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
        do { try writer.close() } catch { throw Self.storageError(error) }
        isClosed = true
    }

    private static func configuration() -> Configuration {
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
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 0") }
        return config
    }

    public func page(_ query: ContactQuery) throws -> ContactPage {
        let parsed = ContactSearch(query.search)
        let (limit, offset) = query.window
        let lists = matchLists
        let anchorBucket = self.anchorBucket
        return try guarded {
            // One read transaction: the page and the total describe the same snapshot.
            try writer.read { db in
                let search = try ResolvedSearch(parsed, db)
                // A search whose matches may be one run of the sort index (see `WholeCluster`):
                // the run's length first, then, if the word begins one indexed word only, that
                // word's count from the index's vocabulary.
                let cluster = try WholeCluster(search, sort: query.sort, minimum: lists.wholeCluster, db)
                func page(of cluster: WholeCluster) throws -> ContactPage {
                    let ids = try cluster.ids(limit: limit, offset: offset, db)
                    let rows = ids.isEmpty ? [] : try Self.rows(ids: ResolvedSearch.list(ids), [], sort: query.sort, db)
                    return ContactPage(contacts: try rows.map(Self.contact(from:)), total: cluster.run)
                }
                if let cluster, try cluster.isWholeByVocabulary(db) { return try page(of: cluster) }
                let (filter, arguments) = Self.filter(search)
                // The total: kept by the store, or counted on the search indexes alone, never by
                // looking up every matching row in the table.
                let total: Int
                var matches = Matches()
                if parsed.isEmpty {
                    total = try Int.fetchOne(db, sql: "SELECT n FROM contact_count") ?? 0
                } else {
                    // Counted as they are read, and kept (as a list when few, as a set of bits
                    // by id) for the page plans, instead of searching the indexes a second time.
                    let (sql, matchArguments) = Self.matchingIDs(search)
                    if lists.sets {
                        // The largest id bounds every id (ids are never reused): one seek.
                        matches.set = MatchSet(maxID: try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM contact") ?? 0)
                    }
                    var listed: [Int64] = [], count = 0
                    try Self.steppingIDs(db, sql: sql, arguments: matchArguments) { id in
                        if count < lists.listed { listed.append(id) }
                        count += 1
                        matches.set?.insert(id)
                        return true
                    }
                    total = count
                    if count <= lists.listed { matches.list = listed }
                    if let cluster, cluster.run == total { return try page(of: cluster) }
                }
                let rows = try Self.pageRows(search, sort: query.sort, limit: limit, offset: offset, total: total,
                                             matches: matches, filter: (filter, arguments), anchorBucket: anchorBucket, db)
                return ContactPage(contacts: try rows.map(Self.contact(from:)), total: total)
            }
        }
    }

    /// The rows of one page, in order, found by one of three plans (measured in bench/RESULTS.md):
    ///
    /// - **cluster**: for matches that sit together in the sort order (a family name searched in
    ///   the last-name order: `Kowal` finds the Kowalczyks, all under K). The index range of the
    ///   sort keys that start with a term's first word is read in order; the matches inside it
    ///   are in order already, and only the matches outside it ("outliers") are looked up and
    ///   sorted. Its cost grows with the range and the matches as ids, not with a lookup of every
    ///   match's sort key (27k lookups, 55 ms, for `Kowal` at 1M contacts).
    /// - **walk**: the (sort key, id) index in order, keeping the ids the search matches, until
    ///   the page is full. Its cost grows with how far into the book the page's last match
    ///   lies, not with the number of matches: right for a search that matches many contacts.
    /// - **sort**: every matching row looked up by id and sorted (cost ∝ matches): right for a
    ///   rare term.
    ///
    /// The walk is tried when the matches are dense enough that, spread evenly, the page's last
    /// match would come after fewer index entries than there are matches to sort; it gives up
    /// after a few times that many entries (the matches were not spread evenly) and the sort
    /// plan answers. When there is a cluster, the walk goes first if it should read fewer entries
    /// than there are matches outside the cluster (a near page of a prefix that starts many
    /// given names as well as a run of family names), and the cluster plan answers if it gives
    /// up. All plans give the same page: only speed depends on the choice (the
    /// contract tests compare every page of every search with the plain rule).
    ///
    /// Without a search, a page further than 2B contacts in starts at its page anchor's bucket
    /// (`anchoredPageIDs`) rather than walking every entry before it; nearer ones keep OFFSET.
    private static func pageRows(_ search: ResolvedSearch, sort: SortOrder, limit: Int, offset: Int, total: Int,
                                 matches: Matches, filter: (sql: String, arguments: StatementArguments),
                                 anchorBucket: Int,
                                 _ db: Database) throws -> [Row] {
        let sortColumn = Self.sortColumn(sort)
        // The page's ids are found first (in the index, or among the matches), so rows skipped
        // by OFFSET are never read from the table; then the page's rows by id.
        func rows(_ ids: String, _ arguments: StatementArguments) throws -> [Row] {
            try Self.rows(ids: ids, arguments, sort: sort, db)
        }
        // Without a search, the walk is the plan: the filter is always true.
        if search.parsed.isEmpty {
            if offset > 2 * anchorBucket,
               let ids = try anchoredPageIDs(sort, offset: offset, limit: limit, total: total, db) {
                // Ids read from the index, so written into the SQL as numbers.
                return ids.isEmpty ? [] : try rows(ids.map(String.init).joined(separator: ", "), [])
            }
            return try rows("SELECT id FROM contact WHERE 1 ORDER BY \(sortColumn), id LIMIT ? OFFSET ?",
                            [limit, offset])
        }
        let expected = max(0, min(limit, total - min(offset, total)))
        guard expected > 0 else { return [] }
        // (The largest id bounds the number of rows, as ids are never reused, for one seek.)
        let book = try Int.fetchOne(db, sql: "SELECT MAX(id) FROM contact") ?? 0
        let budget = walkBudget(wanted: offset + expected, total: total, book: book)
        if let cluster = try clusterRange(search, sortColumn: sortColumn, total: total, db) {
            // The cluster plan looks up the matches outside the range (at least `total` less the
            // range); a page the walk should reach in fewer index entries is walked first (`mar`
            // by last name at 1M: 49k matches, 34k or more outside the Mar… run, page 1 in about
            // 1,000 entries).
            if let budget, evenWalk(wanted: offset + expected, total: total, book: book) < total - cluster.ids.count,
               let walked = try walk(budget) {
                return walked
            }
            if let ids = try clusterPage(search, cluster, matches: matches, sortColumn: sortColumn,
                                         limit: limit, offset: offset, db) {
                return ids.isEmpty ? [] : try rows(ids.map(String.init).joined(separator: ","), [])
            }
        } else if let budget, let walked = try walk(budget) {
            return walked
        }
        return try sortedPage()

        // The walk stops at the page's last match or after `budget` index entries; nil when it
        // ran out of budget before the page's end.
        func walk(_ budget: Int) throws -> [Row]? {
            if let set = matches.set {
                // The matches already read, as bits: SQLite would first copy every match into a
                // temporary b-tree for `id IN (...)` (400 ms for 350k matches at 1M contacts).
                var page: [Int64] = [], skipped = 0
                try steppingIDs(db, sql: """
                    SELECT id FROM contact INDEXED BY contact_\(sortColumn) ORDER BY \(sortColumn), id LIMIT ?
                    """, arguments: [budget]) { id in
                    guard set.contains(id) else { return true }
                    if skipped < offset { skipped += 1; return true }
                    page.append(id)
                    return page.count < expected
                }
                return page.count == expected ? try rows(ResolvedSearch.list(page), []) : nil
            }
            // No ORDER BY
            // outside: SQLite reads a subquery with a LIMIT as a co-routine, in its order, and an
            // outer ORDER BY would make it read the whole budget before sorting. (Only which ids
            // make the page depends on that order; `rows` sorts them.)
            let walked = try rows("""
                SELECT id FROM (
                    SELECT id FROM contact INDEXED BY contact_\(sortColumn) ORDER BY \(sortColumn), id LIMIT ?)
                WHERE \(filter.sql) LIMIT ? OFFSET ?
                """, [budget] + filter.arguments + [limit, offset])
            // Fewer rows than the page holds: the walk ran out of budget before the page's end.
            return walked.count == expected ? walked : nil
        }
        return try sortedPage()

        // The matches' sort keys come from the (id, sort keys) index, not from their rows; a
        // few matches already read are named by id instead of searched for again.
        func sortedPage() throws -> [Row] {
            if let list = matches.list {
                return try rows("""
                    SELECT id FROM contact INDEXED BY contact_id_sorts WHERE id IN (\(ResolvedSearch.list(list)))
                    ORDER BY \(sortColumn), id LIMIT ? OFFSET ?
                    """, [limit, offset])
            }
            return try rows("""
                SELECT id FROM contact INDEXED BY contact_id_sorts WHERE \(filter.sql)
                ORDER BY \(sortColumn), id LIMIT ? OFFSET ?
                """, filter.arguments + [limit, offset])
        }
    }

    /// Steps a statement whose first column is an id, calling `body` with each until it returns
    /// false. SQLite's C API steps it: GRDB's cursor costs about 0.35 µs a row, which made a
    /// search matching 350k contacts a quarter slower than `COUNT(*)` (measured at 1M
    /// contacts); this loop costs what `COUNT(*)` does.
    static func steppingIDs(_ db: Database, sql: String, arguments: StatementArguments,
                            _ body: (Int64) throws -> Bool) throws {
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: sql)
            }
            guard try body(sqlite3_column_int64(raw, 0)) else { return }
        }
    }

    /// A search's matches as read while counting them.
    struct Matches {
        /// All of them, in id order, when no more than `MatchLists.listed`.
        var list: [Int64]?
        /// All of them, as bits.
        var set: MatchSet?
    }

    /// Limits on the matching ids a search keeps while counting them, to page without searching
    /// the indexes a second time.
    struct MatchLists {
        /// Ids the sort plan names in its SQL: beyond this, parsing the list costs more than
        /// the search.
        var listed = 2_000
        /// Whether the matches are kept as bits by id (an eighth of a byte per contact in the
        /// book: 125 KB at 1M) for the walk and cluster plans.
        var sets = true
        /// The shortest run of the sort index `WholeCluster` is tried for: below, the other
        /// plans are cheap.
        var wholeCluster = 200
    }

    /// A page's rows, in `sort`'s order: those whose id is in `ids` (a list of ids or a SELECT
    /// of them, with its `arguments`).
    static func rows(ids: String, _ arguments: StatementArguments, sort: SortOrder, _ db: Database) throws -> [Row] {
        let column = sortColumn(sort)
        return try Row.fetchAll(db, sql: "SELECT * FROM contact WHERE id IN (\(ids)) ORDER BY \(column), id",
                                arguments: arguments)
    }

    /// A search whose matches may be exactly the contacts whose sort key starts with its one
    /// word (`Kowal` in the last-name order, when no Kowalczyk's email is the only place the
    /// word appears): then the page is a run of the sort index, read from the page's start, and
    /// the total is the run's length; the cluster plan's read of the whole run (27,000 index
    /// entries for `Kowal` at 1M contacts) to tell matches inside it from those outside is not
    /// needed. Nil for any other search, or a run shorter than `minimum`.
    ///
    /// Sound because, for a search of one word of ASCII letters (folded), every contact whose
    /// sort key starts with the word matches: the key starts with a folded name or organisation
    /// (`ContactKeys.sortKey`), which the indexed text holds as a word starting with those
    /// letters after a space (`ContactKeys.foldedText`), and the term is a prefix. So the run is
    /// a subset of the matches, and when the two are as many they are the same contacts. The
    /// run's length comes from the page anchors: two positions, a bucket each. The matches are
    /// counted by `page` as for any search, or, when the word begins only one word of the
    /// index, read from the index's vocabulary (`isWholeByVocabulary`).
    struct WholeCluster {
        let word: String
        /// Above every key that starts with `word` (binary order, as the indexes compare).
        var end: String { word + "\u{10FFFF}" }
        let sort: SortOrder
        /// How many contacts' sort keys start with `word`.
        let run: Int

        init?(_ search: ResolvedSearch, sort: SortOrder, minimum: Int, _ db: Database) throws {
            let parsed = search.parsed
            guard parsed.terms.count == 1, parsed.wholeNumberDigits == nil, let term = parsed.terms.first,
                  term.digits == nil, term.words.count == 1, let word = term.words.first, !word.isEmpty,
                  word.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") })
            else { return nil }
            self.word = word
            self.sort = sort
            run = try anchoredPosition(of: IndexEntry(key: word + "\u{10FFFF}", id: 0), sort, db)
                - anchoredPosition(of: IndexEntry(key: word, id: 0), sort, db)
            guard run >= max(minimum, 1) else { return nil }
        }

        /// Whether `word` begins exactly one word of the index and as many contacts hold it as
        /// the run is long: then they are the matches. Read from FTS5's vocabulary
        /// (`contact_text_vocab`: the word's list is counted in C, three times faster at 1M than
        /// stepping through the matches), as far as the first word and, when its count is the
        /// run's length, whether there is a second (then they may share contacts).
        func isWholeByVocabulary(_ db: Database) throws -> Bool {
            let words = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT doc FROM contact_text_vocab WHERE term >= ? AND term < ?
                """), arguments: [word, end])
            guard let first = try words.next(), first[0] as Int == run else { return false }
            return try words.next() == nil
        }

        /// The page's ids: the run's entries from `offset` on.
        func ids(limit: Int, offset: Int, _ db: Database) throws -> [Int64] {
            guard limit > 0, offset < run else { return [] }
            let column = sortColumn(sort)
            return try Int64.fetchAll(db, sql: """
                SELECT id FROM contact INDEXED BY contact_\(column)
                WHERE \(column) >= ? AND \(column) < ? ORDER BY \(column), id LIMIT ? OFFSET ?
                """, arguments: [word, end, limit, offset])
        }
    }

    /// The ids, in sort order, of the contacts whose sort key starts with a term's first word,
    /// with that word, when they are a quarter of the matches or more and not more than 8 times
    /// as many (then a walk of the range costs less than looking up every match, and the matches
    /// cluster there: a walk from the start of the index would cross everything before them).
    /// Reads at most a quarter of `total` index entries per term when there is no such cluster.
    private static func clusterRange(_ search: ResolvedSearch, sortColumn: String, total: Int,
                                     _ db: Database) throws -> (word: String, ids: [Int64])? {
        let least = total / 4 + 1, most = total.multipliedReportingOverflow(by: 8).partialValue
        for term in search.parsed.terms {
            guard let word = term.words.first else { continue }
            var ids: [Int64] = []
            try steppingIDs(db, sql: """
                SELECT id FROM contact INDEXED BY contact_\(sortColumn)
                WHERE \(sortColumn) >= ? AND \(sortColumn) < ? ORDER BY \(sortColumn), id LIMIT ?
                """, arguments: [word, word + "\u{10FFFF}", most + 1]) { ids.append($0); return true }
            if ids.count >= least, ids.count <= most { return (word, ids) }
        }
        return nil
    }

    /// The page's ids by the cluster plan (see `pageRows`), or nil when the matches outside the
    /// cluster are half of them or more (then sorting all matches costs about the same).
    private static func clusterPage(_ search: ResolvedSearch, _ cluster: (word: String, ids: [Int64]),
                                    matches: Matches, sortColumn: String, limit: Int, offset: Int,
                                    _ db: Database) throws -> [Int64]? {
        var set: MatchSet
        if let known = matches.set {
            set = known
        } else {
            let (matchSQL, matchArguments) = matchingIDs(search)
            set = MatchSet(maxID: try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM contact") ?? 0)
            try steppingIDs(db, sql: matchSQL, arguments: matchArguments) { set.insert($0); return true }
        }
        let total = set.count
        // In sort order already: the range was read from the index.
        let inside = cluster.ids.filter { set.remove($0) }
        // What is left: the matches whose sort key is outside the range.
        guard set.count * 2 < max(total, 1) else { return nil }
        let outliers = set.ids
        // The outliers' sort keys, sorted by SQLite (binary collation, as the index is), each
        // marked as sorting before the range or after it.
        var before: [Int64] = [], after: [Int64] = []
        if !outliers.isEmpty {
            let rows = try Row.fetchCursor(db, sql: """
                SELECT id, \(sortColumn) < ? AS first FROM contact INDEXED BY contact_id_sorts
                WHERE id IN (\(outliers.map(String.init).joined(separator: ","))) ORDER BY \(sortColumn), id
                """, arguments: [cluster.word])
            while let row = try rows.next() {
                let id: Int64 = row[0]
                if row[1] as Bool { before.append(id) } else { after.append(id) }
            }
        }
        // The page of `before + inside + after`, without joining them.
        var page: [Int64] = []
        var skip = offset
        for part in [before, inside, after] where page.count < limit {
            if skip >= part.count { skip -= part.count; continue }
            let end = min(part.count, skip + (limit - page.count))
            page += part[skip..<end]
            skip = 0
        }
        return page
    }

    /// How many index entries a walk may read to find `wanted` of `total` matches in a book of
    /// (at most) `book` rows, or nil when sorting the matches is the cheaper plan. With the
    /// matches spread evenly the walk reads `wanted × book / total` entries; it is worth trying
    /// when that is fewer than the matches a sort would look up. It may read 3 times that (plus
    /// 10), or `total` entries if more: matches come in runs (a given name under each family
    /// name in the last-name order), and at 1M contacts reading an index entry costs about a
    /// third of looking up a match's sort key (0.8 µs vs 2.3 µs), so a walk that gives up
    /// still costs less than the sort it falls back to.
    static func walkBudget(wanted: Int, total: Int, book: Int) -> Int? {
        let evenWalk = evenWalk(wanted: wanted, total: total, book: book)
        guard evenWalk < total else { return nil }
        return max(evenWalk * 3 + 10, total)
    }

    /// The index entries a walk reads to find `wanted` of `total` matches spread evenly over a
    /// book of `book` rows (`Int.max` when there is nothing to find or it cannot be said).
    static func evenWalk(wanted: Int, total: Int, book: Int) -> Int {
        guard total > 0, wanted > 0 else { return .max }
        let (product, overflow) = wanted.multipliedReportingOverflow(by: book)
        return overflow ? .max : product / total + 1
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
        try guarded { try write { db, anchors in try Self.insert(contact, anchors: anchors, db) } }
    }

    public func update(_ contact: Contact) throws -> Contact {
        try guarded { try write { db, anchors in try Self.update(contact, anchors: anchors, db) } }
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
            try write(cachingAnchors: true) { db, anchors in
                try inserting.map { try Self.insert($0, anchors: anchors, db) }
                    + updating.map { try Self.update($0, anchors: anchors, db) }
            }
        }
    }

    /// One write transaction for the whole import; each batch is looked up and saved as it
    /// comes, so the caller never holds the whole file's contacts.
    public func importInBatches(_ body: (ContactImportTransaction) throws -> Void) throws -> ImportedIDs {
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
                let transaction = Transaction(db: db, anchors: deferred == nil ? anchors : nil, bookWasEmpty: bookWasEmpty)
                defer { transaction.db = nil }
                try body(transaction)
                try deferred?.build(anchorBucket: anchorBucket, db)
                return transaction.ids
            }
        }
    }

    /// The contact table's indexes other than the UID's, set aside while an import fills an
    /// empty book, and the page anchors with them: each index is then made in one sorted pass
    /// over the imported rows, not entry by entry in random order, and the anchors are counted
    /// from the made indexes (`fillAnchors`, as migration v4 does). Measured with
    /// `bench/import-floor.sh`, SQLite alone: 100k rows with their indexes 1.27 s, against 0.52 s
    /// for the rows and 0.39 s for the three indexes after. The UID's index stays (SQLite makes
    /// it for the UNIQUE constraint and cannot drop it), so a repeated UID is still refused at
    /// its row. All inside the import's transaction: if the import fails, the indexes and
    /// anchors are back as they were with everything else.
    private struct DeferredIndexes {
        /// Each dropped index's own `CREATE INDEX`, as SQLite stored it, so what is made again
        /// is what the migrations made.
        let definitions: [String]

        init(dropping db: Database) throws {
            let indexes = try Row.fetchAll(db, sql: """
                SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'contact' AND sql IS NOT NULL
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

    /// The import transaction `importInBatches` hands out; usable only inside it.
    private final class Transaction: ContactImportTransaction {
        var db: Database?
        var ids = ImportedIDs()
        /// Nil while the anchors wait to be built at the end (`DeferredIndexes`).
        let anchors: AnchorKeeper?
        let bookWasEmpty: Bool
        init(db: Database, anchors: AnchorKeeper?, bookWasEmpty: Bool) {
            self.db = db; self.anchors = anchors; self.bookWasEmpty = bookWasEmpty
        }

        func contacts(uids: [String]) throws -> [Contact] {
            guard let db else { throw ContactStoreError.storage("The import transaction has ended.") }
            return try SQLiteContactStore.contacts(uids: uids, db)
        }

        func save(inserting: [Contact], prepared: [PreparedContact?], updating: [Contact]) throws {
            guard let db else { throw ContactStoreError.storage("The import transaction has ended.") }
            precondition(prepared.isEmpty || prepared.count == inserting.count, "one prepared row per insert, or none")
            for (index, contact) in inserting.enumerated() {
                let row = prepared.isEmpty ? nil : prepared[index] as? PreparedRow
                ids.added.append(try SQLiteContactStore.insert(contact, row ?? PreparedRow(contact), anchors: anchors,
                                                               counting: false, db).id!)
            }
            if !inserting.isEmpty { try SQLiteContactStore.count(inserting.count, db) }
            for contact in updating {
                ids.updated.append(try SQLiteContactStore.update(contact, anchors: anchors, db).id!)
            }
        }
    }

    public func prepareForImport(_ contact: Contact) -> PreparedContact? { PreparedRow(contact) }

    /// One read transaction and one statement walking the (sort key, id) index: an export of
    /// 1M contacts in pages found by OFFSET re-read the index up to each page (quadratic).
    public func forEachBatch(search: String, sort: SortOrder, batchSize: Int,
                             _ body: ([Contact]) throws -> Void) throws -> Int {
        let parsed = ContactSearch(search)
        let sortColumn = Self.sortColumn(sort)
        var bodyError: Error?
        let count: Int = try guarded {
            try writer.read { db in
                let (filter, arguments) = Self.filter(try ResolvedSearch(parsed, db))
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
            try write { db, anchors in
                // The deleted row's sort keys, for its page anchors.
                let removed: Row
                if let expected = expectedVersion {
                    guard let row = try Row.fetchOne(db, sql: """
                        DELETE FROM contact WHERE id = ? AND version = ? RETURNING sort_first, sort_last
                        """, arguments: [id, expected])
                    else { throw try Self.refusal(id: id, expected: expected, db) }
                    removed = row
                } else {
                    guard let row = try Row.fetchOne(
                        db, sql: "DELETE FROM contact WHERE id = ? RETURNING sort_first, sort_last", arguments: [id])
                    else { throw ContactStoreError.notFound(id: id) }
                    removed = row
                }
                try Self.count(-1, db)
                try anchors.remove(IndexEntry(key: removed[0], id: id), .first)
                try anchors.remove(IndexEntry(key: removed[1], id: id), .last)
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
                // The buckets before the contact's, then its place in its bucket: COUNT(*) of
                // the entries before it walked up to the whole index.
                return try Self.anchoredPosition(of: IndexEntry(key: key, id: id), sort, db)
            }
        }
    }

    // MARK: - Helpers

    private static let updateSQL = "UPDATE contact SET "
        + savedColumns.map { "\($0) = ?" }.joined(separator: ", ") + ", version = version + 1 WHERE id = ? AND version = ?"

    private static let insertSQL: String = {
        let columns = savedColumns.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: savedColumns.count).joined(separator: ", ")
        return "INSERT INTO contact (\(columns), version) VALUES (\(placeholders), 1)"
    }()

    /// Statements are prepared once per connection (`cachedStatement`): an import of 100k cards
    /// spent a quarter of its time parsing the same SQL again.
    private static func insert(_ contact: Contact, anchors: AnchorKeeper, _ db: Database) throws -> Contact {
        try insert(contact, PreparedRow(contact), anchors: anchors, counting: true, db)
    }

    /// Inserts a contact with what was prepared from it; `counting` false leaves
    /// `contact_count` to the caller (an import adds a batch's inserts at once), and no
    /// `anchors` leaves the page anchors to it too (`DeferredIndexes`).
    private static func insert(_ contact: Contact, _ row: PreparedRow, anchors: AnchorKeeper?, counting: Bool,
                               _ db: Database) throws -> Contact {
        guard !contact.uid.isEmpty else { throw ContactStoreError.storage("missing uid") }
        try run(insertSQL, db) { bindSaved(contact, row, &$0) }
        let id = db.lastInsertedRowID
        if counting { try count(+1, db) }
        try anchors?.add(IndexEntry(key: row.keys.first, id: id), .first)
        try anchors?.add(IndexEntry(key: row.keys.last, id: id), .last)
        var saved = contact
        saved.id = id
        saved.version = 1
        // A new id (AUTOINCREMENT never reuses one) has no index entries to remove.
        try index(row, id: id, db, isNew: true)
        return saved
    }

    /// Keeps `contact_count` in step with the table, in the transaction that inserts or deletes.
    private static func count(_ change: Int, _ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE contact_count SET n = n + ? WHERE one = 1").execute(arguments: [change])
    }

    private static func update(_ contact: Contact, anchors: AnchorKeeper?, _ db: Database) throws -> Contact {
        guard let id = contact.id else { throw ContactStoreError.storage("The contact was never saved.") }
        let row = PreparedRow(contact)
        let keys = row.keys
        // The stored sort keys, for the page anchors when a key moves.
        let stored = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT sort_first, sort_last FROM contact WHERE id = ?"), arguments: [id])
        try run(updateSQL, db) { bindSaved(contact, row, &$0); $0.integer(id); $0.integer(Int64(contact.version)) }
        guard db.changesCount == 1, let stored else {
            throw try refusal(id: id, expected: contact.version, db)
        }
        for (sort, old, new) in [(SortOrder.first, stored[0] as String, keys.first), (.last, stored[1], keys.last)]
        where old != new {
            try anchors?.remove(IndexEntry(key: old, id: id), sort)
            try anchors?.add(IndexEntry(key: new, id: id), sort)
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
    private func write<T>(cachingAnchors: Bool = false, _ updates: (Database, AnchorKeeper) throws -> T) throws -> T {
        guard !readOnly else { throw ContactStoreError.storage("This book was opened for reading only.") }
        return try writer.write { db in
            let anchors = AnchorKeeper(db, bucket: anchorBucket, cached: cachingAnchors)
            let result = try updates(db, anchors)
            try anchors.finish()
            return result
        }
    }

    private func guarded<T>(_ body: () throws -> T) throws -> T {
        closing.lock()
        let closed = isClosed
        closing.unlock()
        guard !closed else { throw ContactStoreError.storage("This book is closed.") }
        do { return try body() } catch { throw Self.storageError(error) }
    }

    static func sortColumn(_ sort: SortOrder) -> String {
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

    /// The ids a non-empty search matches, as a compound SELECT over the FTS5 tables only;
    /// the same rules as `filter`, so `COUNT(*)` over it is the number of matching contacts
    /// (the indexes are kept in step with the table in every write transaction).
    private static func matchingIDs(_ resolved: ResolvedSearch) -> (String, StatementArguments) {
        let search = resolved.parsed
        var parts: [String] = []
        var arguments: StatementArguments = []
        for (index, term) in search.terms.enumerated() {
            let (text, textArguments) = textIDs(resolved, term: index)
            arguments += textArguments
            if let digits = term.digits {
                let phone = phoneMatch(digits)
                parts.append("SELECT * FROM (\(text) UNION \(phone.sql))")
                arguments += phone.arguments
            } else {
                parts.append("SELECT * FROM (\(text))")
            }
        }
        var sql = parts.joined(separator: " INTERSECT ")
        if let whole = search.wholeNumberDigits {
            let phone = phoneMatch(whole)
            sql = "SELECT * FROM (\(sql)) UNION \(phone.sql)"
            arguments += phone.arguments
        }
        return (sql, arguments)
    }

    /// The ids whose words hold a term's phrase, as a SELECT with its arguments: the ids already
    /// found for it (`ResolvedSearch`), or its FTS5 phrase.
    private static func textIDs(_ resolved: ResolvedSearch, term index: Int) -> (sql: String, arguments: StatementArguments) {
        if let ids = resolved.textMatches[index] {
            return ("SELECT rowid FROM contact_text WHERE rowid IN (\(ResolvedSearch.list(ids)))", [])
        }
        return ("SELECT rowid FROM contact_text WHERE contact_text MATCH ?", [resolved.parsed.terms[index].ftsPhrase])
    }

    /// The ids whose phones contain `digits`, with the query's arguments: short fragments
    /// through the trigram index; longer ones through the digit-gram index, which narrows the
    /// book to a few candidates whose digits are then checked (`ContactSearch.digitGramText`).
    /// Both find the same contacts; the gram lookup reads doclists that do not grow with the book.
    private static func phoneMatch(_ digits: String) -> (sql: String, arguments: StatementArguments) {
        guard let grams = ContactSearch.digitGramQuery(digits) else {
            return ("SELECT rowid FROM contact_phone WHERE contact_phone MATCH ?", ["\"\(digits)\""])
        }
        // `digits` holds the digits of every phone, space-separated: `instr` cannot match
        // across two phones.
        return ("""
            SELECT rowid FROM contact_phone WHERE rowid IN (
                SELECT rowid FROM contact_phone_gram WHERE contact_phone_gram MATCH ?) AND instr(digits, ?) > 0
            """, [grams, digits])
    }

    /// The WHERE clause for a search, with its arguments; see `ContactSearch` for the rules.
    /// User text only ever reaches SQL as an argument, quoted as an FTS5 string.
    private static func filter(_ resolved: ResolvedSearch) -> (String, StatementArguments) {
        let search = resolved.parsed
        guard !search.isEmpty else { return ("1", []) }
        var clauses: [String] = []
        var arguments: StatementArguments = []
        for (index, term) in search.terms.enumerated() {
            let (text, textArguments) = textIDs(resolved, term: index)
            let textMatch = "id IN (\(text))"
            arguments += textArguments
            if let digits = term.digits {
                let phone = phoneMatch(digits)
                clauses.append("(\(textMatch) OR id IN (\(phone.sql)))")
                arguments += phone.arguments
            } else {
                clauses.append(textMatch)
            }
        }
        var sql = "(" + clauses.joined(separator: " AND ") + ")"
        if let whole = search.wholeNumberDigits {
            let phone = phoneMatch(whole)
            sql = "(\(sql) OR id IN (\(phone.sql)))"
            arguments += phone.arguments
        }
        return (sql, arguments)
    }
}

/// A search with the text matches of some terms found before any SQL is built: a term with a
/// word followed by a number ("olga.brown636") is looked up by its rare marked pairs
/// (`ContactSearch.Term.pairQuery`) and each candidate's indexed text checked in Swift, when
/// there are few candidates. Its ids then stand in for its FTS5 phrase. Built inside the read
/// transaction that uses it, so the ids belong to the same snapshot.
struct ResolvedSearch {
    let parsed: ContactSearch
    /// By term index: the ids whose text holds the term's phrase, for the terms looked up this way.
    let textMatches: [Int: [Int64]]

    /// Candidates beyond this are left to FTS5: checking one costs a few microseconds.
    static let candidateLimit = 1_000

    init(_ parsed: ContactSearch, _ db: Database, candidateLimit: Int = candidateLimit) throws {
        self.parsed = parsed
        var textMatches: [Int: [Int64]] = [:]
        for (index, term) in parsed.terms.enumerated() {
            guard let pairs = term.pairQuery else { continue }
            let rows = try Row.fetchAll(db, sql: """
                SELECT rowid, text FROM contact_text WHERE contact_text MATCH ? LIMIT ?
                """, arguments: [pairs, candidateLimit + 1])
            guard rows.count <= candidateLimit else { continue }
            let matches = term.indexedTextMatcher()
            textMatches[index] = rows.compactMap { row in matches(row[1]) ? row[0] as Int64 : nil }
        }
        self.textMatches = textMatches
    }

    /// Ids as a SQL list: integers, never user text.
    static func list(_ ids: [Int64]) -> String {
        ids.map(String.init).joined(separator: ",")
    }
}

/// Ids as bits, for a search's matches: inserting, testing and removing one is an index and a
/// mask, where a `Set<Int64>` hashes (the cluster plan spent an eighth of its time hashing).
/// Sized by the largest id in the book, which bounds every id: 125 KB at 1M contacts.
struct MatchSet {
    private var words: [UInt64]
    private(set) var count = 0

    init(maxID: Int64) {
        words = Array(repeating: 0, count: Int(max(maxID, 0)) / 64 + 1)
    }

    private func slot(_ id: Int64) -> (word: Int, bit: UInt64)? {
        guard id >= 0, id / 64 < Int64(words.count) else { return nil }
        return (Int(id / 64), 1 << UInt64(id % 64))
    }

    func contains(_ id: Int64) -> Bool {
        guard let (word, bit) = slot(id) else { return false }
        return words[word] & bit != 0
    }

    /// Adds `id` (growing the set for an id beyond the largest it was made for, which the same
    /// snapshot of the book cannot hold; negative ids are not ids, and ignored).
    mutating func insert(_ id: Int64) {
        guard id >= 0 else { return }
        if id / 64 >= Int64(words.count) { words += Array(repeating: 0, count: Int(id / 64) + 1 - words.count) }
        let word = Int(id / 64), bit: UInt64 = 1 << UInt64(id % 64)
        if words[word] & bit == 0 { words[word] |= bit; count += 1 }
    }

    /// Removes `id`; whether it was there.
    mutating func remove(_ id: Int64) -> Bool {
        guard let (word, bit) = slot(id), words[word] & bit != 0 else { return false }
        words[word] &= ~bit
        count -= 1
        return true
    }

    /// The ids, ascending.
    var ids: [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(count)
        for (index, word) in words.enumerated() where word != 0 {
            var rest = word
            while rest != 0 {
                ids.append(Int64(index * 64 + rest.trailingZeroBitCount))
                rest &= rest - 1
            }
        }
        return ids
    }
}
