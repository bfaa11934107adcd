import XCTest

@testable import ContactsApp

final class ShowContactInteractorTests: XCTestCase {
    var sut: ShowContactInteractor!
    var store: InMemoryContactStore!
    var presenterSpy: ShowContactPresentationLogicSpy!

    override func setUp() {
        super.setUp()
        store = Seeds.book()
        presenterSpy = ShowContactPresentationLogicSpy()
        sut = ShowContactInteractor(worker: Seeds.worker(store))
        sut.presenter = presenterSpy
        sut.contact = Seeds.stored(Seeds.Contacts.ann, id: 1)
    }

    final class ShowContactPresentationLogicSpy: ShowContactPresentationLogic {
        var historyResponses: [ShowContact.ShowHistory.Response] = []
        var savedPhotoResponses: [ShowContact.SavePhoto.Response] = []
        func presentSavedPhoto(response: ShowContact.SavePhoto.Response) { savedPhotoResponses.append(response) }
        func presentHistory(response: ShowContact.ShowHistory.Response) { historyResponses.append(response) }

        var presentContactCalled = false
        var contactResponse: ShowContact.FetchContact.Response?
        var presentDeletedContactCalled = false
        var deletedResponse: ShowContact.DeleteContact.Response?
        var failures: [ContactsFailure] = []

        func presentFetchedContact(response: ShowContact.FetchContact.Response) {
            presentContactCalled = true; contactResponse = response
        }
        func presentDeletedContact(response: ShowContact.DeleteContact.Response) {
            presentDeletedContactCalled = true; deletedResponse = response
        }
        func presentFailure(_ failure: ContactsFailure) { failures.append(failure) }
        var selectedResponses: [ShowContact.SelectContact.Response] = []
        func presentSelectedContact(response: ShowContact.SelectContact.Response) { selectedResponses.append(response) }
        var contactToEditResponses: [ShowContact.EditContact.Response] = []
        func presentContactToEdit(response: ShowContact.EditContact.Response) {
            contactToEditResponses.append(response)
        }
        var completionResponses: [ShowContact.CompleteReference.Response] = []
        func presentCompletedReference(response: ShowContact.CompleteReference.Response) {
            completionResponses.append(response)
        }
    }

    func test_history_asksForThisContactsChanges() {
        // Given
        let journalSpy = ListContactsJournalInteractorTests.ContactsJournalLogicSpy()
        sut = ShowContactInteractor(worker: Seeds.worker(store), journalWorker: journalSpy)
        sut.presenter = presenterSpy
        sut.contact = Seeds.stored(Seeds.Contacts.ann, id: 1)
        // When
        sut.showHistory(request: .init())
        // Then
        XCTAssertEqual(journalSpy.historyContacts, [sut.contact])
        XCTAssertEqual(presenterSpy.historyResponses.map(\.changes), [[journalSpy.change]])
        XCTAssertEqual(presenterSpy.historyResponses.map(\.contact), [sut.contact!])
    }

    func test_fetchContact_reload_readsTheStoredVersion() throws {
        // Given: changed in the store since the list read it
        var changed = try XCTUnwrap(store.contact(id: 1))
        changed.title = "Boss"
        let stored = try store.update(changed)
        // When
        sut.fetchContact(request: .init(reload: true))
        // Then
        XCTAssertTrue(presenterSpy.presentContactCalled)
        XCTAssertEqual(presenterSpy.contactResponse?.contact, stored)
        XCTAssertEqual(sut.contact, stored)
    }

    func test_fetchContact_withoutReload_presentsOnlyAfterASave() {
        // When
        sut.fetchContact(request: .init(reload: false))
        // Then
        XCTAssertFalse(presenterSpy.presentContactCalled)

        // Given
        sut.contactWasSaved = true
        // When
        sut.fetchContact(request: .init(reload: false))
        // Then
        XCTAssertTrue(presenterSpy.presentContactCalled)
        XCTAssertFalse(sut.contactWasSaved)
    }

    func test_fetchContact_deletedMeanwhile_isNotFound() throws {
        // Given
        try store.delete(id: 1, expectedVersion: nil)
        // When
        sut.fetchContact(request: .init(reload: true))
        // Then
        XCTAssertEqual(presenterSpy.failures, [.notFound(reference: "#1")])
    }

    func test_fetchContact_withNoContactPassedIn_isNotFound() {
        // Given
        sut.contact = nil
        // When
        sut.fetchContact(request: .init(reload: true))
        // Then
        XCTAssertEqual(presenterSpy.failures, [.notFound(reference: "(none)")])
    }

    func test_deleteContact_deletesTheVersionShown() throws {
        // When
        sut.deleteContact(request: .init())
        // Then
        XCTAssertTrue(presenterSpy.presentDeletedContactCalled)
        XCTAssertEqual(presenterSpy.deletedResponse?.contact.id, 1)
        XCTAssertNil(try store.contact(id: 1))
    }

    func test_deleteContact_stale_keepsTheContact() throws {
        // Given
        let theirs = try store.update(XCTUnwrap(store.contact(id: 1)))
        // When
        sut.deleteContact(request: .init())
        // Then
        XCTAssertFalse(presenterSpy.presentDeletedContactCalled)
        XCTAssertEqual(presenterSpy.failures, [.stale(current: theirs, yourVersion: 1)])
        XCTAssertNotNil(try store.contact(id: 1))
    }

    // MARK: the Worker seam

    final class ShowContactStorageLogicSpy: ShowContactStorageLogic {
        var readIDs: [Int64] = []
        var deleted: [Contact] = []
        var stored = Seeds.stored(Seeds.Contacts.ann, id: 1)

        func contact(id: Int64) throws -> Contact { readIDs.append(id); return stored }
        func resolve(_ reference: String) throws -> Contact { stored }
        func delete(_ contact: Contact) throws { deleted.append(contact) }
        var namesAsked: [String] = []
        func names(startingWith prefix: String, sort: ContactsApp.SortOrder) -> [String] {
            namesAsked.append(prefix); return ["José Ñúñez"]
        }
    }

    func test_fetchAndDelete_goThroughTheWorker_withTheContactShown() {
        // Given
        let workerSpy = ShowContactStorageLogicSpy()
        sut = ShowContactInteractor(worker: workerSpy)
        sut.presenter = presenterSpy
        sut.contact = Seeds.stored(Seeds.Contacts.ann, id: 1)
        // When
        sut.fetchContact(request: .init(reload: true))
        sut.deleteContact(request: .init())
        // Then
        XCTAssertEqual(workerSpy.readIDs, [1])
        XCTAssertEqual(workerSpy.deleted.map(\.id), [1])
        XCTAssertTrue(presenterSpy.presentDeletedContactCalled)
    }

    func test_selectContact_findsAnotherContact_forShowingOrEditing() {
        // Given
        sut = ShowContactInteractor(worker: Seeds.worker(store))
        sut.presenter = presenterSpy
        sut.contact = Seeds.stored(Seeds.Contacts.ann, id: 1)
        // When
        sut.selectContact(request: .init(reference: "2", purpose: .edit))
        sut.selectContact(request: .init(reference: "nobody"))
        // Then
        XCTAssertEqual(sut.selectedContact?.id, 2)
        XCTAssertEqual(presenterSpy.selectedResponses.map(\.contact.id), [2])
        XCTAssertEqual(presenterSpy.selectedResponses.map(\.purpose), [.edit])
        XCTAssertEqual(presenterSpy.failures, [.notFound(reference: "nobody")])
        XCTAssertEqual(sut.contact?.id, 1)
    }

    func test_editContact_presentsTheContactShown_toEdit() {
        // When
        sut.editContact(request: .init())
        // Then
        XCTAssertEqual(presenterSpy.contactToEditResponses.map(\.contact), [Seeds.stored(Seeds.Contacts.ann, id: 1)])
        XCTAssertTrue(presenterSpy.selectedResponses.isEmpty)
        XCTAssertTrue(presenterSpy.failures.isEmpty)
    }

    func test_editContact_withNoContact_isNotFound() {
        // Given
        sut.contact = nil
        // When
        sut.editContact(request: .init())
        // Then
        XCTAssertTrue(presenterSpy.contactToEditResponses.isEmpty)
        XCTAssertEqual(presenterSpy.failures, [.notFound(reference: "(none)")])
    }

    func test_completeReference_presentsTheWorkersNames() {
        // Given
        let workerSpy = ShowContactStorageLogicSpy()
        sut = ShowContactInteractor(worker: workerSpy)
        sut.presenter = presenterSpy
        // When
        sut.completeReference(request: .init(prefix: "jo"))
        // Then
        XCTAssertEqual(workerSpy.namesAsked, ["jo"])
        XCTAssertEqual(presenterSpy.completionResponses, [.init(names: ["José Ñúñez"])])
    }
}
