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
        func displayHistory(viewModel: HistoryViewModel) { historyViewModels.append(viewModel) }

        var displayContactCalled = false
        var contactViewModel: ShowContact.FetchContact.ViewModel?
        var deletedMessage: Message?
        var messages: [Message] = []

        func displayContact(viewModel: ShowContact.FetchContact.ViewModel) { displayContactCalled = true; contactViewModel = viewModel }
        func displayDeletedContact(message: Message) { deletedMessage = message }
        func displayMessage(_ message: Message) { messages.append(message) }
    }

    func test_presentContact_formatsEveryField_inOrder() {
        // Given
        let contact = Contact(
            id: 9, uid: "urn:uuid:9", givenName: "ann-marie", familyName: "o'neil", nickname: "Nan", organization: "Acme",
            title: "CTO", phones: [LabeledValue(label: "mobile", value: "5551234567"), LabeledValue(label: "home", value: "03-1234-5678")],
            emails: [LabeledValue(label: "work", value: "ann@acme.example")],
            addresses: [PostalAddress(label: "home", street: "1 Main St", city: "Springfield", country: "USA")],
            birthday: Birthday(year: nil, month: 2, day: 29), notes: "likes tea", tags: ["friends", "work"],
            createdAt: Seeds.created, updatedAt: Seeds.now, version: 3)
        // When
        sut.presentContact(response: .init(contact: contact))
        // Then
        XCTAssertTrue(viewControllerSpy.displayContactCalled)
        XCTAssertEqual(viewControllerSpy.contactViewModel, .init(id: 9, uid: "urn:uuid:9", name: "Ann-Marie O'Neil", version: 3, fields: [
            .init(label: "Given name", value: "Ann-Marie"),
            .init(label: "Family name", value: "O'Neil"),
            .init(label: "Nickname", value: "Nan"),
            .init(label: "Organization", value: "Acme"),
            .init(label: "Title", value: "CTO"),
            .init(label: "Phone (mobile)", value: "(555) 123-4567"),
            .init(label: "Phone (home)", value: "03-1234-5678"),
            .init(label: "Email (work)", value: "ann@acme.example"),
            .init(label: "Address (home)", value: "1 Main St, Springfield, USA"),
            .init(label: "Birthday", value: "02-29"),
            .init(label: "Tags", value: "friends, work"),
            .init(label: "Notes", value: "likes tea"),
            .init(label: "Created", value: Seeds.createdText),
            .init(label: "Updated", value: Seeds.nowText),
        ]))
    }

    func test_presentContact_leavesOutEmptyFields() {
        // When
        sut.presentContact(response: .init(contact: Seeds.stored(Seeds.Contacts.ann, id: 1)))
        // Then
        XCTAssertEqual(viewControllerSpy.contactViewModel, Seeds.annDetail())
    }

    func test_presentContact_organisationOnly_isNamedByIt() {
        // When
        sut.presentContact(response: .init(contact: Seeds.stored(Seeds.Contacts.acme, id: 4)))
        // Then
        XCTAssertEqual(viewControllerSpy.contactViewModel?.name, "Acme Inc.")
        XCTAssertEqual(viewControllerSpy.contactViewModel?.fields.first, .init(label: "Organization", value: "Acme Inc."))
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
}
