import Foundation

/// Turns a draft into a contact, or into the list of what is wrong with it, field by field.
public struct EditContactWorker {
    public init() {}

    static let maxLineLength = 200
    static let maxNotesLength = 10_000

    /// The draft of a stored contact, for editing.
    public func draft(from contact: Contact) -> EditContact.Draft {
        var draft = EditContact.Draft()
        draft[.given] = contact.givenName
        draft[.family] = contact.familyName
        draft[.nickname] = contact.nickname
        draft[.organization] = contact.organization
        draft[.title] = contact.title
        draft[.birthday] = contact.birthday.map { $0.isoString } ?? ""
        draft[.notes] = contact.notes
        draft.phones = contact.phones
        draft.emails = contact.emails
        draft.addresses = contact.addresses.map {
            // Only trailing empty parts may go: a leading one keeps the city from becoming the street.
            var parts = [$0.street, $0.city, $0.region, $0.postalCode, $0.country]
            while parts.last?.isEmpty == true { parts.removeLast() }
            return LabeledValue(label: $0.label, value: parts.joined(separator: "; "))
        }
        draft.tags = contact.tags
        return draft
    }

    /// Validates every field and builds the contact to save on top of `base` (whose id,
    /// UID, times and version are kept). Throws `ContactsFailure.invalid` with every error.
    /// A value `base` already holds is not checked again: an import keeps what it cannot
    /// validate (an EMAIL that is not an address), and that must not block other edits.
    public func contact(from draft: EditContact.Draft, base: Contact) throws -> Contact {
        var errors: [FieldError] = []
        var contact = base
        let before = self.draft(from: base)
        func line(_ field: EditContact.Field) -> String {
            let value = draft[field]
            if value != before[field], let problem = Self.lineProblem(value) { errors.append(FieldError(field.rawValue, problem)) }
            return value
        }
        contact.givenName = line(.given)
        contact.familyName = line(.family)
        contact.nickname = line(.nickname)
        contact.organization = line(.organization)
        contact.title = line(.title)
        if contact.givenName.isEmpty && contact.familyName.isEmpty && contact.organization.isEmpty {
            errors.append(FieldError("name", "a contact needs a given name, a family name or an organization"))
        }
        contact.notes = draft[.notes]
        if draft[.notes] != before[.notes], contact.notes.count > Self.maxNotesLength {
            errors.append(FieldError("notes", "is longer than \(Self.maxNotesLength) characters"))
        }
        contact.birthday = nil
        if draft[.birthday] == before[.birthday] {
            contact.birthday = base.birthday
        } else if !draft[.birthday].isEmpty {
            if let birthday = Self.parseBirthday(draft[.birthday]) {
                contact.birthday = birthday
            } else {
                errors.append(FieldError("birthday", "must be a date as YYYY-MM-DD, or --MM-DD without a year"))
            }
        }
        for (index, phone) in draft.phones.enumerated() {
            if !before.phones.contains(where: { $0.value == phone.value }), let problem = Self.phoneProblem(phone.value) {
                errors.append(FieldError("phone \(index + 1)", problem))
            }
            if !before.phones.contains(where: { $0.label == phone.label }), let problem = Self.labelProblem(phone.label) {
                errors.append(FieldError("phone \(index + 1) label", problem))
            }
        }
        contact.phones = draft.phones
        for (index, email) in draft.emails.enumerated() {
            if !before.emails.contains(where: { $0.value == email.value }), !Self.isEmail(email.value) {
                errors.append(FieldError("email \(index + 1)", "is not an email address like name@example.org"))
            }
            if !before.emails.contains(where: { $0.label == email.label }), let problem = Self.labelProblem(email.label) {
                errors.append(FieldError("email \(index + 1) label", problem))
            }
        }
        contact.emails = draft.emails
        contact.addresses = []
        for (index, typed) in draft.addresses.enumerated() {
            let parts = typed.value.split(separator: ";", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count > 5 || parts.allSatisfy(\.isEmpty) {
                errors.append(FieldError("address \(index + 1)", "must be: street; city; region; postal code; country"))
                continue
            }
            if !before.addresses.contains(where: { $0.value == typed.value }),
               let problem = parts.lazy.compactMap(Self.lineProblem).first {
                errors.append(FieldError("address \(index + 1)", problem))
            }
            if !before.addresses.contains(where: { $0.label == typed.label }), let problem = Self.labelProblem(typed.label) {
                errors.append(FieldError("address \(index + 1) label", problem))
            }
            let p = parts + Array(repeating: "", count: 5 - parts.count)
            contact.addresses.append(PostalAddress(label: typed.label, street: p[0], city: p[1], region: p[2], postalCode: p[3], country: p[4]))
        }
        for (index, tag) in draft.tags.enumerated() where !before.tags.contains(tag)
            && (tag.isEmpty || tag.contains(",") || tag.count > 50 || tag.unicodeScalars.contains(where: Self.isUnsafe)) {
            errors.append(FieldError("tag \(index + 1)", "must be 1 to 50 characters without commas or control characters"))
        }
        contact.tags = draft.tags
        if !errors.isEmpty { throw ContactsFailure.invalid(errors) }
        return contact
    }

    /// `1990-05-17`, `--05-17` or `05-17`; the date must exist (29 February only in leap years,
    /// or without a year).
    static func parseBirthday(_ text: String) -> Birthday? {
        let trimmed = text.hasPrefix("--") ? String(text.dropFirst(2)) : text
        // Digits only: `Int` alone would also take "+1990".
        let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
            .map { part in part.allSatisfy { $0.isASCII && $0.isNumber } ? Int(part) : nil }
        guard parts.allSatisfy({ $0 != nil }) else { return nil }
        let numbers = parts.compactMap { $0 }
        let year: Int?, month: Int, day: Int
        switch numbers.count {
        case 3 where !text.hasPrefix("--"): (year, month, day) = (numbers[0], numbers[1], numbers[2])
        case 2: (year, month, day) = (nil, numbers[0], numbers[1])
        default: return nil
        }
        if let year, !(1...9999).contains(year) { return nil }
        guard (1...12).contains(month) else { return nil }
        let leap = year.map { ($0 % 4 == 0 && $0 % 100 != 0) || $0 % 400 == 0 } ?? true
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return nil }
        return Birthday(year: year, month: month, day: day)
    }

    /// What is wrong with a one-line value (a name, an address part), if anything.
    static func lineProblem(_ value: String) -> String? {
        if value.count > maxLineLength { return "is longer than \(maxLineLength) characters" }
        if value.unicodeScalars.contains(where: isUnsafe) {
            return "must be one line without control characters"
        }
        return nil
    }

    /// Control characters (C0, C1, DEL) and the bidi overrides that reorder a terminal line.
    /// Other format characters stay allowed: the zero-width (non-)joiner belongs in Persian,
    /// Hindi and emoji names.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    static func phoneProblem(_ number: String) -> String? {
        let allowed = CharacterSet(charactersIn: "0123456789 +-().")
        guard number.unicodeScalars.allSatisfy(allowed.contains) else {
            return "may hold only digits, spaces and + - ( ) ."
        }
        if number.dropFirst().contains("+") { return "may have + only at the start" }
        let digits = number.filter(\.isNumber).count
        return (3...20).contains(digits) ? nil : "must have 3 to 20 digits"
    }

    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, text.count <= 254,
              !text.contains(where: { $0.isWhitespace || $0.isNewline }),
              !text.unicodeScalars.contains(where: isUnsafe) else { return false }
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return domain.count >= 2 && domain.allSatisfy { !$0.isEmpty }
    }

    static func labelProblem(_ label: String) -> String? {
        let ok = !label.isEmpty && label.count <= 30
            && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == " " }
        return ok ? nil : "must be 1 to 30 letters, digits, spaces, - or _"
    }
}
