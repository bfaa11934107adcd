import SceneCore

public protocol ListContactsPresentationLogic {
    func presentFetchedContacts(response: ListContacts.FetchContacts.Response)
    func presentSelectedContact(response: ListContacts.SelectContact.Response)
    func presentDeletedContact(response: ListContacts.DeleteContact.Response)
    func presentInsertedContact(response: ListContacts.ShowInsertedContact.Response)
    func presentFailure(_ failure: ContactsFailure)
}

public final class ListContactsPresenter: ListContactsPresentationLogic {
    weak var viewController: ListContactsDisplayLogic?
    let formatter: ContactFormatter

    public init(formatter: ContactFormatter) { self.formatter = formatter }

    public func presentFetchedContacts(response: ListContacts.FetchContacts.Response) {
        let query = response.query, total = response.page.total
        let pageCount = max(1, (total + query.limit - 1) / query.limit)
        var caption: [String] = []
        if total == 0 {
            caption.append(query.search.isEmpty ? "No contacts yet; add one with 'add'" : "No contacts match \"\(query.search)\"")
        } else {
            caption.append("Page \(query.page) of \(pageCount)")
            caption.append(total == 1 ? "1 contact" : "\(total) contacts")
            if !query.search.isEmpty { caption.append("matching \"\(query.search)\"") }
            caption.append(query.sort == .last ? "by last name" : "by first name")
        }
        viewController?.displayFetchedContacts(viewModel: .init(
            rows: response.page.contacts.map(row), page: query.page, pageCount: pageCount, total: total,
            search: query.search, sort: query.sort.rawValue, caption: caption.joined(separator: " · ")))
    }

    public func presentSelectedContact(response: ListContacts.SelectContact.Response) {
        viewController?.displaySelectedContact(viewModel: .init(id: response.contact.id ?? 0))
    }

    public func presentDeletedContact(response: ListContacts.DeleteContact.Response) {
        viewController?.displayMessage(.success("Deleted \(formatter.displayName(response.contact))"))
    }

    public func presentInsertedContact(response: ListContacts.ShowInsertedContact.Response) {
        let position = response.position + 1
        let page = response.query.page
        let name = formatter.displayName(response.contact)
        viewController?.displayInsertedContact(viewModel: .init(
            row: row(response.contact), position: position, page: page,
            text: "\(name) is number \(position) of \(response.total) in the list (page \(page))"))
    }

    public func presentFailure(_ failure: ContactsFailure) {
        viewController?.displayMessage(formatter.message(for: failure))
    }

    func row(_ contact: Contact) -> ListContacts.Row {
        .init(id: contact.id ?? 0, name: formatter.displayName(contact),
              organization: contact.organization,
              email: contact.emails.first?.value ?? "",
              phone: contact.phones.first.map { formatter.phone($0.value) } ?? "")
    }
}
