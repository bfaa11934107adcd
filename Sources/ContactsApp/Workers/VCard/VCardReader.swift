import Foundation

/// Reads vCard 2.1, 3.0 and 4.0 files (RFC 2426, RFC 6350 and what real exports actually do)
/// into contacts.
///
/// Hand-written: no vCard package for Swift is available on the machines this builds on, and
/// the quirks of Apple, Google, Android and Outlook exports need care anyway (see
/// `VCardContentLines` for the byte-level part and `VCardProperty` for one line's syntax).
///
/// Properties the model has no field for are kept verbatim in `Contact.extraProperties`, so an
/// import followed by an export loses nothing. A card that cannot be read is reported with its
/// line and the reason; the other cards are still read.
public struct VCardReader {
    /// Longest logical (unfolded) line accepted; a longer one makes its card unreadable.
    /// Large enough for a photo, small enough that garbage cannot exhaust memory downstream.
    public var maximumLineBytes: Int

    public init(maximumLineBytes: Int = 8 << 20) { self.maximumLineBytes = maximumLineBytes }

    /// The names of the extra properties that carry `N`'s honorific prefix and suffix, which
    /// the model has no field for; the writer puts them back into `N`.
    static let namePrefixProperty = "X-CONTACTSBOOK-NAME-PREFIX"
    static let nameSuffixProperty = "X-CONTACTSBOOK-NAME-SUFFIX"

    public func read(_ data: Data) -> ParsedContacts {
        var result = ParsedContacts()
        var cards = Cards(reader: self)
        for line in VCardContentLines.split(data) { cards.take(line, into: &result) }
        cards.finish(into: &result)
        return result
    }

    /// Reads a file a chunk at a time and hands out what it read in batches of about
    /// `batchSize` cards (problems travel with the batch they were found in; an empty file gives
    /// one empty batch): the whole file is
    /// never in memory. `nextChunk` fills its buffer and returns false at the end of the file.
    /// Same results as `read(_:)` on the whole file.
    public func read(batchSize: Int, nextChunk: (inout [UInt8]) throws -> Bool,
                     _ body: (ParsedContacts) throws -> Void) throws {
        var batches = ParsedBatches(size: batchSize)
        var cards = Cards(reader: self)
        var splitter = VCardContentLines.Splitter()
        var chunk: [UInt8] = []
        func take(_ line: VCardContentLine) throws {
            cards.take(line, into: &batches.current)
            try batches.handOutIfFull(body)
        }
        while try nextChunk(&chunk) {
            try chunk.withUnsafeBufferPointer { try splitter.feed($0, take) }
        }
        try splitter.finish(take)
        cards.finish(into: &batches.current)
        try batches.finish(body)
    }

    /// The cards of a file, line after line.
    private struct Cards {
        let reader: VCardReader
        var card: [VCardContentLine]?
        var cardLine = 0
        var inGarbage = false

        init(reader: VCardReader) { self.reader = reader }

        mutating func take(_ line: VCardContentLine, into result: inout ParsedContacts) {
            switch VCardReader.marker(line.bytes) {
            case "BEGIN:VCARD":
                if card != nil { result.problems.append(.init(line: cardLine, reason: "the card has no END:VCARD")) }
                card = []
                cardLine = line.line
                inGarbage = false
            case "END:VCARD":
                if let lines = card {
                    switch reader.contact(from: lines, startingAt: cardLine) {
                    case .success(let contact): result.entries.append(.init(contact: contact, line: cardLine))
                    case .failure(let problem): result.problems.append(problem)
                    }
                    card = nil
                } else {
                    result.problems.append(.init(line: line.line, reason: "END:VCARD without BEGIN:VCARD"))
                }
            case "BEGIN:VADDRESSBOOK", "END:VADDRESSBOOK":
                return
            default:
                if card != nil {
                    card!.append(line)
                } else if !inGarbage {
                    result.problems.append(.init(line: line.line, reason: "not part of a card (expected BEGIN:VCARD)"))
                    inGarbage = true
                }
            }
        }

        func finish(into result: inout ParsedContacts) {
            if card != nil {
                result.problems.append(.init(line: cardLine, reason: "the card has no END:VCARD (is the file truncated?)"))
            }
        }
    }

    /// `BEGIN:VCARD` and the like, upper-cased, for lines short enough to be one.
    fileprivate static func marker(_ bytes: [UInt8]) -> String? {
        // Most lines are properties: only a line starting with B, E or a blank can be a marker.
        guard bytes.count <= 24, let first = bytes.first,
              first == UInt8(ascii: "B") || first == UInt8(ascii: "b") || first == UInt8(ascii: "E")
                || first == UInt8(ascii: "e") || first == 0x20 || first == 0x09
        else { return nil }
        // An ASCII line that has no colon, or a property name other than BEGIN/END, is no marker.
        if bytes.allSatisfy({ $0 < 0x80 }) {
            let trimmed = bytes.drop { $0 == 0x20 || $0 == 0x09 }
            guard trimmed.count >= 4 else { return nil }
            let head = trimmed.prefix(4).map { $0 & 0xDF } // upper-cased letters (and ':' to 0x1A)
            guard head == Array("END".utf8) + [0x1A] || head == Array("BEGI".utf8) else { return nil }
        }
        return String(decoding: bytes, as: UTF8.self).trimmingSpaces.uppercased()
    }

    // MARK: - One card

    fileprivate func contact(from lines: [VCardContentLine], startingAt cardLine: Int) -> Result<Contact, ParsedContacts.Problem> {
        var properties: [VCardProperty] = []
        properties.reserveCapacity(lines.count)
        for line in lines {
            guard line.bytes.count <= maximumLineBytes else {
                return .failure(.init(line: line.line, reason: "the line is longer than \(maximumLineBytes) bytes"))
            }
            do {
                properties.append(try VCardProperty(line))
            } catch let failure as VCardProperty.Failure {
                return .failure(.init(line: line.line, reason: failure.reason))
            } catch {
                return .failure(.init(line: line.line, reason: "\(error)"))
            }
        }
        var builder = ContactBuilder()
        builder.read(properties)
        guard var contact = builder.contact else {
            return .failure(.init(line: cardLine, reason: "the card has no name (N or FN) and no organisation (ORG)"))
        }
        contact.card = Self.record(of: properties)
        return .success(contact)
    }

    /// The card's lines as they are kept (`VCardProperty.appendKept`), in one text.
    static func record(of properties: [VCardProperty]) -> VCardRecord {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(properties.reduce(0) { $0 + $1.keptByteCount + 1 })
        for (index, property) in properties.enumerated() {
            if index > 0 { bytes.append(0x0A) }
            property.appendKept(to: &bytes)
        }
        return VCardRecord(text: String(decoding: bytes, as: UTF8.self))
    }

    /// The birthday a BDAY value reads as (`ContactBuilder.birthday`), for the converter.
    static func birthday(_ text: String, omittedYear: String?) -> Birthday? {
        ContactBuilder.birthday(text, omittedYear: omittedYear)
    }

    /// A stored card read again as the fields it gives, with where each field came from:
    /// what `CardPatch` compares a contact with before it touches the card.
    static func view(of record: VCardRecord) -> (contact: Contact, layout: CardLayout, properties: [VCardProperty])? {
        var properties: [VCardProperty] = []
        for (index, line) in record.lines.enumerated() {
            guard let property = try? VCardProperty(VCardContentLine(bytes: Array(line.utf8), line: index + 1)) else {
                return nil
            }
            properties.append(property)
        }
        var builder = ContactBuilder(recordingLayout: true)
        builder.read(properties)
        guard let contact = builder.contact else { return nil }
        return (contact, builder.layout, properties)
    }
}

/// Where each field of a contact read from a card came from: the index of its property in the
/// card, for each item of the lists in the contact's order, and what each property is.
struct CardLayout {
    enum Slot: Equatable {
        /// VERSION, PRODID, REV: the card's own bookkeeping.
        case bookkeeping
        case uid, formattedName, name, nickname, organization, title, birthday, note, categories
        case phone, email, address
        /// An `X-ABLabel` that labels a phone, email or address in its group.
        case label
        /// A property with no field (`extraProperties`), or a second ORG or TITLE: kept as it is.
        case kept
    }

    var slots: [Slot] = []
    var phones: [Int] = []
    var emails: [Int] = []
    var addresses: [Int] = []
}

/// Maps one card's properties onto a `Contact`.
private struct ContactBuilder {
    var contact: Contact? {
        var result = draft
        if result.givenName.isEmpty && result.familyName.isEmpty && result.organization.isEmpty {
            let words = formattedName.split(separator: " ").map(String.init)
            guard !words.isEmpty else { return nil }
            if words.count == 1 || formattedName == result.organization {
                result.givenName = formattedName
            } else {
                result.givenName = words.dropLast().joined(separator: " ")
                result.familyName = words[words.count - 1]
            }
        }
        result.nameOrder = PersonName.order(ofFormattedName: formattedName, given: result.givenName, family: result.familyName)
        // FN is kept as written when the name parts would not give it ("John Doe III").
        if !formattedName.isEmpty && formattedName != result.composedName { result.formattedName = formattedName }
        result.phones = Self.preferredFirst(phones).map(\.0)
        result.emails = Self.preferredFirst(emails).map(\.0)
        result.addresses = Self.preferredFirst(addresses).map(\.0)
        return result
    }

    /// The layout of what was read (`recordingLayout`), the lists in the contact's order.
    var layout: CardLayout {
        var layout = recorded
        layout.phones = Self.preferredFirst(phones).map(\.1)
        layout.emails = Self.preferredFirst(emails).map(\.1)
        layout.addresses = Self.preferredFirst(addresses).map(\.1)
        return layout
    }

    private var draft = Contact()
    private var formattedName = ""
    private var hasOrganization = false, hasTitle = false
    /// Each item with the index of its property and whether it is preferred.
    private var phones: [(LabeledValue, Int, Bool)] = []
    private var emails: [(LabeledValue, Int, Bool)] = []
    private var addresses: [(PostalAddress, Int, Bool)] = []
    private let recordingLayout: Bool
    private var recorded = CardLayout()

    init(recordingLayout: Bool = false) { self.recordingLayout = recordingLayout }

    mutating func read(_ properties: [VCardProperty]) {
        // Apple and Google label a property by a sibling in the same group: item1.X-ABLabel.
        var groupLabels: [String: String] = [:]
        for property in properties where property.name == "X-ABLABEL" {
            if let group = property.group { groupLabels[group] = Self.cleanLabel(VCardText.unescape(property.value)) }
        }
        // Only an X-ABLabel needs to know which groups a TEL, EMAIL or ADR took its label from.
        let consumedGroups: Set<String> = groupLabels.isEmpty ? [] : Set(properties.filter {
            $0.name == "TEL" || $0.name == "EMAIL" || $0.name == "ADR"
        }.compactMap(\.group))

        for (index, property) in properties.enumerated() {
            let slot = read(property, at: index, groupLabels: groupLabels, consumedGroups: consumedGroups)
            if recordingLayout { recorded.slots.append(slot) }
        }
    }

    private mutating func read(_ property: VCardProperty, at index: Int, groupLabels: [String: String],
                               consumedGroups: Set<String>) -> CardLayout.Slot {
        let text = VCardText.unescape(property.value)
        let groupLabel = property.group.flatMap { groupLabels[$0] }
        switch property.name {
        case "VERSION", "PRODID", "REV":
            return .bookkeeping
        case "X-ABLABEL" where property.group.map(consumedGroups.contains) == true:
            return .label
        case "UID":
            draft.uid = Self.withoutControlCharacters(text).trimmingSpaces
            return .uid
        case "FN":
            guard formattedName.isEmpty else { break }
            formattedName = text.trimmingSpaces
            return .formattedName
        case "N":
            readName(VCardText.components(property.value))
            return .name
        case "NICKNAME":
            let names = VCardText.list(property.value).map(\.trimmingSpaces).filter { !$0.isEmpty }
            draft.nickname = ([draft.nickname].filter { !$0.isEmpty } + names).joined(separator: ", ")
            return .nickname
        case "ORG":
            // The first ORG is the contact's; later ones are kept in the card, as they came.
            guard !hasOrganization else { break }
            hasOrganization = true
            draft.organization = VCardText.components(property.value).filter { !$0.isEmpty }.joined(separator: ", ")
            return .organization
        case "TITLE":
            guard !hasTitle else { break }
            hasTitle = true
            draft.title = text
            return .title
        case "TEL":
            let types = property.types
            phones.append((LabeledValue(label: groupLabel ?? Self.label(types), value: Self.phoneNumber(property, text)),
                           index, property.isPreferred(types: types)))
            return .phone
        case "EMAIL":
            let types = property.types
            emails.append((LabeledValue(label: groupLabel ?? Self.label(types), value: text.trimmingSpaces),
                           index, property.isPreferred(types: types)))
            return .email
        case "ADR":
            let types = property.types
            addresses.append((Self.address(VCardText.components(property.value), label: groupLabel ?? Self.label(types)),
                              index, property.isPreferred(types: types)))
            return .address
        case "BDAY":
            guard draft.birthday == nil,
                  let birthday = Self.birthday(text, omittedYear: property.values(of: "X-APPLE-OMIT-YEAR").first)
            else { break } // a form we do not model ("circa 1800"): kept
            draft.birthday = birthday
            return .birthday
        case "NOTE":
            draft.notes = draft.notes.isEmpty ? text : draft.notes + "\n" + text
            return .note
        case "CATEGORIES":
            draft.tags += VCardText.list(property.value).map { $0.trimmingSpaces }.filter { !$0.isEmpty }
            return .categories
        default:
            break
        }
        draft.extraProperties.append(property.raw)
        return .kept
    }

    /// Without the control characters every export removes (`VCardVersionConverter`), so the UID
    /// read is the one written, and the next import of the file finds the contact by it.
    private static func withoutControlCharacters(_ text: String) -> String {
        guard VCardVersionConverter.ControlCharacters.contains(text) else { return text }
        // A line break is kept: the export writes a raw one as `\n`, which reads as one.
        return String(String.UnicodeScalarView(text.unicodeScalars.filter {
            $0 == "\n" || !VCardVersionConverter.ControlCharacters.isControl($0)
        }))
    }

    /// The family and given names; additional names, prefix and suffix stay in the card's N
    /// (and in FN, which shows them), untouched by an edit of the other two.
    private mutating func readName(_ parts: [String]) {
        func part(_ index: Int) -> String { index < parts.count ? parts[index].trimmingSpaces : "" }
        draft.familyName = part(0)
        draft.givenName = part(1)
    }

    /// Labels from `TYPE`s: `cell` reads as "mobile"; `pref`, `internet` and `voice` say nothing
    /// a person calls a label. No type at all reads as "other".
    private static let ignoredTypes: Set<String> = ["pref", "internet", "voice", "x400", "dom", "intl", "postal", "parcel"]

    static func label(_ types: [String]) -> String {
        if types.count == 1 && !ignoredTypes.contains(types[0]) { return types[0] == "cell" ? "mobile" : types[0] }
        let words = types.filter { !ignoredTypes.contains($0) }.map { $0 == "cell" ? "mobile" : $0 }
        var unique: [String] = []
        for word in words where !unique.contains(word) { unique.append(word) }
        return unique.isEmpty ? "other" : unique.joined(separator: " ")
    }

    /// Apple writes its built-in labels as `_$!<Mobile>!$_`; they read as "mobile".
    static func cleanLabel(_ label: String) -> String {
        guard label.hasPrefix("_$!<"), label.hasSuffix(">!$_") else { return label }
        return String(label.dropFirst(4).dropLast(4)).lowercased()
    }

    /// A `tel:` URI (`TEL;VALUE=uri:tel:+1-555-0100`) reads as the number it names.
    static func phoneNumber(_ property: VCardProperty, _ text: String) -> String {
        var number = text.trimmingSpaces
        if number.utf8.count >= 4 && number.utf8.prefix(4).map({ $0 | 0x20 }) == Array("tel:".utf8) {
            number = String(number.dropFirst(4))
        }
        var extensionNumber = ""
        if let semicolon = number.firstIndex(of: ";") { // ;ext=, ;phone-context=
            for parameter in number[number.index(after: semicolon)...].split(separator: ";") where parameter.lowercased().hasPrefix("ext=") {
                extensionNumber = String(parameter.dropFirst(4)).trimmingSpaces
            }
            number = String(number[..<semicolon])
        }
        // An extension is part of what a person dials: shown as libphonenumber (Android, Google)
        // writes it, and what the converter writes for 3.0.
        if !extensionNumber.isEmpty { return number.trimmingSpaces + " ext. " + extensionNumber }
        // Trimmed again: what stood around `tel:` or before `;` ("+1 ;x" is "+1", "tel: 5" is "5").
        return number.trimmingSpaces
    }

    /// `ADR`'s components: post-office box; extended address; street; locality; region; code; country.
    static func address(_ parts: [String], label: String) -> PostalAddress {
        func part(_ index: Int) -> String { index < parts.count ? parts[index].trimmingSpaces : "" }
        let street = [part(0), part(1), part(2)].filter { !$0.isEmpty }.joined(separator: ", ")
        return PostalAddress(label: label, street: street, city: part(3), region: part(4),
                             postalCode: part(5), country: part(6))
    }

    /// `1990-05-17`, `19900517`, `--05-17`, `--0517`, a date-time (`1990-05-17T00:00:00Z`), or
    /// Apple's `1604-05-17` with `X-APPLE-OMIT-YEAR=1604` for a birthday without a year.
    static func birthday(_ text: String, omittedYear: String?) -> Birthday? {
        var date = text.trimmingSpaces
        if let t = date.firstIndex(where: { $0 == "T" || $0 == "t" }) { date = String(date[..<t]) }
        let noYear = date.hasPrefix("--")
        let digits = (noYear ? String(date.dropFirst(2)) : date).filter { $0 != "-" }
        guard digits.allSatisfy(\.isASCIIDigit) else { return nil }
        let iso: String
        switch (noYear, digits.count) {
        case (true, 4): iso = "--" + digits.prefix(2) + "-" + digits.suffix(2)
        case (false, 8):
            let year = String(digits.prefix(4))
            iso = (year == omittedYear ? "-" : year) + "-" + digits.dropFirst(4).prefix(2) + "-" + digits.suffix(2)
        default: return nil
        }
        return Birthday(parsing: iso)
    }

    private static func preferredFirst<T>(_ items: [(T, Int, Bool)]) -> [(T, Int)] {
        items.filter { $0.2 }.map { ($0.0, $0.1) } + items.filter { !$0.2 }.map { ($0.0, $0.1) }
    }
}
