import Foundation
import GRDB

extension SQLiteContactStore {
    /// Runs the page plans (`PagePlan`) of one page inside one read transaction: each plan's
    /// SQL is here, in its own function. The page's ids are found first (in an index, or among
    /// the matches), so rows skipped by OFFSET are never read from the table; then the page's
    /// rows by id.
    struct PageReader {
        let search: ResolvedSearch
        let sort: SortOrder
        let limit: Int
        let offset: Int
        let total: Int
        /// The largest id (0 when not looked up).
        let book: Int
        let matches: Matches
        let run: MatchRun?
        let cluster: Cluster?
        let db: Database

        private var sortColumn: String { SQLiteContactStore.sortColumn(sort) }
        private var expected: Int { max(0, min(limit, total - min(offset, total))) }

        /// The page's rows in sort order, or nil when the plan gave up.
        func rows(_ plan: PagePlan) throws -> [Row]? {
            switch plan {
            case .empty: return []
            case .offset: return try offsetPage()
            case .anchored: return try anchoredPage()
            case .run: return try runPage()
            case .walk(let budget): return try walk(budget)
            case .cluster: return try clusterPage()
            case .sort: return try sortedPage()
            }
        }

        /// Rows by id: a list of ids or a SELECT of them, with its `arguments`.
        private func rows(_ ids: String, _ arguments: StatementArguments = []) throws -> [Row] {
            try SQLiteContactStore.rows(ids: ids, arguments, sort: sort, db)
        }

        private func rows(_ ids: [Int64]) throws -> [Row] {
            ids.isEmpty ? [] : try rows(ResolvedSearch.list(ids))
        }

        private func offsetPage() throws -> [Row] {
            try rows("SELECT id FROM contact ORDER BY \(sortColumn), id LIMIT ? OFFSET ?", [limit, offset])
        }

        private func anchoredPage() throws -> [Row]? {
            try anchoredPageIDs(sort, offset: offset, limit: limit, total: total, db).map(rows)
        }

        private func runPage() throws -> [Row] {
            guard let run, limit > 0, offset < run.length else { return [] }
            return try rows(
                Int64.fetchAll(
                    db,
                    sql: """
                        SELECT id FROM contact INDEXED BY contact_\(sortColumn)
                        WHERE \(sortColumn) >= ? AND \(sortColumn) < ? ORDER BY \(sortColumn), id LIMIT ? OFFSET ?
                        """, arguments: [run.word, run.end, limit, offset]))
        }

        /// Stops at the page's last match or after `budget` index entries; nil when it ran out
        /// of budget before the page's end.
        private func walk(_ budget: Int) throws -> [Row]? {
            if let set = matches.set {
                // The matches already read, as bits: SQLite would first copy every match into a
                // temporary b-tree for `id IN (...)` (400 ms for 350k matches at 1M contacts).
                var page: [Int64] = [], skipped = 0
                try steppingIDs(
                    db,
                    sql: """
                        SELECT id FROM contact INDEXED BY contact_\(sortColumn) ORDER BY \(sortColumn), id LIMIT ?
                        """, arguments: [budget]
                ) { id in
                    guard set.contains(id) else { return true }
                    if skipped < offset { skipped += 1; return true }
                    page.append(id)
                    return page.count < expected
                }
                return page.count == expected ? try rows(page) : nil
            }
            // No ORDER BY outside: SQLite reads a subquery with a LIMIT as a co-routine, in its
            // order, and an outer ORDER BY would make it read the whole budget before sorting.
            let filter = SQLiteContactStore.filter(search)
            let walked = try rows(
                """
                SELECT id FROM (
                    SELECT id FROM contact INDEXED BY contact_\(sortColumn) ORDER BY \(sortColumn), id LIMIT ?)
                WHERE \(filter.0) LIMIT ? OFFSET ?
                """, [budget] + filter.1 + [limit, offset])
            return walked.count == expected ? walked : nil
        }

        /// The matches' sort keys come from the (id, sort keys) index, not from their rows; a
        /// few matches already read are named by id instead of searched for again.
        private func sortedPage() throws -> [Row] {
            if let list = matches.list {
                return try rows(
                    """
                    SELECT id FROM contact INDEXED BY contact_id_sorts WHERE id IN (\(ResolvedSearch.list(list)))
                    ORDER BY \(sortColumn), id LIMIT ? OFFSET ?
                    """, [limit, offset])
            }
            let filter = SQLiteContactStore.filter(search)
            return try rows(
                """
                SELECT id FROM contact INDEXED BY contact_id_sorts WHERE \(filter.0)
                ORDER BY \(sortColumn), id LIMIT ? OFFSET ?
                """, filter.1 + [limit, offset])
        }

        /// The cluster's matches are in order already; the rest ("outliers") are looked up and
        /// sorted, each marked as sorting before the cluster or after it. Nil when the outliers
        /// are half the matches or more (then sorting all matches costs about the same).
        private func clusterPage() throws -> [Row]? {
            guard let cluster else { return nil }
            var set: MatchSet
            if let known = matches.set {
                set = known
            } else {
                let (sql, arguments) = matchingIDs(search)
                set = MatchSet(maxID: Int64(book))
                try steppingIDs(db, sql: sql, arguments: arguments) {
                    set.insert($0); return true
                }
            }
            let total = set.count
            let inside = cluster.ids.filter { set.remove($0) }
            guard set.count * 2 < max(total, 1) else { return nil }
            let outliers = set.ids
            var before: [Int64] = [], after: [Int64] = []
            if !outliers.isEmpty {
                // Sorted by SQLite (binary collation, as the index is).
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT id, \(sortColumn) < ? AS first FROM contact INDEXED BY contact_id_sorts
                        WHERE id IN (\(ResolvedSearch.list(outliers))) ORDER BY \(sortColumn), id
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
            return try rows(page)
        }

        /// The cluster of a search, when there is one: the sort keys starting with a term's
        /// first word, when they are a quarter of the matches or more and not more than 8 times
        /// as many (then a walk of the range costs less than looking up every match). Reads at
        /// most 8 × `total` + 1 index entries per term.
        static func clusterRange(
            _ search: ResolvedSearch, sort: SortOrder, total: Int,
            _ db: Database
        ) throws -> Cluster? {
            let column = SQLiteContactStore.sortColumn(sort)
            let least = total / 4 + 1, most = total.multipliedReportingOverflow(by: 8).partialValue
            for term in search.parsed.terms {
                guard let word = term.words.first else { continue }
                var ids: [Int64] = []
                try steppingIDs(
                    db,
                    sql: """
                        SELECT id FROM contact INDEXED BY contact_\(column)
                        WHERE \(column) >= ? AND \(column) < ? ORDER BY \(column), id LIMIT ?
                        """, arguments: [word, word + "\u{10FFFF}", most + 1]
                ) {
                    ids.append($0); return true
                }
                if ids.count >= least, ids.count <= most { return Cluster(word: word, ids: ids) }
            }
            return nil
        }
    }

    /// A page's rows, in `sort`'s order: those whose id is in `ids` (a list of ids or a SELECT
    /// of them, with its `arguments`).
    static func rows(ids: String, _ arguments: StatementArguments, sort: SortOrder, _ db: Database) throws -> [Row] {
        let column = sortColumn(sort)
        return try Row.fetchAll(
            db, sql: "SELECT \(readColumns) FROM contact WHERE id IN (\(ids)) ORDER BY \(column), id",
            arguments: arguments)
    }
}
