import SceneCore

public protocol ShowContactPresentationLogic {
    func presentContact(response: ShowContact.FetchContact.Response)
    func presentDeletedContact(response: ShowContact.DeleteContact.Response)
    func presentFailure(_ failure: ContactsFailure)
    func presentHistory(response: ShowContact.ShowHistory.Response)
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
        add("Given name", formatter.name(contact.givenName))
        add("Family name", formatter.name(contact.familyName))
        add("Nickname", contact.nickname)
        add("Organization", contact.organization)
        add("Title", contact.title)
        for phone in contact.phones { add("Phone (\(phone.label))", formatter.phone(phone.value)) }
        for email in contact.emails { add("Email (\(email.label))", email.value) }
        for address in contact.addresses { add("Address (\(address.label))", formatter.address(address)) }
        add("Birthday", contact.birthday.map(formatter.birthday) ?? "")
        add("Tags", contact.tags.joined(separator: ", "))
        add("Notes", contact.notes)
        add("Created", formatter.timestamp(contact.createdAt))
        add("Updated", formatter.timestamp(contact.updatedAt))
        viewController?.displayContact(viewModel: .init(
            id: contact.id ?? 0, uid: contact.uid, name: formatter.displayName(contact),
            version: contact.version, fields: fields))
    }

    public func presentDeletedContact(response: ShowContact.DeleteContact.Response) {
        viewController?.displayDeletedContact(message: .success("Deleted \(formatter.displayName(response.contact))"))
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
