import Foundation
import SceneCore
import XCTest

@testable import ContactsApp

/// The journal worker: trashed contacts found by number or name, refusals as `ContactsFailure`,
/// and each undo, redo and restore announced to this session's clients.
final class JournalWorkerTests: XCTestCase {
    var sut: JournalWorker!
    var store: SQLiteContactStore!
    var changesSpy: ImportExportWorkerTests.ChangeNotifierSpy!

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try SQLiteContactStore(path: ":memory:")
        changesSpy = .init()
        sut = JournalWorker(environment: ContactsEnvironment(store: store, changes: changesSpy))
    }

    private func deleted(_ given: String, _ family: String) throws -> Contact {
        let contact = try store.insert(Contact(uid: "u-\(given)", givenName: given, familyName: family))
        try store.delete(id: contact.id!, expectedVersion: nil)
        return contact
    }

    func test_resolveTrashed_byNumberOrName() throws {
        // Given
        let bob = try deleted("Bob", "Stone")
        _ = try deleted("Ann", "Lee")
        // Then
        XCTAssertEqual(try sut.resolveTrashed("#\(bob.id!)").contact, bob)
        XCTAssertEqual(try sut.resolveTrashed("\(bob.id!)").contact, bob)
        XCTAssertEqual(try sut.resolveTrashed("bob").contact, bob)
        XCTAssertEqual(try sut.resolveTrashed(" STONE ").contact, bob)
    }

    func test_resolveTrashed_unknownOrAmbiguous_isAClearFailure() throws {
        // Given
        _ = try deleted("Bob", "Stone")
        _ = try deleted("Bob", "Marley")
        // Then
        XCTAssertThrowsError(try sut.resolveTrashed("zed")) {
            XCTAssertEqual($0 as? ContactsFailure, .badInput("No contact in the trash matches 'zed'; see 'trash'."))
        }
        XCTAssertThrowsError(try sut.resolveTrashed("#99")) {
            XCTAssertEqual($0 as? ContactsFailure, .badInput("No contact in the trash is #99; see 'trash'."))
        }
        XCTAssertThrowsError(try sut.resolveTrashed("bob")) {
            guard case .ambiguous(let reference, let matches)? = $0 as? ContactsFailure else { return XCTFail("\($0)") }
            XCTAssertEqual(reference, "bob")
            XCTAssertEqual(matches.count, 2)
        }
    }

    func test_undoAndRedo_announceWhatTheyChanged() throws {
        // Given
        let bob = try deleted("Bob", "Stone")
        // When
        _ = try sut.undo(nil)
        _ = try sut.redo()
        // Then
        XCTAssertEqual(
            changesSpy.changes,
            [
                DataChange(topic: "contacts", kind: "created", ids: [String(bob.id!)]),
                DataChange(topic: "contacts", kind: "deleted", ids: [String(bob.id!)]),
            ])
    }

    func test_refusals_becomeJournalFailures_namingTheAction() throws {
        XCTAssertThrowsError(try sut.undo(nil)) {
            XCTAssertEqual($0 as? ContactsFailure, .journal(.nothingToUndo, action: "undo"))
        }
        XCTAssertThrowsError(try sut.redo()) {
            XCTAssertEqual($0 as? ContactsFailure, .journal(.nothingToRedo, action: "redo"))
        }
        XCTAssertTrue(changesSpy.changes.isEmpty)
    }

    func test_restore_bringsItBack_andAnnouncesIt_purgeErasesTheRest() throws {
        // Given
        let bob = try deleted("Bob", "Stone")
        _ = try deleted("Ann", "Lee")
        // When
        let restored = try sut.restore(try sut.resolveTrashed("bob"))
        // Then
        XCTAssertEqual(restored, bob)
        XCTAssertEqual(changesSpy.changes, [DataChange(topic: "contacts", kind: "created", ids: [String(bob.id!)])])
        XCTAssertEqual(try sut.purge(nil), 1)
        XCTAssertEqual(try sut.trash(), [])
    }

    func test_withoutAJournal_saysSo() {
        sut = JournalWorker(environment: ContactsEnvironment(store: InMemoryContactStore()))
        XCTAssertThrowsError(try sut.trash()) {
            XCTAssertEqual($0 as? ContactsFailure, .badInput("This book keeps no history."))
        }
    }
}
