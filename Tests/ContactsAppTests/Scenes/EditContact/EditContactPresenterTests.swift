import SceneCore
import XCTest

@testable import ContactsApp

final class EditContactPresenterTests: XCTestCase {
    typealias Change = EditContact.ChangeViewModel
    var sut: EditContactPresenter!
    var viewControllerSpy: EditContactDisplayLogicSpy!

    override func setUp() {
        super.setUp()
        viewControllerSpy = EditContactDisplayLogicSpy()
        sut = EditContactPresenter(formatter: Seeds.formatter)
        sut.viewController = viewControllerSpy
    }

    final class EditContactDisplayLogicSpy: EditContactDisplayLogic {
        var changes: [EditContact.ChangeViewModel] = []
        var displayDraftCalled = false
        var draftViewModel: EditContact.ReviewDraft.ViewModel?
        var savedMessage: Message?
        var cancelledMessage: Message?
        var messages: [Message] = []

        func displayUpdatedField(viewModel: EditContact.UpdateField.ViewModel) { changes.append(viewModel) }
        var tidied: [EditContact.TidyNames.ViewModel] = []
        func displayTidiedNames(viewModel: EditContact.TidyNames.ViewModel) { tidied.append(viewModel) }
        func displayNameOrder(viewModel: EditContact.SetNameOrder.ViewModel) { changes.append(viewModel) }
        func displayAddedItem(viewModel: EditContact.AddItem.ViewModel) { changes.append(viewModel) }
        func displayRemovedItem(viewModel: EditContact.RemoveItem.ViewModel) { changes.append(viewModel) }
        func displayClearedField(viewModel: EditContact.ClearField.ViewModel) { changes.append(viewModel) }
        func displayPhoto(viewModel: EditContact.SetPhoto.ViewModel) { changes.append(viewModel) }
        func displayDraft(viewModel: EditContact.ReviewDraft.ViewModel) {
            displayDraftCalled = true; draftViewModel = viewModel
        }
        func displaySavedContact(viewModel: EditContact.SaveContact.ViewModel) { savedMessage = viewModel.message }
        func displayCancelled(viewModel: EditContact.Cancel.ViewModel) { cancelledMessage = viewModel.message }
        var cancelConfirmations: [EditContact.Cancel.ConfirmationViewModel] = []
        func displayCancelConfirmation(viewModel: EditContact.Cancel.ConfirmationViewModel) {
            cancelConfirmations.append(viewModel)
        }
        var unsavedChanges: [EditContact.Cancel.ConfirmationViewModel?] = []
        func displayUnsavedChanges(viewModel: EditContact.Cancel.ConfirmationViewModel?) {
            unsavedChanges.append(viewModel)
        }
        func displayMessage(_ message: Message) { messages.append(message) }
    }

    func test_presentUpdatedField_showsValuesAsTyped_namesToo() {
        // When
        sut.presentUpdatedField(response: .init(field: .family, value: "ñúñez"))
        sut.presentUpdatedField(response: .init(field: .organization, value: "acme"))
        sut.presentUpdatedField(response: .init(field: .given, value: ""))
        // Then
        XCTAssertEqual(
            viewControllerSpy.changes,
            [
                Change(field: "family", value: "ñúñez", text: "family name: ñúñez"),
                Change(field: "organization", value: "acme", text: "organization: acme"),
                Change(field: "given", value: "", text: "given name: cleared"),
            ])
    }

    func test_presentAddedItem_aReplacedItem_saysWhatItWas() {
        // When
        sut.presentAddedItem(
            response: .init(
                kind: .phone, index: 1, item: LabeledValue(label: "work", value: "+15550001111"),
                replaced: LabeledValue(label: "work", value: "+15551234567")))
        // Then
        XCTAssertEqual(
            viewControllerSpy.changes,
            [
                Change(
                    field: "phone 1 (work)", value: "+1 (555) 000-1111",
                    text: "phone 1 (work): +1 (555) 000-1111 (was +1 (555) 123-4567)")
            ])
    }

    func test_presentAddedAndRemovedItems_numberAndFormatThem() {
        // When
        sut.presentAddedItem(
            response: .init(kind: .phone, index: 2, item: LabeledValue(label: "work", value: "+15551234567")))
        sut.presentAddedItem(response: .init(kind: .tag, index: 1, item: LabeledValue(label: "", value: "friends")))
        sut.presentRemovedItem(
            response: .init(kind: .email, index: 1, item: LabeledValue(label: "home", value: "a@b.org")))
        // Then
        XCTAssertEqual(
            viewControllerSpy.changes,
            [
                Change(field: "phone 2 (work)", value: "+1 (555) 123-4567", text: "phone 2 (work): +1 (555) 123-4567"),
                Change(field: "tag 1", value: "friends", text: "tag 1: friends"),
                Change(field: "email 1 (home)", value: "", text: "removed email 1 (home): a@b.org"),
            ])
    }

    func test_presentClearedField_namesTheFieldOrTheKind() {
        // When
        sut.presentClearedField(response: .init(name: "birthday"))
        sut.presentClearedField(response: .init(name: "addresses"))
        // Then
        XCTAssertEqual(
            viewControllerSpy.changes,
            [
                Change(field: "birthday", value: "", text: "birthday: cleared"),
                Change(field: "addresses", value: "", text: "addresses: cleared"),
            ])
    }

    func test_presentDraft_listsFilledFieldsThenItems() {
        // Given
        var draft = EditContact.Draft()
        draft[.given] = "josé"
        draft[.notes] = "n"
        draft.phones = [LabeledValue(label: "home", value: "03-1234-5678")]
        draft.addresses = [LabeledValue(label: "home", value: "1 Main St; Springfield")]
        draft.tags = ["friends"]
        // When
        sut.presentDraft(response: .init(draft: draft, mode: .edit(Seeds.stored(Seeds.Contacts.jose, id: 2))))
        // Then
        XCTAssertEqual(
            viewControllerSpy.draftViewModel,
            .init(
                heading: "Editing #2 José Ñúñez",
                fields: [
                    .init(field: "given", label: "given name", value: "josé"),
                    .init(field: "notes", label: "notes", value: "n"),
                    .init(field: "phone 1", label: "phone 1 (home)", value: "03-1234-5678"),
                    .init(field: "address 1", label: "address 1 (home)", value: "1 Main St; Springfield"),
                    .init(field: "tag 1", label: "tag 1", value: "friends"),
                ]))
    }

    func test_presentDraft_emptyNewContact() {
        // When
        sut.presentDraft(response: .init(draft: EditContact.Draft(), mode: .add))
        // Then
        XCTAssertTrue(viewControllerSpy.displayDraftCalled)
        XCTAssertEqual(viewControllerSpy.draftViewModel, .init(heading: "New contact", fields: []))
    }

    func test_presentTidiedNames_aLinePerName_orWhyNoneWas() {
        // When
        sut.presentTidiedNames(
            response: .init(tidied: [.init(field: .given, value: "Zoë"), .init(field: .family, value: "Adams")]))
        sut.presentTidiedNames(response: .init(tidied: []))
        // Then
        XCTAssertEqual(
            viewControllerSpy.tidied,
            [
                .init(
                    changes: [
                        Change(field: "given", value: "Zoë", text: "given name: Zoë"),
                        Change(field: "family", value: "Adams", text: "family name: Adams"),
                    ], nothingTidied: nil),
                .init(
                    changes: [],
                    nothingTidied: .info("Nothing to tidy: only names typed all in lower or upper case are capitalised")
                ),
            ])
    }

    func test_presentSavedContact_saysAddedOrSaved() {
        // When
        sut.presentSavedContact(response: .init(contact: Seeds.stored(Seeds.Contacts.taro, id: 3), mode: .add))
        // Then
        XCTAssertEqual(viewControllerSpy.savedMessage, .success("Added 太郎 山田 as #3"))
        // When
        sut.presentSavedContact(
            response: .init(
                contact: Seeds.stored(Seeds.Contacts.acme, id: 4),
                mode: .edit(Seeds.stored(Seeds.Contacts.acme, id: 4))))
        // Then
        XCTAssertEqual(viewControllerSpy.savedMessage, .success("Saved Acme Inc."))
    }

    func test_presentCancelled_saysWhatWasNotSaved() {
        // When
        sut.presentCancelled(response: .init(mode: .add))
        // Then
        XCTAssertEqual(viewControllerSpy.cancelledMessage, .info("Cancelled: no contact was added"))
        // When
        sut.presentCancelled(response: .init(mode: .edit(Seeds.stored(Seeds.Contacts.ann, id: 1))))
        // Then
        XCTAssertEqual(viewControllerSpy.cancelledMessage, .info("Cancelled: Ann Lee is unchanged"))
    }

    func test_presentFailure_givesPerFieldDetails() {
        // When
        sut.presentFailure(.invalid([FieldError("phone 1", "must have 3 to 20 digits")]))
        // Then
        XCTAssertEqual(
            viewControllerSpy.messages,
            [
                .error(
                    "not saved: 1 field is not valid", code: .validationFailed,
                    details: ["phone 1": "must have 3 to 20 digits"])
            ])
    }

    func test_presentCancelled_afterEdits_saysHowManyChangesWereDropped() {
        // When
        sut.presentCancelled(
            response: .init(
                mode: .edit(Seeds.stored(Seeds.Contacts.ann, id: 1)), changes: ["given", "family", "given"]))
        // Then
        XCTAssertEqual(viewControllerSpy.cancelledMessage, .info("Cancelled: 3 changes to Ann Lee dropped"))
        // When
        sut.presentCancelled(response: .init(mode: .add, changes: ["given"]))
        // Then
        XCTAssertEqual(viewControllerSpy.cancelledMessage, .info("Cancelled: no contact was added; 1 change dropped"))
    }

    func test_presentCancelConfirmation_saysWhatWillBeLost() {
        // When
        sut.presentCancelConfirmation(
            response: .init(
                mode: .edit(Seeds.stored(Seeds.Contacts.ann, id: 1)),
                changes: ["given", "phone 2", "given"]))
        // Then
        XCTAssertEqual(
            viewControllerSpy.cancelConfirmations,
            [
                .init(
                    question: "Drop 3 changes to Ann Lee (given, phone 2)?",
                    declined: "Still editing Ann Lee: 'save' keeps the changes, 'review' shows them")
            ])
    }

    func test_presentUnsavedChanges_asksBeforeQuitting_onlyWhenSomethingWouldBeLost() {
        // When
        sut.presentUnsavedChanges(response: .init(mode: .add, changes: []))
        sut.presentUnsavedChanges(response: .init(mode: .add, changes: ["given"]))
        // Then
        XCTAssertEqual(
            viewControllerSpy.unsavedChanges,
            [
                nil,
                .init(
                    question: "Quit and drop 1 change to the new contact (given)?",
                    declined: "Still editing the new contact: 'save' keeps the changes, 'review' shows them"),
            ])
    }
}
