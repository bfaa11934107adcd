import Foundation
import GRDB
import XCTest

@testable import ContactsApp

/// Books made by earlier versions of the program (`Fixtures/books/`, its README names each one's
/// commit and how it was made), opened with today's code: each must upgrade and read back whole,
/// with indexes as today's saves write them. Each test works on a copy.
final class UpgradeFixtureTests: XCTestCase {
    private var directory: URL!

    /// The fixture books, oldest first.
    static let books = [
        "v5-71b6665", "named-b0fa603", "journal-292235c", "sync-51f85f7", "directory-3220305", "groups-51b1074",
    ]

    override func setUp() {
        super.setUp()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "UpgradeFixtureTests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    /// A copy of a fixture book, to be changed by the test.
    private func copy(_ book: String) throws -> String {
        let source = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/books/\(book).sqlite")
        let target = directory.appendingPathComponent("\(book).sqlite")
        try FileManager.default.copyItem(at: source, to: target)
        return target.path
    }

    /// The contacts `make-book.sh` leaves in every book, by uid or, for those added through the
    /// form, by name: what each must read back as after the upgrade.
    private func assertHoldsTheMadeContacts(_ store: SQLiteContactStore, _ book: String) throws {
        let contacts = try store.page(ContactQuery(limit: 100)).contacts
        let byName = Dictionary(
            contacts.map { ($0.givenName + " " + $0.familyName, $0) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(
            Set(byName.keys),
            [
                "Olga Brown", " ", "Ann Lee", "José Núñez", "Ludwig van Beethoven",
                "太郎 山田", "Mary Kowalczyk",
            ], book)
        let ann = try XCTUnwrap(byName["Ann Lee"], book)
        XCTAssertEqual(ann.nickname, "Annie", book)
        XCTAssertEqual(ann.organization, "Acme Corp", book)
        XCTAssertEqual(ann.title, "Engineer", book)
        XCTAssertEqual(ann.emails, [LabeledValue(label: "work", value: "ann.lee42@example.org")], book)
        XCTAssertEqual(ann.phones.map(\.label), ["mobile"], book)
        XCTAssertEqual(ann.phones.first.map { $0.value.filter(\.isNumber) }, "15551234567", book)
        XCTAssertEqual(
            ann.addresses,
            [
                PostalAddress(
                    label: "home", street: "12 Elm St", city: "Springfield",
                    region: "IL", postalCode: "62701", country: "USA")
            ], book)
        XCTAssertEqual(ann.birthday, Birthday(year: 1990, month: 5, day: 17), book)
        XCTAssertEqual(ann.tags, ["friends", "vip"], book)
        XCTAssertEqual(ann.notes, "met at the conference", book)
        XCTAssertGreaterThan(ann.version, 1, book)
        let jose = try XCTUnwrap(byName["José Núñez"], book)
        XCTAssertEqual(jose.birthday, Birthday(year: nil, month: 7, day: 4), book)
        XCTAssertEqual(jose.tags, ["familia"], book)
        XCTAssertEqual(jose.addresses.first?.city, "Madrid", book)
        let mary = try XCTUnwrap(byName["Mary Kowalczyk"], book)
        XCTAssertEqual(mary.phones.map(\.label), ["home", "work"], book)
        let olga = try XCTUnwrap(byName["Olga Brown"], book)
        XCTAssertEqual(olga.uid, "olga-brown-1", book)
        XCTAssertEqual(olga.notes, "prefers email", book)
        XCTAssertEqual(olga.birthday, Birthday(year: 1985, month: 2, day: 28), book)
        let acme = try XCTUnwrap(byName[" "], book)
        XCTAssertEqual(acme.organization, "Acme", book)
        XCTAssertNil(byName["Bob Stone"], "deleted")
    }

    func test_everyBook_upgrades_andReadsBackEveryContactWithItsFields() throws {
        for book in Self.books {
            // Given
            let path = try copy(book)
            var said = 0
            // When
            let store = try SQLiteContactStore(path: path, upgrading: { said += 1 })
            // Then: said once, every migration recorded, every contact whole
            XCTAssertEqual(said, 1, book)
            XCTAssertTrue(try DatabaseQueue(path: path).read(SQLiteContactStore.recordsEveryMigration), book)
            try assertHoldsTheMadeContacts(store, book)
        }
    }

    func test_everyBook_isFoundBySearch_afterTheUpgrade() throws {
        let searches: [(String, [String])] = [
            // names, nickname, email parts
            ("lee", ["Lee"]), ("annie", ["Lee"]), ("ann.lee4", ["Lee"]), ("42", ["Lee"]),
            ("springfield", ["Lee"]), ("vip", ["Lee"]), ("conference", ["Lee"]), // address, tag, notes
            ("nunez", ["Núñez"]), ("madrid", ["Núñez"]), ("beethoven", ["van Beethoven"]),
            ("山田", ["山田"]), ("kowal", ["Kowalczyk"]), ("owalc", ["Kowalczyk"]), // inside a word
            ("0002222", ["Kowalczyk"]), ("555 123", ["Lee"]), ("clients", ["Brown"]), ("636", ["Brown"]),
            ("stone", []), // deleted
        ]
        for book in Self.books {
            let store = try SQLiteContactStore(path: try copy(book))
            for (text, families) in searches {
                let found = try store.page(ContactQuery(search: text)).contacts.map(\.familyName)
                XCTAssertEqual(found, families, "\(book): search \(text)")
            }
            // Sorted by last name past the particle: Beethoven under B
            XCTAssertEqual(
                try store.page(ContactQuery(sort: .last, limit: 100)).contacts.map(\.familyName),
                ["", "van Beethoven", "Brown", "Kowalczyk", "Lee", "Núñez", "山田"], book)
        }
    }

    func test_everyBook_hasTheIndexesTodaysSavesWrite_afterTheUpgrade() throws {
        // The migrations derive the word index, the duplicate keys and the sort keys with copies
        // frozen as they were written; for these contacts they must agree with what a save
        // writes today (when today's derivation changes, a new migration must rebuild them).
        for book in Self.books {
            let path = try copy(book)
            let store = try SQLiteContactStore(path: path)
            let contacts = try store.page(ContactQuery(limit: 100)).contacts
            try DatabaseQueue(path: path).read { db in
                for contact in contacts {
                    let id = try XCTUnwrap(contact.id)
                    let row = SQLiteContactStore.PreparedRow(contact)
                    let name = "\(book): \(contact.givenName) \(contact.familyName)"
                    XCTAssertEqual(
                        try String.fetchOne(db, sql: "SELECT text FROM contact_text WHERE rowid = ?", arguments: [id]),
                        row.text, name)
                    XCTAssertEqual(
                        try String.fetchOne(
                            db, sql: "SELECT digits FROM contact_phone WHERE rowid = ?", arguments: [id]),
                        row.digits, name)
                    let sorts = try Row.fetchOne(
                        db, sql: "SELECT sort_first, sort_last FROM contact WHERE id = ?", arguments: [id])
                    XCTAssertEqual(sorts?[0], row.keys.first, name)
                    XCTAssertEqual(sorts?[1], row.keys.last, name)
                    let keys = try Row.fetchAll(
                        db, sql: "SELECT kind, key FROM contact_key WHERE id = ?", arguments: [id]
                    )
                    .map { "\($0[0] as String) \($0[1] as String)" }
                    XCTAssertEqual(Set(keys), Set(row.matchKeys.map { "\($0.kind.rawValue) \($0.key)" }), name)
                    for (word, _) in row.insideWords {
                        XCTAssertEqual(
                            try Int.fetchOne(
                                db, sql: "SELECT COUNT(*) FROM contact_word WHERE word = ?", arguments: [word]),
                            1, "\(name): \(word)")
                    }
                }
            }
        }
    }

    func test_journalImagesWithoutTodaysFields_orWithFieldsOfLater_areUndoneAndRestored() throws {
        // Given: the journal book's images as a version before `nameOrder` and `extraProperties`
        // would have written them, and with a field of a later version (`website`)
        let path = try copy("journal-292235c")
        _ = try SQLiteContactStore(path: path)
        try DatabaseQueue(path: path).write { db in
            let older =
                "json_set(json_remove(%@, '$.nameOrder', '$.extraProperties'), '$.website', json('[{\"label\":\"work\",\"value\":\"https://a.example\"}]'))"
            try db.execute(
                sql: """
                    UPDATE change_entry SET before = \(String(format: older, "before")) WHERE before IS NOT NULL;
                    UPDATE change_entry SET after = \(String(format: older, "after")) WHERE after IS NOT NULL;
                    UPDATE contact_trash SET image = \(String(format: older, "image"));
                    """)
            XCTAssertEqual(
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM change_entry WHERE instr(coalesce(before, after), 'nameOrder')"), 0)
        }
        let store = try SQLiteContactStore(path: path)
        // When / Then: the history reads every image, the trash its contact
        let history = try store.history(contactID: nil, limit: 100)
        XCTAssertEqual(
            history.map(\.summary).prefix(3), ["deleted Bob Stone", "edited Mary Kowalczyk", "edited Ann Lee"])
        XCTAssertEqual(history.first?.entries.first?.before?.emails.map(\.value), ["bob@stone.example"])
        XCTAssertEqual(try store.trash().map(\.contact.familyName), ["Stone"])
        // The edit of Mary undone after Bob's deletion, then Bob restored from the trash
        XCTAssertEqual(try store.undo(changeSet: 9).summary, "edited Mary Kowalczyk")
        let mary = try XCTUnwrap(try store.page(ContactQuery(search: "kowalczyk")).contacts.first)
        XCTAssertEqual(mary.phones.map(\.label), ["home"])
        XCTAssertEqual(mary.nameOrder, .givenFirst)
        let bob = try store.restore(id: 8)
        XCTAssertEqual(bob.phones.map(\.value), ["+1 555 987 6543"])
        XCTAssertEqual(try store.page(ContactQuery(search: "stone")).contacts.map(\.id), [8])
    }

    func test_urlsKeptAmongAnOldBooksUnknownProperties_becomeItsWebsites_searchedAsTodaysSaveIndexesThem() throws {
        // Given: Olga's card kept URL lines among its unknown properties, as imports did before
        // websites were a field (Apple's labelled one, a typed one), beside another property
        let path = try copy("sync-51f85f7")
        let extra =
            #"["X-FOO:bar","item1.URL;type=pref:http\\://olga.example/blog","item1.X-ABLabel:_$!<HomePage>!$_","#
            + #""URL;TYPE=WORK:https://brown-clients.example/2024"]"#
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE contact SET extra = ? WHERE uid = 'olga-brown-1'", arguments: [extra])
        }
        // When
        let store = try SQLiteContactStore(path: path)
        // Then: websites, labelled as the reader labels them; the other property kept
        let olga = try XCTUnwrap(try store.page(ContactQuery(search: "blog")).contacts.first)
        XCTAssertEqual(
            olga.websites,
            [
                LabeledValue(label: "homepage", value: "http://olga.example/blog"),
                LabeledValue(label: "work", value: "https://brown-clients.example/2024"),
            ])
        XCTAssertEqual(olga.extraProperties, ["X-FOO:bar"])
        XCTAssertEqual(try store.page(ContactQuery(search: "2024")).contacts.map(\.familyName), ["Brown"])
        // The word index as today's save writes it
        try DatabaseQueue(path: path).read { db in
            let row = SQLiteContactStore.PreparedRow(olga)
            XCTAssertEqual(
                try String.fetchOne(db, sql: "SELECT text FROM contact_text WHERE rowid = ?", arguments: [olga.id]),
                row.text)
            for (word, _) in row.insideWords {
                XCTAssertEqual(
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM contact_word WHERE word = ?", arguments: [word]), 1,
                    word)
            }
        }
        try assertHoldsTheMadeContacts(store, "sync-51f85f7")
    }

    func test_directoriesTheFirstDirectoryAddKept_stayThroughTheMigration_andABookWithoutGetsTheTable() throws {
        // Given: a book of a version before `add directory sources` whose first `directory add`
        // made the table (two directories), and one of a version before directories
        let made = try copy("directory-3220305")
        let without = try copy("sync-51f85f7")
        XCTAssertTrue(try DatabaseQueue(path: made).read { try $0.tableExists("directory_source") })
        XCTAssertFalse(try DatabaseQueue(path: without).read { try $0.tableExists("directory_source") })
        // When: opened as `query` opens a book, for reading (the upgrade is its one write)
        let kept = try SQLiteContactStore.openForReading(path: made)
        let fresh = try SQLiteContactStore.openForReading(path: without)
        // Then: the directories as they were added, and none in the other book, which now has the table
        XCTAssertEqual(
            try kept.directorySources(),
            [
                DirectorySource(
                    name: "ad", server: "ldap://dc1.example.org", baseDN: "dc=example,dc=org",
                    bindDN: "cn=reader,ou=service,dc=example,dc=org", passwordCommand: "pass show ldap/reader",
                    security: .startTLS, sizeLimit: 20, timeLimit: 1.5),
                DirectorySource(
                    name: "corp", server: "ldaps://ldap.example.org", baseDN: "ou=people,dc=example,dc=org",
                    security: .ldaps, sizeLimit: 50, timeLimit: 3),
            ])
        XCTAssertEqual(try fresh.directorySources(), [])
        for path in [made, without] {
            XCTAssertTrue(try DatabaseQueue(path: path).read(SQLiteContactStore.recordsEveryMigration), path)
            XCTAssertTrue(try DatabaseQueue(path: path).read { try $0.tableExists("directory_source") }, path)
        }
        try assertHoldsTheMadeContacts(kept, "directory-3220305")
        // And the book without takes new directories as any book
        let store = try SQLiteContactStore(path: without)
        let lab = DirectorySource(
            name: "lab", server: "ldap://127.0.0.1:3890", baseDN: "dc=lab", security: .plaintext,
            sizeLimit: 5, timeLimit: 1)
        try store.addDirectorySource(lab)
        XCTAssertEqual(try store.directorySources(), [lab])
    }

    func test_aMigrationReadsOnlyTheColumnsOfItsTime_notTodays() throws {
        // Given: the migrations with every one that adds a column to `contact` moved to the end,
        // as if each column had been added after all the others: a migration that read today's
        // columns (`readColumns`) would select one the book does not have yet
        let addingColumns = try migrationsAddingContactColumns()
        // (the name order's, and any added since)
        XCTAssertTrue(
            addingColumns.contains(SQLiteContactStore.addNameOrderAndSortPastParticles.name), "\(addingColumns)")
        let reordered =
            SQLiteContactStore.migrations.filter { !addingColumns.contains($0.name) }
            + SQLiteContactStore.migrations.filter { addingColumns.contains($0.name) }
        var migrator = DatabaseMigrator()
        for migration in reordered {
            migrator.registerMigration(migration.name) { db in
                try migration.migrate(db, SQLiteContactStore.defaultAnchorBucket)
            }
        }
        // When: the oldest book (v1 to v5) upgraded by them
        let path = try copy(Self.books[0])
        let queue = try DatabaseQueue(path: path)
        try queue.write(SQLiteContactStore.adoptNames)
        try migrator.migrate(queue)
        // Then: the book is whole and up to date for today's store
        try queue.close()
        let store = try SQLiteContactStore(path: path)
        try assertHoldsTheMadeContacts(store, Self.books[0])
        XCTAssertEqual(try store.page(ContactQuery(search: "springfield")).contacts.map(\.familyName), ["Lee"])
    }

    /// The names of the migrations after which the `contact` table has a column it had not before.
    private func migrationsAddingContactColumns() throws -> [String] {
        let queue = try DatabaseQueue()
        var found: [String] = []
        var columns: Set<String> = []
        for migration in SQLiteContactStore.migrations {
            try queue.write { db in try migration.migrate(db, SQLiteContactStore.defaultAnchorBucket) }
            let now = try queue.read { db in Set(try db.columns(in: "contact").map(\.name)) }
            if !columns.isEmpty, !now.isSubset(of: columns) { found.append(migration.name) }
            columns = now
        }
        return found
    }
}
