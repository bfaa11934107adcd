import SceneCore
import XCTest

@testable import ContactsApp

final class ListContactsRouterTests: XCTestCase {
    var sut: ListContactsRouter!
    var fixture: SceneFactoryFixture!
    var dataStoreSpy: ListContactsDataStoreSpy!

    override func setUp() {
        super.setUp()
        fixture = SceneFactoryFixture()
        dataStoreSpy = ListContactsDataStoreSpy()
        sut = ListContactsRouter(navigator: fixture.navigator, factory: fixture.factory)
        sut.dataStore = dataStoreSpy
    }

    final class ListContactsDataStoreSpy: ListContactsDataStore {
        var query = ContactQuery()
        var selectedContact: Contact? = Seeds.stored(Seeds.Contacts.jose, id: 2)
        var insertedContact: EditContact.AddedContact?
    }

    func test_routeToShowContact_pushesTheDetail_withTheSelectedContact() throws {
        // When
        sut.routeToShowContact()
        // Then
        XCTAssertEqual(fixture.navigator.pushed.count, 1)
        let detail = try XCTUnwrap(fixture.navigator.pushed.first as? ShowContactViewController)
        XCTAssertEqual(detail.router?.dataStore?.contact, Seeds.stored(Seeds.Contacts.jose, id: 2))
    }

    func test_routeToAddContact_pushesAnEmptyAddForm() throws {
        // When
        sut.routeToAddContact()
        // Then
        let form = try XCTUnwrap(fixture.navigator.pushed.first as? EditContactViewController)
        XCTAssertEqual(form.router?.dataStore?.mode, .add)
        XCTAssertEqual(form.router?.dataStore?.draft, EditContact.Draft())
        XCTAssertEqual(form.title, "new contact")
    }

    func test_routeToAddContact_passesTheListsOrder_andReturnsToTheList() throws {
        // Given
        dataStoreSpy.query.sort = .first
        // When
        sut.routeToAddContact()
        // Then: the save can say where the contact lands, and says it to this list
        let form = try XCTUnwrap(fixture.navigator.pushed.first as? EditContactViewController)
        XCTAssertEqual(form.router?.dataStore?.listOrder, .first)
        guard case .list(let origin)? = form.router?.origin else {
            return XCTFail("the form does not return to the list")
        }
        XCTAssertTrue(origin === dataStoreSpy)
    }

    func test_passDataToShowContact_copiesTheSelection() {
        // Given
        var destination: ShowContactDataStore = ShowContactInteractor(worker: Seeds.worker(fixture.store))
        // When
        sut.passDataToShowContact(source: dataStoreSpy, destination: &destination)
        // Then
        XCTAssertEqual(destination.contact?.id, 2)
    }

    func test_routeToEditContact_pushesTheSelectedContactsDetail_thenItsForm() throws {
        // When
        sut.routeToEditContact()
        // Then
        XCTAssertEqual(fixture.navigator.pushed.count, 2)
        let detail = try XCTUnwrap(fixture.navigator.pushed.first as? ShowContactViewController)
        XCTAssertEqual(detail.router?.dataStore?.contact, Seeds.stored(Seeds.Contacts.jose, id: 2))
        let form = try XCTUnwrap(fixture.navigator.pushed.last as? EditContactViewController)
        XCTAssertEqual(form.router?.dataStore?.mode, .edit(Seeds.stored(Seeds.Contacts.jose, id: 2)))
        // and a save goes back to that detail
        guard case .contact(let origin)? = form.router?.origin else {
            return XCTFail("the form does not return to the detail")
        }
        XCTAssertTrue(origin === detail.router?.dataStore)
    }

    func test_routeToEditContact_withoutASelection_pushesNothing() {
        // Given
        dataStoreSpy.selectedContact = nil
        // When
        sut.routeToEditContact()
        // Then
        XCTAssertTrue(fixture.navigator.pushed.isEmpty)
    }

    func test_routeToTheTools_showsEachSceneInTheListsPlace_builtOnce() throws {
        // When: each tool twice, in the in-memory book (Ann Lee and 3 others; no journal)
        sut.routeToDuplicates(.duplicates, ActionCall(ListContacts.Action.duplicates))
        let duplicates = try XCTUnwrap(sut.duplicates)
        sut.routeToDuplicates(.duplicates, ActionCall(ListContacts.Action.duplicates))
        sut.routeToBirthdays(.birthdays, ActionCall(ListContacts.Action.birthdays, ["days": .integer(366)]))
        sut.routeToHistory(.history, ActionCall(ListContacts.Action.history))
        sut.routeToTrash(.trash, ActionCall(ListContacts.Action.trash))
        let trash = try XCTUnwrap(sut.trash)
        sut.routeToTrash(.restore, ActionCall(ListContacts.Action.restore, ["contact": .string("#9")]))
        // Then: nothing pushed; each scene kept and displaying through the list's output
        XCTAssertTrue(fixture.navigator.pushed.isEmpty)
        XCTAssertTrue(sut.duplicates === duplicates)
        XCTAssertTrue(sut.trash === trash)
        XCTAssertTrue(sut.birthdays is BirthdaysViewController)
        XCTAssertTrue(sut.history is HistoryViewController)
        let kinds = fixture.display.displayed.map { type(of: $0).kind }
        XCTAssertEqual(
            kinds, ["duplicateGroups", "duplicateGroups", "upcomingBirthdays", "message", "message", "message"])
        XCTAssertEqual(
            fixture.display.displayed.compactMap { ($0 as? Message)?.text },
            Array(repeating: "This book keeps no history.", count: 3))
    }
}
