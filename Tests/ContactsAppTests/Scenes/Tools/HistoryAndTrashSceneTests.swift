import Foundation
import SceneCore
import XCTest

@testable import ContactsApp

/// The history scene (`history`), each part of its VIP cycle alone; the journal is a spy.
final class HistoryJournalTests: XCTestCase {
    typealias ContactsJournalLogicSpy = ListContactsJournalInteractorTests.ContactsJournalLogicSpy

    final class PresenterSpy: HistoryPresentationLogic {
        var responses: [History.ShowHistory.Response] = []
        var failures: [ContactsFailure] = []
        func presentHistory(response: History.ShowHistory.Response) { responses.append(response) }
        func presentFailure(_ failure: ContactsFailure) { failures.append(failure) }
    }

    var history: HistoryInteractor!
    var historyPresenter: PresenterSpy!
    var journalSpy: ContactsJournalLogicSpy!
    private let bob = TrashedContact(
        contact: Contact(id: 9, uid: "u-bob", givenName: "Bob", familyName: "Stone"),
        deletedAt: Seeds.now)

    override func setUp() {
        super.setUp()
        historyPresenter = PresenterSpy()
        journalSpy = ContactsJournalLogicSpy()
        history = HistoryInteractor(
            worker: Seeds.worker(Seeds.book()), journalWorker: journalSpy, presenter: historyPresenter)
    }

    func test_history_ofTheBook_andOfAContactNamed() {
        // When
        history.showHistory(request: .init(reference: ""))
        history.showHistory(request: .init(reference: "ann"))
        // Then
        XCTAssertEqual(journalSpy.historyContacts.map { $0?.givenName }, [nil, "Ann"])
        XCTAssertEqual(historyPresenter.responses.count, 2)
    }

    func test_history_ofADeletedContact_findsItInTheTrash() {
        // Given
        journalSpy.items = [bob]
        // When
        history.showHistory(request: .init(reference: "bob"))
        // Then
        XCTAssertEqual(journalSpy.resolvedReferences, ["bob"])
        XCTAssertEqual(journalSpy.historyContacts, [bob.contact])
    }

    func test_history_aContactNamedNowhere_isAClearError() {
        // When: neither in the book nor in the (empty) trash
        history.showHistory(request: .init(reference: "zed"))
        // Then
        XCTAssertEqual(historyPresenter.failures, [.badInput("No contact in the trash matches 'zed'")])
        XCTAssertTrue(historyPresenter.responses.isEmpty)
    }
}

final class HistoryPresenterTests: XCTestCase {
    final class DisplaySpy: HistoryDisplayLogic {
        var historyViewModels: [HistoryViewModel] = []
        var messages: [Message] = []
        func displayHistory(viewModel: HistoryViewModel) { historyViewModels.append(viewModel) }
        func displayMessage(_ message: Message) { messages.append(message) }
    }

    var sut: HistoryPresenter!
    var viewControllerSpy: DisplaySpy!

    override func setUp() {
        super.setUp()
        viewControllerSpy = DisplaySpy()
        sut = HistoryPresenter(formatter: Seeds.formatter)
        sut.viewController = viewControllerSpy
    }

    private func change(_ id: Int64, _ summary: String, before: Contact?, after: Contact?, undone: Bool = false)
        -> ChangeSetRecord
    {
        ChangeSetRecord(
            id: id, at: Seeds.now, origin: "rpc", kind: .edit, summary: summary, undone: undone,
            entries: [ChangeEntry(contactID: 9, uid: "u", before: before, after: after)])
    }

    func test_history_showsWhenWhereAndEachFieldChanged_newestFirst() {
        // Given
        let bob = Contact(id: 9, uid: "u", givenName: "Bob", familyName: "Stone")
        var acme = bob
        acme.organization = "Acme"
        acme.phones = [LabeledValue(label: "work", value: "555 0100")]
        // When
        sut.presentHistory(
            response: .init(
                changes: [change(2, "edited bob stone", before: bob, after: acme, undone: true)],
                contact: nil))
        // Then
        XCTAssertEqual(
            viewControllerSpy.historyViewModels,
            [
                HistoryViewModel(
                    changes: [
                        .init(
                            id: 2, when: Seeds.nowText, origin: "rpc", summary: "edited bob stone", undone: true,
                            details: ["organization: (empty) → Acme", "phones: (empty) → work: 555 0100"])
                    ], caption: "")
            ])
        XCTAssertEqual(
            viewControllerSpy.historyViewModels.first?.layout,
            .lines([
                "#2  \(Seeds.nowText)  rpc  edited bob stone  (undone)",
                "    organization: (empty) → Acme",
                "    phones: (empty) → work: 555 0100",
            ]))
    }

    func test_history_ofAContactWithoutAny_saysSo() {
        sut.presentHistory(response: .init(changes: [], contact: Contact(id: 9, givenName: "Bob", familyName: "Stone")))
        XCTAssertEqual(viewControllerSpy.historyViewModels.first?.layout, .lines(["No history for Bob Stone"]))
    }

}

/// The trash scene (`trash`, `restore`, `purge`), each part of its VIP cycle alone.
final class TrashJournalTests: XCTestCase {
    typealias ContactsJournalLogicSpy = ListContactsJournalInteractorTests.ContactsJournalLogicSpy

    final class PresenterSpy: TrashPresentationLogic {
        var trashResponses: [Trash.ShowTrash.Response] = []
        var restoredResponses: [Trash.RestoreContact.Response] = []
        var purgedResponses: [Trash.PurgeContacts.Response] = []
        var purgeConfirmations: [Trash.PurgeContacts.ConfirmationResponse] = []
        var failures: [ContactsFailure] = []
        func presentTrash(response: Trash.ShowTrash.Response) { trashResponses.append(response) }
        func presentRestoredContact(response: Trash.RestoreContact.Response) { restoredResponses.append(response) }
        func presentPurgedContacts(response: Trash.PurgeContacts.Response) { purgedResponses.append(response) }
        func presentPurgeConfirmation(response: Trash.PurgeContacts.ConfirmationResponse) {
            purgeConfirmations.append(response)
        }
        func presentFailure(_ failure: ContactsFailure) { failures.append(failure) }
    }

    var sut: TrashInteractor!
    var presenterSpy: PresenterSpy!
    var journalSpy: ContactsJournalLogicSpy!
    private let bob = TrashedContact(
        contact: Contact(id: 9, uid: "u-bob", givenName: "Bob", familyName: "Stone"),
        deletedAt: Seeds.now)

    override func setUp() {
        super.setUp()
        presenterSpy = PresenterSpy()
        journalSpy = ContactsJournalLogicSpy()
        sut = TrashInteractor(journalWorker: journalSpy, presenter: presenterSpy)
    }

    func test_restore_resolvesInTheTrash_andPresentsTheContact() {
        // Given
        journalSpy.items = [bob]
        // When
        sut.restoreContact(request: .init(reference: "#9"))
        // Then
        XCTAssertEqual(journalSpy.restored, [bob])
        XCTAssertEqual(presenterSpy.restoredResponses.map(\.contact), [bob.contact])
    }

    func test_purge_unconfirmed_erasesNothing_andAsks() {
        // Given
        journalSpy.items = [bob]
        // When
        sut.purgeContacts(request: .init(reference: "bob"))
        sut.purgeContacts(request: .init(reference: ""))
        // Then
        XCTAssertTrue(journalSpy.purged.isEmpty)
        XCTAssertEqual(presenterSpy.purgeConfirmations.map(\.contact), [bob.contact, nil])
        XCTAssertEqual(presenterSpy.purgeConfirmations.map(\.trashCount), [1, 1])
        XCTAssertTrue(presenterSpy.purgedResponses.isEmpty)
    }

    func test_purge_confirmed_erasesOneOrTheWholeTrash_andPurgeYesIsTheWholeTrash() {
        // Given
        journalSpy.items = [bob]
        // When
        sut.purgeContacts(request: .init(reference: "bob", confirmed: true))
        sut.purgeContacts(request: .init(reference: "", confirmed: true))
        sut.purgeContacts(request: .init(reference: "yes"))
        // Then
        XCTAssertEqual(journalSpy.purged, [bob, nil, nil])
        XCTAssertEqual(presenterSpy.purgedResponses.map(\.purged), [1, 1, 1])
        XCTAssertTrue(presenterSpy.purgeConfirmations.isEmpty)
    }

    func test_purge_ofAnEmptyTrash_isAClearError() {
        sut.purgeContacts(request: .init(reference: "", confirmed: true))
        XCTAssertEqual(presenterSpy.failures, [.badInput("The trash is empty.")])
        XCTAssertTrue(journalSpy.purged.isEmpty)
    }

}

final class TrashPresenterTests: XCTestCase {
    final class DisplaySpy: TrashDisplayLogic {
        var trashViewModels: [TrashViewModel] = []
        var purgeConfirmations: [Trash.PurgeContacts.ConfirmationViewModel] = []
        var messages: [Message] = []
        func displayTrash(viewModel: TrashViewModel) { trashViewModels.append(viewModel) }
        func displayPurgeConfirmation(viewModel: Trash.PurgeContacts.ConfirmationViewModel) {
            purgeConfirmations.append(viewModel)
        }
        // The use cases that end in a message: kept in `messages`, in order.
        func displayRestoredContact(viewModel: Trash.RestoreContact.ViewModel) { messages.append(viewModel.message) }
        func displayPurgedContacts(viewModel: Trash.PurgeContacts.ViewModel) { messages.append(viewModel.message) }
        func displayMessage(_ message: Message) { messages.append(message) }
    }

    var sut: TrashPresenter!
    var viewControllerSpy: DisplaySpy!

    override func setUp() {
        super.setUp()
        viewControllerSpy = DisplaySpy()
        sut = TrashPresenter(formatter: Seeds.formatter)
        sut.viewController = viewControllerSpy
    }

    func test_trash_isATable_withHowToRestore() {
        sut.presentTrash(
            response: .init(items: [
                TrashedContact(
                    contact: Contact(id: 9, givenName: "Bob", familyName: "Stone"),
                    deletedAt: Seeds.now)
            ]))
        XCTAssertEqual(
            viewControllerSpy.trashViewModels,
            [
                TrashViewModel(
                    rows: [.init(id: 9, name: "Bob Stone", deleted: Seeds.nowText)],
                    caption: "1 deleted contact · restore CONTACT · purge [CONTACT]")
            ])
    }

    func test_purge_unconfirmed_asksWhatWouldBeErased_confirmed_saysItIsGone() {
        let bob = Contact(id: 9, givenName: "Bob", familyName: "Stone")
        sut.presentPurgeConfirmation(response: .init(contact: bob, trashCount: 2))
        sut.presentPurgeConfirmation(response: .init(contact: nil, trashCount: 2))
        sut.presentPurgedContacts(response: .init(purged: 2))
        XCTAssertEqual(
            viewControllerSpy.purgeConfirmations,
            [
                .init(
                    id: 9, question: "Erase Bob Stone (#9) for good, with its history?", declined: "Nothing purged",
                    refusal:
                        "not purged: this erases Bob Stone (#9) for good, with its history; confirm with 'purge #9 yes'"
                ),
                .init(
                    id: nil, question: "Erase 2 deleted contacts for good, with their history?",
                    declined: "Nothing purged",
                    refusal:
                        "not purged: this erases 2 deleted contacts for good, with their history; confirm with 'purge yes'"
                ),
            ])
        XCTAssertEqual(viewControllerSpy.messages, [.success("Purged 2 contacts for good, with their history")])
    }

    func test_restored_saysWhoIsBack() {
        sut.presentRestoredContact(response: .init(contact: Contact(id: 9, givenName: "Bob", familyName: "Stone")))
        XCTAssertEqual(viewControllerSpy.messages, [.success("Restored Bob Stone (#9)")])
    }
}

/// The journal's scenes turn the list's actions into their Requests.
final class JournalScenesViewControllerTests: XCTestCase {
    final class InteractorSpy: HistoryBusinessLogic, TrashBusinessLogic {
        var historyRequests: [History.ShowHistory.Request] = []
        var trashRequests: [Trash.ShowTrash.Request] = []
        var restoreRequests: [Trash.RestoreContact.Request] = []
        var purgeRequests: [Trash.PurgeContacts.Request] = []
        func showHistory(request: History.ShowHistory.Request) { historyRequests.append(request) }
        func showTrash(request: Trash.ShowTrash.Request) { trashRequests.append(request) }
        func restoreContact(request: Trash.RestoreContact.Request) { restoreRequests.append(request) }
        func purgeContacts(request: Trash.PurgeContacts.Request) { purgeRequests.append(request) }
    }

    final class DisplaySinkSpy: DisplaySink {
        private(set) var displayed: [any ViewModel] = []
        func display(_ viewModel: any ViewModel) { displayed.append(viewModel) }
    }

    func test_journalActions_becomeTheirRequests_withWhatWasTyped() {
        // Given
        let interactorSpy = InteractorSpy()
        let history = HistoryViewController(interactor: interactorSpy, output: DisplaySinkSpy())
        let trash = TrashViewController(interactor: interactorSpy, output: DisplaySinkSpy())
        // When
        history.perform(.history, ActionCall(ListContacts.Action.history))
        history.perform(.history, ActionCall(ListContacts.Action.history, ["contact": .string("bob stone")]))
        trash.perform(.trash, ActionCall(ListContacts.Action.trash))
        trash.perform(.restore, ActionCall(ListContacts.Action.restore, ["contact": .string("#9")]))
        trash.perform(
            .purge, ActionCall(ListContacts.Action.purge, ["contact": .string("#9"), "confirm": .boolean(true)]))
        // Then
        XCTAssertEqual(interactorSpy.historyRequests, [.init(reference: ""), .init(reference: "bob stone")])
        XCTAssertEqual(interactorSpy.trashRequests, [.init()])
        XCTAssertEqual(interactorSpy.restoreRequests, [.init(reference: "#9")])
        XCTAssertEqual(interactorSpy.purgeRequests, [.init(reference: "#9", confirmed: true)])
    }

    func test_purgeConfirmation_asksForTheListsPurge_namingTheContact() throws {
        // Given
        let output = DisplaySinkSpy()
        let trash = TrashViewController(interactor: InteractorSpy(), output: output)
        // When
        trash.displayPurgeConfirmation(
            viewModel: .init(
                id: 9, question: "Erase Bob Stone (#9) for good, with its history?",
                declined: "Nothing purged", refusal: "not purged"))
        // Then: on yes the session runs the list's `purge`, which the list routes back here
        let request = try XCTUnwrap(output.displayed.first as? ConfirmationRequest)
        XCTAssertEqual(
            request.confirmed,
            ActionCall(ListContacts.Action.purge, ["contact": .string("#9"), "confirm": .boolean(true)]))
        XCTAssertEqual(request.otherwise, .refuse)
    }

    func test_configure_buildsEachInteractorWhole() throws {
        // Given
        let fixture = SceneFactoryFixture()
        // When
        let history = HistoryConfigurator.configure(context: fixture.context, factory: fixture.factory)
        let trash = TrashConfigurator.configure(context: fixture.context, factory: fixture.factory)
        // Then
        let historyInteractor = try XCTUnwrap(history.interactor as? HistoryInteractor)
        XCTAssertTrue((historyInteractor.presenter as? HistoryPresenter)?.viewController === history)
        XCTAssertTrue(historyInteractor.worker as AnyObject === fixture.factory.worker)
        XCTAssertTrue(historyInteractor.journalWorker as AnyObject === fixture.factory.journalWorker)
        let trashInteractor = try XCTUnwrap(trash.interactor as? TrashInteractor)
        XCTAssertTrue((trashInteractor.presenter as? TrashPresenter)?.viewController === trash)
        XCTAssertTrue(trashInteractor.journalWorker as AnyObject === fixture.factory.journalWorker)
        XCTAssertTrue(trash.output === fixture.display)
    }
}
