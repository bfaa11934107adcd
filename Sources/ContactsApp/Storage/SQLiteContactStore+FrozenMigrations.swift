import Foundation
import GRDB

/// What the migrations derive from the rows and indexes they read, copied as it was when each
/// migration was written and never changed after: a migration runs on books made long before
/// today's code, so it must not read today's columns (`columns`, `contact(from:)`), build today's
/// `Contact`, or call today's derivations (which follow today's fields). Each copy is named for
/// the migration it was made for and reads the columns that migration names, by name; a later
/// migration written while a derivation was still the same uses the earlier copy.
///
/// When today's derivation changes, the stored keys and texts change through a new migration,
/// not by editing these (`UpgradeFixtureTests` compares the upgraded books with today's saves).
extension SQLiteContactStore {
    /// `addNameOrderAndSortPastParticles`' last-name sort key, as `ContactKeys.sortKey(_, .last)`
    /// and `PersonName.sortingFamilyName` were at 02aca1a.
    enum NameOrderFrozen {
        static let particles: Set<String> = [
            "van", "von", "de", "der", "den", "del", "della", "di", "da", "das", "do", "dos", "du",
            "la", "le", "ten", "ter", "zu", "bin", "ibn", "al", "el",
        ]
        static let joinedParticles = ["al-", "el-"]

        static func lastNameSortKey(given: String, family: String, organization: String) -> String {
            let given = fold(given), family = fold(sortingFamilyName(family)), organization = fold(organization)
            let parts = family.isEmpty ? [given.isEmpty ? organization : given, ""] : [family, given]
            return parts[0] + "\u{1}" + parts[1] + "\u{1}" + organization
        }

        static func sortingFamilyName(_ family: String) -> String {
            var words = family.split(separator: " ").map(String.init)
            while words.count > 1, particles.contains(words[0].lowercased()) { words.removeFirst() }
            var name = words.joined(separator: " ")
            if let prefix = joinedParticles.first(where: { name.lowercased().hasPrefix($0) }), name.count > prefix.count
            {
                name = String(name.dropFirst(prefix.count))
            }
            return name
        }

        static func fold(_ text: String) -> String {
            if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
            return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        }
    }

    /// `addPhoneGramsSortKeysByIDAndCount`' digit grams of a phone index row (its phones' digits,
    /// space-separated), as `ContactSearch.digitGramText` made them at cd715e5: the runs of 6
    /// digits starting at every second digit of each phone, space-separated.
    enum AddPhoneGramsFrozen {
        static func gramText(_ digits: String) -> String {
            digits.split(separator: " ").flatMap { phone -> [String] in
                let bytes = Array(phone.utf8)
                guard bytes.count >= 6 else { return [] }
                return stride(from: 0, through: bytes.count - 6, by: 2).map {
                    String(decoding: bytes[$0..<$0 + 6], as: UTF8.self)
                }
            }.joined(separator: " ")
        }
    }

    /// `indexLettersAndDigitsApart`' index text, as `ContactSearch.indexedText` of
    /// `separatingDigits` made it from 410209b on (split by Unicode scalars since 74f1ae7, the
    /// same words); `indexTagsNotesAndAddresses` indexes with it too.
    enum IndexLettersAndDigitsApartFrozen {
        /// Words are runs of letters or of digits (a mark joins the word before it); a space goes
        /// between a letter word and a digit word that touch, and each letter word followed by a
        /// digit word adds `U+E000` + the two, after the text.
        static func separatingDigitsAddingPairs(_ text: String) -> String {
            var out = String.UnicodeScalarView()
            var words: [(word: String.UnicodeScalarView, isDigits: Bool)] = []
            var current = Kind.other, word = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                var kind = Kind(scalar)
                if kind == .mark { kind = current == .other ? .other : current }
                if kind != current {
                    if current != .other {
                        words.append((word, current == .digit))
                        if kind != .other { out.append(" ") }
                    }
                    word = String.UnicodeScalarView()
                    current = kind
                }
                out.append(scalar)
                if kind != .other { word.append(scalar) }
            }
            if current != .other { words.append((word, current == .digit)) }
            for index in words.indices.dropFirst() where words[index].isDigits && !words[index - 1].isDigits {
                out.append(" ")
                out.append("\u{E000}")
                out.append(contentsOf: words[index - 1].word)
                out.append(contentsOf: words[index].word)
            }
            return String(out)
        }

        enum Kind: Equatable {
            case letter, digit, mark, other

            init(_ scalar: Unicode.Scalar) {
                switch scalar.properties.generalCategory {
                case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: self = .letter
                case .decimalNumber, .letterNumber, .otherNumber: self = .digit
                case .nonspacingMark, .spacingMark, .enclosingMark: self = .mark
                default: self = .other
                }
            }
        }
    }

    /// `addPageAnchors`' anchors (and `addNameOrderAndSortPastParticles`' when sort keys moved),
    /// as `fillAnchors` made them at 479e2f7: for each order, one walk of its sort index, an
    /// anchor every `bucket` entries, the first at ('', 0).
    enum AddPageAnchorsFrozen {
        static func fill(bucket: Int, _ db: Database) throws {
            for (sort, column) in [("first", "sort_first"), ("last", "sort_last")] {
                var anchors: [(key: String, id: Int64, n: Int)] = [("", 0, 0)]
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT \(column), id FROM contact INDEXED BY contact_\(column) ORDER BY \(column), id")
                var index = 0
                while let row = try rows.next() {
                    if index > 0, index % bucket == 0 { anchors.append((row[0], row[1], 0)) }
                    anchors[anchors.count - 1].n += 1
                    index += 1
                }
                for anchor in anchors {
                    try db.execute(
                        sql: "INSERT INTO contact_anchor (sort, key, id, n) VALUES (?, ?, ?, ?)",
                        arguments: [sort, anchor.key, anchor.id, anchor.n])
                }
            }
        }
    }

    /// `addWordListForInsideWords`' words of an index text, as `ContactSearch.insideWordCandidates`
    /// found them at 0353c26: the words before the marked pairs that start with a letter and have
    /// more than 3 scalars.
    enum AddWordListFrozen {
        static func candidates(_ indexedText: String) -> [String] {
            AddWordStartsFrozen.letterWords(indexedText).filter { $0.count > 3 }.map {
                String(String.UnicodeScalarView($0))
            }
        }
    }

    /// `addWordStartsInsideWords`' words of an index text with where other words start in them,
    /// as `ContactSearch.insideWordsWithStarts` found them at 1646682: for each word of
    /// `AddWordListFrozen`, bit p set when its scalars from p on (1 ≤ p ≤ its length − 3, at most
    /// 62) are another word of letters of the same text.
    enum AddWordStartsFrozen {
        static func wordsWithStarts(_ indexedText: String) -> [(word: String, starts: Int64)] {
            let words = letterWords(indexedText)
            let all = Set(words)
            return words.filter { $0.count > 3 }.map { word in
                var starts: Int64 = 0
                for p in stride(from: 1, through: min(word.count - 3, 62), by: 1) where all.contains(Array(word[p...]))
                {
                    starts |= 1 << Int64(p)
                }
                return (String(String.UnicodeScalarView(word)), starts)
            }
        }

        /// The words of letters (a mark joins the word before it) before the first U+E000, as scalars.
        static func letterWords(_ indexedText: String) -> [[Unicode.Scalar]] {
            typealias Kind = IndexLettersAndDigitsApartFrozen.Kind
            var words: [[Unicode.Scalar]] = []
            var current = Kind.other, word: [Unicode.Scalar] = []
            for scalar in indexedText.unicodeScalars {
                if scalar == "\u{E000}" { break }
                var kind = Kind(scalar)
                if kind == .mark { kind = current == .other ? .other : current }
                if kind != current {
                    if current == .letter { words.append(word) }
                    word = []
                    current = kind
                }
                word.append(scalar)
            }
            if current == .letter { words.append(word) }
            return words
        }
    }

    /// `indexTagsNotesAndAddresses`' word index text of a row (`id, given, family, nickname,
    /// organization, notes, emails, addresses, tags`), as `ContactKeys.foldedText` and
    /// `ContactSearch.indexedText` made it at 455c66f: the folded names, emails, tags, notes and
    /// address components, letters and digits apart, then a marked word per letter-digit pair.
    enum IndexTagsNotesAndAddressesFrozen {
        struct Email: Decodable { var value: String }
        struct Address: Decodable { var street, city, region, postalCode, country: String? }

        static func indexedText(_ row: Row) throws -> String {
            let emails = try JSONDecoder().decode([Email].self, from: Data((row["emails"] as String).utf8))
            let addresses = try JSONDecoder().decode([Address].self, from: Data((row["addresses"] as String).utf8))
            let tags = try JSONDecoder().decode([String].self, from: Data((row["tags"] as String).utf8))
            let notes: String = row["notes"]
            let components = addresses.flatMap { address in
                [address.street, address.city, address.region, address.postalCode, address.country]
                    .compactMap { $0 }.filter { !$0.isEmpty }
            }
            let parts: [String] =
                [row["given"], row["family"], row["nickname"], row["organization"]]
                + emails.map(\.value) + tags + (notes.isEmpty ? [] : [notes]) + components
            return IndexLettersAndDigitsApartFrozen.separatingDigitsAddingPairs(parts.map(fold).joined(separator: " "))
        }

        static func fold(_ text: String) -> String {
            if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
            return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        }
    }

    /// `addMatchKeys`' duplicate keys of a row (`id, given, family, organization, phones,
    /// emails`), as `MatchKeys.storedKeys` made them at f99a723: each email lower-cased and
    /// trimmed, each phone's digits (`+` first when written with one, 5 digits or more), and for
    /// a given and a family name one name key per organisation and email domain. `(kind, key)`
    /// in that order, without repeats.
    enum AddMatchKeysFrozen {
        struct Value: Decodable { var value: String }

        static func storedKeys(_ row: Row) throws -> [(kind: String, key: String)] {
            let emails = try JSONDecoder().decode([Value].self, from: Data((row["emails"] as String).utf8))
            let phones = try JSONDecoder().decode([Value].self, from: Data((row["phones"] as String).utf8))
            var keys: [(kind: String, key: String)] = []
            func add(_ kind: String, _ key: String?) {
                guard let key, !keys.contains(where: { $0.kind == kind && $0.key == key }) else { return }
                keys.append((kind, key))
            }
            for email in emails { add("email", emailKey(email.value)) }
            for phone in phones { add("phone", phoneDigits(phone.value)) }
            let family = name(row["family"]), given = name(row["given"])
            if let initial = given.first, !family.isEmpty {
                let organization = name(row["organization"])
                let domains = emails.compactMap { emailKey($0.value) }.compactMap { key -> String? in
                    guard let at = key.lastIndex(of: "@") else { return nil }
                    let domain = key[key.index(after: at)...]
                    return domain.isEmpty ? nil : "@" + domain
                }
                for place in (organization.isEmpty ? [] : [organization]) + domains {
                    add("name", [family, String(initial), place, given].joined(separator: "\u{1}"))
                }
            }
            return keys
        }

        static func emailKey(_ address: String) -> String? {
            let key = address.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            return key.isEmpty ? nil : key
        }

        static func phoneDigits(_ phone: String) -> String? {
            let digits = String(
                phone.unicodeScalars.filter { $0.value >= 0x30 && $0.value <= 0x39 }.map(Character.init))
            guard digits.count >= 5 else { return nil }
            return phone.trimmingCharacters(in: .whitespaces).hasPrefix("+") ? "+" + digits : digits
        }

        static func name(_ text: String) -> String {
            let folded =
                text.utf8.allSatisfy({ $0 < 0x80 })
                ? text.lowercased()
                : text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            return folded.split(whereSeparator: { $0.isWhitespace || $0 == "." || $0 == "," }).joined(separator: " ")
        }
    }
}

extension SQLiteContactStore {
    /// `addWebsites`' websites of a row's kept properties and its new word index text, as
    /// `VCardReader` read `URL` and `ContactKeys.foldedText` placed websites when it was written:
    /// a URL line's label is its group's `X-ABLabel` (Apple's `_$!<HomePage>!$_` as "homepage"),
    /// else its `TYPE`s (`cell` as "mobile"; pref, internet, voice and the like say nothing; none
    /// at all is "other"); its value unescaped and trimmed; preferred ones (`TYPE=pref`, `PREF`)
    /// first; the text is
    /// `IndexTagsNotesAndAddressesFrozen`'s parts with the websites after them.
    enum AddWebsitesFrozen {
        struct Website: Encodable { var label: String; var value: String }

        static let ignoredTypes: Set<String> = ["pref", "internet", "voice", "x400", "dom", "intl", "postal", "parcel"]

        /// The websites, and the kept lines without them and without their groups' labels.
        static func websites(in extra: [String]) -> ([Website], [String]) {
            let parsed = extra.map(parse)
            var groupLabels: [String: String] = [:]
            for line in parsed where line.name == "X-ABLABEL" {
                if let group = line.group { groupLabels[group] = cleanLabel(unescape(line.value)) }
            }
            var preferred: [Website] = [], others: [Website] = [], urlGroups: Set<String> = []
            for line in parsed where line.name == "URL" {
                let website = Website(
                    label: line.group.flatMap { groupLabels[$0] } ?? label(line.types),
                    value: unescape(line.value).trimmingCharacters(in: .whitespaces))
                if line.preferred { preferred.append(website) } else { others.append(website) }
                if let group = line.group { urlGroups.insert(group) }
            }
            let websites = preferred + others
            let kept = zip(extra, parsed).filter { _, line in
                line.name != "URL" && !(line.name == "X-ABLABEL" && line.group.map(urlGroups.contains) == true)
            }.map(\.0)
            return (websites, kept)
        }

        static func indexedText(_ row: Row, websites: [String]) throws -> String {
            let text = try IndexTagsNotesAndAddressesFrozen.indexedText(row)
            // The frozen text's pairs stand after its words: rebuilt from the words with the websites'.
            let words = text.unicodeScalars.split(
                separator: "\u{E000}", maxSplits: 1, omittingEmptySubsequences: false)[0]
            var plain = String(String.UnicodeScalarView(words))
            while plain.hasSuffix(" ") { plain.removeLast() }
            let parts = ([plain].filter { !$0.isEmpty } + websites.map(IndexTagsNotesAndAddressesFrozen.fold))
            return IndexLettersAndDigitsApartFrozen.separatingDigitsAddingPairs(parts.joined(separator: " "))
        }

        struct Line {
            var group: String?; var name: String; var types: [String]; var value: String; var preferred: Bool
        }

        /// Group, upper-case name, `TYPE`s (and 2.1's bare types) lower-cased, and the raw value.
        static func parse(_ line: String) -> Line {
            var quoted = false, colon = line.endIndex
            for index in line.indices {
                if line[index] == "\"" { quoted.toggle() }
                if line[index] == ":" && !quoted { colon = index; break }
            }
            let head = line[..<colon]
            let value = colon < line.endIndex ? String(line[line.index(after: colon)...]) : ""
            let pieces = head.split(separator: ";", omittingEmptySubsequences: false)
            var name = String(pieces.first ?? ""), group: String?
            if let dot = name.lastIndex(of: ".") {
                group = name[..<dot].lowercased()
                name = String(name[name.index(after: dot)...])
            }
            var types: [String] = [], pref = false
            for parameter in pieces.dropFirst() {
                if let equals = parameter.firstIndex(of: "=") {
                    if parameter[..<equals].uppercased() == "PREF" { pref = true }
                    guard parameter[..<equals].uppercased() == "TYPE" else { continue }
                    types += parameter[parameter.index(after: equals)...].split(separator: ",")
                        .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased() }
                } else {
                    types.append(parameter.lowercased())
                }
            }
            return Line(
                group: group, name: name.uppercased(), types: types, value: value,
                preferred: pref || types.contains("pref"))
        }

        static func label(_ types: [String]) -> String {
            var unique: [String] = []
            for type in types where !ignoredTypes.contains(type) {
                let word = type == "cell" ? "mobile" : type
                if !unique.contains(word) { unique.append(word) }
            }
            return unique.isEmpty ? "other" : unique.joined(separator: " ")
        }

        static func cleanLabel(_ label: String) -> String {
            guard label.hasPrefix("_$!<"), label.hasSuffix(">!$_") else { return label }
            return String(label.dropFirst(4).dropLast(4)).lowercased()
        }

        static func unescape(_ text: String) -> String {
            var result = "", escaped = false
            for character in text {
                if escaped {
                    result.append(character == "n" || character == "N" ? "\n" : character); escaped = false
                } else if character == "\\" {
                    escaped = true
                } else {
                    result.append(character)
                }
            }
            if escaped { result.append("\\") }
            return result
        }
    }
}
