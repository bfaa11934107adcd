import Foundation

public protocol ListContactsBusinessLogic {
    func fetchContacts(request: ListContacts.FetchContacts.Request)
    func selectContact(request: ListContacts.SelectContact.Request)
    func deleteContact(request: ListContacts.DeleteContact.Request)
    func showInsertedContact(request: ListContacts.ShowInsertedContact.Request)
    func importContacts(request: ListContacts.ImportContacts.Request)
    func exportContacts(request: ListContacts.ExportContacts.Request)
    func syncContacts(request: ListContacts.SyncContacts.Request)
    /// Contact names starting with a prefix, for completion.
    func completeReference(request: ListContacts.CompleteReference.Request)
    func undoChange(request: ListContacts.UndoChange.Request)
}

/// The list's data, read and written by Routers passing data between scenes.
public protocol ListContactsDataStore: AnyObject {
    var query: ContactQuery { get }
    /// The contact chosen with `show`, for the detail scene.
    var selectedContact: Contact? { get }
    /// A contact the form added, and where it landed: passed back by the form's Router, shown
    /// when the list is active again.
    var insertedContact: EditContact.AddedContact? { get set }
}

public final class ListContactsInteractor: ListContactsBusinessLogic, ListContactsDataStore {
    var presenter: ListContactsPresentationLogic?
    let worker: ListContactsStorageLogic
    let transferWorker: ContactsTransferLogic
    /// The groups' seam and presenter (`ListContactsInteractor+Groups.swift`); nil: no groups.
    let groupsWorker: ListContactsGroupsLogic?
    var groupsPresenter: ListContactsGroupsPresentationLogic?
    /// The name of the group the listing shows, for its caption.
    private(set) var groupName: String?
    /// The books' seam and presenter (`ListContactsInteractor+Books.swift`); nil: no books.
    let booksWorker: ListContactsBooksLogic?
    var booksPresenter: ListContactsBooksPresentationLogic?
    let journalWorker: ContactsJournalLogic?
    /// Nil for a book that cannot sync (the in-memory store of unit tests).
    let syncWorker: ContactsSyncLogic?
    /// The organisation's directories, searched after the book (`ListContactsInteractor+Directory.swift`);
    /// nil for a store that keeps none (the in-memory one): a search is the book's alone.
    public let directoryWorker: ContactsDirectoryLogic?
    var directoryPresenter: ListContactsDirectoryPresentationLogic?
    let directoryResults = DirectoryResults()

    public private(set) var query: ContactQuery
    public private(set) var selectedContact: Contact?
    public var insertedContact: EditContact.AddedContact?

    /// Every worker is given here, once (a unit test leaves out those it does not use).
    public init(
        worker: ListContactsStorageLogic, transferWorker: ContactsTransferLogic,
        journalWorker: ContactsJournalLogic? = nil, syncWorker: ContactsSyncLogic? = nil,
        groupsWorker: ListContactsGroupsLogic? = nil, booksWorker: ListContactsBooksLogic? = nil,
        directoryWorker: ContactsDirectoryLogic? = nil, pageSize: Int
    ) {
        self.worker = worker
        self.transferWorker = transferWorker
        self.journalWorker = journalWorker
        self.syncWorker = syncWorker
        self.groupsWorker = groupsWorker
        self.booksWorker = booksWorker
        self.directoryWorker = directoryWorker
        query = ContactQuery(search: "", sort: .last, page: 1, limit: pageSize)
    }

    public func fetchContacts(request: ListContacts.FetchContacts.Request) {
        var next = query
        if let search = request.search {
            // Bytes bound characters from above: most searches are never counted.
            let limit = ContactLimits.maximumSearchLength
            guard search.utf8.count <= limit || search.count <= limit else {
                presenter?.presentFailure(
                    .badInput("a search of \(search.count) characters is longer than the \(limit) searched"))
                return
            }
            next.search = search
            next.page = 1
        }
        if let sort = request.sort { next.sort = sort; next.page = 1 }
        var name = groupName
        if let filter = request.filter {
            do {
                (next.group, name) = try resolve(filter)
            } catch {
                presenter?.presentFailure(ContactsFailure(error))
                return
            }
            next.page = 1
        }
        if let book = request.book { next.book = book; next.page = 1 }
        // A group's pages are read from its member index, which knows no books yet: say so rather
        // than list the group's members of every book under a book's name.
        if next.group != nil, let book = next.book {
            presenter?.presentFailure(
                .badInput("list filters by a group or by a book, not both: --book \(book) with a group"))
            return
        }
        if let limit = request.limit { next.limit = min(max(1, limit), ContactLimits.maximumPageSize); next.page = 1 }
        switch request.page {
        case .first?: next.page = 1
        case .next?: next.page += 1
        case .previous?: next.page = max(1, next.page - 1)
        case .number(let number)?: next.page = max(1, number)
        case nil: break
        }
        do {
            // Past the end (e.g. `next` on the last page, or rows deleted meanwhile): the last page,
            // which the store finds in the same read as the total.
            var asked = next
            asked.lastPageWhenPastTheEnd = true
            let page = try worker.page(asked)
            next.page = min(next.page, next.lastPage(total: page.total))
            query = next
            groupName = name
            presenter?.presentFetchedContacts(response: .init(page: page, query: next, groupName: name))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    public func selectContact(request: ListContacts.SelectContact.Request) {
        do {
            let contact = try worker.resolve(request.reference)
            // A contact of a read-only book: refused before the form opens.
            if request.purpose == .edit { try worker.checkEditable(contact) }
            selectedContact = contact
            presenter?.presentSelectedContact(response: .init(contact: contact, purpose: request.purpose))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    public func deleteContact(request: ListContacts.DeleteContact.Request) {
        do {
            let contact = try worker.resolve(request.reference)
            // A prefix matching one contact is a guess: confirmed, or named exactly, or not deleted.
            guard request.confirmed || contact.isNamedExactly(by: request.reference) else {
                presenter?.presentDeleteConfirmation(response: .init(contact: contact, reference: request.reference))
                return
            }
            try worker.delete(contact)
            presenter?.presentDeletedContact(response: .init(contact: contact))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    public func showInsertedContact(request: ListContacts.ShowInsertedContact.Request) {
        guard let inserted = insertedContact else { return }
        insertedContact = nil
        // The list now shows all contacts around the new one: clear the search and the group, go to its page.
        query.search = ""
        query.group = nil
        groupName = nil
        query.page = inserted.position / query.limit + 1
        presenter?.presentInsertedContact(
            response: .init(
                contact: inserted.contact, position: inserted.position, total: inserted.total, query: query))
    }

    public func importContacts(request: ListContacts.ImportContacts.Request) {
        do {
            let report = try transferWorker.importFile(at: request.path, format: request.format)
            presenter?.presentImportedContacts(response: .init(path: request.path, report: report))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    public func syncContacts(request: ListContacts.SyncContacts.Request) {
        guard let syncWorker else {
            presenter?.presentFailure(.badInput("This book cannot sync: it is not kept in a file."))
            return
        }
        do {
            presenter?.presentSyncedContacts(response: .init(results: try syncWorker.sync(name: request.account)))
        } catch SyncAccountsWorker.Failure.unknownAccount(let name) {
            presenter?.presentFailure(.notFound(reference: name))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    /// Exports the whole book, or what the current search shows.
    public func exportContacts(request: ListContacts.ExportContacts.Request) {
        let format = request.format ?? (request.path.lowercased().hasSuffix(".csv") ? .csv : .vcard4)
        let search = request.scope == .search ? query.search : ""
        do {
            let report = try transferWorker.export(
                search: search, format: format, to: request.path, overwrite: request.overwrite)
            presenter?.presentExportedContacts(response: .init(report: report))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    public func completeReference(request: ListContacts.CompleteReference.Request) {
        presenter?.presentCompletions(
            response: .init(names: worker.names(startingWith: request.prefix, sort: query.sort)))
    }

    // MARK: - The journal

    private func journal() throws -> ContactsJournalLogic {
        guard let journalWorker else { throw ContactsFailure.badInput("This book keeps no history.") }
        return journalWorker
    }

    public func undoChange(request: ListContacts.UndoChange.Request) {
        do {
            let change = request.redo ? try journal().redo() : try journal().undo(request.changeSet)
            presenter?.presentUndoneChange(response: .init(change: change, redo: request.redo))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }
}
