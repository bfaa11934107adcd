import Foundation

/// The keys both stores sort and search by, defined once so they agree.
enum ContactKeys {
    /// Lowercased, diacritics removed: "Ñúñez" → "nunez". Locale-independent on purpose:
    /// the stored order must not change with the user's locale.
    static func fold(_ text: String) -> String {
        // ASCII folds to its lower case; Foundation's folding (through NSString) is for the rest.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Sort key for an order; a contact with no name sorts by its organisation.
    /// "\u{1}" separates the parts so "Lee, Ann" sorts before "Leeds, Al".
    static func sortKey(_ contact: Contact, _ order: SortOrder) -> String {
        let given = fold(contact.givenName), family = fold(contact.familyName), org = fold(contact.organization)
        let parts: [String]
        switch order {
        case .first: parts = given.isEmpty ? [family.isEmpty ? org : family, ""] : [given, family]
        case .last: parts = family.isEmpty ? [given.isEmpty ? org : given, ""] : [family, given]
        }
        return parts.joined(separator: "\u{1}") + "\u{1}" + org
    }

    /// The words a text search matches against, folded.
    static func searchText(_ contact: Contact) -> String {
        ([contact.givenName, contact.familyName, contact.nickname, contact.organization]
            + contact.emails.map(\.value)).map(fold).joined(separator: " ")
    }
}
