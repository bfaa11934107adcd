import SceneCore
import XCTest

@testable import ContactsApp

final class EditContactViewControllerTests: XCTestCase {
    var sut: EditContactViewController!
    var output: DisplaySinkSpy!
    var interactorSpy: EditContactBusinessLogicSpy!
    var routerSpy: EditContactRoutingLogicSpy!

    override func setUp() {
        super.setUp()
        output = DisplaySinkSpy()
        interactorSpy = EditContactBusinessLogicSpy()
        routerSpy = EditContactRoutingLogicSpy()
        sut = EditContactViewController(output: output)
        sut.interactor = interactorSpy
        sut.router = routerSpy
    }

    final class EditContactBusinessLogicSpy: EditContactBusinessLogic {
        var updateFieldRequests: [EditContact.UpdateField.Request] = []
        var addItemRequests: [EditContact.AddItem.Request] = []
        var removeItemRequests: [EditContact.RemoveItem.Request] = []
        var clearFieldRequests: [EditContact.ClearField.Request] = []
        var setPhotoRequests: [EditContact.SetPhoto.Request] = []
        func setPhoto(request: EditContact.SetPhoto.Request) { setPhotoRequests.append(request) }
        var reviewDraftCalled = 0
        var saveContactCalled = false
        var cancelCalled = false
        var cancelRequests: [EditContact.Cancel.Request] = []
        var reviewUnsavedChangesCalled = 0
        /// Answers as the real cycle does: through the Presenter, back to the ViewController.
        weak var viewController: EditContactDisplayLogic?
        var unsavedChanges: EditContact.Cancel.ConfirmationViewModel?

        func updateField(request: EditContact.UpdateField.Request) { updateFieldRequests.append(request) }
        func addItem(request: EditContact.AddItem.Request) { addItemRequests.append(request) }
        func removeItem(request: EditContact.RemoveItem.Request) { removeItemRequests.append(request) }
        func clearField(request: EditContact.ClearField.Request) { clearFieldRequests.append(request) }
        func reviewDraft(request: EditContact.ReviewDraft.Request) { reviewDraftCalled += 1 }
        func saveContact(request: EditContact.SaveContact.Request) { saveContactCalled = true }
        func cancel(request: EditContact.Cancel.Request) { cancelCalled = true; cancelRequests.append(request) }
        var tidyNamesCalled = false
        var nameOrderRequests: [EditContact.SetNameOrder.Request] = []
        func tidyNames(request: EditContact.TidyNames.Request) { tidyNamesCalled = true }
        func setNameOrder(request: EditContact.SetNameOrder.Request) { nameOrderRequests.append(request) }
        func reviewUnsavedChanges(request: EditContact.ReviewUnsavedChanges.Request) {
            reviewUnsavedChangesCalled += 1
            viewController?.displayUnsavedChanges(viewModel: unsavedChanges)
        }
    }

    final class EditContactRoutingLogicSpy: EditContactRoutingLogic, EditContactDataPassing {
        var routeAfterSaveCalled = false
        var routeAfterCancelCalled = false
        var dataStore: EditContactDataStore?
        var origin: EditContact.Origin?

        func routeAfterSave() { routeAfterSaveCalled = true }
        func routeAfterCancel() { routeAfterCancelCalled = true }
    }

    func test_everyFieldSetter_becomesAnUpdateFieldRequest() {
        // When
        for field in EditContact.Field.allCases {
            sut.perform(ActionCall(EditContact.Action.field(.set(field)), ["value": .string("v \(field.rawValue)")]))
        }
        // Then
        XCTAssertEqual(
            interactorSpy.updateFieldRequests,
            EditContact.Field.allCases.map { .init(field: $0, value: "v \($0.rawValue)") })
    }

    func test_itemAdders_becomeAddItemRequests_withOrWithoutALabel() {
        // When
        sut.perform(
            ActionCall(
                EditContact.Action.field(.add(.phone)), ["label": .string("work"), "value": .string("555 1234")]))
        sut.perform(ActionCall(EditContact.Action.field(.add(.email)), ["value": .string("a@b.org")]))
        sut.perform(ActionCall(EditContact.Action.field(.add(.address)), ["value": .string("1 Main St")]))
        sut.perform(ActionCall(EditContact.Action.field(.add(.tag)), ["value": .string("friends")]))
        // Then
        XCTAssertEqual(
            interactorSpy.addItemRequests,
            [
                .init(kind: .phone, label: "work", value: "555 1234"),
                .init(kind: .email, label: nil, value: "a@b.org"),
                .init(kind: .address, label: nil, value: "1 Main St"), .init(kind: .tag, label: nil, value: "friends"),
            ])
    }

    func test_removeClearReviewSaveCancel_becomeTheirRequests() {
        // When
        sut.perform(ActionCall(EditContact.Action.remove, ["kind": .string("email"), "number": .integer(2)]))
        sut.perform(ActionCall(EditContact.Action.clear, ["field": .string("tags")]))
        sut.perform(ActionCall(EditContact.Action.review))
        sut.perform(ActionCall(EditContact.Action.save))
        sut.perform(ActionCall(EditContact.Action.cancel))
        // Then
        XCTAssertEqual(interactorSpy.removeItemRequests, [.init(kind: .email, index: 2)])
        XCTAssertEqual(interactorSpy.clearFieldRequests, [.init(name: "tags")])
        XCTAssertEqual(interactorSpy.reviewDraftCalled, 1)
        XCTAssertTrue(interactorSpy.saveContactCalled)
        XCTAssertTrue(interactorSpy.cancelCalled)
        XCTAssertFalse(routerSpy.routeAfterSaveCalled)
    }

    func test_becomingActive_showsTheDraft() {
        // When
        sut.sceneDidBecomeActive(.pushed)
        // Then
        XCTAssertEqual(interactorSpy.reviewDraftCalled, 1)
    }

    func test_displaySavedContact_showsTheMessage_thenRoutes() {
        // When
        sut.displaySavedContact(viewModel: .init(message: .success("Saved Ann Lee")))
        // Then
        XCTAssertEqual(output.displayed.first as? Message, .success("Saved Ann Lee"))
        XCTAssertTrue(routerSpy.routeAfterSaveCalled)
        XCTAssertFalse(routerSpy.routeAfterCancelCalled)
    }

    func test_displayCancelled_showsTheMessage_thenRoutes() {
        // When
        sut.displayCancelled(viewModel: .init(message: .info("Cancelled")))
        // Then
        XCTAssertEqual(output.displayed.first as? Message, .info("Cancelled"))
        XCTAssertTrue(routerSpy.routeAfterCancelCalled)
    }

    func test_displayChangeDraftAndMessage_goToTheOutput_withoutRouting() {
        // Given
        let change = EditContact.ChangeViewModel(field: "given", value: "Ann", text: "given name: Ann")
        let draft = EditContact.ReviewDraft.ViewModel(heading: "New contact", fields: [])
        // When
        sut.displayUpdatedField(viewModel: change)
        sut.displayDraft(viewModel: draft)
        sut.displayMessage(.error("x", code: .badInput))
        // Then
        XCTAssertEqual(output.displayed.count, 3)
        XCTAssertEqual(output.displayed[0] as? EditContact.ChangeViewModel, change)
        XCTAssertEqual(output.displayed[1] as? EditContact.ReviewDraft.ViewModel, draft)
        XCTAssertEqual(output.displayed[2] as? Message, .error("x", code: .badInput))
        XCTAssertFalse(routerSpy.routeAfterSaveCalled || routerSpy.routeAfterCancelCalled)
    }

    func test_completions_offerLabels() {
        XCTAssertEqual(sut.completions(for: "label", prefix: "m"), ["mobile", "main"])
        XCTAssertEqual(sut.completions(for: "contact", prefix: "m"), [])
        XCTAssertEqual(sut.descriptor.id, "form")
        XCTAssertEqual(sut.title, "new contact")
    }

    func test_cancelConfirmed_becomesAConfirmedRequest() {
        // When
        sut.perform(ActionCall(EditContact.Action.cancel, ["confirm": .boolean(true)]))
        // Then
        XCTAssertEqual(interactorSpy.cancelRequests, [.init(confirmed: true)])
    }

    func test_displayCancelConfirmation_asks_andGoesAheadWhereNobodyCanBeAsked() throws {
        // When
        sut.displayCancelConfirmation(
            viewModel: .init(question: "Drop 1 change to Ann Lee (given)?", declined: "Still editing"))
        // Then
        let request = try XCTUnwrap(output.displayed.first as? ConfirmationRequest)
        XCTAssertEqual(request.question, "Drop 1 change to Ann Lee (given)?")
        XCTAssertEqual(request.confirmed, ActionCall(EditContact.Action.cancel, ["confirm": .boolean(true)]))
        XCTAssertEqual(request.declined, .info("Still editing"))
        XCTAssertEqual(request.otherwise, .proceed)
        XCTAssertFalse(routerSpy.routeAfterCancelCalled)
    }

    func test_confirmationBeforeQuitting_comesFromTheCycle() {
        // Given
        interactorSpy.viewController = sut
        // Then: nothing to lose
        XCTAssertNil(sut.confirmationBeforeQuitting())
        // Given
        interactorSpy.unsavedChanges = .init(
            question: "Quit and drop 1 change to Ann Lee (given)?", declined: "Still editing")
        // Then
        XCTAssertEqual(sut.confirmationBeforeQuitting()?.question, "Quit and drop 1 change to Ann Lee (given)?")
        XCTAssertEqual(interactorSpy.reviewUnsavedChangesCalled, 2)
        XCTAssertTrue(output.displayed.isEmpty)
    }

    func test_tidyAndOrder_becomeTheirRequests() {
        // When
        sut.perform(ActionCall(EditContact.Action.tidy))
        sut.perform(ActionCall(EditContact.Action.order, ["order": .string("family-first")]))
        // Then
        XCTAssertTrue(interactorSpy.tidyNamesCalled)
        XCTAssertEqual(interactorSpy.nameOrderRequests, [.init(order: .familyFirst)])
    }

    func test_displayTidiedNames_showsEachNameTidied_orWhyNone() {
        // Given
        let given = EditContact.ChangeViewModel(field: "given", value: "Zoë", text: "given name: Zoë")
        let nothing = Message.info("Nothing to tidy")
        // When
        sut.displayTidiedNames(viewModel: .init(changes: [given], nothingTidied: nil))
        sut.displayTidiedNames(viewModel: .init(changes: [], nothingTidied: nothing))
        // Then
        XCTAssertEqual(output.displayed.count, 2)
        XCTAssertEqual(output.displayed[0] as? EditContact.ChangeViewModel, given)
        XCTAssertEqual(output.displayed[1] as? Message, nothing)
    }

    func test_title_namesWhatTheFormWasOpenedFor() {
        // Given
        let dataStore = EditContactInteractor(contactsWorker: Seeds.worker(Seeds.book()))
        routerSpy.dataStore = dataStore
        // Then
        XCTAssertEqual(sut.title, "new contact")
        // When
        dataStore.mode = .edit(Seeds.stored(Seeds.Contacts.ann, id: 1))
        // Then
        XCTAssertEqual(sut.title, "edit")
    }
}
