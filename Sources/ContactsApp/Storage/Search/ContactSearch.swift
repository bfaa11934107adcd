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
/// Words are runs of letters and digits, and a change from letters to digits or back also
/// separates words, in the indexed text and in the search alike: the email "kowalczyk1023@..."
/// is indexed as the words "kowalczyk" and "1023". So "kowalczyk10" still matches it (the
/// phrase "kowalczyk 10*"), and so does "1023"; and a prefix such as "kowal" expands to the few
/// name words that start with it, not to one word per numbered email handle (18,888 words in
/// the generated 1M-contact book, which made such a search 30 times slower). The SQLite store
/// also indexes each word followed by a number as one marked word (`indexedText`), which makes
/// a search for a numbered handle ("olga.brown636") as fast as before without changing what
/// it matches.
///
/// A term of one word of letters, 3 characters or more, also matches inside a word ("ñez"
/// finds "Ñúñez", "cme" finds "Acme"): a contact matches at word starts, or, failing that,
/// inside a word, and the matches at word starts come first (`InsideWords`). Shorter terms
/// match word starts only: FTS5's trigram tokenizer, which finds the words holding a term, cannot
/// look up fewer than 3 characters, and "an" inside a word would match most of a book.
///
/// Terms without a letter or digit ("-", `"`, "&") carry nothing to search for and are
/// ignored, so a search of punctuation only lists every contact, like an empty search.
struct ContactSearch {
    struct Term: Equatable {
        /// The folded words the term is made of; never empty. Quoted for FTS5 by `ftsPhrase`.
        var words: [String]
        /// The term's digits when it looks like a phone number fragment.
        var digits: String?

        /// The term's word when it may also match inside a word: one word of letters, at least
        /// `ContactSearch.insideMinimum` characters.
        var insideWord: String? {
            guard words.count == 1, let word = words.first, word.unicodeScalars.count >= ContactSearch.insideMinimum,
                let first = word.unicodeScalars.first, ScalarKind(first) == .letter
            else { return nil }
            return word
        }

        /// An FTS5 phrase-prefix query for the term. Quoting with doubled quotes makes every
        /// FTS5 syntax character (`"`, `*`, `(`, `AND`, `NEAR`, ...) a plain character.
        /// The words, not the term as typed: FTS5 would read "kowalczyk10" as one word, while
        /// the indexed text separates letters from digits (`separatingDigits`).
        var ftsPhrase: String {
            "\"" + Self.doublingQuotes(words.joined(separator: " ")) + "\"*"
        }

        /// The text with every `"` doubled, for inside an FTS5 string. A text without a quote,
        /// nearly every one, skips `replacingOccurrences`: through `NSString` it was the costliest
        /// step of `contactsbook query` after the trimming (bench/STARTUP.md).
        static func doublingQuotes(_ text: String) -> String {
            text.utf8.contains(UInt8(ascii: "\"")) ? text.replacingOccurrences(of: "\"", with: "\"\"") : text
        }

        /// An FTS5 query for the marked pairs of the term's words followed by a number
        /// (`ContactSearch.indexedText`), the last a prefix when the number ends the term; nil
        /// when the term has none. Every contact whose text holds the term's phrase holds its
        /// pairs, and pairs are rare words, so the contacts they find are few candidates to
        /// check with `matchesIndexedText`. (FTS5 itself reads the whole lists of a phrase's
        /// common words, "olga", "brown", "636*": 1.4 ms at 1M contacts against 0.1 ms for the
        /// pair, even when the phrase is AND-ed with it.)
        var pairQuery: String? {
            let pairs = ContactSearch.letterDigitPairs(words)
            guard !pairs.isEmpty else { return nil }
            return pairs.map { pair in
                "\"" + Self.doublingQuotes(pair.marked) + "\""
                    + (pair.endsAt == words.count - 1 ? "*" : "")
            }.joined(separator: " AND ")
        }

        /// Whether the text the SQLite store indexed for a contact (`ContactSearch.indexedText`)
        /// holds the term's phrase: the rule FTS5 applies, checked on a candidate's text.
        func matchesIndexedText(_ indexed: String) -> Bool {
            indexedTextMatcher()(indexed)
        }

        /// `matchesIndexedText` for many texts, without a String or Character per word where it
        /// can (splitting 200 candidates into Characters cost 8 ms): a text that lacks one of
        /// the words as bytes cannot hold the phrase; an ASCII text's words are read in place.
        func indexedTextMatcher() -> (String) -> Bool {
            let words = self.words
            let bytes = words.map { Array($0.utf8) }
            let ascii = bytes.allSatisfy { $0.allSatisfy { $0 < 0x80 } } ? bytes : nil
            return { indexed in
                var indexed = indexed
                let verdict: Bool? = indexed.withUTF8 { text in
                    guard bytes.allSatisfy({ Self.contains($0, in: text) }) else { return false }
                    return ascii.flatMap { Self.asciiPhrasePrefix($0, in: text) }
                }
                if let verdict { return verdict }
                // The marked pairs after the text are not words of it.
                let text =
                    indexed.range(of: ContactSearch.pairMark).map { String(indexed[..<$0.lowerBound]) } ?? indexed
                return ContactSearch.containsPhrasePrefix(words, in: ContactSearch.words(text))
            }
        }

        /// Whether `needle` occurs in `text`, byte for byte.
        private static func contains(_ needle: [UInt8], in text: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let first = needle.first, text.count >= needle.count else { return needle.isEmpty }
            var at = 0
            while at <= text.count - needle.count {
                if text[at] == first, (1..<needle.count).allSatisfy({ text[at + $0] == needle[$0] }) { return true }
                at += 1
            }
            return false
        }

        /// `containsPhrasePrefix` over an ASCII text's words (runs of ASCII letters and digits;
        /// the indexed text has letters and digits apart already, and its marked pairs start
        /// with a non-ASCII byte, where the text ends); nil when the text is not ASCII before them.
        private static func asciiPhrasePrefix(_ phrase: [[UInt8]], in text: UnsafeBufferPointer<UInt8>) -> Bool? {
            var words: [Range<Int>] = []
            var start: Int?
            var index = 0
            scan: while index < text.count {
                let byte = text[index]
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    if start == nil { start = index }
                case 0x80...:
                    // A marked pair (U+E000 is EE 80 80) ends the text; anything else is not ASCII.
                    guard byte == 0xEE, index + 2 < text.count, text[index + 1] == 0x80, text[index + 2] == 0x80,
                        start == nil
                    else { return nil }
                    break scan
                default:
                    if let first = start { words.append(first..<index); start = nil }
                }
                index += 1
            }
            if let first = start { words.append(first..<index) }
            guard let last = phrase.last, words.count >= phrase.count else { return false }
            let head = phrase.count - 1
            return (0...(words.count - phrase.count)).contains { at in
                (0..<head).allSatisfy { text[words[at + $0]].elementsEqual(phrase[$0]) }
                    && text[words[at + head]].starts(with: last)
            }
        }
    }

    let terms: [Term]
    /// The digits of the whole search when it is one phone number typed with spaces,
    /// "+1 555 123 4567": such a search also matches as a single digit run.
    let wholeNumberDigits: String?

    /// Terms found inside words need 3 characters: the trigram index cannot look up shorter ones.
    static let insideMinimum = 3

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
            let words = Self.words(ContactKeys.fold(raw))
            guard !words.isEmpty else { return nil }
            return Term(words: words, digits: Self.phoneDigits(raw))
        }
        wholeNumberDigits = rawTerms.count > 1 ? Self.phoneDigits(rawTerms.joined()) : nil
    }

    var isEmpty: Bool { terms.isEmpty }

    /// Words as FTS5's `unicode61` tokenizer sees them in the indexed text: runs of letters and
    /// digits (by Unicode category, as `unicode61` decides), split where letters turn into
    /// digits or back (`separatingDigits`).
    static func words(_ text: String) -> [String] {
        wordRanges(text.unicodeScalars).map { String(text.unicodeScalars[$0.range]) }
    }

    /// The words of `scalars` (runs of letters or of digits; a combining mark belongs to the
    /// word before it), each with whether it is digits. One pass over the scalars: the index
    /// text of every contact goes through it (an import of 100k cards took 50% longer when
    /// this split Characters).
    private static func wordRanges(_ scalars: String.UnicodeScalarView)
        -> [(range: Range<String.UnicodeScalarView.Index>, isDigits: Bool)]
    {
        var ranges: [(range: Range<String.UnicodeScalarView.Index>, isDigits: Bool)] = []
        var start = scalars.startIndex
        var current = ScalarKind.other
        var index = scalars.startIndex
        while index < scalars.endIndex {
            var kind = ScalarKind(scalars[index])
            if kind == .mark { kind = current == .other ? .other : current }
            if kind != current {
                if current != .other { ranges.append((start..<index, current == .digit)) }
                start = index
                current = kind
            }
            scalars.formIndex(after: &index)
        }
        if current != .other { ranges.append((start..<index, current == .digit)) }
        return ranges
    }

    /// The digits of `text` if it has enough of them and nothing but phone punctuation besides.
    static func phoneDigits(_ text: String) -> String? {
        guard text.allSatisfy({ $0.isASCIIDigit || phonePunctuation.contains($0) }) else { return nil }
        let digits = text.filter(\.isASCIIDigit)
        return digits.count >= minimumDigits ? digits : nil
    }

    /// Whether a contact matches, given its folded search words and its phones' digits: at
    /// word starts, or, with `inside`, also inside words (`Term.insideWord`).
    /// The SQLite store asks the same question of its FTS5 indexes.
    func matches(words: [String], phoneDigits: [String], inside: Bool = true) -> Bool {
        if let whole = wholeNumberDigits, phoneDigits.contains(where: { $0.contains(whole) }) {
            return true
        }
        return terms.allSatisfy { term in
            Self.containsPhrasePrefix(term.words, in: words)
                || term.digits.map { digits in phoneDigits.contains { $0.contains(digits) } } == true
                || (inside
                    && term.insideWord.map { part in words.contains { Self.contains(part, inside: $0) } } == true)
        }
    }

    /// Whether `part` occurs in `word`, scalar by scalar (as SQLite compares text).
    static func contains(_ part: String, inside word: String) -> Bool {
        let part = Array(part.unicodeScalars), word = Array(word.unicodeScalars)
        guard !part.isEmpty, word.count > part.count else { return false }
        return (1...(word.count - part.count)).contains { start in word[start..<start + part.count].elementsEqual(part)
        }
    }

    static func containsPhrasePrefix(_ phrase: [String], in words: [String]) -> Bool {
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

    /// The window once the total is counted: the last page's when the query asks for it and its
    /// page lies past the end (`lastPageWhenPastTheEnd`), else `window`.
    func window(total: Int) -> (limit: Int, offset: Int) {
        let (limit, offset) = window
        guard lastPageWhenPastTheEnd, offset >= total, total > 0, limit > 0 else { return (limit, offset) }
        return (limit, (lastPage(total: total) - 1) * limit)
    }
}
