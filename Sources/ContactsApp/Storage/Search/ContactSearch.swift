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
                  let first = word.unicodeScalars.first, ScalarKind(first) == .letter else { return nil }
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
                let text = indexed.range(of: ContactSearch.pairMark).map { String(indexed[..<$0.lowerBound]) } ?? indexed
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
                          start == nil else { return nil }
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

    /// `text` with a space wherever a letter is followed by a digit or a digit by a letter
    /// ("ann2b" → "ann 2 b"), so FTS5's tokenizer, which keeps letters and digits in one token,
    /// sees them as separate words. The search text of every contact goes through it before it
    /// is indexed (`ContactKeys.searchText`). Written by hand: no tokenizer option of FTS5's
    /// `unicode61` does this, and a custom tokenizer would make the book unreadable to the
    /// `sqlite3` shell and any other SQLite client.
    static func separatingDigits(_ text: String) -> String {
        scanWords(text, addingPairs: false)
    }

    /// The words of `scalars` (runs of letters or of digits; a combining mark belongs to the
    /// word before it), each with whether it is digits. One pass over the scalars: the index
    /// text of every contact goes through it (an import of 100k cards took 50% longer when
    /// this split Characters).
    private static func wordRanges(_ scalars: String.UnicodeScalarView)
        -> [(range: Range<String.UnicodeScalarView.Index>, isDigits: Bool)] {
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

    /// Marks a pair word in the index: a private-use character, which FTS5's `unicode61` keeps
    /// in words (category Co) and `words(_:)` never yields, so no typed word can match a marked
    /// word, and no prefix of a name ("kowal") expands to the marked ones ("\u{E000}kowalczyk1023").
    static let pairMark = "\u{E000}"

    /// A word of letters followed by a word of digits ("brown", "636"), joined and marked: the
    /// word `indexedText` adds for them. `endsAt` is the digit word's index.
    static func letterDigitPairs(_ words: [String]) -> [(marked: String, endsAt: Int)] {
        guard words.count > 1 else { return [] }
        return (1..<words.count).compactMap { i in
            guard let last = words[i - 1].unicodeScalars.first, ScalarKind(last) == .letter,
                  let first = words[i].unicodeScalars.first, ScalarKind(first) == .digit
            else { return nil }
            return (pairMark + words[i - 1] + words[i], i)
        }
    }

    /// What the SQLite store indexes for a contact's search text (`ContactKeys.searchText`):
    /// the text, then, after it, a marked pair word for each word of letters followed by a word
    /// of digits ("olga brown 636 example org" + " \u{E000}brown636"). After the text, so the
    /// pairs never sit between two words a phrase could match across.
    static func indexedText(_ searchText: String) -> String {
        scanWords(searchText, addingPairs: true)
    }

    /// `separatingDigits`, and with `addingPairs` `indexedText` of the result, in one pass over
    /// the UTF-8 bytes: every contact's index text is made here, and the same words found by
    /// `wordRanges` through String's scalar view (then rebuilt scalar by scalar) cost an import
    /// of 100k cards 2 s of CPU. Words are as `wordRanges` finds them; the tests hold the two
    /// to the same rule.
    static func scanWords(_ text: String, addingPairs: Bool) -> String {
        var utf8 = text
        let changed = utf8.withUTF8 { bytes -> String? in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 32)
            // The words so far, as byte ranges of `out`, with whether each is digits.
            var words: [(start: Int, end: Int, isDigits: Bool)] = []
            var current = ScalarKind.other, start = 0, index = 0
            var separated = false
            while index < bytes.count {
                var (kind, length, _) = ScalarKind.decode(bytes, at: index)
                if kind == .mark { kind = current == .other ? .other : current }
                if kind != current {
                    if current != .other {
                        words.append((start, out.count, current == .digit))
                        // A letter word touching a digit word, or the reverse: a space between.
                        if kind != .other { out.append(0x20); separated = true }
                    }
                    start = out.count
                    current = kind
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + length]))
                index += length
            }
            if current != .other { words.append((start, out.count, current == .digit)) }
            var paired = false
            if addingPairs {
                for index in words.indices.dropFirst() where words[index].isDigits && !words[index - 1].isDigits {
                    out.append(0x20)
                    out.append(contentsOf: [0xEE, 0x80, 0x80]) // pairMark, U+E000
                    // Byte by byte: appending a slice of `out` to itself would copy all of it.
                    for byte in words[index - 1].start..<words[index - 1].end { out.append(out[byte]) }
                    for byte in words[index].start..<words[index].end { out.append(out[byte]) }
                    paired = true
                }
            }
            return separated || paired ? String(decoding: out, as: UTF8.self) : nil
        }
        return changed ?? text
    }

    /// What words are made of, by Unicode general category: letters (L*), digits (N*), marks
    /// (M*, which join the word before them) and everything else, which separates words.
    private enum ScalarKind {
        case letter, digit, mark, other

        /// The kind, byte length and value of the scalar starting at `index` of valid UTF-8 (a
        /// String's: the lead byte gives the length), ASCII decided from the byte alone.
        @inline(__always)
        static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (ScalarKind, Int, UInt32) {
            let lead = bytes[index]
            if lead < 0x80 {
                let kind: ScalarKind = lead >= 0x30 && lead <= 0x39 ? .digit
                    : (lead | 0x20) >= 0x61 && (lead | 0x20) <= 0x7A ? .letter : .other
                return (kind, 1, UInt32(lead))
            }
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for next in 1..<length { value = value << 6 | UInt32(bytes[index + next] & 0x3F) }
            return (Unicode.Scalar(value).map(ScalarKind.init) ?? .other, length, value)
        }

        init(_ scalar: Unicode.Scalar) {
            if scalar.isASCII {
                switch scalar.value {
                case 0x30...0x39: self = .digit
                case 0x41...0x5A, 0x61...0x7A: self = .letter
                default: self = .other
                }
                return
            }
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: self = .letter
            case .decimalNumber, .letterNumber, .otherNumber: self = .digit
            case .nonspacingMark, .spacingMark, .enclosingMark: self = .mark
            default: self = .other
            }
        }
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
                || (inside && term.insideWord.map { part in words.contains { Self.contains(part, inside: $0) } } == true)
        }
    }

    /// Whether `part` occurs in `word`, scalar by scalar (as SQLite compares text).
    static func contains(_ part: String, inside word: String) -> Bool {
        let part = Array(part.unicodeScalars), word = Array(word.unicodeScalars)
        guard !part.isEmpty, word.count > part.count else { return false }
        return (1...(word.count - part.count)).contains { start in word[start..<start + part.count].elementsEqual(part) }
    }

    /// The words of a contact's indexed text (`indexedText`) that a term may match inside:
    /// words of letters longer than `insideMinimum` (a shorter one holds a term only as itself,
    /// a word-start match). The SQLite store keeps every such word once (`contact_word`).
    static func insideWordCandidates(_ indexedText: String) -> [String] {
        let text = indexedText.range(of: pairMark).map { String(indexedText[..<$0.lowerBound]) } ?? indexedText
        return words(text).filter { word in
            word.unicodeScalars.count > insideMinimum && word.unicodeScalars.first.map { ScalarKind($0) == .letter } == true
        }
    }

    /// `insideWordCandidates`, each with the places in it where another word of the same text
    /// starts: bit `p` of `starts` is set when the word's scalars from `p` on are themselves a
    /// word of the text (the handle "marykowalczyk" of Mary Kowalczyk: bit 4, "kowalczyk").
    /// A term found there is found at a word start too (`containsOnlyInside`). Offsets past 62
    /// are left out, which only makes a word look less covered. One pass over the UTF-8 bytes,
    /// as `scanWords` does: every contact saved or imported goes through it (the tests hold it
    /// to `insideWordCandidates`).
    static func insideWordsWithStarts(_ indexedText: String) -> [(word: String, starts: Int64)] {
        var text = indexedText
        return text.withUTF8 { bytes -> [(word: String, starts: Int64)] in
            // Every word as a byte range, with its length in scalars and whether it is letters.
            var words: [(start: Int, end: Int, scalars: Int, isLetters: Bool)] = []
            var current = ScalarKind.other, start = 0, scalars = 0, index = 0
            while index < bytes.count {
                var (kind, length, value) = ScalarKind.decode(bytes, at: index)
                if value == 0xE000 { break } // pairMark: the marked pairs follow
                if kind == .mark { kind = current == .other ? .other : current }
                if kind != current {
                    if current != .other { words.append((start, index, scalars, current == .letter)) }
                    start = index
                    scalars = 0
                    current = kind
                }
                scalars += 1
                index += length
            }
            if current != .other { words.append((start, index, scalars, current == .letter)) }
            var result: [(word: String, starts: Int64)] = []
            for word in words where word.isLetters && word.scalars > insideMinimum {
                var starts: Int64 = 0, offset = 0, at = word.start
                // A term is `insideMinimum` scalars or more, so a shorter rest cannot hold one.
                let last = min(word.scalars - insideMinimum, 62)
                while offset < last {
                    at += 1
                    while bytes[at] & 0xC0 == 0x80 { at += 1 } // the next scalar's first byte
                    offset += 1
                    let rest = word.end - at
                    let isWord = words.contains { other in
                        other.end - other.start == rest
                            && (0..<rest).allSatisfy { bytes[other.start + $0] == bytes[at + $0] }
                    }
                    if isWord { starts |= 1 << Int64(offset) }
                }
                result.append((String(decoding: UnsafeBufferPointer(rebasing: bytes[word.start..<word.end]),
                                      as: UTF8.self), starts))
            }
            return result
        }
    }

    /// Whether a contact holding `word` may match `part` only inside it: `part` occurs in the
    /// word after its start, but neither at its start nor where `starts` (the intersection of
    /// `insideWordsWithStarts` over every contact that held the word) says each of them has a
    /// word starting there, which would make it a word-start match for all of them.
    static func containsOnlyInside(_ part: String, _ word: String, starts: Int64) -> Bool {
        let part = Array(part.unicodeScalars), word = Array(word.unicodeScalars)
        guard !part.isEmpty, word.count > part.count else { return false }
        let found = (0...(word.count - part.count)).filter { word[$0..<$0 + part.count].elementsEqual(part) }
        guard found.contains(where: { $0 > 0 }) else { return false }
        return !found.contains { $0 == 0 || ($0 <= 62 && starts & (1 << Int64($0)) != 0) }
    }

    /// Where the search found `contact`: for each term, the first field (in `SearchMatch.Field`
    /// order) it matches alone; of those, the first that is not the name, else the name. Nil
    /// for an empty search, or when every term matched only across fields (a phrase running
    /// from one field into the next).
    func match(in contact: Contact) -> SearchMatch? {
        guard !isEmpty else { return nil }
        let fields = Self.fields(of: contact)
        var found: [SearchMatch] = []
        for term in terms {
            let single = ContactSearch(terms: [term], wholeNumberDigits: nil)
            if let field = fields.first(where: { single.matches(words: $0.words, phoneDigits: $0.digits) }) {
                found.append(SearchMatch(field: field.field, text: field.text))
            }
        }
        if found.isEmpty, let whole = wholeNumberDigits,
           let phone = fields.first(where: { $0.digits.contains { $0.contains(whole) } }) {
            return SearchMatch(field: .phone, text: phone.text)
        }
        return found.first { $0.field != .name } ?? found.first
    }

    /// `match(in:)` for each contact of a page, by id.
    func matches(on contacts: [Contact]) -> [Int64: SearchMatch] {
        guard !isEmpty else { return [:] }
        var matches: [Int64: SearchMatch] = [:]
        for contact in contacts {
            if let id = contact.id, let match = match(in: contact) { matches[id] = match }
        }
        return matches
    }

    private init(terms: [Term], wholeNumberDigits: String?) {
        self.terms = terms
        self.wholeNumberDigits = wholeNumberDigits
    }

    /// A contact's searched fields one by one, each with its words (as the index holds them)
    /// and, for a phone, its digits.
    private static func fields(of contact: Contact)
        -> [(field: SearchMatch.Field, text: String, words: [String], digits: [String])] {
        func text(_ field: SearchMatch.Field, _ text: String) -> (SearchMatch.Field, String, [String], [String]) {
            (field, text, words(separatingDigits(ContactKeys.fold(text))), [])
        }
        let name = [contact.givenName, contact.familyName].filter { !$0.isEmpty }.joined(separator: " ")
        var fields = [text(.name, name), text(.nickname, contact.nickname), text(.organization, contact.organization)]
        fields += contact.emails.map { text(.email, $0.value) }
        fields += contact.tags.map { text(.tag, $0) }
        fields.append(text(.note, contact.notes))
        fields += contact.addresses.map { text(.address, $0.components.joined(separator: ", ")) }
        fields += contact.phones.map { phone in
            (.phone, phone.value, [], [phone.value.filter(\.isASCIIDigit)])
        }
        return fields.filter { !$0.1.isEmpty }
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
}
