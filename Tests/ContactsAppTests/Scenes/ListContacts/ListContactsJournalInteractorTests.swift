import Foundation
import XCTest
@testable import ContactsApp

/// The list's journal use cases: undo, redo, history, trash, restore, purge.
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
        var change = ChangeSetRecord(id: 3, at: Seeds.now, origin: "repl", kind: .delete, summary: "deleted Bob Stone", undone: false)
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
        func history(of contact: Contact?) throws -> [ChangeSetRecord] { historyContacts.append(contact); return [change] }
        func trash() throws -> [TrashedContact] { items }
        func resolveTrashed(_ reference: String) throws -> TrashedContact {
            resolvedReferences.append(reference)
            guard let item = items.first else { throw ContactsFailure.badInput("No contact in the trash matches '\(reference)'") }
            return item
        }
        func restore(_ trashed: TrashedContact) throws -> Contact { restored.append(trashed); return trashed.contact }
        func purge(_ trashed: TrashedContact?) throws -> Int { purged.append(trashed); return trashed == nil ? items.count : 1 }
    }

    private let bob = TrashedContact(contact: Contact(id: 9, uid: "u-bob", givenName: "Bob", familyName: "Stone"),
                                     deletedAt: Seeds.now)

    override func setUp() {
        super.setUp()
        presenterSpy = .init()
        journalSpy = ContactsJournalLogicSpy()
        sut = ListContactsInteractor(worker: Seeds.worker(Seeds.book()), transferWorker: Seeds.transferWorker(Seeds.book()),
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
        let later = ChangeSetRecord(id: 4, at: Seeds.now, origin: "rpc", kind: .edit, summary: "edited Bob Stone", undone: false)
        journalSpy.failure = ContactsFailure.journal(.changedLater(change: journalSpy.change, later: later), action: "undo")
        // When
        sut.undoChange(request: .init(redo: false))
        // Then
        XCTAssertEqual(presenterSpy.failures, [.journal(.changedLater(change: journalSpy.change, later: later), action: "undo")])
        XCTAssertTrue(presenterSpy.undoneResponses.isEmpty)
    }

    func test_history_ofTheBook_andOfAContactNamed() {
        // When
        sut.showHistory(request: .init(reference: ""))
        sut.showHistory(request: .init(reference: "ann"))
        // Then
        XCTAssertEqual(journalSpy.historyContacts.map { $0?.givenName }, [nil, "Ann"])
        XCTAssertEqual(presenterSpy.historyResponses.count, 2)
    }

    func test_history_ofADeletedContact_findsItInTheTrash() {
        // Given
        journalSpy.items = [bob]
        // When
        sut.showHistory(request: .init(reference: "bob"))
        // Then
        XCTAssertEqual(journalSpy.resolvedReferences, ["bob"])
        XCTAssertEqual(journalSpy.historyContacts, [bob.contact])
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

    func test_withoutAJournal_everyJournalActionSaysSo() {
        // Given
        sut = ListContactsInteractor(worker: Seeds.worker(Seeds.book()), transferWorker: Seeds.transferWorker(Seeds.book()),
                                     pageSize: 2)
        sut.presenter = presenterSpy
        // When
        sut.undoChange(request: .init(redo: false))
        sut.showTrash(request: .init())
        // Then
        XCTAssertEqual(presenterSpy.failures, Array(repeating: .badInput("This book keeps no history."), count: 2))
    }
}
