import Foundation
import SceneCore

public protocol ShowContactPresentationLogic {
    func presentFetchedContact(response: ShowContact.FetchContact.Response)
    func presentDeletedContact(response: ShowContact.DeleteContact.Response)
    func presentSelectedContact(response: ShowContact.SelectContact.Response)
    func presentContactToEdit(response: ShowContact.EditContact.Response)
    func presentCompletedReference(response: ShowContact.CompleteReference.Response)
    func presentHistory(response: ShowContact.ShowHistory.Response)
    func presentSavedPhoto(response: ShowContact.SavePhoto.Response)
    func presentFailure(_ failure: ContactsFailure)
}

public final class ShowContactPresenter: ShowContactPresentationLogic {
    weak var viewController: ShowContactDisplayLogic?
    let formatter: ContactFormatter

    public init(formatter: ContactFormatter) { self.formatter = formatter }

    public func presentFetchedContact(response: ShowContact.FetchContact.Response) {
        let contact = response.contact
        typealias Field = ShowContact.FetchContact.ViewModel.Field
        var fields: [Field] = []
        func add(_ label: String, _ value: String) {
            if !value.isEmpty { fields.append(Field(label: label, value: value)) }
        }
        // Every field of the table, in its order; a later ORG, TITLE or NOTE after the first ("Title 2").
        for field in ContactField.allCases {
            guard let label = field.declaration.detailLabel else { continue }
            switch contact[field] {
            case .text(let text): add(label, text)
            case .date(let date): add(label, date.map(formatter.birthday) ?? "")
            case .items(let items): for item in items { add("\(label) (\(item.label))", shown(field, item.value)) }
            case .addresses(let addresses):
                for address in addresses { add("\(label) (\(address.label))", formatter.address(address)) }
            case .words(let words): add(label, words.joined(separator: ", "))
            }
            for (index, value) in contact.laterValues(of: field).enumerated() { add("\(label) \(index + 2)", value) }
            if field == .family && contact.nameOrder == .familyFirst { add("Name order", "family name first") }
        }
        add("Photo", ContactPhoto(of: contact)?.summary ?? "")
        add("Groups", response.groups.joined(separator: ", "))
        add("Book", response.book ?? "")
        add("Created", formatter.timestamp(contact.createdAt))
        add("Updated", formatter.timestamp(contact.updatedAt))
        viewController?.displayFetchedContact(
            viewModel: .init(
                id: contact.id ?? 0, uid: contact.uid, name: formatter.displayName(contact),
                version: contact.version, fields: fields, contact: Self.record(contact, groups: response.groups),
                book: response.book))
    }

    /// An item's value as the detail shows it: a switch, so a new field is shown on purpose.
    private func shown(_ field: ContactField, _ value: String) -> String {
        switch field {
        case .phone: return formatter.phone(value)
        case .given, .family, .display, .nickname, .organization, .title, .email, .address, .website, .birthday, .notes,
            .tag:
            return value
        }
    }

    /// The contact's own values, unformatted, with its times in ISO 8601 (UTC, whatever the
    /// user's time zone), for programs.
    static func record(_ contact: Contact, groups: [String] = []) -> ShowContact.FetchContact.ViewModel.Record {
        .init(
            id: contact.id ?? 0, uid: contact.uid, version: contact.version, givenName: contact.givenName,
            familyName: contact.familyName, nameOrder: contact.nameOrder.rawValue, nickname: contact.nickname,
            organization: contact.organization,
            title: contact.title, phones: contact.phones, emails: contact.emails, addresses: contact.addresses,
            websites: contact.websites,
            birthday: contact.birthday, tags: contact.tags, notes: contact.notes, displayName: contact.fullName,
            formattedName: contact.formattedName,
            photo: ContactPhoto(of: contact).map { .init(mediaType: $0.mediaType, bytes: $0.data?.count, uri: $0.uri) },
            created: contact.createdAt.formatted(.iso8601), updated: contact.updatedAt.formatted(.iso8601),
            groups: groups)
    }

    public func presentSavedPhoto(response: ShowContact.SavePhoto.Response) {
        viewController?.displaySavedPhoto(
            viewModel: .init(
                message: .success(
                    "Saved the photo of \(formatter.displayName(response.contact)) (\(response.photo.summary)) to \(response.path)"
                )))
    }

    public func presentDeletedContact(response: ShowContact.DeleteContact.Response) {
        viewController?.displayDeletedContact(
            viewModel: .init(message: .success("Deleted \(formatter.displayName(response.contact))")))
    }

    public func presentSelectedContact(response: ShowContact.SelectContact.Response) {
        viewController?.displaySelectedContact(
            viewModel: .init(id: response.contact.id ?? 0, purpose: response.purpose))
    }

    public func presentContactToEdit(response: ShowContact.EditContact.Response) {
        viewController?.displayContactToEdit(viewModel: .init(id: response.contact.id ?? 0))
    }

    public func presentCompletedReference(response: ShowContact.CompleteReference.Response) {
        viewController?.displayCompletedReference(viewModel: .init(candidates: response.names))
    }

    public func presentFailure(_ failure: ContactsFailure) {
        viewController?.displayMessage(formatter.message(for: failure))
    }

    public func presentHistory(response: ShowContact.ShowHistory.Response) {
        viewController?.displayHistory(
            viewModel: formatter.history(
                response.changes, contactID: response.contact.id,
                emptyCaption: "No history for \(formatter.displayName(response.contact))"))
    }
}
