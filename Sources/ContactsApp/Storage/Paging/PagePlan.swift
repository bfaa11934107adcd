/// How the SQLite store finds the ids of one page. Every plan gives the same page; only the
/// cost differs (bench/RESULTS.md and bench/FINDINGS.md hold the measurements). The SQL of
/// each plan is in one place, `SQLiteContactStore.PageReader`.
enum PagePlan: Equatable {
    /// Nothing to read: the page starts after the last match.
    case empty
    /// The whole book: the sort index read with OFFSET. Right for a near page.
    case offset
    /// The whole book, a deep page: summing the page anchors' bucket counts finds the bucket
    /// holding the page, and only that bucket is walked. Gives up (nil) only when the anchors
    /// do not add up to the count, and `offset` answers.
    case anchored
    /// The matches are exactly a run of the sort index (`MatchRun`): the page is read from the
    /// run at its offset, and no match is looked up.
    case run
    /// The sort index in order, keeping the matching ids until the page is full, reading at
    /// most `budget` entries. Cost grows with how deep the page's last match lies: right for a
    /// search that matches many contacts. Gives up when the budget runs out.
    case walk(budget: Int)
    /// The index range of the sort keys starting with a term's first word read in order (the
    /// matches inside are in order already); only the matches outside it are looked up and
    /// sorted. Gives up when those are half the matches or more.
    case cluster
    /// Every match's sort keys looked up by id and sorted: cost grows with the matches, right
    /// for a rare term. Never gives up.
    case sort
}

/// The numbers a page's plan is chosen from, looked up by the store before it plans.
struct PageNumbers: Equatable {
    /// Whether a search narrows the book (else every contact is a match).
    var searching: Bool
    /// How many contacts match (the whole book's count without a search).
    var total: Int
    var offset: Int
    var limit: Int
    /// B of the page anchors: a page of the whole book deeper than 2B is anchored.
    var anchorBucket: Int
    /// Whether the matches are one run of the sort index (`MatchRun`).
    var matchesAreRun = false
    /// The largest id, which bounds the book's rows (ids are never reused); nil when not looked
    /// up (only a search's page that is neither empty nor a run needs it).
    var book: Int?
    /// How many sort keys start with a term's first word, when they hold a quarter of the
    /// matches or more (`SQLiteContactStore.PageReader.clusterRange`); nil when none do.
    var cluster: Int?

    /// How many rows the page holds.
    var expected: Int { max(0, min(limit, total - min(offset, total))) }

    /// Whether the plan depends on `book` and `cluster`: only then does the store look them up.
    var needsLayout: Bool { searching && !matchesAreRun && expected > 0 }
}

/// Chooses the plans for a page, in the order to try them: every plan but the last may give
/// up, and then the next one answers. Pure: it reads only the numbers it is given, so which
/// plan a page takes is tested without a database.
enum PagePlanner {
    static func plans(_ numbers: PageNumbers) -> [PagePlan] {
        guard numbers.searching else {
            // Without a search every contact matches: a walk is OFFSET, unless anchors skip it.
            return numbers.offset > 2 * numbers.anchorBucket ? [.anchored, .offset] : [.offset]
        }
        if numbers.matchesAreRun { return [.run] }
        let wanted = numbers.offset + numbers.expected
        guard numbers.expected > 0 else { return [.empty] }
        let book = numbers.book ?? .max
        let budget = walkBudget(wanted: wanted, total: numbers.total, book: book)
        if let cluster = numbers.cluster {
            // The cluster plan looks up the matches outside the range (at least `total` less
            // the range); a page the walk should reach in fewer index entries is walked first.
            if let budget, evenWalk(wanted: wanted, total: numbers.total, book: book) < numbers.total - cluster {
                return [.walk(budget: budget), .cluster, .sort]
            }
            return [.cluster, .sort]
        }
        if let budget { return [.walk(budget: budget), .sort] }
        return [.sort]
    }

    /// How many index entries a walk may read to find `wanted` of `total` matches in a book of
    /// (at most) `book` rows, or nil when sorting the matches is the cheaper plan. It is tried
    /// when an even spread would find them in fewer entries than there are matches to sort, and
    /// may read 3 times that (plus 10), or `total` if more: matches come in runs, and reading an
    /// index entry costs about a third of looking up a match's sort key, so a walk that gives up
    /// still costs less than the sort after it.
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
}
