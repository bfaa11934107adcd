import XCTest

@testable import ContactsApp

/// The journal and the sync state a session's scenes get: the store itself when it keeps them,
/// or what the composition root hands over (which spares it a dynamic cast at start-up).
final class ContactsEnvironmentTests: XCTestCase {
    func test_init_aStoreThatKeepsNoSyncState_hasNone() {
        // Given
        let store = Seeds.book()
        // When
        let sut = ContactsEnvironment(store: store)
        // Then
        XCTAssertNil(sut.syncState)
    }

    func test_init_theSQLiteStore_isItsOwnJournalAndSyncState() throws {
        // Given
        let store = try SQLiteContactStore(path: ":memory:")
        // When
        let sut = ContactsEnvironment(store: store)
        // Then
        XCTAssertTrue(sut.journal === store)
        XCTAssertTrue(sut.syncState === store)
    }

    func test_init_givenJournalAndSyncState_keepsThem() throws {
        // Given: the list reads one store, sync keeps its state in another
        let store = Seeds.book()
        let other = try SQLiteContactStore(path: ":memory:")
        // When
        let sut = ContactsEnvironment(store: store, journal: other, syncState: other)
        // Then
        XCTAssertTrue(sut.journal === other)
        XCTAssertTrue(sut.syncState === other)
    }

    func test_sceneFactory_offersSyncOnlyWithASyncState() throws {
        // Given
        let withoutSync = ContactsSceneFactory(environment: Seeds.environment(store: Seeds.book()))
        var environment = Seeds.environment(store: Seeds.book())
        environment.syncState = try SQLiteContactStore(path: ":memory:")
        // When
        let withSync = ContactsSceneFactory(environment: environment)
        // Then
        XCTAssertNil(withoutSync.syncWorker)
        XCTAssertNotNil(withSync.syncWorker)
    }

    func test_locale_given_isKept_andNoneGiven_isTheMachines() {
        // Given: a Turkish book (its dotted i) and one left to the machine
        let turkish = ContactsEnvironment(store: Seeds.book(), locale: Locale(identifier: "tr_TR"))
        var machine = ContactsEnvironment(store: Seeds.book())
        // Then: the given one is kept; none given is looked up when asked, as the machine's
        XCTAssertEqual(turkish.locale.identifier, "tr_TR")
        XCTAssertNil(machine.givenLocale)
        XCTAssertEqual(machine.locale.identifier, Locale.current.identifier)
        // When: set later (a test's injection), it is the one used
        machine.locale = Locale(identifier: "de_DE")
        XCTAssertEqual(machine.givenLocale?.identifier, "de_DE")
    }
}
