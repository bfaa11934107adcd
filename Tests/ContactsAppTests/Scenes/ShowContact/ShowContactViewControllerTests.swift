import SceneCore
import XCTest
@testable import ContactsApp

final class ShowContactViewControllerTests: XCTestCase {
    var sut: ShowContactViewController!
    var output: DisplaySinkSpy!
    var interactorSpy: ShowContactBusinessLogicSpy!
    var routerSpy: ShowContactRoutingLogicSpy!

    override func setUp() {
        super.setUp()
        output = DisplaySinkSpy()
        interactorSpy = ShowContactBusinessLogicSpy()
        routerSpy = ShowContactRoutingLogicSpy()
        sut = ShowContactViewController(output: output)
        sut.interactor = interactorSpy
        sut.router = routerSpy
    }

    final class ShowContactBusinessLogicSpy: ShowContactBusinessLogic {
        var historyRequests: [ShowContact.ShowHistory.Request] = []
        func showHistory(request: ShowContact.ShowHistory.Request) { historyRequests.append(request) }

        var fetchRequests: [ShowContact.FetchContact.Request] = []
        var deleteContactCalled = false

        func fetchContact(request: ShowContact.FetchContact.Request) { fetchRequests.append(request) }
        func deleteContact(request: ShowContact.DeleteContact.Request) { deleteContactCalled = true }
    }

    final class ShowContactRoutingLogicSpy: ShowContactRoutingLogic, ShowContactDataPassing {
        var routeToEditContactCalled = false
        var routeToListCalled = false
        var dataStore: ShowContactDataStore?

        func routeToEditContact() { routeToEditContactCalled = true }
        func routeToList() { routeToListCalled = true }
    }

    func test_actions_becomeRequests() {
        // When
        sut.perform(ActionCall("show"))
        sut.perform(ActionCall("edit"))
        sut.perform(ActionCall("delete"))
        // Then
        XCTAssertEqual(interactorSpy.fetchRequests, [.init(reload: true)])
        XCTAssertTrue(interactorSpy.deleteContactCalled)
    }

    func test_becomingActive_reloadsWhenPushed_andOnlyIfSavedOnReturn() {
        // When
        sut.sceneDidBecomeActive(.pushed)
        sut.sceneDidBecomeActive(.returned)
        // Then
        XCTAssertEqual(interactorSpy.fetchRequests, [.init(reload: true), .init(reload: false)])
    }

    func test_displayContact_showsIt_andTakesItsNameAsTitle() {
        // Given
        XCTAssertEqual(sut.title, "contact")
        // When
        sut.displayContact(viewModel: Seeds.annDetail())
        // Then
        XCTAssertEqual(output.displayed.first as? ShowContact.FetchContact.ViewModel, Seeds.annDetail())
        XCTAssertEqual(sut.title, "Ann Lee")
    }

    func test_displayDeletedContact_showsTheMessage_thenRoutesToTheList() {
        // When
        sut.displayDeletedContact(message: .success("Deleted Ann Lee"))
        // Then
        XCTAssertEqual(output.displayed.first as? Message, .success("Deleted Ann Lee"))
        XCTAssertTrue(routerSpy.routeToListCalled)
    }

    func test_edit_routesToTheForm_withNothingToDecideOnTheWay() {
        // When
        sut.perform(ActionCall("edit"))
        // Then
        XCTAssertTrue(routerSpy.routeToEditContactCalled)
        XCTAssertTrue(interactorSpy.fetchRequests.isEmpty)
        XCTAssertTrue(output.displayed.isEmpty)
    }

    func test_displayMessage_goesToTheOutput() {
        // When
        sut.displayMessage(.error("x", code: .notFound))
        // Then
        XCTAssertEqual(output.displayed.first as? Message, .error("x", code: .notFound))
        XCTAssertEqual(sut.descriptor.id, "contact")
    }
}
