import SceneCore
import XCTest

@testable import ContactsApp

/// The list's books (`books`, `move`) through the Interactor and the Presenter alone.
final class ListContactsBooksInteractorTests: XCTestCase {
    var sut: ListContactsInteractor!
    var workerSpy: ListContactsBooksLogicSpy!
    var booksPresenterSpy: ListContactsBooksPresentationLogicSpy!
    var presenterSpy: ListContactsInteractorTests.ListContactsPresentationLogicSpy!

    override func setUpWithError() throws {
        try super.setUpWithError()
        let store = InMemoryContactStore()
        workerSpy = ListContactsBooksLogicSpy()
        sut = ListContactsInteractor(
            worker: Seeds.worker(store), transferWorker: Seeds.transferWorker(store),
            booksWorker: workerSpy, pageSize: 2)
        booksPresenterSpy = ListContactsBooksPresentationLogicSpy()
        presenterSpy = ListContactsInteractorTests.ListContactsPresentationLogicSpy()
        sut.booksPresenter = booksPresenterSpy
        sut.presenter = presenterSpy
    }

    final class ListContactsBooksLogicSpy: ListContactsBooksLogic {
        var books: [AddressBook] = []
        var failure: ContactsFailure?
        private(set) var moves: [(references: [String], book: String)] = []
        func addressBooks() throws -> [AddressBook] { books }
        func move(_ references: [String], to book: String) throws -> MovedContacts {
            moves.append((references, book))
            if let failure { throw failure }
            return MovedContacts(
                contacts: [Seeds.stored(Seeds.Contacts.ann, id: 1)], book: AddressBook(name: book, account: "home"),
                leavingServers: 1)
        }
    }

    final class ListContactsBooksPresentationLogicSpy: ListContactsBooksPresentationLogic {
        private(set) var books: [ListContacts.ShowBooks.Response] = []
        private(set) var moved: [ListContacts.MoveContacts.Response] = []
        func presentBooks(response: ListContacts.ShowBooks.Response) { books.append(response) }
        func presentMovedContacts(response: ListContacts.MoveContacts.Response) { moved.append(response) }
    }

    func test_showBooks_presentsTheWorkersBooks() {
        // Given
        workerSpy.books = [AddressBook(name: "local", isDefault: true, count: 2)]
        // When
        sut.showBooks(request: .init())
        // Then
        XCTAssertEqual(booksPresenterSpy.books.map(\.books), [workerSpy.books])
    }

    func test_fetchContacts_aBookWithAGroupFilter_isRefused_andTheListingKept() {
        // Given a listing of contacts in no group
        sut.fetchContacts(request: .init(page: .number(1), search: "", filter: .init(ungrouped: true)))
        XCTAssertEqual(presenterSpy.fetchedResponse?.query.group, .ungrouped)
        presenterSpy.fetchedResponse = nil
        // When a book is asked beside it (group pages read the member index, which knows no books)
        var request = ListContacts.FetchContacts.Request(page: .number(1))
        request.book = .some("work")
        sut.fetchContacts(request: request)
        // Then
        XCTAssertEqual(
            presenterSpy.failures,
            [.badInput("list filters by a group or by a book, not both: --book work with a group")])
        XCTAssertNil(presenterSpy.fetchedResponse)
        XCTAssertNil(sut.query.book)
        XCTAssertEqual(sut.query.group, .ungrouped)
    }

    func test_moveContacts_withoutABook_isRefusedBeforeTheWorker() {
        // When
        sut.moveContacts(request: .init(references: ["3"], book: ""))
        // Then
        XCTAssertTrue(workerSpy.moves.isEmpty)
        XCTAssertEqual(presenterSpy.failures, [.badInput("name the contacts, then the book: move 3 7 work")])
    }

    func test_moveContacts_aReadOnlyBook_presentsTheRefusal() {
        // Given
        workerSpy.failure = .readOnly(book: "team", byServer: true, contact: "#1 Ann Lee")
        // When
        sut.moveContacts(request: .init(references: ["1"], book: "work"))
        // Then
        XCTAssertEqual(workerSpy.moves.map(\.book), ["work"])
        XCTAssertEqual(presenterSpy.failures, [.readOnly(book: "team", byServer: true, contact: "#1 Ann Lee")])
        XCTAssertTrue(booksPresenterSpy.moved.isEmpty)
    }

    func test_withoutBooks_booksAndMoveSaySo_ratherThanDoNothing() {
        // Given: an Interactor built without the books' worker
        let store = InMemoryContactStore()
        sut = ListContactsInteractor(
            worker: Seeds.worker(store), transferWorker: Seeds.transferWorker(store), pageSize: 2)
        sut.booksPresenter = booksPresenterSpy
        sut.presenter = presenterSpy
        // When
        sut.showBooks(request: .init())
        sut.moveContacts(request: .init(references: ["1"], book: "work"))
        // Then
        XCTAssertEqual(presenterSpy.failures, Array(repeating: .badInput("this book keeps no address books"), count: 2))
    }
}

final class ListContactsBooksPresenterTests: XCTestCase {
    var sut: ListContactsPresenter!
    var viewControllerSpy: ListContactsBooksDisplayLogicSpy!

    override func setUp() {
        super.setUp()
        viewControllerSpy = ListContactsBooksDisplayLogicSpy()
        sut = ListContactsPresenter(formatter: Seeds.formatter)
        sut.booksViewController = viewControllerSpy
    }

    final class ListContactsBooksDisplayLogicSpy: ListContactsBooksDisplayLogic {
        private(set) var books: [ListContacts.ShowBooks.ViewModel] = []
        private(set) var moved: [ListContacts.MoveContacts.ViewModel] = []
        func displayBooks(viewModel: ListContacts.ShowBooks.ViewModel) { books.append(viewModel) }
        func displayMovedContacts(viewModel: ListContacts.MoveContacts.ViewModel) { moved.append(viewModel) }
    }

    func test_presentBooks_eachWithItsAccountCountAndRights() {
        // When
        sut.presentBooks(
            response: .init(books: [
                AddressBook(name: "local", count: 1),
                AddressBook(name: "book", account: "home", url: "http://h/book/", isDefault: true, count: 3),
                AddressBook(name: "team", account: "home", url: "http://h/team/", serverReadOnly: true, count: 40),
                AddressBook(name: "old", account: "home", url: "http://h/old/", markedReadOnly: true),
            ]))
        // Then
        let viewModel = viewControllerSpy.books[0]
        XCTAssertEqual(viewModel.books.map(\.readOnly), [nil, nil, "server", "marked"])
        XCTAssertEqual(
            TextRenderer().lines(for: viewModel.layout),
            [
                "Book   Account      Contacts",
                "local  (this file)         1",
                "book   home                3  default",
                "team   home               40  read-only (server)",
                "old    home                0  read-only",
                "4 books; new contacts go to book",
            ])
    }

    func test_presentMovedContacts_saysWhenTheServersFollow() {
        // When
        sut.presentMovedContacts(
            response: .init(
                moved: MovedContacts(
                    contacts: [Seeds.stored(Seeds.Contacts.ann, id: 1), Seeds.stored(Seeds.Contacts.jose, id: 2)],
                    book: AddressBook(name: "local", isDefault: true), leavingServers: 0)))
        sut.presentMovedContacts(
            response: .init(
                moved: MovedContacts(
                    contacts: [Seeds.stored(Seeds.Contacts.ann, id: 1)],
                    book: AddressBook(name: "team", account: "home"),
                    leavingServers: 1)))
        // Then
        XCTAssertEqual(
            viewControllerSpy.moved,
            [
                .init(ids: [1, 2], book: "local", text: "Moved Ann Lee and 1 more to local"),
                .init(
                    ids: [1], book: "team",
                    text: "Moved Ann Lee to team (on the servers at the next sync: the new book gets "
                        + "the card first, then the old one loses it)"),
            ])
    }

    func test_fetchedRows_showABookColumn_onlyWhenTheWorkerNamedBooks() {
        // Given
        let viewController = ListContactsInteractorTests.ListContactsDisplayLogicSpyForBooks()
        sut.viewController = viewController
        let ann = Seeds.stored(Seeds.Contacts.ann, id: 1)
        var page = ContactPage(contacts: [ann], total: 1)
        // When
        sut.presentFetchedContacts(response: .init(page: page, query: ContactQuery(limit: 20)))
        page.books = [1: "team"]
        sut.presentFetchedContacts(response: .init(page: page, query: ContactQuery(limit: 20, book: "team")))
        // Then
        XCTAssertEqual(viewController.fetched.map { $0.rows.map(\.book) }, [[nil], ["team"]])
        XCTAssertFalse(TextRenderer().lines(for: viewController.fetched[0].layout)[0].contains("Book"))
        XCTAssertTrue(TextRenderer().lines(for: viewController.fetched[1].layout)[0].contains("Book"))
        XCTAssertEqual(viewController.fetched[1].caption, "Page 1 of 1 · 1 contact · in book team · by last name")
    }
}

extension ListContactsInteractorTests {
    final class ListContactsDisplayLogicSpyForBooks: ListContactsDisplayLogic {
        private(set) var fetched: [ListContacts.FetchContacts.ViewModel] = []
        func displayFetchedContacts(viewModel: ListContacts.FetchContacts.ViewModel) { fetched.append(viewModel) }
        func displaySelectedContact(viewModel: ListContacts.SelectContact.ViewModel) {}
        func displayInsertedContact(viewModel: ListContacts.ShowInsertedContact.ViewModel) {}
        func displayExportedContacts(viewModel: ListContacts.ExportContacts.ViewModel) {}
        func displayCompletions(viewModel: ListContacts.CompleteReference.ViewModel) {}
        func displayDeleteConfirmation(viewModel: ListContacts.DeleteContact.ConfirmationViewModel) {}
        func displaySyncedContacts(viewModel: ListContacts.SyncContacts.ViewModel) {}
        func displayDeletedContact(viewModel: ListContacts.DeleteContact.ViewModel) {}
        func displayImportedContacts(viewModel: ListContacts.ImportContacts.ViewModel) {}
        func displayUndoneChange(viewModel: ListContacts.UndoChange.ViewModel) {}
        func displayExportedFile(viewModel: ListContacts.ExportContacts.FileViewModel) {}
        func displayMessage(_ message: Message) {}
    }
}
