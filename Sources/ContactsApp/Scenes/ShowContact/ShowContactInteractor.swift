public protocol ShowContactBusinessLogic {
    func fetchContact(request: ShowContact.FetchContact.Request)
    func deleteContact(request: ShowContact.DeleteContact.Request)
    func showHistory(request: ShowContact.ShowHistory.Request)
    func selectContact(request: ShowContact.SelectContact.Request)
    func editContact(request: ShowContact.EditContact.Request)
    func completeReference(request: ShowContact.CompleteReference.Request)
    func savePhoto(request: ShowContact.SavePhoto.Request)
}

public protocol ShowContactDataStore: AnyObject {
    /// The contact shown, as last read: passed in by the list, and back from the form.
    var contact: Contact? { get set }
    /// Set by the form's Router after a save: show the contact again when we return.
    var contactWasSaved: Bool { get set }
    /// The contact named by `show CONTACT` or `edit CONTACT`, for the scene that opens it.
    var selectedContact: Contact? { get }
}

public final class ShowContactInteractor: ShowContactBusinessLogic, ShowContactDataStore {
    var presenter: ShowContactPresentationLogic?
    let worker: ShowContactStorageLogic
    let journalWorker: ContactsJournalLogic?
    let files: ContactFilesLogic
    /// Where the contact's groups are found; nil: the detail shows none.
    var groupsWorker: ListContactsGroupsLogic?
    public var contact: Contact?
    public var contactWasSaved = false
    public private(set) var selectedContact: Contact?

    public init(
        worker: ShowContactStorageLogic, journalWorker: ContactsJournalLogic? = nil,
        files: ContactFilesLogic = ContactFilesWorker()
    ) {
        self.worker = worker
        self.journalWorker = journalWorker
        self.files = files
    }

    /// `photo save FILE`: the photo's bytes as the card holds them, into a new file.
    public func savePhoto(request: ShowContact.SavePhoto.Request) {
        guard let current = contact else { return }
        do {
            let name = current.fullName
            guard let photo = ContactPhoto(of: current) else { throw ContactsFailure.badInput("\(name) has no photo") }
            guard let data = photo.data else {
                throw ContactsFailure.badInput("The photo of \(name) is a link, not in the card: \(photo.uri ?? "")")
            }
            guard !request.path.isEmpty else {
                throw ContactsFailure.badInput("Name the file to write: photo save FILE")
            }
            try files.write(data, to: request.path)
            presenter?.presentSavedPhoto(response: .init(contact: current, photo: photo, path: request.path))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    public func showHistory(request: ShowContact.ShowHistory.Request) {
        guard let current = contact else { return }
        do {
            guard let journalWorker else { throw ContactsFailure.badInput("This book keeps no history.") }
            presenter?.presentHistory(
                response: .init(changes: try journalWorker.history(of: current), contact: current))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    public func fetchContact(request: ShowContact.FetchContact.Request) {
        guard let current = contact, let id = current.id else {
            presenter?.presentFailure(.notFound(reference: "(none)"))
            return
        }
        guard request.reload || contactWasSaved else { return }
        contactWasSaved = false
        do {
            let fresh = try worker.contact(id: id)
            contact = fresh
            let groups = try groupsWorker?.groups(of: fresh).map(\.name) ?? []
            presenter?.presentFetchedContact(
                response: .init(contact: fresh, groups: groups, book: worker.bookName(of: fresh)))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    public func selectContact(request: ShowContact.SelectContact.Request) {
        do {
            let found = try worker.resolve(request.reference)
            // A contact of a read-only book: refused before the form opens.
            if request.purpose == .edit { try worker.checkEditable(found) }
            selectedContact = found
            presenter?.presentSelectedContact(response: .init(contact: found, purpose: request.purpose))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    public func editContact(request: ShowContact.EditContact.Request) {
        guard let current = contact else {
            presenter?.presentFailure(.notFound(reference: "(none)"))
            return
        }
        do {
            try worker.checkEditable(current)
            presenter?.presentContactToEdit(response: .init(contact: current))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    public func completeReference(request: ShowContact.CompleteReference.Request) {
        presenter?.presentCompletedReference(
            response: .init(names: worker.names(startingWith: request.prefix, sort: .last)))
    }

    public func deleteContact(request: ShowContact.DeleteContact.Request) {
        guard let current = contact else { return }
        do {
            try worker.delete(current)
            presenter?.presentDeletedContact(response: .init(contact: current))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }
}
