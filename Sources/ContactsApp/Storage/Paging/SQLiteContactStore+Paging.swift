import Foundation
import GRDB

/// Paging in SQL: the numbers a page's plan needs are looked up, `PagePlanner` chooses the
/// plans, and `PageReader` runs them (each plan's SQL is there, in one place).
extension SQLiteContactStore {
    public func page(_ query: ContactQuery) throws -> ContactPage {
        if let filter = query.group { return try groupPage(query, filter) }
        let parsed = ContactSearch(query.search)
        if let book = query.book { return try bookPage(query, book: book, parsed) }
        let (limit, offset) = query.window
        return try guarded {
            // One read transaction: the page and the total describe the same snapshot.
            try reader.read { db in
                let search = try ResolvedSearch(parsed, db)
                // `offset` is handed the total once counted: a page past the end may be the last
                // one (`ContactQuery.lastPageWhenPastTheEnd`), found in the same read.
                func ordinary(limit: Int, offset: (Int) -> Int) throws -> (rows: [Row], total: Int) {
                    search.hasInsideWords
                        ? try insideWordsPage(search, sort: query.sort, limit: limit, offset: offset, db)
                        : try plannedPage(search, sort: query.sort, limit: limit, offset: offset, db)
                }
                // A search puts the contacts a person writes to first (`Frecency`).
                let ranked = parsed.isEmpty ? [] : try Self.rankedMatches(search, sort: query.sort, db)
                let contacts: [Contact], total: Int
                if ranked.isEmpty {
                    let (rows, count) = try ordinary(limit: limit) { query.window(total: $0).offset }
                    contacts = try rows.map(Self.contact(from:))
                    total = count
                } else {
                    var offset = offset
                    // A page after the ranked contacts may lie past the end: counted first, then.
                    if query.lastPageWhenPastTheEnd, offset >= ranked.count {
                        offset = query.window(total: try ordinary(limit: 0) { _ in 0 }.total).offset
                    }
                    var count = 0
                    contacts = try Frecency.page(ranked: ranked, offset: offset, limit: limit) { offset, limit in
                        let (rows, matches) = try ordinary(limit: limit) { _ in offset }
                        count = matches
                        return try rows.map(Self.contact(from:))
                    }
                    // A page made of ranked contacts alone reads no ordinary rows: count them still.
                    total = offset + limit <= ranked.count ? try ordinary(limit: 0) { _ in 0 }.total : count
                }
                return ContactPage(
                    contacts: contacts, total: total,
                    matches: query.locatesMatches ? parsed.matches(on: contacts) : [:])
            }
        }
    }

    /// A page of one book's contacts (`list --book NAME`), searched or not: a plain SQL page in
    /// sort order, without the planner's anchors (a filter people use on books of their size).
    private func bookPage(_ query: ContactQuery, book: String, _ parsed: ContactSearch) throws -> ContactPage {
        try guarded {
            try reader.read { db in
                var filter = "\(Self.bookOfContact) = ?"
                var arguments: StatementArguments = [book]
                if !parsed.isEmpty {
                    let (sql, searchArguments) = Self.matchingIDs(try ResolvedSearch(parsed, db))
                    filter += " AND id IN (\(sql))"
                    arguments += searchArguments
                }
                let total =
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM contact WHERE \(filter)", arguments: arguments) ?? 0
                let (limit, offset) = query.window(total: total)
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT \(Self.readColumns) FROM contact WHERE \(filter) ORDER BY \(Self.sortColumn(query.sort)), id LIMIT ? OFFSET ?
                        """, arguments: arguments + [limit, offset])
                let contacts = try rows.map(Self.contact(from:))
                return ContactPage(
                    contacts: contacts, total: total,
                    matches: query.locatesMatches ? parsed.matches(on: contacts) : [:])
            }
        }
    }

    /// A page of a search some of whose terms are found inside words: the matches at word
    /// starts first (paged by their plans), then those found only inside words, sorted by id
    /// lists (`insideOnlyIDs`).
    private func insideWordsPage(
        _ search: ResolvedSearch, sort: SortOrder, limit: Int, offset: (Int) -> Int,
        _ db: Database
    ) throws -> (rows: [Row], total: Int) {
        let book = try Self.largestID(db)
        let insideOnly = try Self.insideOnlyIDs(search, book: book, db)
        var pageOffset = 0
        let (starts, first) = try plannedPage(
            search.atWordStarts, sort: sort, limit: limit,
            offset: { first in
                pageOffset = offset(first + insideOnly.count)
                return pageOffset
            }, largestID: book, db)
        var rows = starts
        let wanted = limit - rows.count
        if wanted > 0, !insideOnly.isEmpty {
            let column = Self.sortColumn(sort)
            rows += try Self.rows(
                ids: """
                    SELECT id FROM contact INDEXED BY contact_id_sorts WHERE id IN (\(ResolvedSearch.list(insideOnly)))
                    ORDER BY \(column), id LIMIT ? OFFSET ?
                    """, [wanted, max(0, pageOffset - first)], sort: sort, db)
        }
        return (rows, first + insideOnly.count)
    }

    /// The ids a search matches only inside words. For one term, one FTS5 query answers in C:
    /// the words holding it, NOT its word starts (a name prefix at 1M whose family name sits
    /// inside thousands of email handles, `marykowalczyk`, read every match twice in Swift
    /// otherwise). For several, every match is stepped and those at word starts left out.
    static func insideOnlyIDs(_ search: ResolvedSearch, book: Int, _ db: Database) throws -> [Int64] {
        var ids: [Int64] = []
        let parsed = search.parsed
        if parsed.terms.count == 1, parsed.wholeNumberDigits == nil, search.textMatches.isEmpty,
            let term = parsed.terms.first, let words = search.insideWords[0]
        {
            let holding = words.map { "\"" + ContactSearch.Term.doublingQuotes($0) + "\"" }.joined(separator: " OR ")
            try steppingIDs(
                db, sql: "SELECT rowid FROM contact_text WHERE contact_text MATCH ?",
                arguments: ["(\(holding)) NOT \(term.ftsPhrase)"]
            ) {
                ids.append($0); return true
            }
            // (A term found inside words is one word of letters: no phone fragment to match.)
            return ids
        }
        return try insideOnlyIDsByStepping(search, book: book, db)
    }

    private static func insideOnlyIDsByStepping(
        _ search: ResolvedSearch, book: Int,
        _ db: Database
    ) throws -> [Int64] {
        var starts = MatchSet(maxID: Int64(book))
        let (startSQL, startArguments) = matchingIDs(search.atWordStarts)
        try steppingIDs(db, sql: startSQL, arguments: startArguments) {
            starts.insert($0); return true
        }
        var ids: [Int64] = []
        let (sql, arguments) = matchingIDs(search)
        try steppingIDs(db, sql: sql, arguments: arguments) { id in
            if !starts.contains(id) { ids.append(id) }
            return true
        }
        return ids
    }

    /// A page found by the plans `PagePlanner` chooses, with the number of matches.
    /// `offset` is asked once the matches are counted, with their number.
    /// `largestID` is the largest id when the caller looked it up already (once per page).
    private func plannedPage(
        _ search: ResolvedSearch, sort: SortOrder, limit: Int, offset: (Int) -> Int,
        largestID: Int? = nil, _ db: Database
    ) throws -> (rows: [Row], total: Int) {
        let tuning = self.tuning
        var numbers = PageNumbers(
            searching: !search.parsed.isEmpty, total: 0, offset: 0, limit: limit,
            anchorBucket: anchorBucket)
        var matches = Matches()
        var book = largestID
        let run = try MatchRun(search, sort: sort, minimum: tuning.shortestRun, db)
        if !numbers.searching {
            // Kept by the store: COUNT(*) would read a whole index.
            numbers.total = try Int.fetchOne(db, sql: "SELECT n FROM contact_count") ?? 0
        } else if let run, try run.isWholeByVocabulary(db) {
            numbers.total = run.length
            numbers.matchesAreRun = true
        } else {
            if tuning.keepsMatchSet, book == nil { book = try Self.largestID(db) }
            matches = try Matches(search, book: book, tuning: tuning, db)
            numbers.total = matches.count
            numbers.matchesAreRun = run?.length == matches.count
        }
        numbers.offset = offset(numbers.total)
        var cluster: Cluster?
        if numbers.needsLayout {
            numbers.book = try book ?? Self.largestID(db)
            cluster = try PageReader.clusterRange(search, sort: sort, total: numbers.total, db)
            numbers.cluster = cluster?.ids.count
        }
        let reader = PageReader(
            search: search, sort: sort, limit: limit, offset: numbers.offset, total: numbers.total,
            book: numbers.book ?? 0, matches: matches, run: run, cluster: cluster, db: db)
        for plan in PagePlanner.plans(numbers) {
            if let rows = try reader.rows(plan) { return (rows, numbers.total) }
        }
        throw ContactStoreError.storage("No page plan found the page.") // the last plan never gives up
    }

    /// The largest id, which bounds every id (ids are never reused): one seek.
    static func largestID(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT MAX(id) FROM contact") ?? 0
    }

    /// Tuning knobs of paging: how much of a search's matches the store keeps while counting
    /// them, so the plans need not search the indexes a second time. The contract tests turn
    /// them off so the plans that search again run too.
    struct PagingTuning {
        /// Match ids the sort plan names in its SQL: beyond this, parsing the list costs more
        /// than the search.
        var listedMatches = 2_000
        /// Whether the matches are kept as bits by id (an eighth of a byte per contact in the
        /// book: 125 KB at 1M) for the walk and cluster plans.
        var keepsMatchSet = true
        /// The shortest run of the sort index `MatchRun` is tried for: below, the other plans
        /// are cheap.
        var shortestRun = 200
    }

    /// A search's matches as read while counting them: counted as they are read, and kept (as
    /// a list when few, as a set of bits by id) for the page plans.
    struct Matches {
        var count = 0
        /// All of them, in id order, when no more than `PagingTuning.listedMatches`.
        var list: [Int64]?
        /// All of them, as bits.
        var set: MatchSet?

        init() {}

        /// `book` is the largest id when known (needed for the set).
        init(_ search: ResolvedSearch, book: Int?, tuning: PagingTuning, _ db: Database) throws {
            if tuning.keepsMatchSet, let book { set = MatchSet(maxID: Int64(book)) }
            var listed: [Int64] = [], count = 0
            let (sql, arguments) = SQLiteContactStore.matchingIDs(search)
            try SQLiteContactStore.steppingIDs(db, sql: sql, arguments: arguments) { id in
                if count < tuning.listedMatches { listed.append(id) }
                count += 1
                set?.insert(id)
                return true
            }
            self.count = count
            if count <= tuning.listedMatches { list = listed }
        }
    }

    /// The ids, in sort order, of the contacts whose sort key starts with a term's first word.
    struct Cluster {
        let word: String
        let ids: [Int64]
    }

    /// A search whose matches may be exactly the contacts whose sort key starts with its one
    /// word (`Kowal` in the last-name order, when no Kowalczyk's email is the only place the
    /// word appears): then the page is a run of the sort index, read from the page's start, and
    /// the total is the run's length. Nil for any other search, or a run shorter than `minimum`.
    ///
    /// Sound because, for a search of one word of ASCII letters (folded), every contact whose
    /// sort key starts with the word matches: the key starts with a folded name or organisation
    /// (`ContactKeys.sortKey`), which the indexed text holds as a word starting with those
    /// letters after a space (`ContactKeys.foldedText`), and the term is a prefix. So the run is
    /// a subset of the matches, and when the two are as many they are the same contacts. The
    /// run's length comes from the page anchors: two positions, a bucket each. The matches are
    /// counted as for any search, or, when the word begins only one word of the index, read
    /// from the index's vocabulary (`isWholeByVocabulary`).
    struct MatchRun {
        let word: String
        /// Above every key that starts with `word` (binary order, as the indexes compare).
        var end: String { word + "\u{10FFFF}" }
        let sort: SortOrder
        /// How many contacts' sort keys start with `word`.
        let length: Int

        init?(_ search: ResolvedSearch, sort: SortOrder, minimum: Int, _ db: Database) throws {
            let parsed = search.parsed
            guard parsed.terms.count == 1, parsed.wholeNumberDigits == nil, let term = parsed.terms.first,
                term.digits == nil, term.words.count == 1, let word = term.words.first, !word.isEmpty,
                word.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") })
            else { return nil }
            self.word = word
            self.sort = sort
            length =
                try anchoredPosition(of: IndexEntry(key: word + "\u{10FFFF}", id: 0), sort, db)
                - anchoredPosition(of: IndexEntry(key: word, id: 0), sort, db)
            guard length >= max(minimum, 1) else { return nil }
        }

        /// Whether `word` begins exactly one word of the index and as many contacts hold it as
        /// the run is long: then they are the matches. Read from FTS5's vocabulary (counted in
        /// C, three times faster at 1M than stepping through the matches), as far as the first
        /// word and, when its count is the run's length, whether there is a second.
        func isWholeByVocabulary(_ db: Database) throws -> Bool {
            let words = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT doc FROM contact_text_vocab WHERE term >= ? AND term < ?
                        """), arguments: [word, end])
            guard let first = try words.next(), first[0] as Int == length else { return false }
            return try words.next() == nil
        }
    }
}
