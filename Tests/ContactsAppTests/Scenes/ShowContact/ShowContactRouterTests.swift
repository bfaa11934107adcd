import SceneCore
import XCTest
@testable import ContactsApp

final class ShowContactRouterTests: XCTestCase {
    var sut: ShowContactRouter!
    var fixture: SceneFactoryFixture!
    var dataStoreSpy: ShowContactDataStoreSpy!

    override func setUp() {
        super.setUp()
        fixture = SceneFactoryFixture()
        dataStoreSpy = ShowContactDataStoreSpy()
        sut = ShowContactRouter(navigator: fixture.navigator, factory: fixture.factory)
        sut.dataStore = dataStoreSpy
    }

    final class ShowContactDataStoreSpy: ShowContactDataStore {
        var contact: Contact? = Seeds.stored(Seeds.Contacts.ann, id: 1)
        var contactWasSaved = false
    }

    func test_routeToEditContact_pushesAnEditFormOnTheContactShown() throws {
        // When
        sut.routeToEditContact()
        // Then
        let form = try XCTUnwrap(fixture.navigator.pushed.first as? EditContactViewController)
        XCTAssertEqual(form.router?.dataStore?.mode, .edit(Seeds.stored(Seeds.Contacts.ann, id: 1)))
        XCTAssertEqual(form.router?.dataStore?.draft[.given], "Ann")
        XCTAssertEqual(form.title, "edit")
    }

    func test_routeToEditContact_withoutAContact_staysPut() {
        // Given
        dataStoreSpy.contact = nil
        // When
        sut.routeToEditContact()
        // Then
        XCTAssertTrue(fixture.navigator.pushed.isEmpty)
    }

    func test_routeToList_popsToTheList() {
        // When
        sut.routeToList()
        // Then
        XCTAssertEqual(fixture.navigator.poppedTo, ["contacts"])
    }
}
