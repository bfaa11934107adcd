import Foundation

/// The keys both stores sort and search by, defined once so they agree.
enum ContactKeys {
    /// Lowercased, diacritics removed: "Ñúñez" → "nunez". Locale-independent on purpose:
    /// the stored order must not change with the user's locale.
    static func fold(_ text: String) -> String {
        // ASCII folds to its lower case, Latin, Greek, Cyrillic and CJK by a table
        // (`foldedByTable`); Foundation's folding (through NSString) is for the rest.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return foldedByTable(text) ?? foldedNonASCII.fold(text)
    }

    /// Foundation's folding of non-ASCII text, remembered: names repeat (an import of 10k cards
    /// folds the same few thousand given names, family names and organisations again and again)
    /// and folding through NSString was 5 % of an import. Capped; shared by threads, so locked.
    private static let foldedNonASCII = FoldMemory()

    final class FoldMemory: @unchecked Sendable {
        private var memory: [String: String] = [:]
        private let lock = NSLock()
        static let capacity = 20_000

        func fold(_ text: String) -> String {
            lock.lock()
            let known = memory[text]
            lock.unlock()
            if let known { return known }
            let folded = text.folding(
                options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            lock.lock()
            if memory.count >= Self.capacity { memory.removeAll(keepingCapacity: true) }
            memory[text] = folded
            lock.unlock()
            return folded
        }
    }

    /// Sort key for an order; a contact with no name sorts by its organisation.
    /// "\u{1}" separates the parts so "Lee, Ann" sorts before "Leeds, Al".
    static func sortKey(_ contact: Contact, _ order: SortOrder) -> String {
        // By last name, "van Beethoven" sorts under B (`PersonName.sortingFamilyName`).
        let family = order == .last ? PersonName.sortingFamilyName(contact.familyName) : contact.familyName
        return sortKey(
            given: fold(contact.givenName), family: fold(family), organization: fold(contact.organization), order)
    }

    /// The sort key from folded names.
    static func sortKey(given: String, family: String, organization org: String, _ order: SortOrder) -> String {
        let parts: (String, String)
        switch order {
        case .first: parts = given.isEmpty ? (family.isEmpty ? org : family, "") : (given, family)
        case .last: parts = family.isEmpty ? (given.isEmpty ? org : given, "") : (family, given)
        }
        return joinedKey(parts.0, parts.1, org)
    }

    /// The parts joined by U+0001, written once into a string of their size: what `a + "\u{1}" +
    /// b + ...` gives, byte for byte, without growing the string at each `+` (every saved
    /// contact makes two sort keys and a name key per place; bench/FINDINGS.md, branch `import6read`).
    static func joinedKey(_ a: String, _ b: String, _ c: String, _ d: String? = nil) -> String {
        let total = a.utf8.count + b.utf8.count + c.utf8.count + (d.map { $0.utf8.count + 1 } ?? 0) + 2
        return String(unsafeUninitializedCapacity: total) { out in
            var at = 0
            func put(_ text: String) {
                var text = text
                text.withUTF8 { bytes in
                    for byte in bytes { out[at] = byte; at += 1 }
                }
            }
            put(a)
            out[at] = 0x01
            at += 1
            put(b)
            out[at] = 0x01
            at += 1
            put(c)
            if let d {
                out[at] = 0x01
                at += 1
                put(d)
            }
            return at
        }
    }

    /// The words a text search matches against, folded, with letters and digits apart
    /// (`ContactSearch.separatingDigits`): what the SQLite store indexes.
    static func searchText(_ contact: Contact) -> String {
        ContactSearch.separatingDigits(foldedText(contact))
    }

    /// The fields a text search matches against (`ContactField.searchedWords`, in their places),
    /// folded and joined by spaces: names, organisation, emails, tags, notes, addresses, websites.
    private static let searchedShapes = ContactField.searchedWords.map { ($0, $0.declaration.shape) }

    static func foldedText(_ contact: Contact) -> String {
        // Into one buffer, ASCII lower-cased byte by byte (what `fold` does to it): every saved
        // contact comes here, and an array of parts, a String per folded part and joining them
        // were most of the cost.
        var out: [UInt8] = []
        out.reserveCapacity(256)
        var first = true
        func add(_ part: String) {
            if !first { out.append(0x20) }
            first = false
            // ASCII copied at once and lower-cased in place (appending byte by byte checked the
            // array's uniqueness for each: a third of this function); anything else folded.
            var part = part
            let ascii = part.withUTF8 { bytes in
                guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
                let start = out.count
                out.append(contentsOf: bytes)
                out.withUnsafeMutableBufferPointer { out in
                    for index in start..<out.count where out[index] &- 0x41 < 26 { out[index] |= 0x20 }
                }
                return true
            }
            if !ascii { out.append(contentsOf: fold(part).utf8) }
        }
        // A line is added even when empty, text only when not: the texts stored in books are so.
        for (field, shape) in searchedShapes {
            switch contact[field] {
            // The notes with a later NOTE's words: a search finds what any NOTE says.
            case .text(let text):
                let text = field == .notes ? contact.allNotes : text
                if shape == .line || !text.isEmpty { add(text) }
            case .date: break
            case .items(let items): for item in items { add(item.value) }
            case .addresses(let addresses):
                for address in addresses { for component in address.components { add(component) } }
            case .words(let words): for word in words { add(word) }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
