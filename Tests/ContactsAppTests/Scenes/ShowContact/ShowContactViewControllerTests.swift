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
        var savePhotoRequests: [ShowContact.SavePhoto.Request] = []
        func savePhoto(request: ShowContact.SavePhoto.Request) { savePhotoRequests.append(request) }
        func showHistory(request: ShowContact.ShowHistory.Request) { historyRequests.append(request) }

        var fetchRequests: [ShowContact.FetchContact.Request] = []
        var deleteContactCalled = false

        func fetchContact(request: ShowContact.FetchContact.Request) { fetchRequests.append(request) }
        func deleteContact(request: ShowContact.DeleteContact.Request) { deleteContactCalled = true }
        var selectRequests: [ShowContact.SelectContact.Request] = []
        func selectContact(request: ShowContact.SelectContact.Request) { selectRequests.append(request) }
        var editRequests: [ShowContact.EditContact.Request] = []
        func editContact(request: ShowContact.EditContact.Request) { editRequests.append(request) }
        weak var viewController: ShowContactDisplayLogic?
        var completeRequests: [ShowContact.CompleteReference.Request] = []
        func completeReference(request: ShowContact.CompleteReference.Request) {
            completeRequests.append(request)
            viewController?.displayCompletedReference(viewModel: .init(candidates: ["José Ñúñez"]))
        }
    }

    final class ShowContactRoutingLogicSpy: ShowContactRoutingLogic, ShowContactDataPassing {
        var routeToEditContactCalled = false
        var routeToListCalled = false
        var dataStore: ShowContactDataStore?

        func routeToEditContact() { routeToEditContactCalled = true }
        func routeToList() { routeToListCalled = true }
        var routeToSelectedContactCalled = false
        var routeToEditSelectedContactCalled = false
        func routeToSelectedContact() { routeToSelectedContactCalled = true }
        func routeToEditSelectedContact() { routeToEditSelectedContactCalled = true }
    }

    func test_actions_becomeRequests() {
        // When
        sut.perform(ActionCall(ShowContact.Action.show))
        sut.perform(ActionCall(ShowContact.Action.edit))
        sut.perform(ActionCall(ShowContact.Action.delete))
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
        sut.displayFetchedContact(viewModel: Seeds.annDetail())
        // Then
        XCTAssertEqual(output.displayed.first as? ShowContact.FetchContact.ViewModel, Seeds.annDetail())
        XCTAssertEqual(sut.title, "Ann Lee")
    }

    func test_displayDeletedContact_showsTheMessage_thenRoutesToTheList() {
        // When
        sut.displayDeletedContact(viewModel: .init(message: .success("Deleted Ann Lee")))
        // Then
        XCTAssertEqual(output.displayed.first as? Message, .success("Deleted Ann Lee"))
        XCTAssertTrue(routerSpy.routeToListCalled)
    }

    func test_edit_asksTheInteractorFirst_whetherTheBookMayBeWritten() {
        // When
        sut.perform(ActionCall(ShowContact.Action.edit))
        // Then: the move waits for the Interactor's answer (a read-only book refuses it)
        XCTAssertEqual(interactorSpy.editRequests, [.init()])
        XCTAssertFalse(routerSpy.routeToEditContactCalled)
        XCTAssertTrue(interactorSpy.fetchRequests.isEmpty)
        XCTAssertTrue(output.displayed.isEmpty)
    }

    func test_displayContactToEdit_opensTheFormForTheContactShown() {
        // When
        sut.displayContactToEdit(viewModel: .init(id: 1))
        // Then
        XCTAssertTrue(routerSpy.routeToEditContactCalled)
        XCTAssertFalse(routerSpy.routeToEditSelectedContactCalled)
        XCTAssertTrue(output.displayed.isEmpty)
    }

    func test_displaySavedPhoto_showsTheMessage_withoutRouting() {
        // When
        sut.displaySavedPhoto(viewModel: .init(message: .success("Saved the photo")))
        // Then
        XCTAssertEqual(output.displayed.first as? Message, .success("Saved the photo"))
        XCTAssertFalse(routerSpy.routeToListCalled)
    }

    func test_displayMessage_goesToTheOutput() {
        // When
        sut.displayMessage(.error("x", code: .notFound))
        // Then
        XCTAssertEqual(output.displayed.first as? Message, .error("x", code: .notFound))
        XCTAssertEqual(sut.descriptor.id, "contact")
    }

    func test_showOrEditAnotherContact_selectsIt_andDisplayingTheSelectionRoutes() {
        // When
        sut.perform(ActionCall(ShowContact.Action.show, ["contact": .string("2")]))
        sut.perform(ActionCall(ShowContact.Action.edit, ["contact": .string("jose")]))
        // Then
        XCTAssertEqual(interactorSpy.selectRequests, [.init(reference: "2"), .init(reference: "jose", purpose: .edit)])
        XCTAssertFalse(routerSpy.routeToEditContactCalled)

        // When
        sut.displaySelectedContact(viewModel: .init(id: 2, purpose: .show))
        sut.displaySelectedContact(viewModel: .init(id: 2, purpose: .edit))
        // Then
        XCTAssertTrue(routerSpy.routeToSelectedContactCalled)
        XCTAssertTrue(routerSpy.routeToEditSelectedContactCalled)
    }

    func test_completions_forContacts_comeThroughTheCycle() {
        // Given
        interactorSpy.viewController = sut
        // Then
        XCTAssertEqual(sut.completions(for: "contact", prefix: "jo"), ["José Ñúñez"])
        XCTAssertEqual(interactorSpy.completeRequests, [.init(prefix: "jo")])
        XCTAssertEqual(sut.completions(for: "label", prefix: "jo"), [])
    }
}
