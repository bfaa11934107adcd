import SceneCore
import XCTest

@testable import ContactsApp

final class ShowContactPresenterTests: XCTestCase {
    var sut: ShowContactPresenter!
    var viewControllerSpy: ShowContactDisplayLogicSpy!

    override func setUp() {
        super.setUp()
        viewControllerSpy = ShowContactDisplayLogicSpy()
        sut = ShowContactPresenter(formatter: Seeds.formatter)
        sut.viewController = viewControllerSpy
    }

    final class ShowContactDisplayLogicSpy: ShowContactDisplayLogic {
        var historyViewModels: [HistoryViewModel] = []
        func displayHistory(viewModel: ShowContact.ShowHistory.ViewModel) { historyViewModels.append(viewModel) }

        var displayContactCalled = false
        var contactViewModel: ShowContact.FetchContact.ViewModel?
        var deletedMessage: Message?
        var messages: [Message] = []

        func displayFetchedContact(viewModel: ShowContact.FetchContact.ViewModel) {
            displayContactCalled = true; contactViewModel = viewModel
        }
        func displayDeletedContact(viewModel: ShowContact.DeleteContact.ViewModel) {
            deletedMessage = viewModel.message
        }
        var savedPhotoMessages: [Message] = []
        func displaySavedPhoto(viewModel: ShowContact.SavePhoto.ViewModel) {
            savedPhotoMessages.append(viewModel.message)
        }
        var contactToEditViewModels: [ShowContact.EditContact.ViewModel] = []
        func displayContactToEdit(viewModel: ShowContact.EditContact.ViewModel) {
            contactToEditViewModels.append(viewModel)
        }
        var selectedViewModels: [ShowContact.SelectContact.ViewModel] = []
        func displaySelectedContact(viewModel: ShowContact.SelectContact.ViewModel) {
            selectedViewModels.append(viewModel)
        }
        var completionViewModels: [ShowContact.CompleteReference.ViewModel] = []
        func displayCompletedReference(viewModel: ShowContact.CompleteReference.ViewModel) {
            completionViewModels.append(viewModel)
        }
        func displayMessage(_ message: Message) { messages.append(message) }
    }

    func test_presentContact_formatsEveryField_inOrder() {
        // Given
        let contact = Contact(
            id: 9, uid: "urn:uuid:9", givenName: "ann-marie", familyName: "o'neil", nickname: "Nan",
            organization: "Acme",
            title: "CTO",
            phones: [
                LabeledValue(label: "mobile", value: "5551234567"), LabeledValue(label: "home", value: "03-1234-5678"),
            ],
            emails: [LabeledValue(label: "work", value: "ann@acme.example")],
            addresses: [PostalAddress(label: "home", street: "1 Main St", city: "Springfield", country: "USA")],
            birthday: Birthday(year: nil, month: 2, day: 29), notes: "likes tea", tags: ["friends", "work"],
            createdAt: Seeds.created, updatedAt: Seeds.now, version: 3,
            websites: [LabeledValue(label: "work", value: "https://acme.example/ann")])
        // When
        sut.presentFetchedContact(response: .init(contact: contact))
        // Then
        XCTAssertTrue(viewControllerSpy.displayContactCalled)
        XCTAssertEqual(
            viewControllerSpy.contactViewModel,
            .init(
                id: 9, uid: "urn:uuid:9", name: "ann-marie o'neil", version: 3,
                fields: [
                    .init(label: "Given name", value: "ann-marie"),
                    .init(label: "Family name", value: "o'neil"),
                    .init(label: "Nickname", value: "Nan"),
                    .init(label: "Organization", value: "Acme"),
                    .init(label: "Title", value: "CTO"),
                    .init(label: "Phone (mobile)", value: "5551234567"),
                    .init(label: "Phone (home)", value: "03-1234-5678"),
                    .init(label: "Email (work)", value: "ann@acme.example"),
                    .init(label: "Address (home)", value: "1 Main St, Springfield, USA"),
                    .init(label: "Website (work)", value: "https://acme.example/ann"),
                    .init(label: "Birthday", value: "29 Feb"),
                    // In the field table's order (Notes came after Tags before it)
                    .init(label: "Notes", value: "likes tea"),
                    .init(label: "Tags", value: "friends, work"),
                    .init(label: "Created", value: Seeds.createdText),
                    .init(label: "Updated", value: Seeds.nowText),
                ],
                contact: .init(
                    id: 9, uid: "urn:uuid:9", version: 3, givenName: "ann-marie", familyName: "o'neil",
                    nameOrder: "given-first", nickname: "Nan",
                    organization: "Acme", title: "CTO", phones: contact.phones, emails: contact.emails,
                    addresses: contact.addresses, websites: contact.websites,
                    birthday: Birthday(year: nil, month: 2, day: 29), tags: ["friends", "work"],
                    notes: "likes tea", displayName: "ann-marie o'neil", formattedName: "", photo: nil,
                    created: "2023-11-14T22:13:20Z", updated: "2023-11-15T22:13:20Z")))
    }

    func test_presentContact_structuredContact_keepsValuesAsStored_inUTCWhateverTheTimeZone() throws {
        // Given: a formatter for Tokyo, and a contact with no birthday
        sut = ShowContactPresenter(
            formatter: ContactFormatter(
                timeZone: try XCTUnwrap(TimeZone(identifier: "Asia/Tokyo"))))
        sut.viewController = viewControllerSpy
        var contact = Seeds.stored(Seeds.Contacts.taro, id: 3)
        contact.birthday = nil
        // When
        sut.presentFetchedContact(response: .init(contact: contact))
        // Then
        let record = try XCTUnwrap(viewControllerSpy.contactViewModel?.contact)
        XCTAssertEqual(record.givenName, contact.givenName)
        XCTAssertEqual(record.phones, contact.phones)
        XCTAssertNil(record.birthday)
        XCTAssertEqual(record.created, "2023-11-14T22:13:20Z")
        XCTAssertEqual(
            viewControllerSpy.contactViewModel?.fields.last, .init(label: "Updated", value: "2023-11-15 07:13"))
    }

    func test_presentContact_leavesOutEmptyFields() {
        // When
        sut.presentFetchedContact(response: .init(contact: Seeds.stored(Seeds.Contacts.ann, id: 1)))
        // Then
        XCTAssertEqual(viewControllerSpy.contactViewModel, Seeds.annDetail())
    }

    func test_presentContact_organisationOnly_isNamedByIt() {
        // When
        sut.presentFetchedContact(response: .init(contact: Seeds.stored(Seeds.Contacts.acme, id: 4)))
        // Then
        XCTAssertEqual(viewControllerSpy.contactViewModel?.name, "Acme Inc.")
        XCTAssertEqual(
            viewControllerSpy.contactViewModel?.fields.first, .init(label: "Organization", value: "Acme Inc."))
    }

    func test_presentDeletedContact_isASuccessMessage() {
        // When
        sut.presentDeletedContact(response: .init(contact: Seeds.stored(Seeds.Contacts.jose, id: 2)))
        // Then
        XCTAssertEqual(viewControllerSpy.deletedMessage, .success("Deleted José Ñúñez"))
    }

    func test_presentFailure_isTheFormattersMessage() {
        // When
        sut.presentFailure(.storage("disk on fire"))
        // Then
        XCTAssertEqual(viewControllerSpy.messages, [.error("storage failed: disk on fire", code: .storage)])
    }

    func test_presentSelectedContact_passesItsNumberAndPurpose() {
        // When
        sut.presentSelectedContact(response: .init(contact: Seeds.stored(Seeds.Contacts.jose, id: 2), purpose: .edit))
        // Then
        XCTAssertEqual(viewControllerSpy.selectedViewModels, [.init(id: 2, purpose: .edit)])
    }

    func test_presentContactToEdit_passesItsNumber() {
        // When
        sut.presentContactToEdit(response: .init(contact: Seeds.stored(Seeds.Contacts.ann, id: 1)))
        // Then
        XCTAssertEqual(viewControllerSpy.contactToEditViewModels, [.init(id: 1)])
        XCTAssertTrue(viewControllerSpy.selectedViewModels.isEmpty)
    }

    func test_presentSavedPhoto_saysWhoseAndWhere() throws {
        // Given
        let photo = try XCTUnwrap(ContactPhoto(line: "PHOTO;MEDIATYPE=image/png:https://example.org/ann.png"))
        // When
        sut.presentSavedPhoto(
            response: .init(contact: Seeds.stored(Seeds.Contacts.ann, id: 1), photo: photo, path: "ann.png"))
        // Then
        XCTAssertEqual(
            viewControllerSpy.savedPhotoMessages,
            [.success("Saved the photo of Ann Lee (link: https://example.org/ann.png) to ann.png")])
        XCTAssertTrue(viewControllerSpy.messages.isEmpty)
    }

    func test_presentCompletedReference_offersTheNames() {
        // When
        sut.presentCompletedReference(response: .init(names: ["Ann Lee"]))
        // Then
        XCTAssertEqual(viewControllerSpy.completionViewModels, [.init(candidates: ["Ann Lee"])])
    }
}
