import Foundation
import XCTest

@testable import ContactsApp

/// The list's journal use cases: undo, redo (history and trash are scenes of their own: `Tools/HistoryAndTrashSceneTests.swift`).
final class ListContactsJournalInteractorTests: XCTestCase {
    var sut: ListContactsInteractor!
    var presenterSpy: ListContactsInteractorTests.ListContactsPresentationLogicSpy!
    var journalSpy: ContactsJournalLogicSpy!

    final class ContactsJournalLogicSpy: ContactsJournalLogic {
        var undoCalls: [Int64?] = []
        var redoCalled = false
        var historyContacts: [Contact?] = []
        var restored: [TrashedContact] = []
        var purged: [TrashedContact?] = []
        var resolvedReferences: [String] = []
        var change = ChangeSetRecord(
            id: 3, at: Seeds.now, origin: "repl", kind: .delete, summary: "deleted Bob Stone", undone: false)
        var items: [TrashedContact] = []
        var failure: Error?

        func undo(_ changeSet: Int64?) throws -> ChangeSetRecord {
            undoCalls.append(changeSet)
            if let failure { throw failure }
            return change
        }
        func redo() throws -> ChangeSetRecord {
            redoCalled = true
            if let failure { throw failure }
            return change
        }
        func history(of contact: Contact?) throws -> [ChangeSetRecord] {
            historyContacts.append(contact); return [change]
        }
        func trash() throws -> [TrashedContact] { items }
        func resolveTrashed(_ reference: String) throws -> TrashedContact {
            resolvedReferences.append(reference)
            guard let item = items.first else {
                throw ContactsFailure.badInput("No contact in the trash matches '\(reference)'")
            }
            return item
        }
        func restore(_ trashed: TrashedContact) throws -> Contact { restored.append(trashed); return trashed.contact }
        func purge(_ trashed: TrashedContact?) throws -> Int {
            purged.append(trashed); return trashed == nil ? items.count : 1
        }
    }

    private let bob = TrashedContact(
        contact: Contact(id: 9, uid: "u-bob", givenName: "Bob", familyName: "Stone"),
        deletedAt: Seeds.now)

    override func setUp() {
        super.setUp()
        presenterSpy = .init()
        journalSpy = ContactsJournalLogicSpy()
        sut = ListContactsInteractor(
            worker: Seeds.worker(Seeds.book()), transferWorker: Seeds.transferWorker(Seeds.book()),
            journalWorker: journalSpy, pageSize: 2)
        sut.presenter = presenterSpy
    }

    func test_undo_asksTheJournal_andPresentsWhatWasUndone() {
        // When
        sut.undoChange(request: .init(redo: false))
        // Then
        XCTAssertEqual(journalSpy.undoCalls, [nil])
        XCTAssertEqual(presenterSpy.undoneResponses.map(\.change.summary), ["deleted Bob Stone"])
        XCTAssertEqual(presenterSpy.undoneResponses.map(\.redo), [false])
    }

    func test_undoAnOlderChange_passesItsNumber() {
        sut.undoChange(request: .init(redo: false, changeSet: 12))
        XCTAssertEqual(journalSpy.undoCalls, [12])
    }

    func test_redo_asksTheJournalToRedo() {
        sut.undoChange(request: .init(redo: true))
        XCTAssertTrue(journalSpy.redoCalled)
        XCTAssertEqual(presenterSpy.undoneResponses.map(\.redo), [true])
    }

    func test_refusedUndo_presentsTheRefusal_andNothingElse() {
        // Given
        let later = ChangeSetRecord(
            id: 4, at: Seeds.now, origin: "rpc", kind: .edit, summary: "edited Bob Stone", undone: false)
        journalSpy.failure = ContactsFailure.journal(
            .changedLater(change: journalSpy.change, later: later), action: "undo")
        // When
        sut.undoChange(request: .init(redo: false))
        // Then
        XCTAssertEqual(
            presenterSpy.failures, [.journal(.changedLater(change: journalSpy.change, later: later), action: "undo")])
        XCTAssertTrue(presenterSpy.undoneResponses.isEmpty)
    }

    func test_withoutAJournal_everyJournalActionSaysSo() {
        // Given
        sut = ListContactsInteractor(
            worker: Seeds.worker(Seeds.book()), transferWorker: Seeds.transferWorker(Seeds.book()),
            pageSize: 2)
        sut.presenter = presenterSpy
        let trashPresenter = TrashJournalTests.PresenterSpy()
        let trash = TrashInteractor(
            journalWorker: JournalWorker(environment: Seeds.environment(store: Seeds.book())),
            presenter: trashPresenter)
        // When
        sut.undoChange(request: .init(redo: false))
        trash.showTrash(request: .init())
        // Then
        XCTAssertEqual(
            presenterSpy.failures + trashPresenter.failures,
            Array(repeating: .badInput("This book keeps no history."), count: 2))
    }
}
