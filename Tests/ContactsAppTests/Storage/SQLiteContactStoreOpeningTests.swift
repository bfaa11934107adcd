import Foundation
import GRDB
import XCTest

@testable import ContactsApp

/// A store whose book opens later (`toOpen`, what `--rpc`, `--mcp` and `--lsp` use), closed when
/// the session ends: before its open, after it, on books that need nothing, an upgrade, or making.
final class SQLiteContactStoreOpeningTests: XCTestCase {
    private var directory: URL!
    private var path: String { directory.appendingPathComponent("contacts.sqlite").path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLiteContactStoreOpeningTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    /// A store to be opened; a failed open ends the test run (as it ends the process).
    private func toOpen(upgrading: (@Sendable () -> Void)? = nil, holdingWrites: Bool = false) -> SQLiteContactStore {
        SQLiteContactStore.toOpen(path: path, upgrading: upgrading, holdingWrites: holdingWrites) { error in
            fatalError("open failed: \(error)")
        }
    }

    private func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    private func assertNothingBeside() {
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-shm"))
    }

    func test_closedBeforeItsOpen_anUpToDateBook_isLeftByteForByte() throws {
        // Given: a book this version made, with a contact (closed: nothing beside it)
        let saved = try SQLiteContactStore(path: path).insert(StoreSeeds.ann)
        let before = try bytes()
        assertNothingBeside()
        let sut = toOpen()
        // When: the session ends before anything asked for the book
        try sut.close()
        // Then: the book was read, not written (a full open writes GRDB's WAL set-up and
        // checkpoints it at close), and nothing is left beside it
        XCTAssertEqual(try bytes(), before)
        assertNothingBeside()
        // And the store is closed: a later call is the closed book's error, and its open says so
        XCTAssertThrowsError(try sut.page(ContactQuery())) { error in
            guard case .storage? = error as? ContactStoreError else { return XCTFail("\(error)") }
        }
        XCTAssertFalse(sut.openNow())
        XCTAssertFalse(sut.waitForOpen())
        XCTAssertNoThrow(try sut.close())
        // And the book opens and reads as before
        XCTAssertEqual(try SQLiteContactStore(path: path).page(ContactQuery()).contacts, [saved])
    }

    func test_closedAfterItsOpen_closesTheBookAsAnyStore() throws {
        // Given: a book, opened by the session's thread (here this one)
        let saved = try SQLiteContactStore(path: path).insert(StoreSeeds.ann)
        let sut = toOpen()
        XCTAssertTrue(sut.openNow())
        XCTAssertEqual(try sut.page(ContactQuery()).contacts, [saved])
        // When
        try sut.close()
        // Then
        assertNothingBeside()
        XCTAssertThrowsError(try sut.page(ContactQuery()))
        XCTAssertEqual(try SQLiteContactStore(path: path).page(ContactQuery()).contacts, [saved])
    }

    func test_closedBeforeItsOpen_anOlderBook_isUpgradedWhole() throws {
        // Given: a book an earlier version made (its migrations are not all there)
        let fixture = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/books/groups-51b1074.sqlite")
        try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: path))
        XCTAssertFalse(try DatabaseQueue(path: path).read(SQLiteContactStore.recordsEveryMigration))
        let said = Counter()
        let sut = toOpen(upgrading: { said.add() })
        // When: the session ends before anything asked for the book
        try sut.close()
        // Then: the upgrade was not skipped nor cut short: said once, every migration recorded
        XCTAssertEqual(said.count, 1)
        XCTAssertTrue(try DatabaseQueue(path: path).read(SQLiteContactStore.recordsEveryMigration))
        assertNothingBeside()
    }

    func test_closedBeforeItsOpen_aNewBook_isMadeWhole() throws {
        // Given: no book yet (the default book, made on first use)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        let sut = toOpen()
        // When
        try sut.close()
        // Then: a whole book, never an empty file
        XCTAssertTrue(try DatabaseQueue(path: path).read(SQLiteContactStore.recordsEveryMigration))
        XCTAssertEqual(try SQLiteContactStore(path: path).page(ContactQuery()).total, 0)
        assertNothingBeside()
    }

    func test_heldOpenOnAnotherThread_closedBeforeAnyUse_leavesTheBookByteForByte() throws {
        // Given: a book, its open begun on another thread and held before its first write
        _ = try SQLiteContactStore(path: path).insert(StoreSeeds.ann)
        let before = try bytes()
        let sut = toOpen(holdingWrites: true)
        let opening = OpeningThread { sut.openNow() }
        // When: a watch asks whether it is open (it is not: held or not begun, and asking does not
        // let it go on), and the session ends without having used the book
        XCTAssertFalse(sut.hasOpened)
        try sut.close()
        let opened = opening.wait()
        // Then: the book was left as it was; the other thread's open says it is not open
        XCTAssertEqual(try bytes(), before)
        assertNothingBeside()
        XCTAssertFalse(opened)
    }

    func test_heldOpen_goesOnWhenLet_orWhenTheBookIsUsed() throws {
        // Given: a book
        let saved = try SQLiteContactStore(path: path).insert(StoreSeeds.ann)
        // When: the front end is about to wait for input (it lets the open finish)
        let let_ = toOpen(holdingWrites: true)
        let_.letOpenFinish()
        // Then: the open goes on to the end on this thread
        XCTAssertTrue(let_.openNow())
        XCTAssertTrue(let_.hasOpened)
        XCTAssertEqual(try let_.page(ContactQuery()).contacts, [saved])
        try let_.close()
        // When: a request needs the book while the open is held on another thread
        let used = toOpen(holdingWrites: true)
        let opening = OpeningThread { used.openNow() }
        // Then: it gets the book (no deadlock), and the open ended whole
        XCTAssertEqual(try used.page(ContactQuery()).contacts, [saved])
        opening.wait()
        XCTAssertTrue(used.waitForOpen())
        try used.close()
        assertNothingBeside()
    }

    func test_openWhenLet_beginsNothingUntilLet_thenOpensWhole() throws {
        // Given: a book, and a held store whose opening thread waits to be let
        let saved = try SQLiteContactStore(path: path).insert(StoreSeeds.ann)
        let before = try bytes()
        let sut = toOpen(holdingWrites: true)
        let opening = OpeningThread { sut.openWhenLet() }
        // When: the front end answers first, while the opening thread waits to be let
        sut.waitUntilOpenIsHeld()
        XCTAssertFalse(opening.returned(within: 0))
        // Then: nothing was begun: no connection (SQLite's first read makes the `-wal` and `-shm`)
        XCTAssertFalse(sut.hasOpened)
        assertNothingBeside()
        XCTAssertEqual(try bytes(), before)
        // When: it is let (the front end waits for input)
        sut.letOpenFinish()
        // Then: the thread makes the whole open
        XCTAssertTrue(opening.wait())
        XCTAssertTrue(sut.hasOpened)
        XCTAssertEqual(try sut.page(ContactQuery()).contacts, [saved])
        try sut.close()
        assertNothingBeside()
    }

    func test_openWhenLet_aRequestNeedingTheBookFirst_getsIt() throws {
        // Given: a book, a held store whose opening thread waits to be let
        let saved = try SQLiteContactStore(path: path).insert(StoreSeeds.ann)
        let sut = toOpen(holdingWrites: true)
        let opening = OpeningThread { sut.openWhenLet() }
        // When: a request needs the book before the front end ever waits
        // Then: it gets it (no deadlock), and the thread's open is that open
        XCTAssertEqual(try sut.page(ContactQuery()).contacts, [saved])
        XCTAssertTrue(opening.wait())
        XCTAssertTrue(sut.hasOpened)
        try sut.close()
        assertNothingBeside()
    }

    func test_openWhenLet_closedFirst_leavesTheBookByteForByte_andAnOlderOneUpgradedWhole() throws {
        // Given: an up-to-date book, its opening thread waiting to be let
        _ = try SQLiteContactStore(path: path).insert(StoreSeeds.ann)
        let before = try bytes()
        let sut = toOpen(holdingWrites: true)
        let opening = OpeningThread { sut.openWhenLet() }
        // When: the session ends without having used the book (a script's `initialize`)
        try sut.close()
        let opened = opening.wait()
        // Then: the book was left as it was, and the thread says it is not open
        XCTAssertEqual(try bytes(), before)
        assertNothingBeside()
        XCTAssertFalse(opened)
        // Given: an older book, the same way
        try FileManager.default.removeItem(atPath: path)
        let fixture = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/books/groups-51b1074.sqlite")
        try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: path))
        let said = Counter()
        let older = toOpen(upgrading: { said.add() }, holdingWrites: true)
        let olderOpening = OpeningThread { older.openWhenLet() }
        // When: closed at once
        try older.close()
        olderOpening.wait()
        // Then: upgraded whole, said once
        XCTAssertEqual(said.count, 1)
        XCTAssertTrue(try DatabaseQueue(path: path).read(SQLiteContactStore.recordsEveryMigration))
        assertNothingBeside()
    }

    func test_closedWhileTheOpenRunsElsewhere_waitsForIt() throws {
        // Given: an older book, its open begun on another thread
        let fixture = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/books/groups-51b1074.sqlite")
        try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: path))
        let sut = toOpen()
        let opening = OpeningThread { sut.openNow() }
        // When: the session ends at once
        try sut.close()
        // Then: whichever thread made the open, it ended whole before the store closed
        XCTAssertTrue(try DatabaseQueue(path: path).read(SQLiteContactStore.recordsEveryMigration))
        assertNothingBeside()
        XCTAssertTrue(opening.wait())
    }
}

/// An open on a thread of its own, as the front ends start one.
private final class OpeningThread: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    /// What the open answered; written before `finished` is signalled.
    private var opened = false

    init(_ open: @escaping () -> Bool) {
        Thread { [self] in
            opened = open()
            finished.signal()
        }.start()
    }

    /// What the open answered (whether the book is open), once it has returned.
    @discardableResult
    func wait() -> Bool {
        finished.wait()
        finished.signal() // for a later wait
        return opened
    }

    /// Whether the open returned within `seconds`.
    func returned(within seconds: Double) -> Bool {
        guard finished.wait(timeout: .now() + seconds) == .success else { return false }
        finished.signal()
        return true
    }
}

/// Counts calls from any thread.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func add() { lock.withLock { value += 1 } }
}
