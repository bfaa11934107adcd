import XCTest

@testable import ContactsApp

final class EditContactInteractorTests: XCTestCase {
    var sut: EditContactInteractor!
    var store: InMemoryContactStore!
    var presenterSpy: EditContactPresentationLogicSpy!

    override func setUp() {
        super.setUp()
        store = Seeds.book()
        presenterSpy = EditContactPresentationLogicSpy()
        makeSUT(mode: .add)
    }

    private func makeSUT(mode: EditContact.Mode) {
        sut = EditContactInteractor(contactsWorker: Seeds.worker(store))
        sut.mode = mode
        sut.presenter = presenterSpy
    }

    final class EditContactPresentationLogicSpy: EditContactPresentationLogic {
        var updatedResponses: [EditContact.UpdateField.Response] = []
        var addedResponses: [EditContact.AddItem.Response] = []
        var removedResponses: [EditContact.RemoveItem.Response] = []
        var clearedResponses: [EditContact.ClearField.Response] = []
        var photoResponses: [EditContact.SetPhoto.Response] = []
        func presentPhoto(response: EditContact.SetPhoto.Response) { photoResponses.append(response) }
        var presentDraftCalled = false
        var draftResponse: EditContact.ReviewDraft.Response?
        var presentSavedContactCalled = false
        var savedResponse: EditContact.SaveContact.Response?
        var presentCancelledCalled = false
        var cancelledResponse: EditContact.Cancel.Response?
        var failures: [ContactsFailure] = []

        func presentUpdatedField(response: EditContact.UpdateField.Response) { updatedResponses.append(response) }
        func presentAddedItem(response: EditContact.AddItem.Response) { addedResponses.append(response) }
        func presentRemovedItem(response: EditContact.RemoveItem.Response) { removedResponses.append(response) }
        func presentClearedField(response: EditContact.ClearField.Response) { clearedResponses.append(response) }
        func presentDraft(response: EditContact.ReviewDraft.Response) {
            presentDraftCalled = true; draftResponse = response
        }
        func presentSavedContact(response: EditContact.SaveContact.Response) {
            presentSavedContactCalled = true; savedResponse = response
        }
        func presentCancelled(response: EditContact.Cancel.Response) {
            presentCancelledCalled = true; cancelledResponse = response
        }
        var cancelConfirmationResponses: [EditContact.Cancel.Response] = []
        func presentCancelConfirmation(response: EditContact.Cancel.Response) {
            cancelConfirmationResponses.append(response)
        }
        var tidiedResponses: [EditContact.TidyNames.Response] = []
        func presentTidiedNames(response: EditContact.TidyNames.Response) { tidiedResponses.append(response) }
        var nameOrderResponses: [EditContact.SetNameOrder.Response] = []
        func presentNameOrder(response: EditContact.SetNameOrder.Response) { nameOrderResponses.append(response) }
        var unsavedChangesResponses: [EditContact.Cancel.Response] = []
        func presentUnsavedChanges(response: EditContact.Cancel.Response) { unsavedChangesResponses.append(response) }
        func presentFailure(_ failure: ContactsFailure) { failures.append(failure) }
    }

    // MARK: editing the draft

    func test_updateField_trimsAndKeepsTheValue() {
        // When
        sut.updateField(request: .init(field: .given, value: "  zoë "))
        // Then
        XCTAssertEqual(sut.draft[.given], "zoë")
        XCTAssertEqual(presenterSpy.updatedResponses.map(\.value), ["zoë"])
        XCTAssertEqual(presenterSpy.updatedResponses.map(\.field), [.given])
    }

    func test_addItem_usesDefaultLabels_andLowercasesGivenOnes() {
        // When
        sut.addItem(request: .init(kind: .phone, label: nil, value: "555 1234"))
        sut.addItem(request: .init(kind: .email, label: " WORK ", value: "a@b.org"))
        sut.addItem(request: .init(kind: .address, label: nil, value: "1 Main St"))
        sut.addItem(request: .init(kind: .phone, label: "Home", value: "555 9876"))
        // Then
        XCTAssertEqual(
            sut.draft.phones,
            [LabeledValue(label: "mobile", value: "555 1234"), LabeledValue(label: "home", value: "555 9876")])
        XCTAssertEqual(sut.draft.emails, [LabeledValue(label: "work", value: "a@b.org")])
        XCTAssertEqual(sut.draft.addresses, [LabeledValue(label: "home", value: "1 Main St")])
        XCTAssertEqual(presenterSpy.addedResponses.map(\.index), [1, 1, 1, 2])
        XCTAssertEqual(presenterSpy.addedResponses.map(\.kind), [.phone, .email, .address, .phone])
    }

    func test_addItem_aLabelWithoutALetter_isTheStartOfTheValue() {
        // When: "phone +1 555 123 4567" and "address 1 Main St; Springfield" as the command line splits them
        sut.addItem(request: .init(kind: .phone, label: "+1", value: "555 123 4567"))
        sut.addItem(request: .init(kind: .address, label: "1", value: "Main St; Springfield"))
        // Then
        XCTAssertEqual(sut.draft.phones, [LabeledValue(label: "mobile", value: "+1 555 123 4567")])
        XCTAssertEqual(sut.draft.addresses, [LabeledValue(label: "home", value: "1 Main St; Springfield")])
    }

    func test_addItem_numberOfAnItem_setsThatItem_keepingItsLabel_forEveryKind() {
        // Given one of each, and a second phone
        sut.addItem(request: .init(kind: .phone, label: "work", value: "555 1234"))
        sut.addItem(request: .init(kind: .phone, label: "home", value: "555 9876"))
        sut.addItem(request: .init(kind: .email, label: "work", value: "a@b.org"))
        sut.addItem(request: .init(kind: .address, label: "home", value: "1 Main St"))
        sut.addItem(request: .init(kind: .website, label: "work", value: "https://a.example"))
        let changesBefore = sut.changes.count
        // When: "phone 1 +44 20 7946 0000", "email 1 ann@c.org", "address 1 2 High St; Leeds"
        sut.addItem(request: .init(kind: .phone, label: "1", value: "+44 20 7946 0000"))
        sut.addItem(request: .init(kind: .email, label: "1", value: "ann@c.org"))
        sut.addItem(request: .init(kind: .address, label: "1", value: "2 High St; Leeds"))
        sut.addItem(request: .init(kind: .website, label: "1", value: "https://ann.example"))
        // Then replaced in place, nothing added
        XCTAssertEqual(
            sut.draft.phones,
            [LabeledValue(label: "work", value: "+44 20 7946 0000"), LabeledValue(label: "home", value: "555 9876")])
        XCTAssertEqual(sut.draft.emails, [LabeledValue(label: "work", value: "ann@c.org")])
        XCTAssertEqual(sut.draft.addresses, [LabeledValue(label: "home", value: "2 High St; Leeds")])
        XCTAssertEqual(sut.draft.websites, [LabeledValue(label: "work", value: "https://ann.example")])
        XCTAssertEqual(presenterSpy.addedResponses.suffix(4).map(\.index), [1, 1, 1, 1])
        XCTAssertEqual(
            presenterSpy.addedResponses.suffix(4).map(\.replaced?.value),
            ["555 1234", "a@b.org", "1 Main St", "https://a.example"])
        XCTAssertEqual(sut.changes.count, changesBefore + 4)
    }

    func test_addItem_aNumberBeyondTheItems_isStillTheStartOfTheValue() {
        // Given one phone
        sut.addItem(request: .init(kind: .phone, label: nil, value: "555 1234"))
        // When: "phone 2 555 0000" (no phone 2) and "phone 0 555" (no phone 0)
        sut.addItem(request: .init(kind: .phone, label: "2", value: "555 0000"))
        sut.addItem(request: .init(kind: .phone, label: "0", value: "555 1111"))
        // Then both added, as before
        XCTAssertEqual(sut.draft.phones.map(\.value), ["555 1234", "2 555 0000", "0 555 1111"])
        XCTAssertEqual(presenterSpy.addedResponses.map(\.replaced), [nil, nil, nil])
    }

    func test_addItem_tag_isNotRepeated_inAnyCase() {
        // When
        sut.addItem(request: .init(kind: .tag, label: nil, value: "Friends"))
        sut.addItem(request: .init(kind: .tag, label: nil, value: "work"))
        sut.addItem(request: .init(kind: .tag, label: nil, value: "friends"))
        // Then
        XCTAssertEqual(sut.draft.tags, ["Friends", "work"])
        XCTAssertEqual(presenterSpy.addedResponses.map(\.index), [1, 2, 1])
    }

    func test_removeItem_removesByOneBasedNumber() {
        // Given
        sut.addItem(request: .init(kind: .email, label: "home", value: "a@b.org"))
        sut.addItem(request: .init(kind: .email, label: "work", value: "c@d.org"))
        // When
        sut.removeItem(request: .init(kind: .email, index: 1))
        // Then
        XCTAssertEqual(sut.draft.emails, [LabeledValue(label: "work", value: "c@d.org")])
        XCTAssertEqual(presenterSpy.removedResponses.map(\.item), [LabeledValue(label: "home", value: "a@b.org")])
        XCTAssertEqual(presenterSpy.removedResponses.map(\.index), [1])
    }

    func test_removeItem_thatIsNotThere_isBadInput_andChangesNothing() {
        // When
        sut.removeItem(request: .init(kind: .phone, index: 1))
        sut.addItem(request: .init(kind: .tag, label: nil, value: "x"))
        sut.removeItem(request: .init(kind: .tag, index: 3))
        sut.removeItem(request: .init(kind: .tag, index: 0))
        // Then
        XCTAssertEqual(
            presenterSpy.failures,
            [
                .badInput("there is no phone to remove"),
                .badInput("there is no tag 3; the form has 1"),
                .badInput("there is no tag 0; the form has 1"),
            ])
        XCTAssertEqual(sut.draft.tags, ["x"])
        XCTAssertTrue(presenterSpy.removedResponses.isEmpty)
    }

    func test_clearField_emptiesAFieldOrAllItemsOfAKind() {
        // Given
        sut.updateField(request: .init(field: .notes, value: "n"))
        sut.addItem(request: .init(kind: .phone, label: nil, value: "555 1234"))
        // When
        sut.clearField(request: .init(name: "notes"))
        sut.clearField(request: .init(name: "phones"))
        sut.clearField(request: .init(name: "fax"))
        // Then
        XCTAssertEqual(sut.draft, EditContact.Draft())
        XCTAssertEqual(presenterSpy.clearedResponses.map(\.name), ["notes", "phones"])
        XCTAssertEqual(presenterSpy.failures, [.badInput("'fax' is not a field of the form")])
    }

    func test_reviewDraft_presentsTheDraftAndMode() {
        // Given
        makeSUT(mode: .edit(Seeds.stored(Seeds.Contacts.ann, id: 1)))
        // When
        sut.reviewDraft(request: .init())
        // Then
        XCTAssertTrue(presenterSpy.presentDraftCalled)
        XCTAssertEqual(presenterSpy.draftResponse?.draft, EditContactWorker().draft(from: Seeds.Contacts.ann))
        XCTAssertEqual(presenterSpy.draftResponse?.mode, .edit(Seeds.stored(Seeds.Contacts.ann, id: 1)))
    }

    // MARK: save and cancel

    func test_saveContact_add_insertsAndKeepsTheSavedContact() throws {
        // Given
        sut.updateField(request: .init(field: .organization, value: "Globex"))
        // When
        sut.saveContact(request: .init())
        // Then
        let expected = Contact(
            id: 5, uid: "uid-1", organization: "Globex", createdAt: Seeds.now, updatedAt: Seeds.now, version: 1)
        XCTAssertTrue(presenterSpy.presentSavedContactCalled)
        XCTAssertEqual(presenterSpy.savedResponse?.contact, expected)
        XCTAssertEqual(presenterSpy.savedResponse?.mode, .add)
        XCTAssertEqual(sut.savedContact, expected)
        XCTAssertEqual(try store.contact(id: 5), expected)
    }

    func test_saveContact_add_fromTheList_saysWhereTheContactLandedInTheListsOrder() throws {
        // Given: the list sorts by first name; Aaron Zulu is first of 5 that way (4th by last name)
        sut.listOrder = .first
        sut.updateField(request: .init(field: .given, value: "Aaron"))
        sut.updateField(request: .init(field: .family, value: "Zulu"))
        // When
        sut.saveContact(request: .init())
        // Then
        let saved = try XCTUnwrap(store.contact(id: 5))
        let added = EditContact.AddedContact(contact: saved, position: 0, total: 5)
        XCTAssertEqual(presenterSpy.savedResponse?.added, added)
        XCTAssertEqual(sut.addedContact, added)
        XCTAssertTrue(presenterSpy.failures.isEmpty)
    }

    func test_saveContact_edit_saysNoPlace_evenWithAListOrder() throws {
        // Given
        makeSUT(mode: .edit(Seeds.stored(Seeds.Contacts.ann, id: 1)))
        sut.listOrder = .last
        // When
        sut.saveContact(request: .init())
        // Then
        XCTAssertTrue(presenterSpy.presentSavedContactCalled)
        XCTAssertNil(presenterSpy.savedResponse?.added)
        XCTAssertNil(sut.addedContact)
    }

    func test_modeSet_startsTheDraftFromTheContact_andForgetsEarlierChanges() {
        // Given
        sut.updateField(request: .init(field: .given, value: "typed"))
        // When
        sut.mode = .edit(Seeds.stored(Seeds.Contacts.jose, id: 2))
        // Then
        XCTAssertEqual(sut.draft, EditContactWorker().draft(from: Seeds.Contacts.jose))
        XCTAssertEqual(sut.changes, [])
    }

    func test_saveContact_invalid_presentsEveryFieldError_andStoresNothing() throws {
        // Given
        sut.addItem(request: .init(kind: .email, label: nil, value: "nope"))
        // When
        sut.saveContact(request: .init())
        // Then
        XCTAssertFalse(presenterSpy.presentSavedContactCalled)
        XCTAssertEqual(
            presenterSpy.failures,
            [
                .invalid([
                    FieldError("name", "a contact needs a given name, a family name or an organization"),
                    FieldError("email 1", "is not an email address like name@example.org"),
                ])
            ])
        XCTAssertNil(sut.savedContact)
        XCTAssertEqual(try store.page(ContactQuery()).total, 4)
    }

    func test_saveContact_edit_updatesFromTheVersionOpened() throws {
        // Given
        makeSUT(mode: .edit(Seeds.stored(Seeds.Contacts.ann, id: 1)))
        sut.updateField(request: .init(field: .nickname, value: "Nan"))
        // When
        sut.saveContact(request: .init())
        // Then
        let stored = try XCTUnwrap(store.contact(id: 1))
        XCTAssertEqual(stored.nickname, "Nan")
        XCTAssertEqual(stored.version, 2)
        XCTAssertEqual(sut.savedContact, stored)
    }

    func test_saveContact_edit_stale_isAConflict_andOverwritesNothing() throws {
        // Given
        makeSUT(mode: .edit(Seeds.stored(Seeds.Contacts.ann, id: 1)))
        var elsewhere = try XCTUnwrap(store.contact(id: 1))
        elsewhere.notes = "theirs"
        let theirs = try store.update(elsewhere)
        sut.updateField(request: .init(field: .notes, value: "mine"))
        // When
        sut.saveContact(request: .init())
        // Then
        XCTAssertEqual(presenterSpy.failures, [.stale(current: theirs, yourVersion: 1)])
        XCTAssertEqual(try store.contact(id: 1), theirs)
        XCTAssertNil(sut.savedContact)
    }

    func test_saveContact_storageFailure_isPresented() {
        // Given
        sut = EditContactInteractor(contactsWorker: Seeds.worker(FailingContactStore()))
        sut.presenter = presenterSpy
        sut.updateField(request: .init(field: .given, value: "Ann"))
        // When
        sut.saveContact(request: .init())
        // Then
        XCTAssertEqual(presenterSpy.failures, [.storage("disk on fire")])
    }

    func test_cancel_presentsTheMode_andSavesNothing() throws {
        // Given
        sut.updateField(request: .init(field: .given, value: "Ann"))
        // When
        sut.cancel(request: .init(confirmed: true))
        // Then
        XCTAssertTrue(presenterSpy.presentCancelledCalled)
        XCTAssertEqual(presenterSpy.cancelledResponse?.mode, .add)
        XCTAssertEqual(try store.page(ContactQuery()).total, 4)
    }

    // MARK: the Worker seam

    final class EditContactStorageLogicSpy: EditContactStorageLogic {
        var inserted: [Contact] = []
        var updated: [Contact] = []
        var updateFailure: ContactsFailure?

        func insert(_ contact: Contact) throws -> Contact {
            inserted.append(contact)
            var stored = contact
            stored.id = 9
            return stored
        }
        func update(_ contact: Contact) throws -> Contact {
            if let updateFailure { throw updateFailure }
            updated.append(contact)
            return contact
        }
        var placeFailure: ContactsFailure?
        var placesAsked: [ContactsApp.SortOrder] = []
        func place(of id: Int64, sort: ContactsApp.SortOrder) throws -> (position: Int, total: Int) {
            if let placeFailure { throw placeFailure }
            placesAsked.append(sort)
            return (7, 12)
        }
    }

    func test_saveContact_add_insertsTheValidatedDraftThroughTheWorker() {
        // Given
        let workerSpy = EditContactStorageLogicSpy()
        sut = EditContactInteractor(contactsWorker: workerSpy)
        sut.presenter = presenterSpy
        sut.updateField(request: .init(field: .given, value: " Ann "))
        // When
        sut.saveContact(request: .init())
        // Then
        XCTAssertEqual(workerSpy.inserted, [Contact(givenName: "Ann")])
        XCTAssertEqual(sut.savedContact?.id, 9)
        XCTAssertEqual(presenterSpy.savedResponse?.contact.id, 9)
    }

    func test_saveContact_add_asksTheWorkerForThePlaceInTheListsOrder() {
        // Given
        let workerSpy = EditContactStorageLogicSpy()
        sut = EditContactInteractor(contactsWorker: workerSpy)
        sut.presenter = presenterSpy
        sut.listOrder = .first
        sut.updateField(request: .init(field: .given, value: "Ann"))
        // When
        sut.saveContact(request: .init())
        // Then
        XCTAssertEqual(workerSpy.placesAsked, [.first])
        XCTAssertEqual(presenterSpy.savedResponse?.added?.position, 7)
        XCTAssertEqual(presenterSpy.savedResponse?.added?.total, 12)
    }

    func test_saveContact_add_placeUnreadable_stillReportsTheSave_thenWhyNoPlace() {
        // Given: the contact is stored, but where it landed cannot be read
        let workerSpy = EditContactStorageLogicSpy()
        workerSpy.placeFailure = .storage("disk on fire")
        sut = EditContactInteractor(contactsWorker: workerSpy)
        sut.presenter = presenterSpy
        sut.listOrder = .last
        sut.updateField(request: .init(field: .given, value: "Ann"))
        // When
        sut.saveContact(request: .init())
        // Then
        XCTAssertEqual(sut.savedContact?.id, 9)
        XCTAssertTrue(presenterSpy.presentSavedContactCalled)
        XCTAssertNil(presenterSpy.savedResponse?.added)
        XCTAssertNil(sut.addedContact)
        XCTAssertEqual(presenterSpy.failures, [.storage("disk on fire")])
    }

    func test_saveContact_edit_whenTheWorkerRefuses_keepsTheFormAndPresentsWhy() {
        // Given
        let ann = Seeds.stored(Seeds.Contacts.ann, id: 1)
        let workerSpy = EditContactStorageLogicSpy()
        workerSpy.updateFailure = .stale(current: ann, yourVersion: 0)
        sut = EditContactInteractor(contactsWorker: workerSpy)
        sut.mode = .edit(ann)
        sut.presenter = presenterSpy
        // When
        sut.saveContact(request: .init())
        // Then
        XCTAssertNil(sut.savedContact)
        XCTAssertFalse(presenterSpy.presentSavedContactCalled)
        XCTAssertEqual(presenterSpy.failures, [.stale(current: ann, yourVersion: 0)])
    }

    // MARK: unsaved changes

    func test_cancel_afterEdits_asksFirst_namingEveryChange() {
        // Given: three edits, and one that changed nothing
        makeSUT(mode: .edit(Seeds.stored(Seeds.Contacts.ann, id: 1)))
        sut.updateField(request: .init(field: .given, value: "Anna"))
        sut.updateField(request: .init(field: .family, value: "Lee"))
        sut.addItem(request: .init(kind: .email, label: nil, value: "anna@example.org"))
        sut.removeItem(request: .init(kind: .phone, index: 1))
        // When
        sut.cancel(request: .init())
        // Then
        XCTAssertFalse(presenterSpy.presentCancelledCalled)
        XCTAssertEqual(presenterSpy.cancelConfirmationResponses.map(\.changes), [["given", "email 2", "phone 1"]])
    }

    func test_cancel_confirmed_dropsTheChanges_andSaysHowMany() throws {
        // Given
        makeSUT(mode: .edit(Seeds.stored(Seeds.Contacts.ann, id: 1)))
        sut.updateField(request: .init(field: .given, value: "Anna"))
        sut.addItem(request: .init(kind: .tag, label: nil, value: "friends"))
        sut.addItem(request: .init(kind: .tag, label: nil, value: "Friends"))
        // When
        sut.cancel(request: .init(confirmed: true))
        // Then
        XCTAssertEqual(presenterSpy.cancelledResponse?.changes, ["given", "tag 1"])
        XCTAssertEqual(try store.contact(id: 1)?.givenName, "Ann")
    }

    func test_reviewUnsavedChanges_presentsWhatQuittingWouldLose() {
        // When: nothing changed, then one change
        sut.reviewUnsavedChanges(request: .init())
        sut.updateField(request: .init(field: .organization, value: "Acme"))
        sut.reviewUnsavedChanges(request: .init())
        // Then
        XCTAssertEqual(presenterSpy.unsavedChangesResponses.map(\.changes), [[], ["organization"]])
    }

    // MARK: names

    func test_tidyNames_capitalisesOnlyNamesTypedInOneCase() {
        // Given
        sut.updateField(request: .init(field: .given, value: "ludwig"))
        sut.updateField(request: .init(field: .family, value: "van beethoven"))
        sut.updateField(request: .init(field: .organization, value: "acme"))
        // When
        sut.tidyNames(request: .init())
        // Then
        XCTAssertEqual(sut.draft[.given], "Ludwig")
        XCTAssertEqual(sut.draft[.family], "van Beethoven")
        XCTAssertEqual(sut.draft[.organization], "acme")
        XCTAssertEqual(presenterSpy.tidiedResponses.first?.tidied.map(\.value), ["Ludwig", "van Beethoven"])
    }

    func test_savedNames_areKeptAsTyped_withTheNameOrderChosen() throws {
        // Given
        sut.updateField(request: .init(field: .given, value: "太郎"))
        sut.updateField(request: .init(field: .family, value: "山田"))
        sut.setNameOrder(request: .init(order: .familyFirst))
        // When
        sut.saveContact(request: .init())
        // Then
        XCTAssertEqual(presenterSpy.nameOrderResponses.map(\.order), [.familyFirst])
        XCTAssertEqual(sut.savedContact?.nameOrder, .familyFirst)
        XCTAssertEqual(sut.savedContact?.fullName, "山田 太郎")
        XCTAssertEqual(sut.changes, ["given", "family", "order"])
    }
}
