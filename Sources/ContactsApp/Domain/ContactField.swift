import Foundation

/// The fields of a contact a person sees and edits, declared once (issue 25): the detail, the
/// form's actions and their help, history, `merge`, the sync merge, CSV, the search text, the
/// detail's JSON Schema (and so MCP's) and the vCard mapping are derived from this table.
/// Where a kind of field needs code of its own, that code is a `switch` over `ContactField`
/// without `default:`, so a new case is a compile error at every such place
/// (ARCHITECTURE.md, "How a field is added").
///
/// In the order the detail shows them, history lists them and CSV writes its columns; the
/// vCard from fields writes them in this order too.
public enum ContactField: String, CaseIterable, Sendable {
    case given, family, display, nickname, organization, title
    case phone, email, address, website
    case birthday, notes, tag

    /// What the field holds, which decides how its values are shown, compared, merged and stored.
    public enum Shape: Sendable, Equatable {
        /// One line of text.
        case line
        /// Text that may hold line breaks.
        case text
        /// A `Birthday`: a date with or without its year.
        case date
        /// Labelled values (`work: ann@example.org`).
        case labelled
        /// Labelled postal addresses.
        case addresses
        /// Plain words (tags).
        case words

        public var isList: Bool {
            switch self {
            case .line, .text, .date: return false
            case .labelled, .addresses, .words: return true
            }
        }
    }

    /// How `merge` (`ContactMerger`) treats the field.
    public enum Merge: Sendable, Equatable {
        /// The first contact's value; if empty, the first non-empty among the others, and any
        /// other value that differs is reported.
        case firstNonEmpty
        /// Every contact's items, without repeats (`ContactMerger.key`).
        case union
        /// The first contact's, as it is: it goes with the name the merged contact keeps.
        case first
    }

    /// How a search reads the field.
    public enum Search: Sendable, Equatable {
        case no
        /// Its words are in the search text, at this place: the index stores the text, so the
        /// places of existing fields are frozen; a new field takes the next number (and a
        /// migration rebuilds the texts of the contacts that have it).
        case words(Int)
        /// Its digits, in the phone index.
        case digits
    }

    public struct Declaration: Sendable {
        /// The vCard property the field is read from and written as.
        public let vCard: String
        public let shape: Shape
        /// The detail's label ("Phone", shown as "Phone (work)"); nil for a field shown otherwise
        /// (the display name is the detail's heading).
        public let detailLabel: String?
        /// The field as the form, its messages and the sync's conflicts name it ("given name").
        public let name: String
        /// The form's action: `summary`, what its value is, and an example after the action word.
        public let formSummary: String
        public let formValueHelp: String
        public let formExample: String
        /// The CSV column.
        public let csvColumn: String
        public let search: Search
        public let merge: Merge
        /// History's name for it ("phones").
        public let historyLabel: String
        /// Its key in the detail's record for programs (JSON-RPC, MCP), and in JSON Schema.
        public let recordKey: String
        /// Later properties of the same name (a second ORG, TITLE or NOTE) are kept in the card
        /// as they came and shown after the first; only the first is the field.
        public let keepsLaterProperties: Bool

        init(
            vCard: String, shape: Shape, detailLabel: String?, name: String, form: (String, String, String),
            csv: String, search: Search, merge: Merge, history: String, record: String, keepsLater: Bool = false
        ) {
            self.vCard = vCard; self.shape = shape; self.detailLabel = detailLabel; self.name = name
            (formSummary, formValueHelp, formExample) = form
            csvColumn = csv; self.search = search; self.merge = merge; historyLabel = history; recordKey = record
            keepsLaterProperties = keepsLater
        }
    }

    /// The field's row of the table (made once: saves and imports read it for every contact).
    public var declaration: Declaration { Self.declarations[ordinal] }

    /// In `allCases` order. An array, not a dictionary keyed by the field: making that
    /// dictionary's type looked up `ContactField: Hashable` by scanning every conformance in the
    /// binary, 0.43M instructions of a session's start (bench/FINDINGS.md, `start5`).
    private static let declarations = allCases.map { $0.makeDeclaration() }

    /// The field's place in `allCases` (`ContactFieldTests` checks the two agree).
    var ordinal: Int {
        switch self {
        case .given: return 0
        case .family: return 1
        case .display: return 2
        case .nickname: return 3
        case .organization: return 4
        case .title: return 5
        case .phone: return 6
        case .email: return 7
        case .address: return 8
        case .website: return 9
        case .birthday: return 10
        case .notes: return 11
        case .tag: return 12
        }
    }

    /// The table.
    private func makeDeclaration() -> Declaration {
        switch self {
        case .given:
            return .init(
                vCard: "N", shape: .line, detailLabel: "Given name", name: "given name",
                form: ("set the given name", "the new value", "Ann"), csv: "given_name", search: .words(0),
                merge: .firstNonEmpty, history: "given", record: "givenName")
        case .family:
            return .init(
                vCard: "N", shape: .line, detailLabel: "Family name", name: "family name",
                form: ("set the family name", "the new value", "Lee"), csv: "family_name", search: .words(1),
                merge: .firstNonEmpty, history: "family", record: "familyName")
        case .display:
            return .init(
                vCard: "FN", shape: .line, detailLabel: nil, name: "display name",
                form: (
                    "set the display name, when it is not the given and family names (vCard FN)", "the new value",
                    "Dr. Ann Lee PhD"
                ),
                csv: "display_name", search: .no, merge: .first, history: "display name", record: "formattedName")
        case .nickname:
            return .init(
                vCard: "NICKNAME", shape: .line, detailLabel: "Nickname", name: "nickname",
                form: ("set the nickname", "the new value", "Annie"), csv: "nickname", search: .words(2),
                merge: .firstNonEmpty, history: "nickname", record: "nickname")
        case .organization:
            return .init(
                vCard: "ORG", shape: .line, detailLabel: "Organization", name: "organization",
                form: ("set the organization", "the new value", "Acme Inc."), csv: "organization", search: .words(3),
                merge: .firstNonEmpty, history: "organization", record: "organization", keepsLater: true)
        case .title:
            return .init(
                vCard: "TITLE", shape: .line, detailLabel: "Title", name: "title",
                form: ("set the job title", "the new value", "Engineer"), csv: "title", search: .no,
                merge: .firstNonEmpty, history: "title", record: "title", keepsLater: true)
        case .phone:
            return .init(
                vCard: "TEL", shape: .labelled, detailLabel: "Phone", name: "phone",
                form: ("add a phone number", "the number, any formatting", "mobile +1 555 123 4567"),
                csv: "phones", search: .digits, merge: .union, history: "phones", record: "phones")
        case .email:
            return .init(
                vCard: "EMAIL", shape: .labelled, detailLabel: "Email", name: "email",
                form: ("add an email address", "the address", "work ann@example.org"),
                csv: "emails", search: .words(4), merge: .union, history: "emails", record: "emails")
        case .address:
            return .init(
                vCard: "ADR", shape: .addresses, detailLabel: "Address", name: "address",
                form: (
                    "add a postal address", "street; city; region; postal code; country",
                    "home 1 Main St; Springfield; IL; 62701; USA"
                ),
                csv: "addresses", search: .words(7), merge: .union, history: "addresses", record: "addresses")
        case .website:
            return .init(
                vCard: "URL", shape: .labelled, detailLabel: "Website", name: "website",
                form: ("add a website", "the address (URL)", "work https://ann.example.org"),
                csv: "websites", search: .words(8), merge: .union, history: "websites", record: "websites")
        case .birthday:
            return .init(
                vCard: "BDAY", shape: .date, detailLabel: "Birthday", name: "birthday",
                form: ("set the birthday (YYYY-MM-DD, or --MM-DD without a year)", "the new value", "1990-05-17"),
                csv: "birthday", search: .no, merge: .firstNonEmpty, history: "birthday", record: "birthday")
        case .notes:
            return .init(
                vCard: "NOTE", shape: .text, detailLabel: "Notes", name: "notes",
                form: ("set the notes", "the new value", "met at the conference"), csv: "notes", search: .words(6),
                merge: .firstNonEmpty, history: "notes", record: "notes", keepsLater: true)
        case .tag:
            return .init(
                vCard: "CATEGORIES", shape: .words, detailLabel: "Tags", name: "tag",
                form: ("add a tag", "the tag", "friends"), csv: "tags", search: .words(5), merge: .union,
                history: "tags", record: "tags")
        }
    }

    /// The fields whose words are in the search text, in their places.
    public static let searchedWords: [ContactField] = allCases.compactMap { field -> (ContactField, Int)? in
        if case .words(let place) = field.declaration.search { return (field, place) }
        return nil
    }.sorted { $0.1 < $1.1 }.map(\.0)
}

/// One field's value, whatever its shape.
public enum ContactFieldValue: Equatable, Sendable {
    case text(String)
    case date(Birthday?)
    case items([LabeledValue])
    case addresses([PostalAddress])
    case words([String])

    public var isEmpty: Bool {
        switch self {
        case .text(let text): return text.isEmpty
        case .date(let date): return date == nil
        case .items(let items): return items.isEmpty
        case .addresses(let addresses): return addresses.isEmpty
        case .words(let words): return words.isEmpty
        }
    }
}

extension Contact {
    /// A field's value; set, a value of another shape than the field's is ignored.
    public subscript(field: ContactField) -> ContactFieldValue {
        get {
            switch field {
            case .given: return .text(givenName)
            case .family: return .text(familyName)
            case .display: return .text(formattedName)
            case .nickname: return .text(nickname)
            case .organization: return .text(organization)
            case .title: return .text(title)
            case .phone: return .items(phones)
            case .email: return .items(emails)
            case .address: return .addresses(addresses)
            case .website: return .items(websites)
            case .birthday: return .date(birthday)
            case .notes: return .text(notes)
            case .tag: return .words(tags)
            }
        }
        set {
            switch (field, newValue) {
            case (.given, .text(let value)): givenName = value
            case (.family, .text(let value)): familyName = value
            case (.display, .text(let value)): formattedName = value
            case (.nickname, .text(let value)): nickname = value
            case (.organization, .text(let value)): organization = value
            case (.title, .text(let value)): title = value
            case (.phone, .items(let value)): phones = value
            case (.email, .items(let value)): emails = value
            case (.address, .addresses(let value)): addresses = value
            case (.website, .items(let value)): websites = value
            case (.birthday, .date(let value)): birthday = value
            case (.notes, .text(let value)): notes = value
            case (.tag, .words(let value)): tags = value
            default: assertionFailure("\(newValue) is not a value of \(field)")
            }
        }
    }

    /// The notes with a later NOTE's text after them, each on its own line: what the notes were
    /// before each NOTE was kept apart, and what the search text, CSV and derived UIDs still read.
    public var allNotes: String {
        guard !extraProperties.isEmpty else { return notes }
        return laterValues(of: .notes).reduce(notes) { $0.isEmpty ? $1 : $0 + "\n" + $1 }
    }

    /// The values of the later ORG, TITLE or NOTE properties the card keeps beside the field's
    /// (`Declaration.keepsLaterProperties`), in order.
    public func laterValues(of field: ContactField) -> [String] {
        guard field.declaration.keepsLaterProperties else { return [] }
        let name = field.declaration.vCard
        return extraProperties.compactMap { line -> String? in
            // The name checked first, cheaply: most kept lines are other properties (photos are large).
            let head = line.utf8.prefix { $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: ";") }
            let bare = head.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).last ?? head
            guard bare.count == name.utf8.count, zip(bare, name.utf8).allSatisfy({ $0 & 0xDF == $1 }) else {
                return nil
            }
            guard let property = try? VCardProperty(VCardContentLine(bytes: Array(line.utf8), line: 1)),
                property.name == name
            else { return nil }
            let value =
                field == .organization
                ? VCardText.components(property.value).filter { !$0.isEmpty }.joined(separator: ", ")
                : VCardText.unescape(property.value)
            return value.isEmpty ? nil : value
        }
    }
}
