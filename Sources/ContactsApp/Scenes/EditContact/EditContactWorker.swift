import Foundation

/// Turns a draft into a contact, or into the list of what is wrong with it, field by field.
public struct EditContactWorker {
    public init() {}

    /// The draft of a stored contact, for editing.
    public func draft(from contact: Contact) -> EditContact.Draft {
        var draft = EditContact.Draft()
        draft[.given] = contact.givenName
        draft[.family] = contact.familyName
        draft[.display] = contact.formattedName
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
        draft.websites = contact.websites
        draft.tags = contact.tags
        draft.nameOrder = contact.nameOrder
        draft.photoLine = contact.extraProperties.first(where: ContactPhoto.isPhotoLine)
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
            if value != before[field], let problem = ContactRules.lineProblem(value) {
                errors.append(FieldError(field.rawValue, problem))
            }
            return value
        }
        contact.givenName = line(.given)
        contact.familyName = line(.family)
        contact.formattedName = line(.display)
        contact.nickname = line(.nickname)
        contact.organization = line(.organization)
        contact.title = line(.title)
        if let problem = ContactRules.nameProblem(
            given: contact.givenName, family: contact.familyName,
            organization: contact.organization)
        {
            errors.append(FieldError("name", problem))
        }
        contact.notes = draft[.notes]
        if draft[.notes] != before[.notes], let problem = ContactRules.notesProblem(contact.notes) {
            errors.append(FieldError("notes", problem))
        }
        contact.birthday = nil
        if draft[.birthday] == before[.birthday] {
            contact.birthday = base.birthday
        } else if !draft[.birthday].isEmpty {
            if let birthday = Birthday(parsing: draft[.birthday]) {
                contact.birthday = birthday
            } else {
                errors.append(FieldError("birthday", ContactRules.birthdayProblem))
            }
        }
        for (index, phone) in draft.phones.enumerated() {
            if !before.phones.contains(where: { $0.value == phone.value }),
                let problem = ContactRules.phoneProblem(phone.value)
            {
                errors.append(FieldError("phone \(index + 1)", problem))
            }
            if !before.phones.contains(where: { $0.label == phone.label }),
                let problem = ContactRules.labelProblem(phone.label)
            {
                errors.append(FieldError("phone \(index + 1) label", problem))
            }
        }
        contact.phones = draft.phones
        for (index, email) in draft.emails.enumerated() {
            if !before.emails.contains(where: { $0.value == email.value }),
                let problem = ContactRules.emailProblem(email.value)
            {
                errors.append(FieldError("email \(index + 1)", problem))
            }
            if !before.emails.contains(where: { $0.label == email.label }),
                let problem = ContactRules.labelProblem(email.label)
            {
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
                let problem = parts.lazy.compactMap(ContactRules.lineProblem).first
            {
                errors.append(FieldError("address \(index + 1)", problem))
            }
            if !before.addresses.contains(where: { $0.label == typed.label }),
                let problem = ContactRules.labelProblem(typed.label)
            {
                errors.append(FieldError("address \(index + 1) label", problem))
            }
            let p = parts + Array(repeating: "", count: 5 - parts.count)
            contact.addresses.append(
                PostalAddress(
                    label: typed.label, street: p[0], city: p[1], region: p[2], postalCode: p[3], country: p[4]))
        }
        for (index, website) in draft.websites.enumerated() {
            if !before.websites.contains(where: { $0.value == website.value }),
                let problem = ContactRules.websiteProblem(website.value)
            {
                errors.append(FieldError("website \(index + 1)", problem))
            }
            if !before.websites.contains(where: { $0.label == website.label }),
                let problem = ContactRules.labelProblem(website.label)
            {
                errors.append(FieldError("website \(index + 1) label", problem))
            }
        }
        contact.websites = draft.websites
        for (index, tag) in draft.tags.enumerated() where !before.tags.contains(tag) {
            if let problem = ContactRules.tagProblem(tag) { errors.append(FieldError("tag \(index + 1)", problem)) }
        }
        contact.tags = draft.tags
        contact.nameOrder = draft.nameOrder
        if draft.photoLine != before.photoLine {
            // The new photo takes the old one's place among the kept properties; other PHOTOs stay.
            let old = base.extraProperties.firstIndex(where: ContactPhoto.isPhotoLine)
            if let old { contact.extraProperties.remove(at: old) }
            if let line = draft.photoLine {
                contact.extraProperties.insert(line, at: old ?? contact.extraProperties.count)
            }
        }
        if !errors.isEmpty { throw ContactsFailure.invalid(errors) }
        return contact
    }
}
