import Foundation
import GRDB
import XCTest
@testable import ContactsApp

/// What only the SQLite store has: a file, a schema, WAL, several processes.
final class SQLiteContactStoreTests: XCTestCase {
    private var directory: URL!
    private var databasePath: String { directory.appendingPathComponent("nested/contacts.sqlite").path }

    override func setUp() {
        super.setUp()
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLiteContactStoreTests-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    func test_newFile_isPrivate_andItsDirectoryIsCreated() throws {
        // When
        _ = try SQLiteContactStore(path: databasePath)
        // Then
        let attributes = try FileManager.default.attributesOfItem(atPath: databasePath)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func test_newFile_isInWALMode() throws {
        // When
        _ = try SQLiteContactStore(path: databasePath)
        // Then: header bytes 18 and 19 are 2 in a WAL database (https://sqlite.org/fileformat.html)
        let header = try XCTUnwrap(FileHandle(forReadingAtPath: databasePath)).readData(ofLength: 20)
        XCTAssertEqual(Array(header[18...19]), [2, 2])
    }

    func test_migrations_createTheSchema() throws {
        // When
        _ = try SQLiteContactStore(path: databasePath)
        // Then
        let queue = try DatabaseQueue(path: databasePath)
        try queue.read { db in
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"),
                           SQLiteContactStore.migrations.map(\.name))
            XCTAssertTrue(try db.tableExists("contact_text"))
            XCTAssertTrue(try db.tableExists("contact_anchor"))
            XCTAssertTrue(try db.tableExists("contact_phone"))
            XCTAssertTrue(try db.tableExists("contact_phone_gram"))
            let columns = try db.columns(in: "contact").map(\.name)
            XCTAssertTrue(columns.contains("extra"))
            XCTAssertTrue(columns.contains("sort_first"))
            let indexes = try db.indexes(on: "contact").map(\.columns)
            XCTAssertTrue(indexes.contains(["sort_first", "id"]))
            XCTAssertTrue(indexes.contains(["sort_last", "id"]))
            XCTAssertTrue(indexes.contains(["id", "sort_first", "sort_last"]))
        }
    }

    func test_migrationV2_onAVersion1File_indexesTheStoredPhones() throws {
        // Given: a file as version 1 left it (rows, word and trigram indexes; no v2, no v4)
        let (ann, al): (Contact, Contact) = try {
            let store = try SQLiteContactStore(path: databasePath)
            let saved = (try store.insert(StoreSeeds.ann), try store.insert(StoreSeeds.al))
            _ = try store.insert(StoreSeeds.jose)
            return saved
        }()
        let queue = try DatabaseQueue(path: databasePath)
        try queue.write { db in
            try db.execute(sql: """
                DROP TABLE contact_phone_gram; DROP INDEX contact_id_sorts; DROP TABLE contact_count;
                DROP TABLE contact_anchor; DELETE FROM grdb_migrations WHERE identifier IN ('v2', 'v4')
                """)
        }
        try queue.close()
        // When
        let sut = try SQLiteContactStore(path: databasePath)
        // Then: the count is kept from the rows already there
        XCTAssertEqual(try sut.page(ContactQuery()).total, 3)
        // and long fragments are found through the filled index
        XCTAssertEqual(try sut.page(ContactQuery(search: "5551234567")).contacts.map(\.id), [ann.id])
        XCTAssertEqual(try sut.page(ContactQuery(search: "20 7946 0958")).contacts.map(\.id), [al.id])
        XCTAssertEqual(try sut.page(ContactQuery(search: "2079460958")).contacts.map(\.id), [al.id])
        // and kept up by later saves
        var edited = ann
        edited.phones = [LabeledValue(label: "home", value: "555 000 1111")]
        _ = try sut.update(edited)
        try sut.delete(id: al.id!, expectedVersion: al.version)
        XCTAssertEqual(try sut.page(ContactQuery(search: "5551234567")).total, 0)
        XCTAssertEqual(try sut.page(ContactQuery(search: "5550001111")).contacts.map(\.id), [ann.id])
        XCTAssertEqual(try sut.page(ContactQuery(search: "2079460958")).total, 0)
        XCTAssertEqual(try sut.page(ContactQuery()).total, 2)
        try DatabaseQueue(path: databasePath).read { db in
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"),
                           SQLiteContactStore.migrations.map(\.name))
            XCTAssertTrue(try db.indexes(on: "contact").map(\.columns).contains(["id", "sort_first", "sort_last"]))
        }
    }

    func test_walkBudget_onlyForMatchesDenseEnoughToFillThePageEarly() {
        // Rare matches: looking them up and sorting is cheaper than any walk
        XCTAssertNil(SQLiteContactStore.walkBudget(wanted: 20, total: 100, book: 1_000_000))
        // One contact in 10 matches: 20 of them expected within 201 entries; at most `total`
        XCTAssertEqual(SQLiteContactStore.walkBudget(wanted: 20, total: 100_000, book: 1_000_000), 100_000)
        // One in 200: 20 expected within 4,001 entries; 3 times that, plus 10
        XCTAssertEqual(SQLiteContactStore.walkBudget(wanted: 20, total: 5_000, book: 1_000_000), 12_013)
        XCTAssertNil(SQLiteContactStore.walkBudget(wanted: 20, total: 0, book: 10))
        XCTAssertNil(SQLiteContactStore.walkBudget(wanted: Int.max, total: 10, book: 2), "no overflow")
    }

    func test_reopening_keepsContactsAndSearch() throws {
        // Given
        let saved = try SQLiteContactStore(path: databasePath).insert(StoreSeeds.full)
        // When
        let sut = try SQLiteContactStore(path: databasePath)
        // Then
        XCTAssertEqual(try sut.contact(id: saved.id!), saved)
        XCTAssertEqual(try sut.page(ContactQuery(search: "lovel")).contacts, [saved])
        XCTAssertEqual(try sut.page(ContactQuery(search: "7946")).contacts, [saved])
    }

    func test_twoStoresOnOneFile_staleUpdateFromSecondIsRefused() throws {
        // Given: both open the file; each loads version 1 of Ann
        let first = try SQLiteContactStore(path: databasePath)
        let sut = try SQLiteContactStore(path: databasePath)
        let original = try first.insert(StoreSeeds.ann)
        var mine = try XCTUnwrap(first.contact(id: original.id!))
        var theirs = try XCTUnwrap(sut.contact(id: original.id!))
        mine.nickname = "Saved first"
        theirs.nickname = "Saved second"
        // When
        let saved = try first.update(mine)
        // Then
        XCTAssertThrowsError(try sut.update(theirs)) {
            XCTAssertEqual($0 as? ContactStoreError, .staleVersion(id: original.id!, expected: 1, actual: 2))
        }
        XCTAssertEqual(try first.contact(id: original.id!), saved)
        XCTAssertEqual(try sut.contact(id: original.id!), saved)
    }

    func test_readsDoNotWaitForAnotherProcessWriting() throws {
        // Given: another connection holds the write lock in an open transaction
        let sut = try SQLiteContactStore(path: databasePath)
        let saved = try sut.insert(StoreSeeds.ann)
        var config = Configuration()
        config.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: databasePath, configuration: config)
        try other.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE; UPDATE contact SET nickname = 'uncommitted'") }
        defer { try? other.inDatabase { try $0.execute(sql: "ROLLBACK") } }
        // Then: WAL lets the store read the last committed state meanwhile
        XCTAssertEqual(try sut.page(ContactQuery()).contacts, [saved])
    }

    func test_update_keepsExtraColumn() throws {
        // Given: a row whose `extra` holds properties the model does not know, read as an edit begins
        let sut = try SQLiteContactStore(path: databasePath)
        let inserted = try sut.insert(StoreSeeds.ann)
        let queue = try DatabaseQueue(path: databasePath)
        try queue.write { try $0.execute(sql: "UPDATE contact SET extra = '[\"X-FOO:1\"]'") }
        var ann = try XCTUnwrap(try sut.contact(id: inserted.id!))
        XCTAssertEqual(ann.extraProperties, ["X-FOO:1"])
        // When
        ann.givenName = "Anne"
        _ = try sut.update(ann)
        // Then
        XCTAssertEqual(try queue.read { try String.fetchOne($0, sql: "SELECT extra FROM contact") }, "[\"X-FOO:1\"]")
    }

    func test_memoryPath_needsNoFile() throws {
        // Given
        let sut = try SQLiteContactStore(path: ":memory:")
        // When
        let saved = try sut.insert(StoreSeeds.ann)
        // Then
        XCTAssertEqual(try sut.page(ContactQuery(search: "ann")).contacts, [saved])
        XCTAssertFalse(FileManager.default.fileExists(atPath: ":memory:"))
    }

    func test_fileThatIsNotADatabase_throwsStorageError() throws {
        // Given
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("notes.txt").path
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        // Then
        XCTAssertThrowsError(try SQLiteContactStore(path: path)) { error in
            guard case .storage? = error as? ContactStoreError else { return XCTFail("\(error)") }
        }
    }

    func test_streamedImport_andDeletes_keepTheBookCount() throws {
        // Given: a streamed import in two batches, one card updating a contact saved before
        let sut = try SQLiteContactStore(path: databasePath)
        var ann = try sut.insert(StoreSeeds.ann)
        ann.nickname = "Annie"
        _ = try sut.importInBatches { transaction in
            try transaction.save(inserting: [StoreSeeds.full], updating: [ann])
            try transaction.save(inserting: [Contact(uid: "third", givenName: "Third")], updating: [])
        }
        // Then: the kept count is the number of rows, here and in another connection
        XCTAssertEqual(try sut.page(ContactQuery()).total, 3)
        let queue = try DatabaseQueue(path: databasePath)
        XCTAssertEqual(try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM contact") }, 3)
        // And a delete counts down
        try sut.delete(id: ann.id!, expectedVersion: nil)
        XCTAssertEqual(try SQLiteContactStore(path: databasePath).page(ContactQuery()).total, 2)
    }

    // MARK: - openForReading (`contactsbook query`)

    func test_openForReading_readsWhatWasSaved_andRefusesWrites() throws {
        // Given: a book with two contacts, closed
        let saved = try SQLiteContactStore(path: databasePath).insert(StoreSeeds.full)
        // When
        let sut = try SQLiteContactStore.openForReading(path: databasePath)
        // Then: the same page and search as a full open
        XCTAssertEqual(try sut.page(ContactQuery(search: "lovel")).contacts, [saved])
        XCTAssertEqual(try sut.contact(id: saved.id!), saved)
        // And a write is refused, and changes nothing
        XCTAssertThrowsError(try sut.insert(StoreSeeds.ann)) { error in
            guard case .storage? = error as? ContactStoreError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try sut.importContacts(inserting: [StoreSeeds.ann], updating: []))
        XCTAssertThrowsError(try sut.delete(id: saved.id!, expectedVersion: nil))
        XCTAssertEqual(try SQLiteContactStore(path: databasePath).page(ContactQuery()).total, 1)
    }

    func test_openForReading_leavesNoWALFilesBehindWhenClosed() throws {
        // Given: a book, closed (SQLite removes its -wal and -shm files)
        _ = try SQLiteContactStore(path: databasePath).insert(StoreSeeds.ann)
        XCTAssertFalse(FileManager.default.fileExists(atPath: databasePath + "-wal"))
        // When: a reader opens it, reads and closes
        func readAndClose() throws -> Int {
            try SQLiteContactStore.openForReading(path: databasePath).page(ContactQuery()).total
        }
        XCTAssertEqual(try readAndClose(), 1)
        // Then: nothing is left beside the book
        XCTAssertFalse(FileManager.default.fileExists(atPath: databasePath + "-wal"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: databasePath + "-shm"))
    }

    func test_openForReading_seesWhatAnotherConnectionCommitsWhileOpen() throws {
        // Given
        let writer = try SQLiteContactStore(path: databasePath)
        let sut = try SQLiteContactStore.openForReading(path: databasePath)
        XCTAssertEqual(try sut.page(ContactQuery()).total, 0)
        // When
        let saved = try writer.insert(StoreSeeds.ann)
        // Then
        XCTAssertEqual(try sut.page(ContactQuery()).contacts, [saved])
    }

    func test_openForReading_aMissingFile_isCreatedPrivateAndEmpty() throws {
        // When
        let sut = try SQLiteContactStore.openForReading(path: databasePath)
        // Then: as a full open would: an empty book, the schema in place, mode 0600
        XCTAssertEqual(try sut.page(ContactQuery()).total, 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: databasePath)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func test_openForReading_aFileWithoutTheSchema_isMigratedFirst() throws {
        // Given: an empty file, as `touch` leaves it (no tables, no migrations)
        try FileManager.default.createDirectory(atPath: (databasePath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: databasePath, contents: nil))
        // When
        let sut = try SQLiteContactStore.openForReading(path: databasePath)
        // Then: readable, and the schema now exists
        XCTAssertEqual(try sut.page(ContactQuery(search: "ann")).total, 0)
        let queue = try DatabaseQueue(path: databasePath)
        XCTAssertEqual(try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") },
                       SQLiteContactStore.migrations.map(\.name))
    }

    func test_openForReading_aFileThatIsNotADatabase_throwsStorageError() throws {
        // Given
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("notes.txt").path
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        // Then
        XCTAssertThrowsError(try SQLiteContactStore.openForReading(path: path)) { error in
            guard case .storage? = error as? ContactStoreError else { return XCTFail("\(error)") }
        }
    }
}
