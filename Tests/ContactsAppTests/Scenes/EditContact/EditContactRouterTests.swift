import SceneCore
import XCTest

@testable import ContactsApp

final class EditContactRouterTests: XCTestCase {
    var sut: EditContactRouter!
    var fixture: SceneFactoryFixture!
    var dataStoreSpy: EditContactDataStoreSpy!

    override func setUp() {
        super.setUp()
        fixture = SceneFactoryFixture()
        dataStoreSpy = EditContactDataStoreSpy()
        sut = EditContactRouter(navigator: fixture.navigator)
        sut.dataStore = dataStoreSpy
    }

    final class EditContactDataStoreSpy: EditContactDataStore {
        var mode = EditContact.Mode.add
        var listOrder: ContactsApp.SortOrder?
        var draft = EditContact.Draft()
        var savedContact: Contact? = Seeds.stored(Seeds.Contacts.taro, id: 3)
        var addedContact: EditContact.AddedContact? = .init(
            contact: Seeds.stored(Seeds.Contacts.taro, id: 3), position: 3, total: 4)
        var changes: [String] = []
    }

    func test_routeAfterSave_toTheList_passesTheAddedContact_andPops() throws {
        // Given: opened by the list
        let list = ListContactsConfigurator.configure(context: fixture.context, factory: fixture.factory)
        let listDS = try XCTUnwrap(list.router?.dataStore)
        sut.origin = .list(listDS)
        // When
        sut.routeAfterSave()
        // Then
        XCTAssertEqual(listDS.insertedContact?.contact.id, 3)
        XCTAssertEqual(listDS.insertedContact?.position, 3)
        XCTAssertEqual(listDS.insertedContact?.total, 4)
        XCTAssertEqual(fixture.navigator.popCalled, 1)
    }

    func test_routeAfterSave_toTheDetail_passesTheSavedContact_andPops() throws {
        // Given: opened by a contact's detail
        let list = ListContactsConfigurator.configure(context: fixture.context, factory: fixture.factory)
        let detail = ShowContactConfigurator.configure(context: fixture.context, factory: fixture.factory)
        detail.router?.dataStore?.contact = Seeds.stored(Seeds.Contacts.ann, id: 1)
        sut.origin = .contact(try XCTUnwrap(detail.router?.dataStore))
        // When
        sut.routeAfterSave()
        // Then
        XCTAssertEqual(detail.router?.dataStore?.contact, Seeds.stored(Seeds.Contacts.taro, id: 3))
        XCTAssertEqual(detail.router?.dataStore?.contactWasSaved, true)
        XCTAssertNil(list.router?.dataStore?.insertedContact)
        XCTAssertEqual(fixture.navigator.popCalled, 1)
    }

    func test_routeAfterCancel_popsWithoutPassingData() throws {
        // Given
        let list = ListContactsConfigurator.configure(context: fixture.context, factory: fixture.factory)
        sut.origin = .list(try XCTUnwrap(list.router?.dataStore))
        // When
        sut.routeAfterCancel()
        // Then
        XCTAssertNil(list.router?.dataStore?.insertedContact)
        XCTAssertEqual(fixture.navigator.popCalled, 1)
    }

    func test_passDataToShowContact_withoutASave_keepsTheContactShown() {
        // Given
        dataStoreSpy.savedContact = nil
        var destination: ShowContactDataStore = ShowContactInteractor(worker: Seeds.worker(fixture.store))
        destination.contact = Seeds.stored(Seeds.Contacts.ann, id: 1)
        // When
        sut.passDataToShowContact(source: dataStoreSpy, destination: &destination)
        // Then
        XCTAssertEqual(destination.contact?.id, 1)
        XCTAssertFalse(destination.contactWasSaved)
    }

    func test_passDataToListContacts_aSaveThatAddedNothing_passesNothingToShow() throws {
        // Given
        dataStoreSpy.addedContact = nil
        let list = ListContactsConfigurator.configure(context: fixture.context, factory: fixture.factory)
        var destination = try XCTUnwrap(list.router?.dataStore)
        // When
        sut.passDataToListContacts(source: dataStoreSpy, destination: &destination)
        // Then
        XCTAssertNil(destination.insertedContact)
    }
}
