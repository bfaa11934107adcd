import Foundation

/// Which name comes first when a contact's name is written out.
public enum NameOrder: String, Codable, Sendable, CaseIterable {
    /// "Ann Lee": the given name, then the family name.
    case givenFirst = "given-first"
    /// "山田 太郎": the family name, then the given name (Japanese, Chinese, Korean, Hungarian names).
    case familyFirst = "family-first"
}

extension Contact {
    /// The name as the person wrote it, in the contact's name order ("Ann Lee", "山田 太郎"), or
    /// the organisation for a contact without a name, unless the card's own display name says
    /// otherwise (`formattedName`). Never re-capitalised.
    public var fullName: String { formattedName.isEmpty ? composedName : formattedName }

    /// The name the parts give: `fullName` without the card's own display name.
    public var composedName: String {
        let parts = nameOrder == .familyFirst ? [familyName, givenName] : [givenName, familyName]
        let name = parts.filter { !$0.isEmpty }.joined(separator: " ")
        return name.isEmpty ? organization : name
    }
}

/// Rules about people's names: shown as typed, tidied only on request, particles respected.
public enum PersonName {
    /// Words that lead a family name without being where it sorts or what tidying capitalises:
    /// "van Beethoven" sorts under B and stays "van". Lowercase, as they are compared folded.
    static let particles: Set<String> = [
        "van", "von", "de", "der", "den", "del", "della", "di", "da", "das", "do", "dos", "du",
        "la", "le", "ten", "ter", "zu", "bin", "ibn", "al", "el",
    ]
    /// Prefixes joined to the name they lead ("al-Rashid", "el-Amin").
    static let joinedParticles = ["al-", "el-"]

    /// The part of a family name it sorts by: without leading particles ("van der Berg" → "Berg").
    public static func sortingFamilyName(_ family: String) -> String {
        // Most names hold neither a space nor a joined particle: no work for them (imports of millions).
        guard family.utf8.contains(0x20) || hasJoinedParticle(family) else { return family }
        var words = family.split(separator: " ").map(String.init)
        while words.count > 1, particles.contains(words[0].lowercased()) { words.removeFirst() }
        var name = words.joined(separator: " ")
        if let prefix = joinedParticles.first(where: { name.lowercased().hasPrefix($0) }), name.count > prefix.count {
            name = String(name.dropFirst(prefix.count))
        }
        return name
    }

    /// Whether the name starts with "al-" or "el-" in any case, read from its first bytes.
    private static func hasJoinedParticle(_ name: String) -> Bool {
        let start = Array(name.utf8.prefix(3))
        guard start.count == 3, start[2] == UInt8(ascii: "-"), start[1] | 0x20 == UInt8(ascii: "l") else {
            return false
        }
        return start[0] | 0x20 == UInt8(ascii: "a") || start[0] | 0x20 == UInt8(ascii: "e")
    }

    /// A name typed all in lower or all in upper case, with its words capitalised: "ludwig van
    /// beethoven" → "Ludwig van Beethoven", "O'BRIEN" → "O'Brien", "al-rashid" → "al-Rashid".
    /// Nil when the name mixes cases ("McDonald", "DeWitt") or is already tidy: a person's own
    /// capitals are kept.
    public static func tidied(_ name: String, locale: Locale) -> String? {
        let letters = name.filter(\.isLetter)
        let hasCase = letters.contains { $0.isUppercase || $0.isLowercase }
        guard hasCase, letters.allSatisfy({ !$0.isUppercase }) || letters.allSatisfy({ !$0.isLowercase }) else {
            return nil
        }
        let words = name.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let tidy = words.enumerated().map { index, word in
            tidiedWord(word, leadsAnother: index < words.count - 1, locale: locale)
        }.joined(separator: " ")
        return tidy == name ? nil : tidy
    }

    private static func tidiedWord(_ word: String, leadsAnother: Bool, locale: Locale) -> String {
        let lower = word.lowercased(with: locale)
        // A particle leading another word stays lower case ("van Beethoven"); alone it is a name.
        if leadsAnother, particles.contains(lower) { return lower }
        if let prefix = joinedParticles.first(where: { lower.hasPrefix($0) }), lower.count > prefix.count {
            return prefix + capitalised(String(lower.dropFirst(prefix.count)), locale: locale)
        }
        return capitalised(lower, locale: locale)
    }

    /// Capitals after the start and after a hyphen or apostrophe: "ann-marie" → "Ann-Marie", "o'neil" → "O'Neil".
    private static func capitalised(_ word: String, locale: Locale) -> String {
        var result = ""
        var atStart = true
        for character in word {
            result += atStart ? String(character).uppercased(with: locale) : String(character)
            atStart = character == "-" || character == "'" || character == "’"
        }
        return result
    }

    /// The order a card's formatted name (vCard FN) gives: family first when it reads as the
    /// family name, then the given name ("山田 太郎", or "山田太郎" without a space).
    public static func order(ofFormattedName formattedName: String, given: String, family: String) -> NameOrder {
        guard !given.isEmpty, !family.isEmpty else { return .givenFirst }
        let written =
            isSingleSpaced(formattedName) ? formattedName : formattedName.split(separator: " ").joined(separator: " ")
        return written == family + " " + given || written == family + given ? .familyFirst : .givenFirst
    }

    /// Whether splitting the text's Characters at " " and joining them by single spaces gives it
    /// back, told from its bytes: no space at either end or next to another, and each space
    /// a Character of its own (a combining mark after it or a prepended mark before it would
    /// make it part of another: asked of the Characters only beside a non-ASCII byte). Every
    /// imported card with a name asks: the split and join were 10,000 instructions a card
    /// (bench/FINDINGS.md, branch `import6read`).
    static func isSingleSpaced(_ text: String) -> Bool {
        var copy = text
        // Where a space stands beside a non-ASCII byte ("José García"): asked of the Characters.
        var unsure: [Int] = []
        let spaced = copy.withUTF8 { bytes in
            guard let base = bytes.baseAddress, let space = memchr(base, 0x20, bytes.count) else { return true }
            var index = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(space))
            while index < bytes.count {
                if bytes[index] == 0x20 {
                    guard index > 0, index < bytes.count - 1 else { return false }
                    let before = bytes[index - 1], after = bytes[index + 1]
                    guard before != 0x20, after != 0x20 else { return false }
                    if before >= 0x80 || after >= 0x80 { unsure.append(index) }
                }
                index += 1
            }
            return true
        }
        guard spaced else { return false }
        // A space is a Character of its own when a Character starts at it and right after it.
        let utf8 = text.utf8
        return unsure.allSatisfy { offset in
            let at = utf8.index(utf8.startIndex, offsetBy: offset)
            return at.samePosition(in: text) != nil && utf8.index(after: at).samePosition(in: text) != nil
        }
    }
}
