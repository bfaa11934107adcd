/// Where a search found each contact of a page (`SearchMatch`), for the list to show beside it:
/// the same matching rule as `matches(words:phoneDigits:inside:)`, asked field by field.
extension ContactSearch {
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
            let phone = fields.first(where: { $0.digits.contains { $0.contains(whole) } })
        {
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
        -> [(field: SearchMatch.Field, text: String, words: [String], digits: [String])]
    {
        func text(_ field: SearchMatch.Field, _ text: String) -> (SearchMatch.Field, String, [String], [String]) {
            (field, text, words(separatingDigits(ContactKeys.fold(text))), [])
        }
        let name = [contact.givenName, contact.familyName].filter { !$0.isEmpty }.joined(separator: " ")
        var fields = [text(.name, name), text(.nickname, contact.nickname), text(.organization, contact.organization)]
        fields += contact.emails.map { text(.email, $0.value) }
        fields += contact.tags.map { text(.tag, $0) }
        fields.append(text(.note, contact.allNotes))
        fields += contact.addresses.map { text(.address, $0.components.joined(separator: ", ")) }
        fields += contact.websites.map { text(.website, $0.value) }
        fields += contact.phones.map { phone in
            (.phone, phone.value, [], [phone.value.filter(\.isASCIIDigit)])
        }
        return fields.filter { !$0.1.isEmpty }
    }
}
