import Foundation
import GRDB
import XCTest

@testable import ContactsApp

/// The mark in SQLite's header that says a book has directory sources
/// (`SQLiteContactStore.mayHaveDirectorySources`): `query` reads it from the file before it opens
/// the book, to start loading libldap early. Each change here is made and closed as a
/// `directory add` or `remove` process makes it, then the file is read as `query` reads it.
final class DirectorySourcesMarkTests: XCTestCase {
    private var directory: URL!
    private var path: String { directory.appendingPathComponent("contacts.sqlite").path }
    let corp = DirectorySource(name: "corp", server: "ldap://ldap.corp.test", baseDN: "dc=corp", security: .startTLS)
    let lab = DirectorySource(name: "lab", server: "ldaps://ldap.lab.test", baseDN: "dc=lab", security: .ldaps)

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "DirectorySourcesMarkTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    /// Opens the book, changes it, closes it (SQLite then writes the WAL back into the file).
    private func change(_ body: (SQLiteContactStore) throws -> Void) throws {
        let store = try SQLiteContactStore(path: path)
        try body(store)
        try store.close()
    }

    private var marked: Bool { SQLiteContactStore.mayHaveDirectorySources(atPath: path) }

    func test_theMark_followsTheSources_addedAndRemoved() throws {
        try change { _ in }
        XCTAssertFalse(marked, "a new book has no directory")
        try change { try $0.addDirectorySource(corp) }
        XCTAssertTrue(marked)
        try change { try $0.addDirectorySource(lab) }
        XCTAssertTrue(marked)
        try change { XCTAssertTrue(try $0.removeDirectorySource(named: "corp")) }
        XCTAssertTrue(marked, "lab is left")
        try change { XCTAssertFalse(try $0.removeDirectorySource(named: "corp")) }
        XCTAssertTrue(marked, "removing none changes nothing")
        try change { XCTAssertTrue(try $0.removeDirectorySource(named: "lab")) }
        XCTAssertFalse(marked, "the last one removed")
    }

    func test_theMark_keepsTheOtherBitsOfUserVersion() throws {
        try change { store in
            try store.writer.write { try $0.execute(sql: "PRAGMA user_version = 6") }
            try store.addDirectorySource(corp)
        }
        XCTAssertEqual(try userVersion(), 7)
        try change { _ = try $0.removeDirectorySource(named: "corp") }
        XCTAssertEqual(try userVersion(), 6)
        XCTAssertFalse(marked)
    }

    func test_aBookWithSourcesFromBeforeTheMark_isMarkedWhenOpened() throws {
        // Given: a book whose sources were added by a build that did not mark it
        try change { store in
            try store.addDirectorySource(corp)
            try store.writer.write { db in
                try db.execute(sql: "PRAGMA user_version = 0")
                try db.execute(
                    sql: "DELETE FROM grdb_migrations WHERE identifier = ?",
                    arguments: ["mark books with directory sources in the header"])
            }
        }
        XCTAssertFalse(marked)
        // When: opened for reading (as `query` opens it), which migrates a book that needs it
        let store = try SQLiteContactStore.openForReading(path: path)
        try store.close()
        // Then
        XCTAssertTrue(marked)
        XCTAssertEqual(try SQLiteContactStore(path: path).directorySources(), [corp])
    }

    func test_whatIsNotABook_isNotMarked() throws {
        XCTAssertFalse(SQLiteContactStore.mayHaveDirectorySources(atPath: path), "no file")
        XCTAssertFalse(SQLiteContactStore.mayHaveDirectorySources(atPath: directory.path), "a folder")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
        XCTAssertFalse(marked, "empty")
        // 100 bytes with bit 0 set where user_version would be, but not SQLite's header
        var bytes = [UInt8](repeating: 0xFF, count: 100)
        bytes.replaceSubrange(0..<4, with: Array("BEGI".utf8))
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        XCTAssertFalse(marked, "not SQLite")
        let fifo = directory.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertFalse(SQLiteContactStore.mayHaveDirectorySources(atPath: fifo), "a FIFO, without waiting for a writer")
    }

    private func userVersion() throws -> Int32 {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { try Int32.fetchOne($0, sql: "PRAGMA user_version") ?? -1 }
    }
}
