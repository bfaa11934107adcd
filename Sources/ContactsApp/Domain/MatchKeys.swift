import Foundation

/// The normalised forms contacts are compared by to find duplicates and to merge without
/// repeats: emails case-insensitive, phones as one international form, names folded.
///
/// The store keeps `storedKeys` of every contact in an index (`contact_key`), so `duplicates`
/// groups a book by these keys without comparing every pair.
public enum MatchKeys {
    /// An email compared case-insensitively, without surrounding spaces: `Ann@Example.COM ` →
    /// `ann@example.com`. Nil for an empty one.
    public static func email(_ address: String) -> String? {
        // Every contact's emails are keyed on every save: Foundation's trimming only when needed.
        let utf8 = address.utf8
        let padded = utf8.first.map(isASCIISpace) == true || utf8.last.map(isASCIISpace) == true || !isASCII(address)
        let key = (padded ? address.trimmingCharacters(in: .whitespacesAndNewlines) : address).lowercased()
        return key.isEmpty ? nil : key
    }

    private static func isASCIISpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
    private static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

    /// The domain of an email key (`example.com`), or nil if it has none.
    public static func emailDomain(_ address: String) -> String? {
        email(address).flatMap(domain(ofEmailKey:))
    }

    /// The domain of an address already made a key by `email`.
    static func domain(ofEmailKey key: String) -> String? {
        guard let at = key.utf8.lastIndex(of: UInt8(ascii: "@")) else { return nil }
        let domain = key.utf8[key.utf8.index(after: at)...]
        return domain.isEmpty ? nil : String(decoding: domain, as: UTF8.self)
    }

    /// A phone as written, reduced to what normalising needs and independent of any country:
    /// `+` and the digits for a number given with its country code (`+`), else the digits alone.
    /// Nil when it has fewer than `minimumPhoneDigits` digits (extensions, typos).
    /// The index stores this form, so changing the book's country needs no rebuild.
    public static func phoneDigits(_ phone: String) -> String? {
        // Counted, then written once into the String: every imported phone comes here, and an
        // array of digits, a String of it and another with the "+" were three allocations.
        let count = phone.utf8.reduce(0) { $0 + (isDigit($1) ? 1 : 0) }
        guard count >= minimumPhoneDigits else { return nil }
        let plus = startsWithPlus(phone)
        return String(unsafeUninitializedCapacity: count + (plus ? 1 : 0)) { buffer in
            var at = 0
            if plus { buffer[0] = UInt8(ascii: "+"); at = 1 }
            for byte in phone.utf8 where isDigit(byte) { buffer[at] = byte; at += 1 }
            return at
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// `phone.trimmingCharacters(in: .whitespaces).hasPrefix("+")`, read from the bytes when the
    /// phone starts in ASCII: every imported phone comes here, and Foundation's trimming was
    /// a third of the duplicate keys' cost (bench/FINDINGS.md).
    static func startsWithPlus(_ phone: String) -> Bool {
        let utf8 = phone.utf8
        // Space and tab are the only ASCII characters `.whitespaces` holds.
        guard let first = utf8.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return false }
        let byte = utf8[first]
        guard byte < 0x80 else { return phone.trimmingCharacters(in: .whitespaces).hasPrefix("+") }
        guard byte == UInt8(ascii: "+") else { return false }
        // A "+" followed by a combining mark is another Character: Foundation decides those.
        let next = utf8.index(after: first)
        return next == utf8.endIndex || utf8[next] < 0x80 || phone.trimmingCharacters(in: .whitespaces).hasPrefix("+")
    }

    /// Fewer digits than this are not a phone number worth matching on.
    public static let minimumPhoneDigits = 5

    /// A phone in one international form, `+` then country code and national number, so
    /// `+1 555 000 1111`, `(555) 000-1111` and `555-000-1111` agree in a book whose default
    /// country is the US (see `PhoneCountry`). `phoneDigits`' form is accepted too.
    /// Without a known country, a number written without its country code stays its digits.
    public static func phone(_ phone: String, defaultCountry: String?) -> String? {
        guard let digits = phoneDigits(phone) else { return nil }
        return PhoneCountry.international(digits, defaultCountry: defaultCountry)
    }

    /// A name folded (case and diacritics), its words single-spaced: "  Ñúñez   ANN" → "nunez ann".
    public static func name(_ text: String) -> String {
        let folded = ContactKeys.fold(text)
        // Most names are one plain word: splitting them by Character was a sixth of an import.
        if folded.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x80 && $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: ",") }) {
            return folded
        }
        // Most of the others are ASCII too once folded ("van der Berg", "Ñúñez Ann"): split
        // their bytes (ASCII whitespace is 9-13 and space), not Characters (a sixth of the keys' cost).
        if folded.utf8.allSatisfy({ $0 < 0x80 }) {
            let words = folded.utf8.split(whereSeparator: {
                $0 == 0x20 || (0x09...0x0D).contains($0)
                    || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",")
            })
            return words.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
        }
        // One word in another script ("γιωργος", "дмитрий"): nothing to split, and splitting by
        // Character was most of this function's cost on an import.
        if !mayHoldSeparator(folded) { return folded }
        return folded.split(whereSeparator: { $0.isWhitespace || $0 == "." || $0 == "," }).joined(separator: " ")
    }

    /// Whether `text` may hold a Character that `name` splits at: ASCII whitespace, `.` or `,`,
    /// or a scalar that may be Unicode whitespace (U+0085, U+00A0, U+1680, U+2000–U+205F,
    /// U+3000; a Character is whitespace when its first scalar is), told from its UTF-8 lead
    /// and next byte. Errs towards yes (U+3001–U+303F share U+3000's first two bytes).
    static func mayHoldSeparator(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte <= 0x20 || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") { return true }
            switch (previous, byte) {
            case (0xC2, 0x85), (0xC2, 0xA0), (0xE1, 0x9A), (0xE2, 0x80), (0xE2, 0x81), (0xE3, 0x80): return true
            default: previous = byte
            }
        }
        return false
    }

    /// The name index's keys of a contact: for its organisation and for each of its email
    /// domains, `family ␁ initial ␁ place ␁ given` (folded), so contacts whose names may be
    /// nearly the same and who share a place sit side by side in the index (`NameKey`).
    /// None without both a given and a family name.
    public static func nameKeys(_ contact: Contact) -> [String] {
        nameKeys(contact, emailKeys: contact.emails.compactMap { email($0.value) })
    }

    /// `nameKeys` given the contact's emails as `email` keys (`storedKeys` has made them).
    static func nameKeys(_ contact: Contact, emailKeys: [String]) -> [String] {
        let family = name(contact.familyName), given = name(contact.givenName)
        guard let initial = given.first, !family.isEmpty else { return [] }
        let organization = name(contact.organization)
        var places: [String] = []
        places.reserveCapacity(emailKeys.count + 1)
        if !organization.isEmpty { places.append(organization) }
        for key in emailKeys {
            guard let domain = domain(ofEmailKey: key) else { continue }
            places.append("@" + domain)
        }
        return NameKey.stored(family: family, initial: initial, places: places, given: given)
    }

    /// Whether two given names are nearly the same: equal, one a prefix of the other of 3 or more
    /// letters (Rob, Robert), one letter added (Jon, John), or one letter changed in a name of 6+
    /// letters (Kristina, Kristine; but Mark and Mary are two people).
    public static func nearlySameGivenName(_ one: String, _ other: String) -> Bool {
        let a = name(one), b = name(other)
        if a == b { return true }
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        if short.count >= 3, long.hasPrefix(short) { return true }
        let added = long.count == short.count + 1 && long.count >= 4
        let changed = long.count == short.count && long.count >= 6
        return (added || changed) && editDistance(a, b, atMost: 1) <= 1
    }

    /// Levenshtein distance, stopping early once it exceeds `limit` (returns `limit + 1`).
    static func editDistance(_ a: String, _ b: String, atMost limit: Int) -> Int {
        let x = Array(a), y = Array(b)
        guard abs(x.count - y.count) <= limit else { return limit + 1 }
        guard !x.isEmpty, !y.isEmpty else { return max(x.count, y.count) }
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            if current.min() ?? 0 > limit { return limit + 1 }
            previous = current
        }
        return previous[y.count]
    }

    /// An address compared without case, diacritics or spacing.
    public static func address(_ address: PostalAddress) -> String {
        address.components.map(name).joined(separator: "|")
    }

    /// A tag compared without case or diacritics.
    public static func tag(_ tag: String) -> String { name(tag) }

    /// A website without what does not tell two apart: case, the scheme and a trailing `/`
    /// ("HTTPS://Ann.example/" and "ann.example" are one).
    public static func website(_ address: String) -> String {
        var key = address.trimmingCharacters(in: .whitespaces).lowercased()
        for scheme in ["https://", "http://"] where key.hasPrefix(scheme) { key.removeFirst(scheme.count) }
        while key.hasSuffix("/") { key.removeLast() }
        return key
    }

    /// What the store indexes for a contact: `(kind, key)` pairs without repeats.
    /// Phones in `phoneDigits`' country-independent form; the country applies when grouping.
    public static func storedKeys(_ contact: Contact) -> [(kind: DuplicateReason.Kind, key: String)] {
        // A few keys per contact: a linear look for repeats costs less than a set.
        // Labelled as returned: an unlabelled array was converted element by element.
        var keys: [(kind: DuplicateReason.Kind, key: String)] = []
        keys.reserveCapacity(contact.emails.count * 2 + contact.phones.count + 1)
        func add(_ kind: DuplicateReason.Kind, _ key: String?) {
            guard let key, !keys.contains(where: { $0.kind == kind && $0.key == key }) else { return }
            keys.append((kind, key))
        }
        let emails = contact.emails.compactMap { email($0.value) }
        for key in emails { add(.email, key) }
        for phone in contact.phones { add(.phone, phoneDigits(phone.value)) }
        for key in nameKeys(contact, emailKeys: emails) { add(.name, key) }
        return keys
    }
}

/// Why contacts look like one person: the same UID (cards of two servers, or two cards of one),
/// a shared email, a shared phone, or nearly the same name with a shared organisation or email domain.
public struct DuplicateReason: Equatable, Hashable, Sendable, Encodable {
    public enum Kind: String, Equatable, Hashable, Sendable, Encodable, CaseIterable {
        case uid, email, phone, name

        /// Stronger reasons first: a UID names one card; an email is one person's; a phone may
        /// be a household's.
        public var strength: Int {
            switch self {
            case .uid: return 4
            case .email: return 3
            case .phone: return 2
            case .name: return 1
            }
        }
    }

    public let kind: Kind
    /// The shared value: the email, the phone in its international form, or for names the
    /// shared organisation or email domain.
    public let value: String
    /// For a phone: one of the contacts wrote it without its country code, and the book has no
    /// country to complete it with, so the two were paired by their national numbers.
    public let withoutCountryCode: Bool

    public init(_ kind: Kind, _ value: String, withoutCountryCode: Bool = false) {
        self.kind = kind; self.value = value; self.withoutCountryCode = withoutCountryCode
    }
}

/// One key of the name index, and the block it belongs to: the contacts with the same family
/// name, given initial and place (organisation or `@domain`), among whom `duplicates` looks for
/// nearly the same given names.
struct NameKey: Equatable {
    let family: String
    let initial: Character
    let place: String
    let given: String

    static let separator: Character = "\u{1}"

    var stored: String { Self.stored(family: family, initial: initial, places: [place], given: given)[0] }

    /// The stored keys of one name at several places: the part before the place and the part
    /// after it made once, each key then two appends (every contact saved makes one or more).
    static func stored(family: String, initial: Character, places: [String], given: String) -> [String] {
        let head = family + String(separator) + String(initial) + String(separator), tail = String(separator) + given
        return places.map { place in
            var key = head
            key.reserveCapacity(head.utf8.count + place.utf8.count + tail.utf8.count)
            key += place
            key += tail
            return key
        }
    }
    var block: String { [family, String(initial), place].joined(separator: String(Self.separator)) }

    init(family: String, initial: Character, place: String, given: String) {
        self.family = family; self.initial = initial; self.place = place; self.given = given
    }

    init?(stored: String) {
        let parts = stored.split(separator: Self.separator, omittingEmptySubsequences: false)
        guard parts.count == 4, let initial = parts[1].first else { return nil }
        self.init(family: String(parts[0]), initial: initial, place: String(parts[2]), given: String(parts[3]))
    }
}
