import Foundation
import XCTest

@testable import SceneCore

final class ChangeWatchTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ChangeWatchTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    private func write(_ name: String) throws {
        try Data("x".utf8).write(to: directory.appendingPathComponent(name))
    }

    func test_aWriteToTheFileOrItsWAL_asksTheAppWhatChanged_once() throws {
        // Given
        var asked = 0
        let change = DataChange(topic: "things", kind: "created", ids: ["1"], external: true)
        let sut = try XCTUnwrap(
            ChangeWatch(file: directory.appendingPathComponent("book.sqlite").path) {
                asked += 1
                return [change]
            })
        // When: nothing written
        // Then
        XCTAssertEqual(sut.changes(), [])
        XCTAssertEqual(asked, 0)
        // When: the WAL written twice
        try write("book.sqlite-wal")
        try write("book.sqlite-wal")
        // Then: asked once for both
        XCTAssertEqual(sut.changes(), [change])
        XCTAssertEqual(asked, 1)
        XCTAssertEqual(sut.changes(), [])
    }

    func test_aWriteToAnotherFile_isNotTheApps() throws {
        // Given
        var asked = 0
        let sut = try XCTUnwrap(
            ChangeWatch(file: directory.appendingPathComponent("book.sqlite").path) {
                asked += 1
                return []
            })
        // When
        try write("other.txt")
        // Then
        XCTAssertEqual(sut.changes(), [])
        XCTAssertEqual(asked, 0)
    }

    func test_eventsWithoutEnd_areReadInBoundedTurns_andTheRestWaitsReadable() throws {
        // Given: more events from other files than one call reads, then the book's WAL written
        var asked = 0
        let change = DataChange(topic: "things", kind: "created", ids: ["1"], external: true)
        let sut = try XCTUnwrap(
            ChangeWatch(file: directory.appendingPathComponent("book.sqlite").path) {
                asked += 1
                return [change]
            })
        // 2,000 new files: 3 events of 32 bytes each, 192 KB, against 8 reads of 16 KB a call
        for index in 0..<2_000 { try write(String(format: "other-%05d.txt", index)) }
        try write("book.sqlite-wal")
        // When
        let first = sut.changes()
        // Then: the first call stopped before the book's event, which still wakes a `poll`
        XCTAssertEqual(first, [])
        XCTAssertEqual(asked, 0)
        var waiting = pollfd(fd: sut.descriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&waiting, 1, 0), 1)
        // When: the front end comes back for the rest
        let second = sut.changes()
        // Then
        XCTAssertEqual(second, [change])
        XCTAssertEqual(asked, 1)
    }

    func test_madeUnarmed_watchesNothingUntilArmed_thenAsksOnceForWhatCameBefore() throws {
        // Given: a watch made unarmed (a JSON-RPC front end arms it when it first waits)
        var asked = 0
        let change = DataChange(topic: "things", kind: "created", ids: ["1"], external: true)
        let sut = try XCTUnwrap(
            ChangeWatch(file: directory.appendingPathComponent("book.sqlite").path, armed: false) {
                asked += 1
                return [change]
            })
        // Then: no descriptor, nothing asked, even after a write
        XCTAssertEqual(sut.descriptor, -1)
        try write("book.sqlite-wal")
        XCTAssertEqual(sut.changes(), [])
        XCTAssertEqual(asked, 0)
        // When: armed
        XCTAssertTrue(sut.arm())
        // Then: what changed before is asked for once, then only writes wake it, as always
        XCTAssertGreaterThanOrEqual(sut.descriptor, 0)
        XCTAssertEqual(sut.changes(), [change])
        XCTAssertEqual(sut.changes(), [])
        XCTAssertEqual(asked, 1)
        try write("book.sqlite-wal")
        XCTAssertEqual(sut.changes(), [change])
        XCTAssertEqual(asked, 2)
        // And arming again changes nothing
        let descriptor = sut.descriptor
        XCTAssertTrue(sut.arm())
        XCTAssertEqual(sut.descriptor, descriptor)
        XCTAssertEqual(sut.changes(), [])
    }

    func test_released_closesItsDescriptor() throws {
        // Given
        var sut = ChangeWatch(file: directory.appendingPathComponent("book.sqlite").path) { [] }
        let descriptor = try XCTUnwrap(sut?.descriptor)
        XCTAssertNotEqual(fcntl(descriptor, F_GETFD), -1)
        // When
        sut = nil
        // Then: its watch removed and the descriptor closed (none left open for the process's exit)
        XCTAssertEqual(fcntl(descriptor, F_GETFD), -1)
        XCTAssertEqual(errno, EBADF)
    }

    func test_notice_isOneLine_namingKindsAndAFewIDs() {
        XCTAssertEqual(
            ChangeWatch.notice(for: [
                DataChange(topic: "contacts", kind: "updated", ids: ["3"]),
                DataChange(topic: "contacts", kind: "created", ids: (1...7).map(String.init)),
                DataChange(topic: "contacts", kind: "reload", ids: []),
            ]),
            "Changed elsewhere: contacts updated #3; contacts created #1, #2, #3, #4, #5 and 2 more; contacts reload")
    }
}
