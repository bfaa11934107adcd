import Foundation
import SceneCore

public protocol ShowContactPresentationLogic {
    func presentContact(response: ShowContact.FetchContact.Response)
    func presentDeletedContact(response: ShowContact.DeleteContact.Response)
    func presentSelectedContact(response: ShowContact.SelectContact.Response)
    func presentCompletions(response: ListContacts.CompleteReference.Response)
    func presentFailure(_ failure: ContactsFailure)
    func presentHistory(response: ShowContact.ShowHistory.Response)
    func presentSavedPhoto(response: ShowContact.SavePhoto.Response)
}

public final class ShowContactPresenter: ShowContactPresentationLogic {
    weak var viewController: ShowContactDisplayLogic?
    let formatter: ContactFormatter

    public init(formatter: ContactFormatter) { self.formatter = formatter }

    public func presentContact(response: ShowContact.FetchContact.Response) {
        let contact = response.contact
        typealias Field = ShowContact.FetchContact.ViewModel.Field
        var fields: [Field] = []
        func add(_ label: String, _ value: String) { if !value.isEmpty { fields.append(Field(label: label, value: value)) } }
        add("Given name", contact.givenName)
        add("Family name", contact.familyName)
        if contact.nameOrder == .familyFirst { add("Name order", "family name first") }
        add("Nickname", contact.nickname)
        add("Organization", contact.organization)
        add("Title", contact.title)
        for phone in contact.phones { add("Phone (\(phone.label))", formatter.phone(phone.value)) }
        for email in contact.emails { add("Email (\(email.label))", email.value) }
        for address in contact.addresses { add("Address (\(address.label))", formatter.address(address)) }
        add("Birthday", contact.birthday.map(formatter.birthday) ?? "")
        add("Tags", contact.tags.joined(separator: ", "))
        add("Notes", contact.notes)
        add("Photo", ContactPhoto(of: contact)?.summary ?? "")
        add("Created", formatter.timestamp(contact.createdAt))
        add("Updated", formatter.timestamp(contact.updatedAt))
        viewController?.displayContact(viewModel: .init(
            id: contact.id ?? 0, uid: contact.uid, name: formatter.displayName(contact),
            version: contact.version, fields: fields, contact: Self.record(contact)))
    }

    /// The contact's own values, unformatted, with its times in ISO 8601 (UTC, whatever the
    /// user's time zone), for programs.
    static func record(_ contact: Contact) -> ShowContact.FetchContact.ViewModel.Record {
        .init(id: contact.id ?? 0, uid: contact.uid, version: contact.version, givenName: contact.givenName,
              familyName: contact.familyName, nameOrder: contact.nameOrder.rawValue, nickname: contact.nickname,
              organization: contact.organization,
              title: contact.title, phones: contact.phones, emails: contact.emails, addresses: contact.addresses,
              birthday: contact.birthday, tags: contact.tags, notes: contact.notes, displayName: contact.fullName,
              formattedName: contact.formattedName,
              photo: ContactPhoto(of: contact).map { .init(mediaType: $0.mediaType, bytes: $0.data?.count, uri: $0.uri) },
              created: contact.createdAt.formatted(.iso8601), updated: contact.updatedAt.formatted(.iso8601))
    }

    public func presentSavedPhoto(response: ShowContact.SavePhoto.Response) {
        viewController?.displayMessage(.success(
            "Saved the photo of \(formatter.displayName(response.contact)) (\(response.photo.summary)) to \(response.path)"))
    }

    public func presentDeletedContact(response: ShowContact.DeleteContact.Response) {
        viewController?.displayDeletedContact(message: .success("Deleted \(formatter.displayName(response.contact))"))
    }

    public func presentSelectedContact(response: ShowContact.SelectContact.Response) {
        viewController?.displaySelectedContact(viewModel: .init(id: response.contact.id ?? 0, purpose: response.purpose))
    }

    public func presentCompletions(response: ListContacts.CompleteReference.Response) {
        viewController?.displayCompletions(viewModel: .init(candidates: response.names))
    }

    public func presentFailure(_ failure: ContactsFailure) {
        viewController?.displayMessage(formatter.message(for: failure))
    }

    public func presentHistory(response: ShowContact.ShowHistory.Response) {
        viewController?.displayHistory(viewModel: formatter.history(
            response.changes, contactID: response.contact.id,
            emptyCaption: "No history for \(formatter.displayName(response.contact))"))
    }
}
