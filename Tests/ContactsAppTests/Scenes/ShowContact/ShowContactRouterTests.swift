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
        var selectedContact: Contact?
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

    func test_routeToEditContact_editsTheContactAsShown_notAnEarlierSelection() throws {
        // Given: `edit ann` selected version 1; the form saved version 2, which the detail now shows
        var earlier = Seeds.stored(Seeds.Contacts.ann, id: 1)
        earlier.version = 1
        var shown = earlier
        shown.version = 2
        dataStoreSpy.selectedContact = earlier
        dataStoreSpy.contact = shown
        // When
        sut.routeToEditContact()
        // Then
        let form = try XCTUnwrap(fixture.navigator.pushed.first as? EditContactViewController)
        XCTAssertEqual(form.router?.dataStore?.mode, .edit(shown))
        guard case .contact(let origin)? = form.router?.origin else {
            return XCTFail("the form does not return to the detail")
        }
        XCTAssertTrue(origin === dataStoreSpy)
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

    func test_routeToSelectedContact_replacesThisContactWithTheSelectedOne() throws {
        // Given
        dataStoreSpy.selectedContact = Seeds.stored(Seeds.Contacts.jose, id: 2)
        // When
        sut.routeToSelectedContact()
        // Then
        let detail = try XCTUnwrap(fixture.navigator.replacedWith.first as? ShowContactViewController)
        XCTAssertEqual(detail.router?.dataStore?.contact?.id, 2)
        XCTAssertTrue(fixture.navigator.pushed.isEmpty)
    }

    func test_routeToEditSelectedContact_opensItsDetailThenItsForm() throws {
        // Given
        dataStoreSpy.selectedContact = Seeds.stored(Seeds.Contacts.jose, id: 2)
        // When
        sut.routeToEditSelectedContact()
        // Then
        let detail = try XCTUnwrap(fixture.navigator.replacedWith.first as? ShowContactViewController)
        XCTAssertEqual(detail.router?.dataStore?.contact?.id, 2)
        let form = try XCTUnwrap(fixture.navigator.pushed.first as? EditContactViewController)
        XCTAssertEqual(form.router?.dataStore?.mode, .edit(Seeds.stored(Seeds.Contacts.jose, id: 2)))
        // and a save goes back to the new detail, not this one
        guard case .contact(let origin)? = form.router?.origin else {
            return XCTFail("the form does not return to the detail")
        }
        XCTAssertTrue(origin === detail.router?.dataStore)
    }

    func test_routeToEditSelectedContact_ofTheContactShown_onlyOpensTheForm() {
        // Given
        dataStoreSpy.selectedContact = Seeds.stored(Seeds.Contacts.ann, id: 1)
        // When
        sut.routeToEditSelectedContact()
        // Then
        XCTAssertTrue(fixture.navigator.replacedWith.isEmpty)
        XCTAssertEqual(fixture.navigator.pushed.count, 1)
    }
}
