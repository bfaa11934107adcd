import Foundation
import GRDB
import GRDBSQLite

/// A search in SQL: the ids it matches from the FTS5 indexes, as a compound SELECT or as a
/// WHERE clause. User text only ever reaches SQL as an argument, quoted as an FTS5 string.
extension SQLiteContactStore {
    /// The ids a non-empty search matches, as a compound SELECT over the FTS5 tables only;
    /// the same rules as `filter`, so `COUNT(*)` over it is the number of matching contacts
    /// (the indexes are kept in step with the table in every write transaction).
    static func matchingIDs(_ resolved: ResolvedSearch) -> (String, StatementArguments) {
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
    /// found for it (`ResolvedSearch`), or its FTS5 phrase; and those holding a word it is found
    /// inside.
    static func textIDs(_ resolved: ResolvedSearch, term index: Int) -> (sql: String, arguments: StatementArguments) {
        let atStarts: (sql: String, arguments: StatementArguments)
        if let ids = resolved.textMatches[index] {
            atStarts = ("SELECT rowid FROM contact_text WHERE rowid IN (\(ResolvedSearch.list(ids)))", [])
        } else {
            atStarts = (
                "SELECT rowid FROM contact_text WHERE contact_text MATCH ?", [resolved.parsed.terms[index].ftsPhrase]
            )
        }
        guard let inside = resolved.insideWords[index] else { return atStarts }
        // The words holding the term, each a whole word of the index.
        let words = inside.map { "\"" + ContactSearch.Term.doublingQuotes($0) + "\"" }.joined(separator: " OR ")
        return (
            atStarts.sql + " UNION SELECT rowid FROM contact_text WHERE contact_text MATCH ?",
            atStarts.arguments + [words]
        )
    }

    /// The ids whose phones contain `digits`, with the query's arguments: short fragments
    /// through the trigram index; longer ones through the digit-gram index, which narrows the
    /// book to a few candidates whose digits are then checked (`ContactSearch.digitGramText`).
    /// Both find the same contacts; the gram lookup reads doclists that do not grow with the book.
    static func phoneMatch(_ digits: String) -> (sql: String, arguments: StatementArguments) {
        guard let grams = ContactSearch.digitGramQuery(digits) else {
            return ("SELECT rowid FROM contact_phone WHERE contact_phone MATCH ?", ["\"\(digits)\""])
        }
        // `digits` holds the digits of every phone, space-separated: `instr` cannot match
        // across two phones.
        return (
            """
            SELECT rowid FROM contact_phone WHERE rowid IN (
                SELECT rowid FROM contact_phone_gram WHERE contact_phone_gram MATCH ?) AND instr(digits, ?) > 0
            """, [grams, digits]
        )
    }

    /// The WHERE clause for a search, with its arguments; see `ContactSearch` for the rules.
    /// User text only ever reaches SQL as an argument, quoted as an FTS5 string.
    static func filter(_ resolved: ResolvedSearch) -> (String, StatementArguments) {
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

    /// Steps a statement whose first column is an id, calling `body` with each until it returns
    /// false. SQLite's C API steps it: GRDB's cursor costs about 0.35 µs a row, which made a
    /// search matching 350k contacts a quarter slower than `COUNT(*)` (measured at 1M
    /// contacts); this loop costs what `COUNT(*)` does.
    static func steppingIDs(
        _ db: Database, sql: String, arguments: StatementArguments,
        _ body: (Int64) throws -> Bool
    ) throws {
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
}

/// A search with the text matches of some terms found before any SQL is built: a term with a
/// word followed by a number ("olga.brown636") is looked up by its rare marked pairs
/// (`ContactSearch.Term.pairQuery`) and each candidate's indexed text checked in Swift, when
/// there are few candidates. Its ids then stand in for its FTS5 phrase. Built inside the read
/// transaction that uses it, so the ids belong to the same snapshot.
///
/// The words a term may match inside (`ContactSearch.Term.insideWord`) are found here too, in
/// the word list's trigram index: a few words out of the book's vocabulary, whose contacts the
/// word index then finds as whole words.
struct ResolvedSearch {
    let parsed: ContactSearch
    /// By term index: the ids whose text holds the term's phrase, for the terms looked up this way.
    let textMatches: [Int: [Int64]]
    /// By term index: the indexed words that hold the term's word after their start, where
    /// some contact holding them may lack a word starting with it, for the terms that have any.
    let insideWords: [Int: [String]]

    /// Candidates beyond this are left to FTS5: checking one costs a few microseconds.
    static let candidateLimit = 1_000

    /// Whether some term matches inside a word of the book.
    var hasInsideWords: Bool { !insideWords.isEmpty }

    /// The same search matching at word starts only.
    var atWordStarts: ResolvedSearch {
        ResolvedSearch(parsed: parsed, textMatches: textMatches, insideWords: [:])
    }

    private init(parsed: ContactSearch, textMatches: [Int: [Int64]], insideWords: [Int: [String]]) {
        self.parsed = parsed; self.textMatches = textMatches; self.insideWords = insideWords
    }

    init(_ parsed: ContactSearch, _ db: Database, candidateLimit: Int = candidateLimit) throws {
        self.parsed = parsed
        var insideWords: [Int: [String]] = [:]
        for (index, term) in parsed.terms.enumerated() {
            guard let part = term.insideWord else { continue }
            // Words where each holder has another word starting at the term (`starts`) hold no
            // inside-only match: left out, a name prefix need not check the email handles made
            // of the name ("marykowalczyk" for `Kowal`), and often no word is left.
            let words = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT g.word, w.starts FROM contact_word_gram g CROSS JOIN contact_word w ON w.word = g.word
                        WHERE contact_word_gram MATCH ?
                        """), arguments: ["\"" + ContactSearch.Term.doublingQuotes(part) + "\""]
            )
            .compactMap { row -> String? in
                let word: String = row[0]
                return ContactSearch.containsOnlyInside(part, word, starts: row[1]) ? word : nil
            }
            if !words.isEmpty { insideWords[index] = words }
        }
        self.insideWords = insideWords
        var textMatches: [Int: [Int64]] = [:]
        for (index, term) in parsed.terms.enumerated() {
            guard let pairs = term.pairQuery else { continue }
            let rows = try Row.fetchAll(
                db,
                sql: """
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
