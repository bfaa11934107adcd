import XCTest

@testable import ContactsApp

final class ListContactsInteractorTests: XCTestCase {
    var sut: ListContactsInteractor!
    var store: InMemoryContactStore!
    var presenterSpy: ListContactsPresentationLogicSpy!

    override func setUp() {
        super.setUp()
        store = Seeds.book()
        presenterSpy = ListContactsPresentationLogicSpy()
        sut = ListContactsInteractor(
            worker: Seeds.worker(store), transferWorker: Seeds.transferWorker(store), pageSize: 2)
        sut.presenter = presenterSpy
    }

    final class ListContactsPresentationLogicSpy: ListContactsPresentationLogic {
        var undoneResponses: [ListContacts.UndoChange.Response] = []
        func presentUndoneChange(response: ListContacts.UndoChange.Response) { undoneResponses.append(response) }

        var presentFetchedContactsCalled = false
        var fetchedResponse: ListContacts.FetchContacts.Response?
        var presentSelectedContactCalled = false
        var selectedResponse: ListContacts.SelectContact.Response?
        var presentDeletedContactCalled = false
        var deletedResponse: ListContacts.DeleteContact.Response?
        var presentInsertedContactCalled = false
        var insertedResponse: ListContacts.ShowInsertedContact.Response?
        var failures: [ContactsFailure] = []

        func presentFetchedContacts(response: ListContacts.FetchContacts.Response) {
            presentFetchedContactsCalled = true; fetchedResponse = response
        }
        func presentSelectedContact(response: ListContacts.SelectContact.Response) {
            presentSelectedContactCalled = true; selectedResponse = response
        }
        func presentDeletedContact(response: ListContacts.DeleteContact.Response) {
            presentDeletedContactCalled = true; deletedResponse = response
        }
        var confirmationResponses: [ListContacts.DeleteContact.ConfirmationResponse] = []
        func presentDeleteConfirmation(response: ListContacts.DeleteContact.ConfirmationResponse) {
            confirmationResponses.append(response)
        }
        func presentInsertedContact(response: ListContacts.ShowInsertedContact.Response) {
            presentInsertedContactCalled = true; insertedResponse = response
        }
        var importedResponses: [ListContacts.ImportContacts.Response] = []
        var exportedResponses: [ListContacts.ExportContacts.Response] = []
        func presentImportedContacts(response: ListContacts.ImportContacts.Response) {
            importedResponses.append(response)
        }
        func presentExportedContacts(response: ListContacts.ExportContacts.Response) {
            exportedResponses.append(response)
        }
        var completionResponses: [ListContacts.CompleteReference.Response] = []
        func presentCompletions(response: ListContacts.CompleteReference.Response) {
            completionResponses.append(response)
        }
        func presentFailure(_ failure: ContactsFailure) { failures.append(failure) }
        var syncedResponses: [ListContacts.SyncContacts.Response] = []
        func presentSyncedContacts(response: ListContacts.SyncContacts.Response) { syncedResponses.append(response) }
    }

    final class ContactsSyncLogicSpy: ContactsSyncLogic {
        var names: [String?] = []
        var answer: [Result<SyncSummary, SyncAccountsWorker.Failure>] = []
        var failure: Error?
        func sync(name: String?) throws -> [Result<SyncSummary, SyncAccountsWorker.Failure>] {
            names.append(name)
            if let failure { throw failure }
            return answer
        }
    }

    typealias Fetch = ListContacts.FetchContacts.Request

    // MARK: fetchContacts

    func test_fetchContacts_asksTheWorkerForTheFirstPage_andPresentsIt() {
        // When
        sut.fetchContacts(request: Fetch())
        // Then
        XCTAssertTrue(presenterSpy.presentFetchedContactsCalled)
        XCTAssertEqual(presenterSpy.fetchedResponse?.page.contacts.map(\.id), [4, 1])
        XCTAssertEqual(presenterSpy.fetchedResponse?.page.total, 4)
        XCTAssertEqual(presenterSpy.fetchedResponse?.query, ContactQuery(search: "", sort: .last, page: 1, limit: 2))
        XCTAssertEqual(sut.query, ContactQuery(search: "", sort: .last, page: 1, limit: 2))
    }

    func test_fetchContacts_nextAndPrevious_moveThroughPages_withinBounds() {
        // When
        sut.fetchContacts(request: Fetch(page: .next))
        // Then
        XCTAssertEqual(presenterSpy.fetchedResponse?.page.contacts.map(\.id), [2, 3])
        XCTAssertEqual(sut.query.page, 2)

        // When: past the last page
        sut.fetchContacts(request: Fetch(page: .next))
        // Then: the last page
        XCTAssertEqual(sut.query.page, 2)
        XCTAssertEqual(presenterSpy.fetchedResponse?.page.contacts.map(\.id), [2, 3])

        // When
        sut.fetchContacts(request: Fetch(page: .previous))
        sut.fetchContacts(request: Fetch(page: .previous))
        // Then: never before the first
        XCTAssertEqual(sut.query.page, 1)
        XCTAssertTrue(presenterSpy.failures.isEmpty)
    }

    func test_fetchContacts_aPageNumberPastTheEnd_showsTheLastPage() {
        // When
        sut.fetchContacts(request: Fetch(page: .number(99)))
        // Then
        XCTAssertEqual(presenterSpy.fetchedResponse?.query.page, 2)
    }

    /// The real worker, counting the pages read from the store.
    final class PageCountingWorker: ListContactsStorageLogic {
        let worker: ContactsWorker
        var pagesRead: [ContactQuery] = []
        init(_ worker: ContactsWorker) { self.worker = worker }
        func page(_ query: ContactQuery) throws -> ContactPage {
            pagesRead.append(query); return try worker.page(query)
        }
        func contact(id: Int64) throws -> Contact { try worker.contact(id: id) }
        func resolve(_ reference: String) throws -> Contact { try worker.resolve(reference) }
        func delete(_ contact: Contact) throws { try worker.delete(contact) }
        func position(of id: Int64, sort: ContactsApp.SortOrder) throws -> Int {
            try worker.position(of: id, sort: sort)
        }
        func names(startingWith prefix: String, sort: ContactsApp.SortOrder) -> [String] {
            worker.names(startingWith: prefix, sort: sort)
        }
    }

    func test_fetchContacts_pastTheEnd_readsOnePage_theLast() {
        // Given: 4 contacts, 2 a page, on the last page
        let counting = PageCountingWorker(Seeds.worker(store))
        sut = ListContactsInteractor(worker: counting, transferWorker: Seeds.transferWorker(store), pageSize: 2)
        sut.presenter = presenterSpy
        sut.fetchContacts(request: Fetch(page: .number(2)))
        counting.pagesRead = []
        // When: next on the last page, then a page number past the end
        sut.fetchContacts(request: Fetch(page: .next))
        sut.fetchContacts(request: Fetch(page: .number(99)))
        // Then: one read each, and each shows the last page
        XCTAssertEqual(counting.pagesRead.map(\.page), [3, 99])
        XCTAssertEqual(counting.pagesRead.map(\.lastPageWhenPastTheEnd), [true, true])
        XCTAssertEqual(presenterSpy.fetchedResponse?.page.contacts.map(\.id), [2, 3])
        XCTAssertEqual(presenterSpy.fetchedResponse?.query.page, 2)
        XCTAssertEqual(sut.query.page, 2)
    }

    func test_fetchContacts_searchSortOrLimit_restartAtPageOne() {
        // Given
        sut.fetchContacts(request: Fetch(page: .number(2)))
        // When
        sut.fetchContacts(request: Fetch(search: "a"))
        // Then
        XCTAssertEqual(presenterSpy.fetchedResponse?.query, ContactQuery(search: "a", sort: .last, page: 1, limit: 2))
        XCTAssertEqual(presenterSpy.fetchedResponse?.page.contacts.map(\.id), [4, 1])

        // When: the search is kept, the order changed
        sut.fetchContacts(request: Fetch(page: .number(2)))
        sut.fetchContacts(request: Fetch(sort: .first))
        // Then
        XCTAssertEqual(presenterSpy.fetchedResponse?.query, ContactQuery(search: "a", sort: .first, page: 1, limit: 2))
        XCTAssertEqual(presenterSpy.fetchedResponse?.page.contacts.map(\.id), [4, 1])
    }

    func test_fetchContacts_aSearchOverTheLengthLimit_isRefused_andTheListStaysAsItWas() {
        // Given
        sut.fetchContacts(request: Fetch(search: "a"))
        let longest = String(repeating: "é", count: ContactLimits.maximumSearchLength)
        // When
        sut.fetchContacts(request: Fetch(search: longest + "é"))
        // Then
        XCTAssertEqual(
            presenterSpy.failures, [.badInput("a search of 1001 characters is longer than the 1000 searched")])
        XCTAssertEqual(sut.query, ContactQuery(search: "a", sort: .last, page: 1, limit: 2))
        // When: a search at the limit
        sut.fetchContacts(request: Fetch(search: longest))
        // Then
        XCTAssertEqual(presenterSpy.failures.count, 1)
        XCTAssertEqual(presenterSpy.fetchedResponse?.query.search, longest)
    }

    func test_fetchContacts_clampsTheLimit() {
        // When
        sut.fetchContacts(request: Fetch(limit: 10_000))
        // Then
        XCTAssertEqual(sut.query.limit, 500)
        // When
        sut.fetchContacts(request: Fetch(limit: 0))
        // Then
        XCTAssertEqual(sut.query.limit, 1)
    }

    func test_fetchContacts_storageFailure_isPresented_andTheQueryKept() {
        // Given
        sut = ListContactsInteractor(
            worker: Seeds.worker(FailingContactStore()), transferWorker: Seeds.transferWorker(FailingContactStore()),
            pageSize: 2)
        sut.presenter = presenterSpy
        // When
        sut.fetchContacts(request: Fetch(search: "x"))
        // Then
        XCTAssertFalse(presenterSpy.presentFetchedContactsCalled)
        XCTAssertEqual(presenterSpy.failures, [.storage("disk on fire")])
        XCTAssertEqual(sut.query.search, "")
    }

    // MARK: selectContact

    func test_selectContact_keepsTheContactForTheDetail_andPresentsIt() {
        // When
        sut.selectContact(request: .init(reference: "jose"))
        // Then
        XCTAssertTrue(presenterSpy.presentSelectedContactCalled)
        XCTAssertEqual(presenterSpy.selectedResponse?.contact, Seeds.stored(Seeds.Contacts.jose, id: 2))
        XCTAssertEqual(sut.selectedContact, Seeds.stored(Seeds.Contacts.jose, id: 2))
    }

    func test_selectContact_unknown_presentsNotFound() {
        // When
        sut.selectContact(request: .init(reference: "#9"))
        // Then
        XCTAssertFalse(presenterSpy.presentSelectedContactCalled)
        XCTAssertNil(sut.selectedContact)
        XCTAssertEqual(presenterSpy.failures, [.notFound(reference: "#9")])
    }

    // MARK: deleteContact

    func test_deleteContact_deletesFromTheStore_andPresentsWhom() throws {
        // When
        sut.deleteContact(request: .init(reference: "1"))
        // Then
        XCTAssertTrue(presenterSpy.presentDeletedContactCalled)
        XCTAssertEqual(presenterSpy.deletedResponse?.contact.id, 1)
        XCTAssertNil(try store.contact(id: 1))
    }

    func test_deleteContact_byPartOfAName_asksFirst_andDeletesNothing() throws {
        // When: "jo" matches José Ñúñez alone
        sut.deleteContact(request: .init(reference: "jo"))
        // Then
        XCTAssertFalse(presenterSpy.presentDeletedContactCalled)
        XCTAssertEqual(presenterSpy.confirmationResponses.map(\.contact.id), [2])
        XCTAssertEqual(presenterSpy.confirmationResponses.map(\.reference), ["jo"])
        XCTAssertNotNil(try store.contact(id: 2))
    }

    func test_deleteContact_byPartOfAName_confirmed_deletes() throws {
        // When
        sut.deleteContact(request: .init(reference: "jo", confirmed: true))
        // Then
        XCTAssertEqual(presenterSpy.deletedResponse?.contact.id, 2)
        XCTAssertTrue(presenterSpy.confirmationResponses.isEmpty)
        XCTAssertNil(try store.contact(id: 2))
    }

    func test_deleteContact_namedExactly_byFullNameOrUID_deletesAtOnce() throws {
        // When: the full name, in any case and without accents; then a UID
        sut.deleteContact(request: .init(reference: "jose nunez"))
        let ann = try XCTUnwrap(store.contact(id: 1))
        sut.deleteContact(request: .init(reference: ann.uid))
        // Then
        XCTAssertTrue(presenterSpy.confirmationResponses.isEmpty)
        XCTAssertNil(try store.contact(id: 2))
        XCTAssertNil(try store.contact(id: 1))
    }

    func test_deleteContact_ambiguous_deletesNothing() throws {
        // When
        sut.deleteContact(request: .init(reference: "a"))
        // Then
        XCTAssertFalse(presenterSpy.presentDeletedContactCalled)
        XCTAssertEqual(presenterSpy.failures.count, 1)
        XCTAssertEqual(try store.page(ContactQuery()).total, 4)
    }

    // MARK: showInsertedContact

    func test_showInsertedContact_presentsItsPlaceAndPage_thenForgetsIt() throws {
        // Given: a search was active, and the form added Zed Zulu, who landed 4th of 5 (on page 2)
        sut.fetchContacts(request: Fetch(search: "lee"))
        let added = try store.insert(Contact(uid: "u", givenName: "Zed", familyName: "Zulu"))
        sut.insertedContact = .init(contact: added, position: 3, total: 5)
        // When
        sut.showInsertedContact(request: .init())
        // Then
        XCTAssertTrue(presenterSpy.presentInsertedContactCalled)
        XCTAssertEqual(presenterSpy.insertedResponse?.contact, added)
        XCTAssertEqual(presenterSpy.insertedResponse?.position, 3)
        XCTAssertEqual(presenterSpy.insertedResponse?.total, 5)
        XCTAssertEqual(presenterSpy.insertedResponse?.query, ContactQuery(search: "", sort: .last, page: 2, limit: 2))
        XCTAssertNil(sut.insertedContact)
    }

    func test_showInsertedContact_withNothingInserted_presentsNothing() {
        // When
        sut.showInsertedContact(request: .init())
        // Then
        XCTAssertFalse(presenterSpy.presentInsertedContactCalled)
        XCTAssertTrue(presenterSpy.failures.isEmpty)
    }

    // MARK: completeReference

    func test_completeReference_presentsNamesStartingWithThePrefix() {
        // When
        sut.completeReference(request: .init(prefix: "jo"))
        sut.completeReference(request: .init(prefix: "a"))
        sut.completeReference(request: .init(prefix: "1"))
        // Then
        XCTAssertEqual(
            presenterSpy.completionResponses,
            [
                .init(names: ["José Ñúñez"]), .init(names: ["Acme Inc.", "Ann Lee"]),
                .init(names: []),
            ])
    }

    func test_completeReference_anyWordOfTheName_namesStartingWithItFirst() {
        // Given: Lena Ortiz, whose name starts with "le", after Ann Lee in the list's order
        _ = try? store.insert(Contact(uid: "uid-lena", givenName: "Lena", familyName: "Ortiz"))
        // When
        for prefix in ["le", "山", "nunez", "inc", "example"] { sut.completeReference(request: .init(prefix: prefix)) }
        // Then: and a contact found by its email only is no name to complete
        XCTAssertEqual(
            presenterSpy.completionResponses.map(\.names),
            [["Lena Ortiz", "Ann Lee"], ["太郎 山田"], ["José Ñúñez"], ["Acme Inc."], []])
    }

    func test_completeReference_withNothingTyped_offersTheListsFirstNamesInOrder() {
        // When
        sut.completeReference(request: .init(prefix: " "))
        // Then
        XCTAssertEqual(
            presenterSpy.completionResponses.first?.names,
            [Seeds.Contacts.acme, Seeds.Contacts.ann, Seeds.Contacts.jose, Seeds.Contacts.taro].map(\.fullName))
    }

    // MARK: the Worker seam

    final class ListContactsStorageLogicSpy: ListContactsStorageLogic {
        var resolved: [String] = []
        var deleted: [Contact] = []
        var resolveResult: Result<Contact, ContactsFailure> = .success(Seeds.stored(Seeds.Contacts.ann, id: 1))

        func page(_ query: ContactQuery) throws -> ContactPage { ContactPage(contacts: [], total: 0) }
        func contact(id: Int64) throws -> Contact { throw ContactsFailure.notFound(reference: "#\(id)") }
        func resolve(_ reference: String) throws -> Contact {
            resolved.append(reference); return try resolveResult.get()
        }
        func delete(_ contact: Contact) throws { deleted.append(contact) }
        func position(of id: Int64, sort: ContactsApp.SortOrder) throws -> Int { 0 }
        func names(startingWith prefix: String, sort: ContactsApp.SortOrder) -> [String] { [] }
    }

    func test_deleteContact_deletesWhatTheWorkerResolved() {
        // Given
        let workerSpy = ListContactsStorageLogicSpy()
        sut = ListContactsInteractor(worker: workerSpy, transferWorker: Seeds.transferWorker(store), pageSize: 2)
        sut.presenter = presenterSpy
        // When
        sut.deleteContact(request: .init(reference: "ann lee"))
        // Then
        XCTAssertEqual(workerSpy.resolved, ["ann lee"])
        XCTAssertEqual(workerSpy.deleted, [Seeds.stored(Seeds.Contacts.ann, id: 1)])
        XCTAssertEqual(presenterSpy.deletedResponse?.contact, Seeds.stored(Seeds.Contacts.ann, id: 1))
    }

    func test_deleteContact_whenTheWorkerCannotResolve_deletesNothing_andPresentsWhy() {
        // Given
        let workerSpy = ListContactsStorageLogicSpy()
        workerSpy.resolveResult = .failure(.notFound(reference: "zed"))
        sut = ListContactsInteractor(worker: workerSpy, transferWorker: Seeds.transferWorker(store), pageSize: 2)
        sut.presenter = presenterSpy
        // When
        sut.deleteContact(request: .init(reference: "zed"))
        // Then
        XCTAssertTrue(workerSpy.deleted.isEmpty)
        XCTAssertEqual(presenterSpy.failures, [.notFound(reference: "zed")])
    }

    // MARK: syncContacts

    func test_syncContacts_asksTheSyncWorker_andPresentsEachAccountsResult() {
        // Given
        let syncSpy = ContactsSyncLogicSpy()
        syncSpy.answer = [
            .success(SyncSummary(account: "home")), .failure(.server(account: "work", .network("refused"))),
        ]
        sut = ListContactsInteractor(
            worker: Seeds.worker(store), transferWorker: Seeds.transferWorker(store),
            syncWorker: syncSpy, pageSize: 2)
        sut.presenter = presenterSpy
        // When
        sut.syncContacts(request: .init(account: "home"))
        // Then
        XCTAssertEqual(syncSpy.names, ["home"])
        XCTAssertEqual(presenterSpy.syncedResponses.count, 1)
        XCTAssertEqual(presenterSpy.syncedResponses.first?.results.count, 2)
    }

    func test_syncContacts_unknownAccount_presentsNotFound() {
        let syncSpy = ContactsSyncLogicSpy()
        syncSpy.failure = SyncAccountsWorker.Failure.unknownAccount("nope")
        sut = ListContactsInteractor(
            worker: Seeds.worker(store), transferWorker: Seeds.transferWorker(store),
            syncWorker: syncSpy, pageSize: 2)
        sut.presenter = presenterSpy
        sut.syncContacts(request: .init(account: "nope"))
        XCTAssertEqual(presenterSpy.failures, [.notFound(reference: "nope")])
    }

    func test_syncContacts_aBookThatCannotSync_saysSo() {
        sut.syncContacts(request: .init(account: nil))
        XCTAssertEqual(presenterSpy.failures, [.badInput("This book cannot sync: it is not kept in a file.")])
        XCTAssertTrue(presenterSpy.syncedResponses.isEmpty)
    }
}
