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
