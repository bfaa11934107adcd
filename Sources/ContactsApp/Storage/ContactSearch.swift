import Foundation

/// A search string parsed once, so `SQLiteContactStore` and `InMemoryContactStore` agree on
/// what matches.
///
/// The search is split on whitespace and every term must match (AND). A term matches when its
/// words appear, in order, in the contact's folded search text with the last word as a prefix
/// (FTS5's phrase-prefix query): "ann@exa" matches "ann@example.com", "nunez" matches "Ñúñez".
/// A term that looks like part of a phone number (at least 3 digits, only `+-(). ` besides
/// digits) also matches when its digits occur anywhere in a phone's digits.
///
/// Terms without a letter or digit ("-", `"`, "&") carry nothing to search for and are
/// ignored, so a search of punctuation only lists every contact, like an empty search.
struct ContactSearch {
    struct Term: Equatable {
        /// The term folded as the search text is; quoted for FTS5 by `ftsPhrase`.
        var folded: String
        /// The folded words the term is made of; never empty.
        var words: [String]
        /// The term's digits when it looks like a phone number fragment.
        var digits: String?

        /// An FTS5 phrase-prefix query for the term. Quoting with doubled quotes makes every
        /// FTS5 syntax character (`"`, `*`, `(`, `AND`, `NEAR`, ...) a plain character.
        /// A term without a quote, nearly every one, skips `replacingOccurrences`: through
        /// `NSString` it was the costliest step of `contactsbook query` after the trimming
        /// (bench/STARTUP.md).
        var ftsPhrase: String {
            let quoted = folded.utf8.contains(UInt8(ascii: "\""))
                ? folded.replacingOccurrences(of: "\"", with: "\"\"") : folded
            return "\"" + quoted + "\"*"
        }
    }

    let terms: [Term]
    /// The digits of the whole search when it is one phone number typed with spaces,
    /// "+1 555 123 4567": such a search also matches as a single digit run.
    let wholeNumberDigits: String?

    /// Phone terms need 3 digits: the trigram index cannot look up shorter ones.
    static let minimumDigits = 3
    /// Phone terms longer than this are found through runs of this many digits ("digit
    /// grams") instead of trigrams: every digit trigram is shared by about 1 phone in 500, so a
    /// trigram lookup reads doclists that grow with the book (6.8 ms at 1M contacts vs 1.1 ms at
    /// 10k), while a run of 6 digits is shared by about 1 phone in 70,000.
    static let gramLength = 6
    private static let phonePunctuation = Set("+-().")

    init(_ search: String) {
        let rawTerms = search.split(whereSeparator: \.isWhitespace).map(String.init)
        terms = rawTerms.compactMap { raw in
            let folded = ContactKeys.fold(raw)
            let words = Self.words(folded)
            guard !words.isEmpty else { return nil }
            return Term(folded: folded, words: words, digits: Self.phoneDigits(raw))
        }
        wholeNumberDigits = rawTerms.count > 1 ? Self.phoneDigits(rawTerms.joined()) : nil
    }

    var isEmpty: Bool { terms.isEmpty }

    /// Words as FTS5's `unicode61` tokenizer sees them: runs of letters and digits.
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }

    /// The digits of `text` if it has enough of them and nothing but phone punctuation besides.
    static func phoneDigits(_ text: String) -> String? {
        guard text.allSatisfy({ $0.isASCIIDigit || phonePunctuation.contains($0) }) else { return nil }
        let digits = text.filter(\.isASCIIDigit)
        return digits.count >= minimumDigits ? digits : nil
    }

    /// What the digit-gram index holds for a contact's phones: the runs of `gramLength` digits
    /// starting at every second digit of each phone ("12345678" → "123456 345678"), space-separated.
    /// Any run of `gramLength + 1` digits or more in a phone holds one of them at its first or
    /// second digit, so `digitGramQuery` finds every phone that contains it (and a few more,
    /// which the caller rules out by checking the digits themselves).
    static func digitGramText(_ phoneDigits: [String]) -> String {
        phoneDigits.flatMap { digits -> [String] in
            let bytes = Array(digits.utf8)
            guard bytes.count >= gramLength else { return [] }
            return stride(from: 0, through: bytes.count - gramLength, by: 2).map {
                String(decoding: bytes[$0..<$0 + gramLength], as: UTF8.self)
            }
        }.joined(separator: " ")
    }

    /// The FTS5 query for the phones that may contain `digits`: its grams at its first and
    /// second digit, either one; nil when `digits` is too short to hold both.
    static func digitGramQuery(_ digits: String) -> String? {
        let bytes = Array(digits.utf8)
        guard bytes.count > gramLength else { return nil }
        return String(decoding: bytes[0..<gramLength], as: UTF8.self) + " OR "
            + String(decoding: bytes[1...gramLength], as: UTF8.self)
    }

    /// Whether a contact matches, given its folded search words and its phones' digits.
    /// The SQLite store asks the same question of its FTS5 indexes.
    func matches(words: [String], phoneDigits: [String]) -> Bool {
        if let whole = wholeNumberDigits, phoneDigits.contains(where: { $0.contains(whole) }) {
            return true
        }
        return terms.allSatisfy { term in
            Self.containsPhrasePrefix(term.words, in: words)
                || term.digits.map { digits in phoneDigits.contains { $0.contains(digits) } } == true
        }
    }

    private static func containsPhrasePrefix(_ phrase: [String], in words: [String]) -> Bool {
        guard let last = phrase.last, words.count >= phrase.count else { return false }
        let head = phrase.dropLast()
        return (0...(words.count - phrase.count)).contains { start in
            words[start..<start + head.count].elementsEqual(head)
                && words[start + head.count].hasPrefix(last)
        }
    }
}

extension ContactQuery {
    /// The page window both stores use: a negative limit means none, pages start at 1, and a
    /// huge page number from a client yields an empty page instead of an arithmetic overflow.
    var window: (limit: Int, offset: Int) {
        let limit = max(self.limit, 0)
        let (offset, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: limit)
        return (limit, overflow ? Int.max : offset)
    }
}
