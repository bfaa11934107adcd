import Foundation
import GRDB
import XCTest

@testable import ContactsApp

/// `scopeUIDs` on the books earlier versions made (`Fixtures/books/`): the contact table made
/// again without UNIQUE on `uid` keeps every row, index, link and the ids never given again.
final class ScopedUIDsUpgradeTests: XCTestCase {
    private var directory: URL!

    override func setUp() {
        super.setUp()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ScopedUIDsUpgradeTests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    private func copy(_ book: String) throws -> String {
        let source = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/books/\(book).sqlite")
        let target = directory.appendingPathComponent("\(book).sqlite")
        try FileManager.default.copyItem(at: source, to: target)
        return target.path
    }

    func test_everyBook_upgraded_letsTwoContactsShareAUID_andKeepsItsRowsIndexesLinksAndIDs() throws {
        for book in UpgradeFixtureTests.books {
            // Given: the book as the old program left it
            let path = try copy(book)
            let old = try DatabaseQueue(path: path)
            let (rows, links, lastID): ([Row], Int, Int64) = try old.read { db in
                (
                    try Row.fetchAll(db, sql: "SELECT id, uid, given, family, version FROM contact ORDER BY id"),
                    try db.tableExists("sync_item")
                        ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_item") ?? 0 : 0,
                    try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'contact'") ?? 0
                )
            }
            try old.close()
            XCTAssertGreaterThan(
                lastID, rows.compactMap { $0["id"] as Int64? }.max() ?? 0, "\(book): Bob Stone, deleted last")
            XCTAssertEqual(links > 0, book.hasPrefix("sync"), book)

            // When: today's program opens it, and saves a second contact with Olga's UID
            let store = try SQLiteContactStore(path: path)
            let twin = try store.insert(Contact(uid: "olga-brown-1", givenName: "Olga", familyName: "Twin"))

            // Then: both hold it; the new one has an id never given before
            XCTAssertEqual(twin.id, lastID + 1, book)
            XCTAssertEqual(try store.contacts(uids: ["olga-brown-1"]).map(\.familyName), ["Brown", "Twin"], book)
            let after = try DatabaseQueue(path: path)
            try after.read { db in
                XCTAssertEqual(
                    try Row.fetchAll(
                        db, sql: "SELECT id, uid, given, family, version FROM contact WHERE id != ? ORDER BY id",
                        arguments: [twin.id]), rows, book)
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_item"), links, book)
                let indexes = try String.fetchAll(
                    db,
                    sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'contact' ORDER BY name")
                XCTAssertEqual(
                    indexes, ["contact_id_sorts", "contact_sort_first", "contact_sort_last", "contact_uid"], book)
                XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA integrity_check"), "ok", book)
            }
            try after.close()
            // And the upgraded book still sorts, searches and pages as before
            XCTAssertEqual(
                try store.page(ContactQuery(search: "olga")).contacts.map(\.familyName).sorted(), ["Brown", "Twin"],
                book)
            XCTAssertEqual(try store.page(ContactQuery(sort: .last, limit: 100)).total, rows.count + 1, book)
        }
    }
}
