import Foundation
import XCTest

@testable import ContactsApp

final class ContactsWorkerTests: XCTestCase {
    var store: InMemoryContactStore!
    var sut: ContactsWorker!

    override func setUp() {
        super.setUp()
        store = Seeds.book()
        sut = Seeds.worker(store)
    }

    private func assertFails<T>(
        _ work: @autoclosure () throws -> T, with expected: ContactsFailure,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try work(), file: file, line: line) { error in
            XCTAssertEqual(error as? ContactsFailure, expected, file: file, line: line)
        }
    }

    // MARK: resolve

    func test_resolve_byIdOrHashId() throws {
        XCTAssertEqual(try sut.resolve("2").id, 2)
        XCTAssertEqual(try sut.resolve("#3").id, 3)
        XCTAssertEqual(try sut.resolve("  #1 ").id, 1)
    }

    func test_resolve_byUniqueName_foldedAndByPrefix() throws {
        XCTAssertEqual(try sut.resolve("nunez").id, 2)
        XCTAssertEqual(try sut.resolve("JOSÉ Ñ").id, 2)
        XCTAssertEqual(try sut.resolve("山田").id, 3)
        XCTAssertEqual(try sut.resolve("acme").id, 4)
        XCTAssertEqual(try sut.resolve("555 123").id, 1)
    }

    func test_resolve_prefersTheExactFullName_amongSeveralMatches() throws {
        // Given
        let leeds = try store.insert(Contact(uid: "uid-leeds", givenName: "Ann", familyName: "Leeds"))
        // Then
        XCTAssertEqual(try sut.resolve("ann lee").id, 1)
        XCTAssertEqual(try sut.resolve("Ann Leeds").id, leeds.id)
    }

    func test_resolve_ambiguous_returnsTheMatchesInListOrder() {
        assertFails(
            try sut.resolve("a"),
            with: .ambiguous(
                reference: "a",
                matches: [
                    Seeds.stored(Seeds.Contacts.acme, id: 4), Seeds.stored(Seeds.Contacts.ann, id: 1),
                ]))
    }

    func test_resolve_notFound_byIdOrName() {
        assertFails(try sut.resolve("99"), with: .notFound(reference: "#99"))
        assertFails(try sut.resolve("#99"), with: .notFound(reference: "#99"))
        assertFails(try sut.resolve("zed"), with: .notFound(reference: "zed"))
    }

    // MARK: saving

    func test_insert_stampsUIDAndTimes() throws {
        // Given
        let sut = ContactsWorker(environment: Seeds.environment(store: store))
        // When
        let saved = try sut.insert(Contact(givenName: "Bob"))
        // Then
        XCTAssertEqual(
            saved,
            Contact(
                id: 5, uid: "uid-1", givenName: "Bob", createdAt: Seeds.now, updatedAt: Seeds.now,
                version: 1))
    }

    func test_insert_keepsAGivenUID() throws {
        XCTAssertEqual(try sut.insert(Contact(uid: "urn:uuid:kept", givenName: "Bob")).uid, "urn:uuid:kept")
    }

    func test_update_stampsTheUpdateTime_andBumpsTheVersion() throws {
        // Given
        var ann = try sut.contact(id: 1)
        ann.title = "Engineer"
        // When
        let saved = try sut.update(ann)
        // Then
        XCTAssertEqual(saved.version, 2)
        XCTAssertEqual(saved.updatedAt, Seeds.now)
        XCTAssertEqual(saved.createdAt, Seeds.created)
        XCTAssertEqual(try store.contact(id: 1), saved)
    }

    func test_update_ofAStaleVersion_mapsToStale_andWritesNothing() throws {
        // Given
        let opened = try sut.contact(id: 1)
        var elsewhere = opened
        elsewhere.notes = "first"
        let winner = try store.update(elsewhere)
        var mine = opened
        mine.notes = "second"
        // Then
        assertFails(try sut.update(mine), with: .stale(current: winner, yourVersion: 1))
        XCTAssertEqual(try store.contact(id: 1), winner)
    }

    func test_delete_ofAStaleVersion_mapsToStale_andKeepsTheContact() throws {
        // Given
        let opened = try sut.contact(id: 1)
        let theirs = try store.update(opened)
        // Then
        assertFails(try sut.delete(opened), with: .stale(current: theirs, yourVersion: 1))
        XCTAssertNotNil(try store.contact(id: 1))
    }

    func test_delete_ofAVanishedContact_isNotFound() throws {
        // Given
        let opened = try sut.contact(id: 1)
        try store.delete(id: 1, expectedVersion: nil)
        // Then
        assertFails(try sut.delete(opened), with: .notFound(reference: "#1"))
    }

    func test_storageErrors_becomeStorageFailures() {
        // Given
        let sut = Seeds.worker(FailingContactStore())
        // Then
        assertFails(try sut.page(ContactQuery()), with: .storage("disk on fire"))
        assertFails(try sut.resolve("1"), with: .storage("disk on fire"))
        assertFails(try sut.position(of: 1, sort: .last), with: .storage("disk on fire"))
    }

    func test_position_isZeroBased_inTheGivenOrder() throws {
        XCTAssertEqual(try sut.position(of: 4, sort: .last), 0)
        XCTAssertEqual(try sut.position(of: 1, sort: .first), 1)
    }
}

/// A store whose every operation fails as broken storage does.
final class FailingContactStore: ContactStore {
    let error = ContactStoreError.storage("disk on fire")
    func page(_ query: ContactQuery) throws -> ContactPage { throw error }
    func contact(id: Int64) throws -> Contact? { throw error }
    func insert(_ contact: Contact) throws -> Contact { throw error }
    func update(_ contact: Contact) throws -> Contact { throw error }
    func delete(id: Int64, expectedVersion: Int?) throws { throw error }
    func position(of id: Int64, sort: ContactsApp.SortOrder) throws -> Int { throw error }
    func contacts(uids: [String]) throws -> [Contact] { throw error }
    func importContacts(inserting: [Contact], updating: [Contact]) throws -> [Contact] { throw error }
    func merge(keeping kept: Contact, removing: [Contact]) throws -> Contact { throw error }
}
