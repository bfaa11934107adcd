import Foundation
import GRDB
import XCTest

@testable import ContactsApp

/// The change journal of the SQLite store: what each write records, undo and redo, trash,
/// purge, retention, and what other sessions are told.
final class ContactJournalTests: XCTestCase {
    private var directory: URL!
    private var path: String { directory.appendingPathComponent("contacts.sqlite").path }
    private var sut: SQLiteContactStore!
    private let at = Date(timeIntervalSince1970: 1_700_000_000)

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ContactJournalTests-\(UUID().uuidString)")
        sut = try open()
    }

    override func tearDown() {
        sut = nil
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    /// A store on the same file, as another process opens it, with an injected clock.
    private func open(origin: String = "line", clock: Date? = nil) throws -> SQLiteContactStore {
        let store = try SQLiteContactStore(path: path)
        store.journalOrigin = origin
        let now = clock ?? at
        store.journalClock = { now }
        return store
    }

    private func bob() throws -> Contact {
        try sut.insert(StoreSeeds.contact("Bob", "Stone"))
    }

    // MARK: - Recording

    func test_saveAndDelete_recordOneChangeSetEach_withImagesOriginAndTime() throws {
        // Given
        let bob = try bob()
        var edited = bob
        edited.organization = "Acme"
        // When
        let saved = try sut.update(edited)
        try sut.delete(id: bob.id!, expectedVersion: saved.version)
        // Then: newest first
        let history = try sut.history(contactID: nil, limit: 10)
        XCTAssertEqual(history.map(\.summary), ["deleted Bob Stone", "edited Bob Stone", "added Bob Stone"])
        XCTAssertEqual(history.map(\.kind), [.delete, .edit, .add])
        XCTAssertEqual(Set(history.map(\.origin)), ["line"])
        XCTAssertEqual(Set(history.map(\.at)), [at])
        XCTAssertEqual(history[1].entries.first?.before?.organization, "")
        XCTAssertEqual(history[1].entries.first?.after?.organization, "Acme")
        XCTAssertEqual(history[0].entries.first?.before?.uid, bob.uid)
        XCTAssertNil(history[0].entries.first?.after)
    }

    func test_aFailedSave_recordsNothing() throws {
        // Given
        var stale = try bob()
        stale.version = 9
        // When
        XCTAssertThrowsError(try sut.update(stale))
        // Then
        XCTAssertEqual(try sut.history(contactID: nil, limit: 10).count, 1)
    }

    func test_importIntoAnEmptyBook_recordsOneChangeSetNamingTheIDsAdded_andNoImages() throws {
        // When
        let ids = try sut.importSession { session in
            try session.save(inserting: (0..<5).map { StoreSeeds.contact("P\($0)", "Q") }, updating: [])
        }
        // Then
        let history = try sut.history(contactID: nil, limit: 10)
        XCTAssertEqual(history.count, 1)
        XCTAssertEqual(history[0].summary, "imported 5 contacts (5 added, 0 updated)")
        XCTAssertEqual(history[0].addedIDs, ids.added.first!...ids.added.last!)
        XCTAssertEqual(history[0].entries, [])
    }

    func test_importIntoABookWithContacts_recordsBeforeImagesOfWhatItUpdated() throws {
        // Given
        let bob = try bob()
        var newer = bob
        newer.title = "CEO"
        // When
        _ = try sut.importSession { session in
            try session.save(inserting: [StoreSeeds.contact("Ann", "Lee")], updating: [newer])
        }
        // Then: images of what it updated; what it added as a range of ids, no images
        let change = try XCTUnwrap(sut.history(contactID: nil, limit: 1).first)
        XCTAssertEqual(change.entries.map(\.contactID), [bob.id])
        XCTAssertEqual(change.entries.first?.before?.title, "")
        XCTAssertEqual(change.entries.first?.after?.title, "CEO")
        XCTAssertEqual(change.addedIDs, (bob.id! + 1)...(bob.id! + 1))
    }

    // MARK: - Undo and redo

    func test_undoADelete_inAnotherRun_bringsTheContactBackWhole_andRedoDeletesItAgain() throws {
        // Given: a contact with kept vCard properties, deleted
        var card = StoreSeeds.contact("Bob", "Stone")
        card.extraProperties = ["X-SOCIAL;TYPE=mastodon:@bob@example.org"]
        let bob = try sut.insert(card)
        try sut.delete(id: bob.id!, expectedVersion: nil)
        // When: undone by another store on the file (the next run)
        let undone = try open().undo(changeSet: nil)
        // Then
        XCTAssertEqual(undone.summary, "deleted Bob Stone")
        XCTAssertEqual(try sut.contact(id: bob.id!), bob)
        XCTAssertEqual(try sut.trash(), [])
        // When
        let redone = try sut.redo()
        // Then
        XCTAssertEqual(redone.summary, "deleted Bob Stone")
        XCTAssertNil(try sut.contact(id: bob.id!))
        XCTAssertEqual(try sut.trash().map(\.contact), [bob])
    }

    func test_merge_isOneChangeSet_theOthersGoToTheTrash_andUndoBringsEveryContactBack() throws {
        // Given: two contacts, one merged into the other
        let bob = try bob()
        let other = try sut.insert(StoreSeeds.contact("Robert", "Stone"))
        var kept = bob
        kept.nickname = "Rob"
        let merged = try sut.merge(keeping: kept, removing: [other])
        // Then: one change set, the kept contact saved, the other in the trash
        let history = try sut.history(contactID: nil, limit: 10)
        XCTAssertEqual(history.first?.kind, .merge)
        XCTAssertEqual(history.first?.summary, "merged Robert Stone into Bob Stone")
        XCTAssertEqual(merged.nickname, "Rob")
        XCTAssertNil(try sut.contact(id: other.id!))
        XCTAssertEqual(try sut.trash().map(\.contact), [other])
        // When: undone in the next run
        let undone = try open().undo(changeSet: nil)
        // Then: both contacts as they were, the trash empty
        XCTAssertEqual(undone.kind, .merge)
        XCTAssertEqual(try sut.contact(id: bob.id!)?.nickname, bob.nickname)
        XCTAssertEqual(try sut.contact(id: other.id!), other)
        XCTAssertEqual(try sut.trash(), [])
    }

    func test_undoAnEdit_putsTheFieldsBack() throws {
        // Given
        let bob = try bob()
        var edited = bob
        edited.organization = "Acme"
        _ = try sut.update(edited)
        // When
        _ = try sut.undo(changeSet: nil)
        // Then
        XCTAssertEqual(try sut.contact(id: bob.id!)?.organization, "")
        XCTAssertTrue(try XCTUnwrap(sut.history(contactID: bob.id, limit: 1).first).undone)
    }

    func test_undoAnOlderChange_afterALaterChangeToTheSameContact_isRefusedNamingIt() throws {
        // Given: an edit, then another process's edit of the same contact
        let bob = try bob()
        var first = bob
        first.organization = "Acme"
        let saved = try sut.update(first)
        let other = try open(origin: "rpc")
        var second = saved
        second.title = "CEO"
        _ = try other.update(second)
        let firstChange = try XCTUnwrap(
            sut.history(contactID: nil, limit: 10).first {
                $0.summary == "edited Bob Stone" && $0.entries.first?.after?.title == ""
            })
        // When / Then
        XCTAssertThrowsError(try sut.undo(changeSet: firstChange.id)) { error in
            guard case JournalRefusal.changedLater(let change, let later)? = error as? JournalRefusal else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(change.id, firstChange.id)
            XCTAssertEqual(later.origin, "rpc")
            XCTAssertEqual(later.entries.first?.after?.title, "CEO")
        }
        // And nothing changed
        XCTAssertEqual(try sut.contact(id: bob.id!)?.title, "CEO")
        XCTAssertEqual(try sut.contact(id: bob.id!)?.organization, "Acme")
    }

    func test_redo_afterALaterChangeToTheSameContact_isRefused() throws {
        // Given: an edit undone, then the contact edited again
        let bob = try bob()
        var edited = bob
        edited.organization = "Acme"
        _ = try sut.update(edited)
        _ = try sut.undo(changeSet: nil)
        var again = try XCTUnwrap(sut.contact(id: bob.id!))
        again.title = "CEO"
        _ = try sut.update(again)
        // When / Then
        XCTAssertThrowsError(try sut.redo()) { error in
            guard case JournalRefusal.changedLater(_, let later)? = error as? JournalRefusal else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(later.summary, "edited Bob Stone")
        }
        XCTAssertEqual(try sut.contact(id: bob.id!)?.organization, "")
    }

    func test_undo_afterAChangeOutsideTheJournal_isRefused() throws {
        // Given: an edit, then the row changed by a program that keeps no journal
        let bob = try bob()
        try DatabaseQueue(path: path).write {
            try $0.execute(sql: "UPDATE contact SET notes = 'x' WHERE id = ?", arguments: [bob.id])
        }
        // When / Then
        XCTAssertThrowsError(try sut.undo(changeSet: nil)) { error in
            guard case JournalRefusal.changedSince? = error as? JournalRefusal else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try sut.contact(id: bob.id!)?.notes, "x")
    }

    func test_undoWithNothingToUndo_andRedoWithNothingToRedo_areRefused() throws {
        XCTAssertThrowsError(try sut.undo(changeSet: nil)) { XCTAssertEqual($0 as? JournalRefusal, .nothingToUndo) }
        XCTAssertThrowsError(try sut.redo()) { XCTAssertEqual($0 as? JournalRefusal, .nothingToRedo) }
        XCTAssertThrowsError(try sut.undo(changeSet: 42)) { XCTAssertEqual($0 as? JournalRefusal, .noSuchChange(42)) }
    }

    func test_undoAnImportIntoAnEmptyBook_removesWhatItAdded_andRedoBringsThemBack() throws {
        // Given
        let ids = try sut.importSession { session in
            try session.save(inserting: (0..<20).map { StoreSeeds.contact("P\($0)", "Q") }, updating: [])
        }
        let before = try sut.page(ContactQuery(limit: 100)).contacts
        // When
        let undone = try sut.undo(changeSet: nil)
        // Then
        XCTAssertEqual(undone.entries.count, 20)
        XCTAssertEqual(try sut.page(ContactQuery()).total, 0)
        // When
        _ = try sut.redo()
        // Then: the same contacts, under the same ids
        XCTAssertEqual(try sut.page(ContactQuery(limit: 100)).contacts.map(\.id), before.map(\.id))
        XCTAssertEqual(Set(ids.added), Set(before.compactMap(\.id)))
    }

    func test_undoAnImport_restoresWhatItUpdated_andRemovesWhatItAdded() throws {
        // Given
        let bob = try bob()
        var newer = bob
        newer.title = "CEO"
        _ = try sut.importSession { session in
            try session.save(inserting: [StoreSeeds.contact("Ann", "Lee")], updating: [newer])
        }
        let seen = try sut.lastSequence()
        // When
        let undone = try open().undo(changeSet: nil)
        // Then
        XCTAssertEqual(try sut.page(ContactQuery()).contacts.map(\.id), [bob.id])
        XCTAssertEqual(try sut.contact(id: bob.id!)?.title, "")
        XCTAssertEqual(
            Set(try sut.changes(after: seen).changes),
            [
                JournalChange(kind: "updated", ids: [bob.id!]),
                JournalChange(kind: "deleted", ids: [bob.id! + 1]),
            ])
        // And a redo puts both back, and a second undo takes them again
        _ = try sut.redo()
        XCTAssertEqual(try sut.page(ContactQuery()).total, 2)
        XCTAssertEqual(try sut.contact(id: bob.id!)?.title, "CEO")
        XCTAssertEqual(try sut.undo(changeSet: nil).entries.count, undone.entries.count)
        XCTAssertEqual(try sut.page(ContactQuery()).total, 1)
    }

    // MARK: - Trash

    func test_restore_bringsADeletedContactBackUnderItsIDAndUID_recordedAsAChange() throws {
        // Given
        let bob = try bob()
        try sut.delete(id: bob.id!, expectedVersion: nil)
        // When
        let restored = try sut.restore(id: bob.id!)
        // Then
        XCTAssertEqual(restored, bob)
        XCTAssertEqual(try sut.contact(id: bob.id!), bob)
        XCTAssertEqual(try sut.trash(), [])
        XCTAssertEqual(try sut.history(contactID: nil, limit: 1).first?.summary, "restored Bob Stone")
        // And undoing the restore puts it back in the trash
        _ = try sut.undo(changeSet: nil)
        XCTAssertEqual(try sut.trash().map(\.contact.id), [bob.id])
    }

    func test_restore_ofAContactNotInTheTrash_isRefused() throws {
        XCTAssertThrowsError(try sut.restore(id: 7)) { XCTAssertEqual($0 as? JournalRefusal, .notInTrash("#7")) }
    }

    func test_purge_erasesTheContactAndEveryImageOfItInTheJournal() throws {
        // Given
        let bob = try bob()
        let ann = try sut.insert(StoreSeeds.contact("Ann", "Lee"))
        try sut.delete(id: bob.id!, expectedVersion: nil)
        // When
        XCTAssertEqual(try sut.purge(id: bob.id!), 1)
        // Then: no trace of Bob in any table of the file
        XCTAssertEqual(try sut.trash(), [])
        XCTAssertEqual(try sut.history(contactID: bob.id, limit: 10), [])
        let mentions = try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM change_entry WHERE before LIKE '%Stone%' OR after LIKE '%Stone%')
                         + (SELECT COUNT(*) FROM change_set WHERE summary LIKE '%Stone%')
                         + (SELECT COUNT(*) FROM contact_trash WHERE image LIKE '%Stone%')
                    """)
        }
        XCTAssertEqual(mentions, 0)
        // And the others' history stays
        XCTAssertEqual(try sut.history(contactID: ann.id, limit: 10).map(\.summary), ["added Ann Lee"])
    }

    // MARK: - Retention

    func test_retention_dropsChangeSetsBeyondTheirNumberAndAge_butKeepsTheTrash() throws {
        // Given: kept: 3 change sets, 90 days; pruned at every change set
        sut.journalRetention = JournalRetention(days: 90, changeSets: 3, pruneEvery: 1)
        let old = try open(clock: at.addingTimeInterval(-100 * 86_400))
        let gone = try old.insert(StoreSeeds.contact("Old", "One"))
        try old.delete(id: gone.id!, expectedVersion: nil)
        // When
        for n in 0..<5 { _ = try sut.insert(StoreSeeds.contact("N\(n)", "M")) }
        // Then
        let history = try sut.history(contactID: nil, limit: 100)
        XCTAssertEqual(history.map(\.summary), ["added N4 M", "added N3 M", "added N2 M"])
        XCTAssertEqual(try sut.trash().map(\.contact.id), [gone.id])
    }

    // MARK: - Notices

    func test_changesAfter_tellOtherSessionsWhatHappened_notTheirOwn() throws {
        // Given
        let seen = try sut.lastSequence()
        let other = try open(origin: "rpc")
        // When: this session adds one, the other adds one and deletes it
        _ = try bob()
        let ann = try other.insert(StoreSeeds.contact("Ann", "Lee"))
        try other.delete(id: ann.id!, expectedVersion: nil)
        // Then
        let (changes, sequence) = try sut.changes(after: seen)
        XCTAssertEqual(
            changes, [JournalChange(kind: "created", ids: [ann.id!]), JournalChange(kind: "deleted", ids: [ann.id!])])
        XCTAssertEqual(try sut.changes(after: sequence).changes, [])
        // And an undo is told as its reverse
        _ = try other.undo(changeSet: nil)
        let (undone, afterUndo) = try sut.changes(after: sequence)
        XCTAssertEqual(undone, [JournalChange(kind: "created", ids: [ann.id!])])
        // And an undo elsewhere of this session's own change is told to it too, not to the undoer
        let seenByOther = try other.lastSequence()
        _ = try other.undo(changeSet: nil) // ann's add: other's own
        _ = try other.undo(changeSet: nil) // bob's add: this session's
        XCTAssertEqual(
            try sut.changes(after: afterUndo).changes,
            [
                JournalChange(kind: "deleted", ids: [ann.id!]),
                JournalChange(kind: "deleted", ids: [1]),
            ])
        XCTAssertEqual(try other.changes(after: seenByOther).changes, [])
    }
}
