import SceneCore
import XCTest

@testable import ContactsApp

/// The list's directory part (issue 31): the Interactor with a directory spy, the Presenter with
/// a display spy, the exact ViewModels.
final class ListContactsDirectoryTests: XCTestCase {
    final class ContactsDirectoryLogicSpy: ContactsDirectoryLogic {
        var hasSources = true
        var searched: [String] = []
        var answer = DirectorySearch()
        var copied: [DirectoryEntry] = []
        func search(_ text: String) -> DirectorySearch { searched.append(text); return answer }
        func copy(_ entry: DirectoryEntry) throws -> Contact {
            copied.append(entry)
            var contact = DirectoryMapping.contact(from: entry)
            contact.id = 9
            return contact
        }
    }

    final class PresenterSpy: ListContactsDirectoryPresentationLogic {
        var results: [ListContacts.SearchDirectories.Response] = []
        var entries: [ListContacts.ShowDirectoryEntry.Response] = []
        var copiedEntries: [ListContacts.CopyDirectoryEntry.Response] = []
        var failures: [DirectoryFailure] = []
        func presentDirectoryResults(response: ListContacts.SearchDirectories.Response) { results.append(response) }
        func presentDirectoryEntry(response: ListContacts.ShowDirectoryEntry.Response) { entries.append(response) }
        func presentCopiedEntry(response: ListContacts.CopyDirectoryEntry.Response) { copiedEntries.append(response) }
        func presentDirectoryFailure(_ failure: DirectoryFailure) { failures.append(failure) }
    }

    final class DisplaySpy: ListContactsDisplayLogic, ListContactsDirectoryDisplayLogic {
        var results: [ListContacts.SearchDirectories.ViewModel] = []
        var entries: [ListContacts.ShowDirectoryEntry.ViewModel] = []
        var messages: [Message] = []
        func displayDirectoryResults(viewModel: ListContacts.SearchDirectories.ViewModel) { results.append(viewModel) }
        func displayDirectoryEntry(viewModel: ListContacts.ShowDirectoryEntry.ViewModel) { entries.append(viewModel) }
        func displayMessage(_ message: Message) { messages.append(message) }
        func displayFetchedContacts(viewModel: ListContacts.FetchContacts.ViewModel) {}
        func displaySelectedContact(viewModel: ListContacts.SelectContact.ViewModel) {}
        func displayInsertedContact(viewModel: ListContacts.ShowInsertedContact.ViewModel) {}
        func displayExportedContacts(viewModel: ListContacts.ExportContacts.ViewModel) {}
        func displayCompletions(viewModel: ListContacts.CompleteReference.ViewModel) {}
        func displayDeleteConfirmation(viewModel: ListContacts.DeleteContact.ConfirmationViewModel) {}
        func displaySyncedContacts(viewModel: ListContacts.SyncContacts.ViewModel) {}
        func displayDeletedContact(viewModel: ListContacts.DeleteContact.ViewModel) {}
        func displayImportedContacts(viewModel: ListContacts.ImportContacts.ViewModel) {}
        func displayUndoneChange(viewModel: ListContacts.UndoChange.ViewModel) {}
        func displayExportedFile(viewModel: ListContacts.ExportContacts.FileViewModel) {}
    }

    static func person(_ source: String, _ uid: String, _ name: String, mail: String, phone: String? = nil)
        -> DirectoryEntry
    {
        DirectoryEntry(
            source: source, dn: "uid=\(uid),dc=\(source)",
            attributes: [("cn", [Data(name.utf8)]), ("mail", [Data(mail.utf8)]), ("o", [Data("Acme".utf8)])]
                + (phone.map { [("telephoneNumber", [Data($0.utf8)])] } ?? []))
    }

    var sut: ListContactsInteractor!
    var directorySpy: ContactsDirectoryLogicSpy!
    var presenterSpy: PresenterSpy!

    override func setUp() {
        super.setUp()
        let store = Seeds.book()
        directorySpy = ContactsDirectoryLogicSpy()
        sut = ListContactsInteractor(
            worker: Seeds.worker(store), transferWorker: Seeds.transferWorker(store),
            directoryWorker: directorySpy, pageSize: 20)
        presenterSpy = PresenterSpy()
        sut.directoryPresenter = presenterSpy
    }

    func test_searchDirectories_asksTheWorker_andNumbersResultsPerDirectory() {
        // Given
        directorySpy.answer = DirectorySearch(answers: [
            DirectoryAnswer(entries: [
                Self.person("corp", "a", "Ann Lee", mail: "ann@corp.test"),
                Self.person("corp", "b", "Bo Lee", mail: "bo@corp.test"),
            ]),
            DirectoryAnswer(entries: [Self.person("lab", "c", "Cy Lee", mail: "cy@lab.test")]),
        ])
        // When
        sut.searchDirectories(request: .init(search: "lee"))
        // Then
        XCTAssertEqual(directorySpy.searched, ["lee"])
        XCTAssertEqual(presenterSpy.results.map(\.search), [directorySpy.answer])
        XCTAssertTrue(sut.isDirectoryReference("corp:2"))
        XCTAssertTrue(sut.isDirectoryReference("lab:1"))
        XCTAssertFalse(sut.isDirectoryReference("lab:2"))
    }

    func test_searchDirectories_withoutDirectories_orWithATooLongOrEmptySearch_asksNothing() {
        directorySpy.hasSources = false
        sut.searchDirectories(request: .init(search: "lee"))
        directorySpy.hasSources = true
        sut.searchDirectories(
            request: .init(search: String(repeating: "a", count: ContactLimits.maximumSearchLength + 1)))
        sut.searchDirectories(request: .init(search: "  "))
        XCTAssertEqual(directorySpy.searched, [])
        XCTAssertTrue(presenterSpy.results.isEmpty)
    }

    func test_showAndCopy_takeTheLastSearchsReference() {
        // Given
        let ann = Self.person("corp", "a", "Ann Lee", mail: "ann@corp.test")
        directorySpy.answer = DirectorySearch(answers: [DirectoryAnswer(entries: [ann])])
        sut.searchDirectories(request: .init(search: "ann"))
        // When
        sut.showDirectoryEntry(request: .init(reference: "corp:1"))
        sut.copyDirectoryEntry(request: .init(reference: " corp:1 "))
        sut.copyDirectoryEntry(request: .init(reference: "corp:7"))
        // Then
        XCTAssertEqual(presenterSpy.entries.map(\.entry), [ann])
        XCTAssertEqual(directorySpy.copied, [ann])
        XCTAssertEqual(presenterSpy.copiedEntries.map(\.directory), ["corp"])
        XCTAssertEqual(presenterSpy.failures.count, 1)
        XCTAssertTrue(presenterSpy.failures[0].description.hasPrefix("no directory result corp:7"))
    }

    func test_presenter_labelsRowsWithTheirDirectory_andSaysNotices() {
        // Given
        let display = DisplaySpy()
        let presenter = ListContactsPresenter(formatter: Seeds.formatter)
        presenter.viewController = display
        let search = DirectorySearch(answers: [
            DirectoryAnswer(entries: [
                Self.person("corp", "a", "Ann \u{1B}[31mLee", mail: "ann@corp.test", phone: "+15550100")
            ]),
            DirectoryAnswer(failure: .directory(name: "lab", .timeout, "no complete answer within 3 s")),
        ])
        // When
        presenter.presentDirectoryResults(response: .init(search: search))
        // Then
        XCTAssertEqual(
            display.results,
            [
                ListContacts.SearchDirectories.ViewModel(
                    rows: [
                        .init(
                            reference: "corp:1", directory: "corp", dn: "uid=a,dc=corp", name: "Ann  [31mLee",
                            organization: "Acme",
                            email: "ann@corp.test", phone: Seeds.formatter.phone("+15550100"))
                    ],
                    notices: ["directory lab: no complete answer within 3 s"],
                    caption: "1 person in the directories; 'show corp:1' for every field, 'copy corp:1' to keep")
            ])
    }

    func test_presenter_showsAnEntryWithItsPhotoAndSource() {
        let display = DisplaySpy()
        let presenter = ListContactsPresenter(formatter: Seeds.formatter)
        presenter.viewController = display
        var entry = Self.person("corp", "a", "Ann Lee", mail: "ann@corp.test")
        entry.attributes.append(("jpegPhoto", [Data([0xFF, 0xD8, 0xFF])]))
        presenter.presentDirectoryEntry(response: .init(entry: entry, contact: DirectoryMapping.contact(from: entry)))
        let model = display.entries[0]
        XCTAssertEqual(model.name, "Ann Lee")
        XCTAssertEqual(model.fields.map(\.label), ["Organization", "Email (work)", "Photo", "Directory", "DN"])
        XCTAssertEqual(model.photo, "data:image/jpeg;base64,/9j/")
    }
}
