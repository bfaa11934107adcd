import Foundation

/// What the SQLite store indexes for a contact, cut into the same words as a search: the search
/// text with letters and digits apart, its marked letter-digit pairs, its phones' digit grams and
/// the words a term may match inside. Every saved or imported contact goes through these, so the
/// hot ones read UTF-8 bytes in one pass.
extension ContactSearch {
    /// `text` with a space wherever a letter is followed by a digit or a digit by a letter
    /// ("ann2b" → "ann 2 b"), so FTS5's tokenizer, which keeps letters and digits in one token,
    /// sees them as separate words. The search text of every contact goes through it before it
    /// is indexed (`ContactKeys.searchText`). Written by hand: no tokenizer option of FTS5's
    /// `unicode61` does this, and a custom tokenizer would make the book unreadable to the
    /// `sqlite3` shell and any other SQLite client.
    static func separatingDigits(_ text: String) -> String {
        scanWords(text, addingPairs: false)
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
            // Written through a pointer into room enough for any text (a space at most per byte,
            // and the pairs at most twice the words and a mark and space each): appending byte
            // by byte to an array checked its uniqueness and capacity for each, half the scan.
            let capacity = bytes.count * (addingPairs ? 6 : 2) + 8
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { out -> String? in
                var count = 0
                // The words so far, as byte ranges of `out`, with whether each is digits.
                var words: [(start: Int, end: Int, isDigits: Bool)] = []
                words.reserveCapacity(bytes.count / 2 + 1)
                var current = ScalarKind.other, start = 0, index = 0
                var separated = false
                while index < bytes.count {
                    var (kind, length, _) = ScalarKind.decode(bytes, at: index)
                    if kind == .mark { kind = current == .other ? .other : current }
                    if kind != current {
                        if current != .other {
                            words.append((start, count, current == .digit))
                            // A letter word touching a digit word, or the reverse: a space between.
                            if kind != .other { out[count] = 0x20; count += 1; separated = true }
                        }
                        start = count
                        current = kind
                    }
                    for at in index..<index + length { out[count] = bytes[at]; count += 1 }
                    index += length
                }
                if current != .other { words.append((start, count, current == .digit)) }
                var paired = false
                if addingPairs {
                    for index in words.indices.dropFirst() where words[index].isDigits && !words[index - 1].isDigits {
                        out[count] = 0x20
                        out[count + 1] = 0xEE // pairMark, U+E000
                        out[count + 2] = 0x80
                        out[count + 3] = 0x80
                        count += 4
                        for byte in words[index - 1].start..<words[index - 1].end { out[count] = out[byte]; count += 1 }
                        for byte in words[index].start..<words[index].end { out[count] = out[byte]; count += 1 }
                        paired = true
                    }
                }
                guard separated || paired else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: out[..<count]), as: UTF8.self)
            }
        }
        return changed ?? text
    }

    /// What words are made of, by Unicode general category: letters (L*), digits (N*), marks
    /// (M*, which join the word before them) and everything else, which separates words.
    enum ScalarKind {
        case letter, digit, mark, other

        /// The kind, byte length and value of the scalar starting at `index` of valid UTF-8 (a
        /// String's: the lead byte gives the length), ASCII decided from the byte alone.
        @inline(__always)
        static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (ScalarKind, Int, UInt32) {
            let lead = bytes[index]
            if lead < 0x80 {
                let kind: ScalarKind =
                    lead >= 0x30 && lead <= 0x39
                    ? .digit
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

    /// What the digit-gram index holds for a contact's phones: the runs of `gramLength` digits
    /// starting at every second digit of each phone ("12345678" → "123456 345678"), space-separated.
    /// Any run of `gramLength + 1` digits or more in a phone holds one of them at its first or
    /// second digit, so `digitGramQuery` finds every phone that contains it (and a few more,
    /// which the caller rules out by checking the digits themselves).
    static func digitGramText(_ phoneDigits: [String]) -> String {
        // Into one buffer: a string per gram, an array per phone and the join were 2 % of an
        // import's reading thread (bench/FINDINGS.md, branch `import5`). The digits are ASCII.
        var out: [UInt8] = []
        for digits in phoneDigits {
            let bytes = Array(digits.utf8)
            guard bytes.count >= gramLength else { continue }
            for start in stride(from: 0, through: bytes.count - gramLength, by: 2) {
                if !out.isEmpty { out.append(UInt8(ascii: " ")) }
                out.append(contentsOf: bytes[start..<start + gramLength])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The FTS5 query for the phones that may contain `digits`: its grams at its first and
    /// second digit, either one; nil when `digits` is too short to hold both.
    static func digitGramQuery(_ digits: String) -> String? {
        let bytes = Array(digits.utf8)
        guard bytes.count > gramLength else { return nil }
        return String(decoding: bytes[0..<gramLength], as: UTF8.self) + " OR "
            + String(decoding: bytes[1...gramLength], as: UTF8.self)
    }

    /// The words of a contact's indexed text (`indexedText`) that a term may match inside:
    /// words of letters longer than `insideMinimum` (a shorter one holds a term only as itself,
    /// a word-start match). The SQLite store keeps every such word once (`contact_word`).
    static func insideWordCandidates(_ indexedText: String) -> [String] {
        let text = indexedText.range(of: pairMark).map { String(indexedText[..<$0.lowerBound]) } ?? indexedText
        return words(text).filter { word in
            word.unicodeScalars.count > insideMinimum
                && word.unicodeScalars.first.map { ScalarKind($0) == .letter } == true
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
            // Reserved: growing these arrays was a third of this function's cost.
            words.reserveCapacity(bytes.count / 2 + 1)
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
            // The rest of a word of letters is letters: only words of letters can equal it.
            let letterWords = words.filter(\.isLetters)
            var result: [(word: String, starts: Int64)] = []
            result.reserveCapacity(letterWords.count)
            let base = bytes.baseAddress!
            for word in letterWords where word.scalars > insideMinimum {
                var starts: Int64 = 0
                // A term is `insideMinimum` scalars or more, so a shorter rest cannot hold one.
                let last = min(word.scalars - insideMinimum, 62)
                // Each shorter word that ends this one starts inside it, as many scalars in as
                // the two differ by: one comparison per pair of words, where trying every
                // offset against every word was the word list's main cost on an import.
                for other in letterWords where other.scalars < word.scalars && word.scalars - other.scalars <= last {
                    let length = other.end - other.start
                    guard length < word.end - word.start, bytes[word.end - 1] == bytes[other.end - 1],
                        memcmp(base + word.end - length, base + other.start, length) == 0
                    else { continue }
                    starts |= 1 << Int64(word.scalars - other.scalars)
                }
                result.append(
                    (
                        String(
                            decoding: UnsafeBufferPointer(rebasing: bytes[word.start..<word.end]),
                            as: UTF8.self), starts
                    ))
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
}
