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
        var draft = EditContact.Draft()
        var savedContact: Contact? = Seeds.stored(Seeds.Contacts.taro, id: 3)
        var changes: [String] = []
    }

    private func form() -> EditContactViewController {
        EditContactConfigurator.configure(context: fixture.context, factory: fixture.factory, mode: .add)
    }

    func test_routeAfterSave_toTheList_passesTheInsertedId_andPops() throws {
        // Given
        let list = ListContactsConfigurator.configure(context: fixture.context, factory: fixture.factory)
        fixture.navigator.scenes = [list, form()]
        // When
        sut.routeAfterSave()
        // Then
        XCTAssertEqual(list.router?.dataStore?.insertedContactID, 3)
        XCTAssertEqual(fixture.navigator.popCalled, 1)
    }

    func test_routeAfterSave_toTheDetail_passesTheSavedContact_andPops() throws {
        // Given
        let list = ListContactsConfigurator.configure(context: fixture.context, factory: fixture.factory)
        let detail = ShowContactConfigurator.configure(context: fixture.context, factory: fixture.factory)
        detail.router?.dataStore?.contact = Seeds.stored(Seeds.Contacts.ann, id: 1)
        fixture.navigator.scenes = [list, detail, form()]
        // When
        sut.routeAfterSave()
        // Then
        XCTAssertEqual(detail.router?.dataStore?.contact, Seeds.stored(Seeds.Contacts.taro, id: 3))
        XCTAssertEqual(detail.router?.dataStore?.contactWasSaved, true)
        XCTAssertNil(list.router?.dataStore?.insertedContactID)
        XCTAssertEqual(fixture.navigator.popCalled, 1)
    }

    func test_routeAfterCancel_popsWithoutPassingData() {
        // Given
        let list = ListContactsConfigurator.configure(context: fixture.context, factory: fixture.factory)
        fixture.navigator.scenes = [list, form()]
        // When
        sut.routeAfterCancel()
        // Then
        XCTAssertNil(list.router?.dataStore?.insertedContactID)
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
}
