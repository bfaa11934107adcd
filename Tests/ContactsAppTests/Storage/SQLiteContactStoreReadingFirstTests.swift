import Foundation
import GRDB
import XCTest

@testable import ContactsApp

/// A store that reads through one connection until it first writes (`openReadingFirst`, what a
/// piped line session uses): a session that only reads leaves the book as it was; the first
/// write makes the full open; a book the full open would change is opened that way at once.
final class SQLiteContactStoreReadingFirstTests: XCTestCase {
    private var directory: URL!
    private var path: String { directory.appendingPathComponent("contacts.sqlite").path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLiteContactStoreReadingFirstTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    private func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    private func assertNothingBeside(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"), file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-shm"), file: file, line: line)
    }

    /// Whether the store made its full open (a pool): only a write does.
    private func hasWritten(_ store: SQLiteContactStore) -> Bool {
        guard case .readingFirst(let book) = store.connection else { return true }
        return book.hasWritten
    }

    /// The statements SQLite runs on a connection, as GRDB's trace hands them.
    private final class StatementLog: @unchecked Sendable {
        private let lock = NSLock()
        private var logged: [String] = []
        var statements: [String] { lock.withLock { logged } }
        func append(_ event: Database.TraceEvent) {
            guard case .statement(let statement) = event else { return }
            lock.withLock { logged.append(statement.sql) }
        }
        func removeAll() { lock.withLock { logged = [] } }
    }

    func test_aSearchsChecksOfBooksAndDirectories_areOneStatementEach_inNoReadTransaction() throws {
        // Given: a book with one book and no directory, read through a connection whose
        // statements are logged
        let maker = try SQLiteContactStore(path: path)
        let bob = try maker.insert(StoreSeeds.contact("Bob", "Kowalski"))
        try maker.close()
        let sut = try SQLiteContactStore.openReadingFirst(path: path)
        let log = StatementLog()
        try sut.reader.unsafeReentrantRead { db in db.trace(options: .statement) { log.append($0) } }
        let worker = ContactsWorker(environment: ContactsEnvironment(store: sut, pageSize: 20, defaultCountry: nil))
        let page = try sut.page(ContactQuery(search: "kowal"))
        XCTAssertEqual(page.contacts, [bob])
        log.removeAll()
        // When: what a piped `search` asks after its page
        let names = worker.bookNames(of: page.contacts)
        let hasDirectories = try sut.hasDirectorySources()
        // Then: one number each, without GRDB's read transaction around it
        XCTAssertEqual(names, [:])
        XCTAssertFalse(hasDirectories)
        XCTAssertEqual(
            log.statements,
            ["SELECT COUNT(*) > 1 FROM address_book", "SELECT EXISTS (SELECT 1 FROM directory_source)"])
        try sut.close()
    }

    func test_aQuerysDirectoriesAndGroups_areOneStatementEach_inNoReadTransaction() throws {
        // Given: a book with a group and a directory, opened as `query` opens it, its
        // statements logged
        let maker = try SQLiteContactStore(path: path)
        let bob = try maker.insert(StoreSeeds.contact("Bob", "Kowalski"))
        let team = try maker.saveGroup(
            GroupCard.new(uid: "g", name: "Team", members: [bob.uid], convention: .kind), kind: .add,
            summary: "made group Team")
        try maker.addDirectorySource(
            DirectorySource(name: "work", server: "127.0.0.1", baseDN: "dc=example,dc=org", security: .startTLS))
        try maker.close()
        let sut = try SQLiteContactStore.openForReading(path: path)
        let log = StatementLog()
        try sut.reader.unsafeReentrantRead { db in db.trace(options: .statement) { log.append($0) } }
        // When: what a `query` reads besides its matches
        let sources = try sut.directorySources()
        let groups = try sut.groupNames()
        // Then: the same answers, one statement each, without GRDB's read transaction around it
        XCTAssertEqual(sources.map(\.name), ["work"])
        XCTAssertEqual(groups.map(\.id), [team.id!])
        XCTAssertEqual(groups.map(\.name), ["Team"])
        XCTAssertEqual(log.statements.count, 2, "\(log.statements)")
        XCTAssertTrue(
            log.statements.first?.hasSuffix("FROM directory_source ORDER BY name") == true, "\(log.statements)")
        XCTAssertEqual(log.statements.last, "SELECT id, name FROM contact_group ORDER BY name COLLATE NOCASE, id")
        try sut.close()
    }

    func test_aSessionThatOnlyReads_leavesTheBookByteForByte() throws {
        // Given: a book this version made, with two contacts (closed: nothing beside it)
        let maker = try SQLiteContactStore(path: path)
        let ann = try maker.insert(StoreSeeds.ann)
        let bob = try maker.insert(StoreSeeds.contact("Bob", "Kowalski"))
        try maker.close()
        let before = try bytes()
        assertNothingBeside()
        // When: a session pages, searches, shows a contact and asks the journal, then ends
        let sut = try SQLiteContactStore.openReadingFirst(path: path)
        XCTAssertEqual(try sut.page(ContactQuery()).total, 2)
        XCTAssertEqual(try sut.page(ContactQuery(search: "kowal")).contacts, [bob])
        XCTAssertEqual(try sut.contact(id: ann.id!), ann)
        XCTAssertEqual(try sut.history(contactID: nil, limit: 10).count, 2)
        XCTAssertGreaterThan(try sut.lastSequence(), 0)
        XCTAssertTrue(sut.readsDuringWrites)
        XCTAssertFalse(hasWritten(sut))
        try sut.close()
        // Then: no WAL set-up was written nor checkpointed, and nothing is left beside the book
        XCTAssertEqual(try bytes(), before)
        assertNothingBeside()
        // And the store is closed: a later call is the closed book's error
        XCTAssertThrowsError(try sut.page(ContactQuery())) { error in
            guard case .storage? = error as? ContactStoreError else { return XCTFail("\(error)") }
        }
        XCTAssertNoThrow(try sut.close())
    }

    func test_theFirstWrite_makesTheFullOpen_andLaterReadsSeeIt() throws {
        // Given: a book with a contact, opened for a session that reads first
        let ann = try SQLiteContactStore(path: path).insert(StoreSeeds.ann)
        let sut = try SQLiteContactStore.openReadingFirst(path: path)
        sut.journalOrigin = "line"
        XCTAssertEqual(try sut.page(ContactQuery()).contacts, [ann])
        let sequence = try sut.lastSequence()
        // When: it adds a contact
        let bob = try sut.insert(StoreSeeds.contact("Bob", "Kowalski"))
        // Then: the full open was made, the write journalled as the session's, and read back
        XCTAssertTrue(hasWritten(sut))
        XCTAssertEqual(try sut.page(ContactQuery()).total, 2)
        XCTAssertEqual(try sut.contact(id: bob.id!), bob)
        let latest = try XCTUnwrap(try sut.history(contactID: nil, limit: 1).first)
        XCTAssertEqual(latest.origin, "line")
        XCTAssertGreaterThan(try sut.lastSequence(), sequence)
        // And closing leaves nothing beside the book, which holds both contacts
        try sut.close()
        assertNothingBeside()
        XCTAssertEqual(try SQLiteContactStore(path: path).page(ContactQuery()).total, 2)
    }

    func test_anotherProcessesWrite_isSeenByTheReadingConnection() throws {
        // Given: a session reading the book, and another store writing it meanwhile
        _ = try SQLiteContactStore(path: path).insert(StoreSeeds.ann)
        let sut = try SQLiteContactStore.openReadingFirst(path: path)
        XCTAssertEqual(try sut.page(ContactQuery()).total, 1)
        let other = try SQLiteContactStore(path: path)
        // When
        let bob = try other.insert(StoreSeeds.contact("Bob", "Kowalski"))
        // Then: the next read sees it, without the session's full open
        XCTAssertEqual(try sut.page(ContactQuery(search: "kowal")).contacts, [bob])
        XCTAssertFalse(hasWritten(sut))
        try sut.close()
        try other.close()
        assertNothingBeside()
    }

    func test_anOlderBook_isUpgradedAtOnce_andSaidOnce() throws {
        // Given: a book an earlier version made (its migrations are not all there)
        let fixture = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/books/groups-51b1074.sqlite")
        try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: path))
        XCTAssertFalse(try DatabaseQueue(path: path).read(SQLiteContactStore.recordsEveryMigration))
        var said = 0
        // When
        let sut = try SQLiteContactStore.openReadingFirst(path: path, upgrading: { said += 1 })
        // Then: upgraded by the open itself, as `init(path:)` does, before anything is read
        XCTAssertEqual(said, 1)
        XCTAssertTrue(try DatabaseQueue(path: path).read(SQLiteContactStore.recordsEveryMigration))
        XCTAssertTrue(hasWritten(sut))
        try sut.close()
        assertNothingBeside()
    }

    func test_aNewBook_isMadeWholeAtOnce() throws {
        // Given: no book yet
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        // When
        let sut = try SQLiteContactStore.openReadingFirst(path: path)
        // Then: a whole book, never an empty file
        XCTAssertTrue(try DatabaseQueue(path: path).read(SQLiteContactStore.recordsEveryMigration))
        XCTAssertEqual(try sut.page(ContactQuery()).total, 0)
        try sut.close()
        assertNothingBeside()
    }

    func test_aFileThatIsNotABook_isRefusedAsTheFullOpenRefusesIt() throws {
        // Given: text where the book should be
        try Data("not a database, just text\n".utf8).write(to: URL(fileURLWithPath: path))
        // When / Then: the same error as the full open's, at once
        var full: String?
        XCTAssertThrowsError(try SQLiteContactStore(path: path)) { full = "\($0)" }
        XCTAssertThrowsError(try SQLiteContactStore.openReadingFirst(path: path)) { error in
            guard case .storage? = error as? ContactStoreError else { return XCTFail("\(error)") }
            XCTAssertEqual("\(error)", full)
        }
    }

    func test_aBookInMemory_isAnOrdinaryStore() throws {
        let sut = try SQLiteContactStore.openReadingFirst(path: ":memory:")
        XCTAssertTrue(hasWritten(sut))
        let ann = try sut.insert(StoreSeeds.ann)
        XCTAssertEqual(try sut.page(ContactQuery()).contacts, [ann])
    }
}
