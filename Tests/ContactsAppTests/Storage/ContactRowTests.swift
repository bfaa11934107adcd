import Foundation
import GRDB
import XCTest

@testable import ContactsApp

/// The contact row's columns are declared once (`SQLiteContactStore.columns`): these tests fail
/// when a column of the table or a field of `Contact` is left out of that one list.
final class ContactRowTests: XCTestCase {
    func test_columns_areTheTablesColumns_eachDeclaredOnce() throws {
        // Given
        let sut = try DatabaseQueue()
        try SQLiteContactStore.migrator().migrate(sut)
        // When
        let table = try sut.read { db in try db.columns(in: "contact").map(\.name) }
        let declared = SQLiteContactStore.columns.map(\.name)
        // Then
        XCTAssertEqual(declared.sorted(), table.sorted())
        XCTAssertEqual(Set(declared).count, declared.count)
    }

    func test_fullSeed_setsEveryFieldOfAContact() {
        // Given: the fixture the round trips save; a field it left at its default could be
        // missing from the columns and no round trip would notice
        let full = Mirror(reflecting: StoreSeeds.full).children, empty = Mirror(reflecting: Contact()).children
        // Then: every field but the store's own (id, version) differs from a new contact's
        for (field, value) in zip(full, empty) where !["id", "version"].contains(field.label) {
            XCTAssertNotEqual(String(describing: field.value), String(describing: value.value), field.label ?? "")
        }
    }

    func test_everyReadAndWrite_keepsEveryField() throws {
        // Given
        let sut = try SQLiteContactStore(path: ":memory:")
        var inserted = try sut.insert(StoreSeeds.full)
        // When: updated with every field changed back and forth
        inserted.notes = "changed"
        let updated = try sut.update(inserted)
        var expected = StoreSeeds.full
        expected.id = updated.id
        expected.version = 2
        expected.notes = "changed"
        // The card says so too, in its NOTE and nowhere else
        XCTAssertEqual(
            updated.card?.lines.filter { !$0.hasPrefix("REV:") },
            StoreSeeds.full.card?.lines.filter { !$0.hasPrefix("REV:") }.map {
                $0.hasPrefix("NOTE:") ? "NOTE:changed" : $0
            })
        expected.card = updated.card
        // Then: each way of reading a row gives the whole contact
        XCTAssertEqual(try sut.contact(id: updated.id!), expected)
        XCTAssertEqual(try sut.page(ContactQuery()).contacts, [expected])
        XCTAssertEqual(try sut.page(ContactQuery(search: "lovelace")).contacts, [expected])
        XCTAssertEqual(try sut.contacts(uids: [expected.uid]), [expected])
        var exported: [Contact] = []
        XCTAssertEqual(try sut.forEachBatch(search: "", sort: .last, batchSize: 10) { exported += $0 }, 1)
        XCTAssertEqual(exported, [expected])
    }
}
