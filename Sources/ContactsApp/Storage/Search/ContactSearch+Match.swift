/// Where a search found each contact of a page (`SearchMatch`), for the list to show beside it:
/// the same matching rule as `matches(words:phoneDigits:inside:)`, asked field by field.
extension ContactSearch {
    /// Where the search found `contact`: for each term, the first field (in `SearchMatch.Field`
    /// order) it matches alone; of those, the first that is not the name, else the name. Nil
    /// for an empty search, or when every term matched only across fields (a phrase running
    /// from one field into the next).
    func match(in contact: Contact) -> SearchMatch? {
        guard !isEmpty else { return nil }
        var fields = SearchedFields(contact)
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

}

/// A contact's searched fields one by one (in `SearchMatch.Field` order, those with no text left
/// out), each with its words (as the index holds them) and, for a phone, its digits. A field is
/// folded into words only when a term reaches it: a page's highlights mostly stop at the name,
/// and folding every field of 20 contacts was an eighth of a piped `search` (bench/FINDINGS.md, `pipe9`).
private struct SearchedFields {
    struct Field {
        let field: SearchMatch.Field
        let text: String
        let words: [String]
        let digits: [String]
    }

    private enum Source {
        case text(SearchMatch.Field, String)
        case address(PostalAddress)
        case phone(String)
    }

    private let sources: [Source]
    /// The fields made so far, in order.
    private var made: [Field] = []
    /// The first source not made yet.
    private var next = 0

    init(_ contact: Contact) {
        let name = [contact.givenName, contact.familyName].filter { !$0.isEmpty }.joined(separator: " ")
        var sources: [Source] = [.text(.name, name), .text(.nickname, contact.nickname)]
        sources.append(.text(.organization, contact.organization))
        sources += contact.emails.map { .text(.email, $0.value) }
        sources += contact.tags.map { .text(.tag, $0) }
        sources.append(.text(.note, contact.allNotes))
        sources += contact.addresses.map { .address($0) }
        sources += contact.websites.map { .text(.website, $0.value) }
        sources += contact.phones.map { .phone($0.value) }
        self.sources = sources
    }

    /// The first field, in order, that `predicate` holds for.
    mutating func first(where predicate: (Field) -> Bool) -> Field? {
        if let field = made.first(where: predicate) { return field }
        while let field = makeNext() {
            if predicate(field) { return field }
        }
        return nil
    }

    /// The next field with some text, made and kept; nil after the last.
    private mutating func makeNext() -> Field? {
        while next < sources.count {
            let source = sources[next]
            next += 1
            let field: Field
            switch source {
            case .text(let kind, let text): field = Self.text(kind, text)
            case .address(let address): field = Self.text(.address, address.components.joined(separator: ", "))
            case .phone(let value):
                field = Field(field: .phone, text: value, words: [], digits: [value.filter(\.isASCIIDigit)])
            }
            guard !field.text.isEmpty else { continue }
            made.append(field)
            return field
        }
        return nil
    }

    private static func text(_ field: SearchMatch.Field, _ text: String) -> Field {
        guard !text.isEmpty else { return Field(field: field, text: text, words: [], digits: []) }
        return Field(
            field: field, text: text,
            words: ContactSearch.words(ContactSearch.separatingDigits(ContactKeys.fold(text))), digits: [])
    }
}
