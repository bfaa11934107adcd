import SceneCore
import XCTest

@testable import ContactsApp

final class ListContactsViewControllerTests: XCTestCase {
    var sut: ListContactsViewController!
    var output: DisplaySinkSpy!
    var interactorSpy: ListContactsBusinessLogicSpy!
    var routerSpy: ListContactsRoutingLogicSpy!

    override func setUp() {
        super.setUp()
        output = DisplaySinkSpy()
        interactorSpy = ListContactsBusinessLogicSpy()
        routerSpy = ListContactsRoutingLogicSpy()
        sut = ListContactsViewController(output: output)
        sut.interactor = interactorSpy
        interactorSpy.viewController = sut
        sut.router = routerSpy
    }

    final class ListContactsBusinessLogicSpy: ListContactsBusinessLogic {
        var undoRequests: [ListContacts.UndoChange.Request] = []
        func undoChange(request: ListContacts.UndoChange.Request) { undoRequests.append(request) }

        var fetchRequests: [ListContacts.FetchContacts.Request] = []
        var selectRequests: [ListContacts.SelectContact.Request] = []
        var deleteRequests: [ListContacts.DeleteContact.Request] = []
        var showInsertedContactCalled = false
        var completeRequests: [ListContacts.CompleteReference.Request] = []
        var importRequests: [ListContacts.ImportContacts.Request] = []
        var exportRequests: [ListContacts.ExportContacts.Request] = []

        func fetchContacts(request: ListContacts.FetchContacts.Request) { fetchRequests.append(request) }
        func selectContact(request: ListContacts.SelectContact.Request) { selectRequests.append(request) }
        func deleteContact(request: ListContacts.DeleteContact.Request) { deleteRequests.append(request) }
        func showInsertedContact(request: ListContacts.ShowInsertedContact.Request) { showInsertedContactCalled = true }
        func importContacts(request: ListContacts.ImportContacts.Request) { importRequests.append(request) }
        func exportContacts(request: ListContacts.ExportContacts.Request) { exportRequests.append(request) }
        var syncRequests: [ListContacts.SyncContacts.Request] = []
        func syncContacts(request: ListContacts.SyncContacts.Request) { syncRequests.append(request) }
        /// Answers as the real cycle does: through the Presenter, back to the ViewController.
        weak var viewController: ListContactsDisplayLogic?
        func completeReference(request: ListContacts.CompleteReference.Request) {
            completeRequests.append(request)
            viewController?.displayCompletions(viewModel: .init(candidates: ["Ann Lee"]))
        }
    }

    final class ListContactsRoutingLogicSpy: ListContactsRoutingLogic, ListContactsDataPassing {
        var routeToShowContactCalled = false
        var routeToAddContactCalled = false
        var dataStore: ListContactsDataStore?

        func routeToShowContact() { routeToShowContactCalled = true }
        func routeToAddContact() { routeToAddContactCalled = true }
        var routeToEditContactCalled = false
        func routeToEditContact() { routeToEditContactCalled = true }
        /// The tools' scenes routed to, with the action each was handed.
        var routed: [String] = []
        func routeToHistory(_ action: ListContacts.Action, _ call: ActionCall) { routed.append("history: \(action)") }
        func routeToTrash(_ action: ListContacts.Action, _ call: ActionCall) { routed.append("trash: \(action)") }
        func routeToDuplicates(_ action: ListContacts.Action, _ call: ActionCall) {
            routed.append("duplicates: \(action)")
        }
        func routeToBirthdays(_ action: ListContacts.Action, _ call: ActionCall) {
            routed.append("birthdays: \(action)")
        }
    }

    typealias Fetch = ListContacts.FetchContacts.Request

    func test_journalActions_becomeTheirRequests_withWhatWasTyped() {
        // When
        sut.perform(ActionCall(ListContacts.Action.undo))
        sut.perform(ActionCall(ListContacts.Action.undo, ["change": .integer(12)]))
        sut.perform(ActionCall(ListContacts.Action.redo))
        // Then
        XCTAssertEqual(
            interactorSpy.undoRequests, [.init(redo: false), .init(redo: false, changeSet: 12), .init(redo: true)])
    }

    /// History, trash, duplicates and birthdays are scenes of their own: the list routes their
    /// actions there at once (their Requests: `ToolScenesViewControllerTests`, `JournalScenesViewControllerTests`).
    func test_toolActions_routeToTheirScenes() {
        // When
        for action in [ListContacts.Action.history, .trash, .restore, .purge, .duplicates, .merge, .birthdays] {
            sut.perform(ActionCall(action))
        }
        // Then
        XCTAssertEqual(
            routerSpy.routed,
            [
                "history: history", "trash: trash", "trash: restore", "trash: purge",
                "duplicates: duplicates", "duplicates: merge", "birthdays: birthdays",
            ])
        XCTAssertEqual(interactorSpy.fetchRequests, [])
        XCTAssertTrue(output.displayed.isEmpty)
    }

    func test_import_passesThePathAndFormat_defaultingToAuto() {
        // When
        sut.perform(ActionCall(ListContacts.Action.import, ["path": .string("/tmp/book.vcf")]))
        sut.perform(
            ActionCall(ListContacts.Action.import, ["path": .string("/tmp/book.txt"), "format": .string("csv")]))
        // Then
        XCTAssertEqual(
            interactorSpy.importRequests,
            [
                .init(path: "/tmp/book.vcf", format: .auto),
                .init(path: "/tmp/book.txt", format: .csv),
            ])
    }

    func test_sync_passesTheAccount_orNoneForEvery() {
        // When
        sut.perform(ActionCall(ListContacts.Action.sync))
        sut.perform(ActionCall(ListContacts.Action.sync, ["account": .string("home")]))
        // Then
        XCTAssertEqual(interactorSpy.syncRequests, [.init(account: nil), .init(account: "home")])
    }

    func test_export_passesEveryOption_withSafeDefaults() {
        // When
        sut.perform(ActionCall(ListContacts.Action.export, ["path": .string("-")]))
        sut.perform(
            ActionCall(
                ListContacts.Action.export,
                [
                    "path": .string("b.vcf"), "format": .string("vcard3"),
                    "contacts": .string("search"), "overwrite": .boolean(true),
                ]))
        // Then
        XCTAssertEqual(
            interactorSpy.exportRequests,
            [
                .init(path: "-", format: nil, scope: .all, overwrite: false),
                .init(path: "b.vcf", format: .vcard3, scope: .search, overwrite: true),
            ])
    }

    func test_list_fetchesAPage_andClearsTheSearch_andTheGroup() {
        // When
        sut.perform(ActionCall(ListContacts.Action.list, ["page": .integer(2), "limit": .integer(5)]))
        sut.perform(ActionCall(ListContacts.Action.list))
        sut.perform(ActionCall(ListContacts.Action.list, ["group": .string("Family")]))
        sut.perform(ActionCall(ListContacts.Action.list, ["ungrouped": .boolean(true)]))
        // Then
        XCTAssertEqual(
            interactorSpy.fetchRequests,
            [
                Fetch(page: .number(2), limit: 5, search: "", filter: .all, book: .some(nil)),
                Fetch(page: .number(1), search: "", filter: .all, book: .some(nil)),
                Fetch(page: .number(1), search: "", filter: .init(group: "Family"), book: .some(nil)),
                Fetch(page: .number(1), search: "", filter: .init(ungrouped: true), book: .some(nil)),
            ])
    }

    func test_list_fetchesAPage_andClearsTheSearch_andTheBook() {
        // When
        sut.perform(ActionCall("list", ["page": .integer(2), "limit": .integer(5)]))
        sut.perform(ActionCall("list"))
        sut.perform(ActionCall("list", ["book": .string("work")]))
        // Then: `list` sets the book every time, to none when not named
        XCTAssertEqual(
            interactorSpy.fetchRequests,
            [
                Fetch(page: .number(2), limit: 5, search: "", filter: .all, book: .some(nil)),
                Fetch(page: .number(1), search: "", filter: .all, book: .some(nil)),
                Fetch(page: .number(1), search: "", filter: .all, book: "work"),
            ])
    }

    func test_move_splitsTheContactsFromTheBook_andBooksAsksForTheList() {
        // Given
        let booksSpy = ListContactsBooksBusinessLogicSpy()
        sut.booksInteractor = booksSpy
        // When
        sut.perform(try! XCTUnwrap(CommandLineParser.parse(#"move 3 "ann lee" work"#, actions: sut.descriptor.actions)))
        sut.perform(ActionCall("move", ["contacts": .string("7"), "book": .string("local")]))
        sut.perform(ActionCall("move", ["contacts": .string("7")]))
        sut.perform(ActionCall("books"))
        sut.perform(ActionCall("copy", ["contacts": .string("12 local")]))
        // Then
        XCTAssertEqual(
            booksSpy.moveRequests,
            [
                .init(references: ["3", "ann lee"], book: "work"),
                .init(references: ["7"], book: "local"),
                .init(references: ["7"], book: ""),
                .init(references: ["12"], book: "local", copy: true),
            ])
        XCTAssertEqual(booksSpy.showBooksRequests, [.init()])
    }

    final class ListContactsBooksBusinessLogicSpy: ListContactsBooksBusinessLogic {
        var showBooksRequests: [ListContacts.ShowBooks.Request] = []
        var moveRequests: [ListContacts.MoveContacts.Request] = []
        func showBooks(request: ListContacts.ShowBooks.Request) { showBooksRequests.append(request) }
        func moveContacts(request: ListContacts.MoveContacts.Request) { moveRequests.append(request) }
    }

    func test_pagingSortAndSearch_becomeFetchRequests() {
        // When
        sut.perform(ActionCall(ListContacts.Action.next))
        sut.perform(ActionCall(ListContacts.Action.previous))
        sut.perform(ActionCall(ListContacts.Action.page, ["number": .integer(3)]))
        sut.perform(ActionCall(ListContacts.Action.sort, ["by": .string("first")]))
        sut.perform(ActionCall(ListContacts.Action.search, ["text": .string("ann lee")]))
        // Then
        XCTAssertEqual(
            interactorSpy.fetchRequests,
            [
                Fetch(page: .next), Fetch(page: .previous), Fetch(page: .number(3)), Fetch(sort: .first),
                Fetch(search: "ann lee"),
            ])
    }

    func test_showAndDelete_passTheReferenceAsTyped() {
        // When
        sut.perform(ActionCall(ListContacts.Action.show, ["contact": .string("#2")]))
        sut.perform(ActionCall(ListContacts.Action.delete, ["contact": .string("ann lee")]))
        // Then
        XCTAssertEqual(interactorSpy.selectRequests, [.init(reference: "#2")])
        XCTAssertEqual(interactorSpy.deleteRequests, [.init(reference: "ann lee")])
        // When: confirmed
        sut.perform(ActionCall(ListContacts.Action.delete, ["contact": .string("ann"), "confirm": .boolean(true)]))
        // Then
        XCTAssertEqual(interactorSpy.deleteRequests.last, .init(reference: "ann", confirmed: true))
        XCTAssertFalse(routerSpy.routeToShowContactCalled)
    }

    func test_add_routesToTheForm() {
        // When
        sut.perform(ActionCall(ListContacts.Action.add))
        // Then
        XCTAssertTrue(routerSpy.routeToAddContactCalled)
        XCTAssertTrue(interactorSpy.fetchRequests.isEmpty)
    }

    func test_returningToTheList_asksForTheInsertedContact_butBeingPushedDoesNot() {
        // When
        sut.sceneDidBecomeActive(.pushed)
        // Then
        XCTAssertFalse(interactorSpy.showInsertedContactCalled)
        // When
        sut.sceneDidBecomeActive(.returned)
        // Then
        XCTAssertTrue(interactorSpy.showInsertedContactCalled)
    }

    func test_completions_forContacts_comeFromTheInteractor() {
        XCTAssertEqual(sut.completions(for: "contact", prefix: "an"), ["Ann Lee"])
        XCTAssertEqual(interactorSpy.completeRequests, [.init(prefix: "an")])
        XCTAssertEqual(sut.completions(for: "label", prefix: "an"), [])
    }

    func test_displaySyncedContacts_sendsSessionsItsMessage_andKeepsTheViewModelForTheCommandLine() {
        // Given
        let synced = ListContacts.SyncContacts.ViewModel(
            accounts: [.init(summary: "home: pulled 1, pushed 0, merged 0, conflicts 0", error: nil)],
            message: .success("home: pulled 1, pushed 0, merged 0, conflicts 0"))
        // When
        sut.displaySyncedContacts(viewModel: synced)
        // Then
        XCTAssertEqual(output.displayed.count, 1)
        XCTAssertEqual(output.displayed.first as? Message, .success("home: pulled 1, pushed 0, merged 0, conflicts 0"))
        XCTAssertEqual(sut.syncedContacts, synced)
    }

    func test_displayedViewModels_goToTheOutput() {
        // Given
        let inserted = ListContacts.ShowInsertedContact.ViewModel(row: Seeds.Rows.ann, position: 1, page: 1, text: "t")
        // When
        sut.displayFetchedContacts(viewModel: Seeds.bookListing)
        sut.displayInsertedContact(viewModel: inserted)
        sut.displayMessage(.info("hi"))
        // Then
        XCTAssertEqual(output.displayed.count, 3)
        XCTAssertEqual(output.displayed[0] as? ListContacts.FetchContacts.ViewModel, Seeds.bookListing)
        XCTAssertEqual(output.displayed[1] as? ListContacts.ShowInsertedContact.ViewModel, inserted)
        XCTAssertEqual(output.displayed[2] as? Message, .info("hi"))
    }

    func test_displaySelectedContact_routesToTheDetail_withoutDisplaying() {
        // When
        sut.displaySelectedContact(viewModel: .init(id: 1))
        // Then
        XCTAssertTrue(routerSpy.routeToShowContactCalled)
        XCTAssertTrue(output.displayed.isEmpty)
    }

    func test_descriptor_andTitle() {
        XCTAssertEqual(sut.descriptor.id, "contacts")
        XCTAssertEqual(
            sut.descriptor.actions.map(\.name),
            [
                "list", "next", "previous", "page", "sort", "search", "show", "edit", "add", "delete", "import",
                "export",
                "undo", "redo", "history", "trash", "restore", "purge", "sync", "duplicates", "merge", "birthdays",
                "groups", "group", "books", "move", "copy",
            ])
        XCTAssertEqual(sut.title, "contacts")
    }

    func test_displayDeleteConfirmation_asksToDeleteByNumber_andRefusesWhereNobodyCanAnswer() throws {
        // When
        sut.displayDeleteConfirmation(
            viewModel: .init(
                id: 2, question: "Delete José Ñúñez (#2)?", declined: "Nothing deleted",
                refusal: "not deleted"))
        // Then
        let request = try XCTUnwrap(output.displayed.first as? ConfirmationRequest)
        XCTAssertEqual(
            request,
            ConfirmationRequest(
                question: "Delete José Ñúñez (#2)?",
                confirmed: ActionCall(
                    ListContacts.Action.delete, ["contact": .string("2"), "confirm": .boolean(true)]),
                declined: .info("Nothing deleted"), otherwise: .refuse,
                refusal: .error("not deleted", code: .confirmationRequired)))
    }

    func test_edit_selectsTheContactToEdit_andDisplayingTheSelectionRoutesToTheForm() {
        // When
        sut.perform(ActionCall(ListContacts.Action.edit, ["contact": .string("ann lee")]))
        sut.displaySelectedContact(viewModel: .init(id: 1, purpose: .edit))
        // Then
        XCTAssertEqual(interactorSpy.selectRequests, [.init(reference: "ann lee", purpose: .edit)])
        XCTAssertTrue(routerSpy.routeToEditContactCalled)
        XCTAssertFalse(routerSpy.routeToShowContactCalled)
    }
}
