import Foundation
import GRDB
import XCTest

@testable import ContactsApp

/// `SQLiteContactStore`'s page anchors (its order-statistic index over each sort order), with
/// buckets of 2 to 4 contacts so that a few dozen writes split and merge them. After every kind
/// of write, failed ones included, every page of the whole book in both orders and every
/// contact's position follow the plain rule (the book sorted by sort key, then id), and each
/// anchor counts exactly the contacts of its bucket.
final class PageAnchorTests: XCTestCase {
    private var directory: URL!
    private var databasePath: String { directory.appendingPathComponent("contacts.sqlite").path }
    private var sut: SQLiteContactStore!
    /// What the store should hold: every saved contact as saved, by id.
    private var book: [Int64: Contact] = [:]
    private var random = SeededGenerator(seed: 6)
    private var uids = 0

    override func setUp() {
        super.setUp()
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("PageAnchorTests-\(UUID().uuidString)")
        book = [:]
        random = SeededGenerator(seed: 6)
        uids = 0
    }

    override func tearDown() {
        sut = nil
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    // MARK: - Writes of every kind

    func test_randomWrites_keepEveryPageAndPositionAndAnchorExact() throws {
        // Given
        sut = try SQLiteContactStore(path: databasePath, anchorBucket: 2)
        for step in 1...240 {
            // When: one write of a kind drawn at random
            switch random.next(upTo: 10) {
            case 0...3: try insert()
            case 4, 5: try updateOne()
            case 6, 7: try deleteOne()
            case 8: try importSome()
            default: try importInBatches()
            }
            // Then
            if step % 20 == 0 { try assertFollowsThePlainRule(bucket: 2, "after step \(step)") }
        }
        XCTAssertGreaterThan(book.count, 30)
    }

    func test_manyInsertsThenMostDeleted_mergesBucketsAndStaysExact() throws {
        // Given: one import of 150 contacts (splits all along), then single inserts
        sut = try SQLiteContactStore(path: databasePath, anchorBucket: 3)
        let saved = try sut.importContacts(inserting: (0..<150).map { _ in newContact() }, updating: [])
        for contact in saved { book[contact.id!] = contact }
        for _ in 0..<20 { try insert() }
        try assertFollowsThePlainRule(bucket: 3, "after the inserts")
        // When: all but a few deleted
        while book.count > 7 { try deleteOne() }
        // Then: exact, and merged down to a handful of buckets
        try assertFollowsThePlainRule(bucket: 3, "after the deletes")
        XCTAssertLessThanOrEqual(try anchors(.last).count, 7)
        // And it grows again
        for _ in 0..<30 { try insert() }
        try assertFollowsThePlainRule(bucket: 3, "after growing again")
    }

    func test_updatesThatMoveEveryContact_keepAnchorsExact() throws {
        // Given
        sut = try SQLiteContactStore(path: databasePath, anchorBucket: 2)
        for _ in 0..<40 { try insert() }
        // When: every contact renamed once (most move in both orders), some not moved at all
        for id in book.keys.sorted() {
            var contact = try XCTUnwrap(book[id])
            if id % 5 == 0 { contact.nickname = "Unmoved" } else { rename(&contact) }
            book[id] = try sut.update(contact)
        }
        // Then
        try assertFollowsThePlainRule(bucket: 2, "after renaming everyone")
    }

    /// An import keeps the anchors in memory and writes back what changed at its end.
    func test_importsThatMoveEveryContact_keepAnchorsExact() throws {
        // Given
        sut = try SQLiteContactStore(path: databasePath, anchorBucket: 2)
        for _ in 0..<40 { try insert() }
        // When: a streamed import renames half the book (moving them), adds some, in two batches
        let ids = book.keys.sorted()
        func renamed(_ ids: ArraySlice<Int64>) -> [Contact] {
            ids.map {
                var contact = book[$0]!; rename(&contact); return contact
            }
        }
        let (first, second) = (renamed(ids[0..<10]), renamed(ids[10..<20]))
        let added = (0..<10).map { _ in newContact() }
        let imported = try sut.importInBatches { transaction in
            try transaction.save(inserting: Array(added[0..<5]), updating: first)
            try transaction.save(inserting: Array(added[5...]), updating: second)
        }
        for contact in first + second { var saved = contact; saved.version += 1; book[contact.id!] = saved }
        for (id, contact) in zip(imported.added, added) {
            var saved = contact; saved.id = id; saved.version = 1; book[id] = saved
        }
        try assertFollowsThePlainRule(bucket: 2, "after the streamed import")
        // And an import in one go renames the other half
        for saved in try sut.importContacts(inserting: [], updating: renamed(ids[20...])) { book[saved.id!] = saved }
        // Then
        try assertFollowsThePlainRule(bucket: 2, "after the import")
    }

    func test_aBookKeptWithALargerBucket_isSplitToTheSmallerOne() throws {
        // Given: 101 contacts kept with B = 50: the 101st split the first bucket
        sut = try SQLiteContactStore(path: databasePath, anchorBucket: 50)
        for _ in 0..<101 { try insert() }
        XCTAssertEqual(try anchors(.last).map(\.n), [50, 51])
        // When: opened with B = 2, and one more contact added to the first bucket
        sut = try SQLiteContactStore(path: databasePath, anchorBucket: 2)
        var first = newContact()
        first.familyName = "Aaa"
        let saved = try sut.insert(first)
        book[saved.id!] = saved
        // Then: that bucket is split all the way down (51 = 24 × 2 + 3), the other left as it
        // was, and everything is still exact
        XCTAssertEqual(try anchors(.last).map(\.n), Array(repeating: 2, count: 24) + [3, 51])
        try assertFollowsThePlainRule(bucket: 50, "after the split")
    }

    /// Into an empty book, an import sets the sort indexes and the anchors aside and builds
    /// them once at its end.
    func test_streamedImportIntoAnEmptyBook_buildsIndexesAndAnchorsAtTheEnd_andTheyAreKeptAfter() throws {
        // Given: an empty book, and its indexes as the migrations made them
        sut = try SQLiteContactStore(path: databasePath, anchorBucket: 2)
        let migrated = try indexDefinitions()
        XCTAssertEqual(migrated.count, 4) // the UID's, both sort orders', (id, sort keys)
        // When: an import in three batches, the last updating a contact the first added
        let batches = (0..<3).map { _ in (0..<9).map { _ in newContact() } }
        var moved: Contact?
        let ids = try sut.importInBatches { transaction in
            try transaction.save(inserting: batches[0], updating: [])
            try transaction.save(inserting: batches[1], updating: [])
            let first = try XCTUnwrap(transaction.contacts(uids: [batches[0][0].uid]).first)
            moved = first
            moved!.familyName = "Zzyzx"
            try transaction.save(inserting: batches[2], updating: [moved!])
        }
        for (id, contact) in zip(ids.added, batches.joined()) {
            var saved = contact; saved.id = id; saved.version = 1; book[id] = saved
        }
        moved!.version += 1
        book[moved!.id!] = moved!
        // Then: the same indexes; anchors counted from the finished order (every bucket B, the
        // last the rest: what the keeper's splits would not give); every page and position exact
        XCTAssertEqual(try indexDefinitions(), migrated)
        for sort in ContactsApp.SortOrder.allCases {
            XCTAssertEqual(try anchors(sort).map(\.n), Array(repeating: 2, count: 13) + [1], "\(sort)")
        }
        try assertFollowsThePlainRule(bucket: 2, "after the import into an empty book")
        // And later writes keep them, a second import (into a book no longer empty) included
        for _ in 0..<10 { try insert() }
        for _ in 0..<10 { try updateOne() }
        for _ in 0..<10 { try deleteOne() }
        try importInBatches()
        try assertFollowsThePlainRule(bucket: 2, "after later writes")
        XCTAssertEqual(try indexDefinitions(), migrated)
    }

    func test_failedImportIntoAnEmptyBook_leavesItEmptyWithItsIndexesAndAnchors() throws {
        // Given: an empty book
        sut = try SQLiteContactStore(path: databasePath, anchorBucket: 2)
        let migrated = try indexDefinitions()
        let before = try (anchors(.first), anchors(.last))
        // When: a streamed import whose second batch holds a card without a UID (refused)
        let first = (0..<7).map { _ in newContact() }
        var twin = newContact()
        twin.uid = ""
        XCTAssertThrowsError(
            try sut.importInBatches { transaction in
                try transaction.save(inserting: first, updating: [])
                try transaction.save(inserting: [twin], updating: [])
            })
        // Then: nothing imported, indexes and anchors as they were
        XCTAssertEqual(try sut.page(ContactQuery()).total, 0)
        XCTAssertEqual(try indexDefinitions(), migrated)
        let after = try (anchors(.first), anchors(.last))
        XCTAssertEqual(after.0, before.0)
        XCTAssertEqual(after.1, before.1)
        // And the book works as before: inserts are kept, an import then fills it
        for _ in 0..<6 { try insert() }
        try importInBatches()
        try assertFollowsThePlainRule(bucket: 2, "after the failed import")
    }

    // MARK: - Failed writes

    func test_importWithACardWithoutUID_leavesAnchorsAsTheyWere() throws {
        // Given: a book whose buckets an import would split
        sut = try SQLiteContactStore(path: databasePath, anchorBucket: 2)
        for _ in 0..<20 { try insert() }
        let before = try (anchors(.first), anchors(.last))
        var twin = newContact()
        twin.uid = ""
        // When: an import whose last card has no UID (refused), after many good ones
        XCTAssertThrowsError(
            try sut.importContacts(
                inserting: (0..<12).map { _ in newContact() } + [twin],
                updating: []))
        // And a streamed import that fails in its second batch
        XCTAssertThrowsError(
            try sut.importInBatches { transaction in
                try transaction.save(inserting: (0..<12).map { _ in self.newContact() }, updating: [])
                try transaction.save(inserting: [twin], updating: [])
            })
        // Then: nothing changed, anchors included
        let after = try (anchors(.first), anchors(.last))
        XCTAssertEqual(after.0, before.0)
        XCTAssertEqual(after.1, before.1)
        try assertFollowsThePlainRule(bucket: 2, "after the failed imports")
    }

    func test_staleUpdateAndStaleDelete_leaveAnchorsAsTheyWere() throws {
        // Given
        sut = try SQLiteContactStore(path: databasePath, anchorBucket: 2)
        for _ in 0..<12 { try insert() }
        let id = try XCTUnwrap(book.keys.min())
        var stale = try XCTUnwrap(book[id])
        var current = stale
        current.nickname = "First"
        book[id] = try sut.update(current)
        let before = try (anchors(.first), anchors(.last))
        // When
        rename(&stale)
        XCTAssertThrowsError(try sut.update(stale))
        XCTAssertThrowsError(try sut.delete(id: id, expectedVersion: stale.version))
        XCTAssertThrowsError(try sut.delete(id: 999, expectedVersion: nil))
        // Then
        let after = try (anchors(.first), anchors(.last))
        XCTAssertEqual(after.0, before.0)
        XCTAssertEqual(after.1, before.1)
        try assertFollowsThePlainRule(bucket: 2, "after the refused writes")
    }

    // MARK: - Migration v4

    func test_migrationV4_onAVersion2File_fillsAnchorsFromTheRows() throws {
        // Given: a file as version 2 left it (no anchors, no v4), 25 contacts
        sut = try SQLiteContactStore(path: databasePath)
        for _ in 0..<25 { try insert() }
        sut = nil
        let queue = try DatabaseQueue(path: databasePath)
        try queue.write { db in
            // Back to a v3 book: without v4's anchors and what came after them.
            try db.execute(
                sql: """
                    DROP TABLE contact_anchor; DROP TABLE contact_text_vocab;
                    \(StoreSeeds.forgetting([SQLiteContactStore.addPageAnchors, SQLiteContactStore.addWordVocabulary,
                                         SQLiteContactStore.addNameOrderAndSortPastParticles]))
                    """)
        }
        try queue.close()
        // When
        sut = try SQLiteContactStore(path: databasePath, anchorBucket: 3)
        // Then: an anchor every 3 contacts of each order, from the lowest place on
        for sort in ContactsApp.SortOrder.allCases {
            let filled = try anchors(sort)
            XCTAssertEqual(filled.map(\.n), Array(repeating: 3, count: 8) + [1], "\(sort)")
            XCTAssertEqual(filled.first?.key, "")
            XCTAssertEqual(filled.first?.id, 0)
        }
        try assertFollowsThePlainRule(bucket: 3, "after the migration")
        // And they are kept from then on
        for _ in 0..<30 { try insert() }
        for _ in 0..<10 { try updateOne() }
        for _ in 0..<10 { try deleteOne() }
        try assertFollowsThePlainRule(bucket: 3, "after later writes")
        XCTAssertEqual(
            Set(
                try DatabaseQueue(path: databasePath).read {
                    try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations")
                }), Set(SQLiteContactStore.migrations.map(\.name)))
    }

    func test_migrationV4_onAnEmptyBook_leavesOneEmptyBucketPerOrder() throws {
        // When
        sut = try SQLiteContactStore(path: databasePath, anchorBucket: 2)
        // Then
        XCTAssertEqual(try anchors(.first), [AnchorRow(key: "", id: 0, n: 0)])
        XCTAssertEqual(try anchors(.last), [AnchorRow(key: "", id: 0, n: 0)])
        try assertFollowsThePlainRule(bucket: 2, "empty")
    }

    func test_openForReading_aVersion2File_isMigratedToV4First() throws {
        // Given: a version 2 file
        sut = try SQLiteContactStore(path: databasePath)
        for _ in 0..<5 { try insert() }
        sut = nil
        try DatabaseQueue(path: databasePath).write { db in
            // Back to a v3 book: without v4's anchors and what came after them.
            try db.execute(
                sql: """
                    DROP TABLE contact_anchor; DROP TABLE contact_text_vocab;
                    \(StoreSeeds.forgetting([SQLiteContactStore.addPageAnchors, SQLiteContactStore.addWordVocabulary,
                                         SQLiteContactStore.addNameOrderAndSortPastParticles]))
                    """)
        }
        // When
        let reader = try SQLiteContactStore.openForReading(path: databasePath)
        // Then: positions read through the anchors it now has
        for (position, id) in expectedOrder(.last).enumerated() {
            XCTAssertEqual(try reader.position(of: id, sort: .last), position)
        }
        XCTAssertEqual(try anchors(.last).map(\.n), [5])
    }

    // MARK: - Writes, with the expected book kept beside

    private func newContact() -> Contact {
        uids += 1
        var contact = StoreSeeds.contact("", "", uid: "anchor-\(uids)")
        rename(&contact)
        return contact
    }

    /// Names drawn from few choices, so that many contacts share a sort key (runs of one key
    /// straddle bucket boundaries), with diacritics, and some with only an organisation.
    private func rename(_ contact: inout Contact) {
        let given = ["Ann", "Al", "Émile", "zoë", "", "Bo"]
        let family = ["Lee", "Leeds", "Ñúñez", "adams", "", "Lee"]
        let organization = ["", "", "Acme", "Globex"]
        contact.givenName = given[random.next(upTo: given.count)]
        contact.familyName = family[random.next(upTo: family.count)]
        contact.organization = organization[random.next(upTo: organization.count)]
        if contact.givenName.isEmpty, contact.familyName.isEmpty, contact.organization.isEmpty {
            contact.organization = "Initech"
        }
    }

    private func insert() throws {
        let saved = try sut.insert(newContact())
        book[saved.id!] = saved
    }

    private func pickOne() -> Contact? {
        let ids = book.keys.sorted()
        return ids.isEmpty ? nil : book[ids[random.next(upTo: ids.count)]]
    }

    private func updateOne() throws {
        guard var contact = pickOne() else { return }
        if random.next(upTo: 4) == 0 { contact.title = "Moved nowhere" } else { rename(&contact) }
        book[contact.id!] = try sut.update(contact)
    }

    private func deleteOne() throws {
        guard let contact = pickOne() else { return }
        try sut.delete(id: contact.id!, expectedVersion: random.next(upTo: 2) == 0 ? contact.version : nil)
        book[contact.id!] = nil
    }

    private func importSome() throws {
        let inserting = (0..<(1 + random.next(upTo: 6))).map { _ in newContact() }
        var updating: [Contact] = []
        for _ in 0..<random.next(upTo: 3) {
            guard var contact = pickOne(), !updating.contains(where: { $0.id == contact.id }) else { continue }
            rename(&contact)
            updating.append(contact)
        }
        for saved in try sut.importContacts(inserting: inserting, updating: updating) { book[saved.id!] = saved }
    }

    private func importInBatches() throws {
        let batches = (0..<2).map { _ in (0..<(1 + random.next(upTo: 8))).map { _ in newContact() } }
        var updating = pickOne()
        if updating != nil { rename(&updating!) }
        let ids = try sut.importInBatches { transaction in
            try transaction.save(inserting: batches[0], updating: updating.map { [$0] } ?? [])
            try transaction.save(inserting: batches[1], updating: [])
        }
        for (id, contact) in zip(ids.added, batches[0] + batches[1]) {
            var saved = contact
            saved.id = id
            saved.version = 1
            book[id] = saved
        }
        if var updated = updating {
            updated.version += 1
            book[updated.id!] = updated
        }
    }

    // MARK: - The plain rule

    /// The ids in `sort`'s order: by sort key (compared as UTF-8 bytes, as SQLite does), then id.
    private func expectedOrder(_ sort: ContactsApp.SortOrder) -> [Int64] {
        book.values.map { (key: ContactKeys.sortKey($0, sort), id: $0.id!) }
            .sorted { precedes(($0.key, $0.id), ($1.key, $1.id)) }
            .map(\.id)
    }

    private func precedes(_ a: (String, Int64), _ b: (String, Int64)) -> Bool {
        a.0.utf8.elementsEqual(b.0.utf8) ? a.1 < b.1 : a.0.utf8.lexicographicallyPrecedes(b.0.utf8)
    }

    private func assertFollowsThePlainRule(
        bucket: Int, _ context: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for sort in ContactsApp.SortOrder.allCases {
            let order = expectedOrder(sort)
            // Every page of 3 and of 7 (past the end too): beyond 2B, through the anchors
            for limit in [3, 7] {
                for page in 1...(order.count / limit + 2) {
                    let got = try sut.page(ContactQuery(sort: sort, page: page, limit: limit))
                    let start = min((page - 1) * limit, order.count), end = min(start + limit, order.count)
                    XCTAssertEqual(got.total, order.count, "\(context): total", file: file, line: line)
                    XCTAssertEqual(
                        got.contacts.map(\.id!), Array(order[start..<end]),
                        "\(context): \(sort) page \(page) of \(limit)", file: file, line: line)
                }
            }
            // Every contact's position
            for (position, id) in order.enumerated() {
                XCTAssertEqual(
                    try sut.position(of: id, sort: sort), position,
                    "\(context): \(sort) position of \(id)", file: file, line: line)
            }
            // Every anchor: in order from the lowest place, counting its bucket exactly
            let stored = try anchors(sort)
            XCTAssertEqual(
                stored.first.map { [$0.key: $0.id] }, ["": 0], "\(context): first anchor", file: file, line: line)
            let keys = book.values.map { (ContactKeys.sortKey($0, sort), $0.id!) }
            for (i, anchor) in stored.enumerated() {
                let next = i + 1 < stored.count ? (stored[i + 1].key, stored[i + 1].id) : nil
                let inBucket = keys.filter { entry in
                    !precedes(entry, (anchor.key, anchor.id)) && (next.map { precedes(entry, $0) } ?? true)
                }
                XCTAssertEqual(anchor.n, inBucket.count, "\(context): \(sort) bucket \(i)", file: file, line: line)
                XCTAssertLessThanOrEqual(
                    anchor.n, 2 * bucket, "\(context): \(sort) bucket \(i)", file: file, line: line)
                if let next { XCTAssertTrue(precedes((anchor.key, anchor.id), next), file: file, line: line) }
            }
        }
    }

    struct AnchorRow: Equatable {
        var key: String
        var id: Int64
        var n: Int
    }

    /// The contact table's indexes, each its name and its SQL (none for the UID's, which
    /// SQLite makes for the UNIQUE constraint), read by another connection.
    private func indexDefinitions() throws -> [String] {
        try DatabaseQueue(path: databasePath).read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'contact' ORDER BY name
                    """
            ).map { "\($0["name"] as String): \(($0["sql"] as String?) ?? "-")" }
        }
    }

    /// The anchors of one order, read by another connection, in the table's order.
    private func anchors(_ sort: ContactsApp.SortOrder) throws -> [AnchorRow] {
        try DatabaseQueue(path: databasePath).read { db in
            try Row.fetchAll(
                db, sql: "SELECT key, id, n FROM contact_anchor WHERE sort = ? ORDER BY key, id",
                arguments: [sort.rawValue]
            )
            .map { AnchorRow(key: $0[0], id: $0[1], n: $0[2]) }
        }
    }
}

/// SplitMix64: the same numbers on every platform and run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound, drawn without Foundation's or the standard library's unspecified algorithms.
    mutating func next(upTo bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
