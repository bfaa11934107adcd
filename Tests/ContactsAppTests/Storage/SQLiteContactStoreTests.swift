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
            XCTAssertEqual(
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"),
                SQLiteContactStore.migrations.map(\.name))
            XCTAssertTrue(try db.tableExists("contact_text"))
            XCTAssertTrue(try db.tableExists("contact_anchor"))
            XCTAssertTrue(try db.tableExists("contact_text_vocab"))
            XCTAssertFalse(try db.tableExists("contact_text_v3"))
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

    func test_aBookRecordingLegacyIdentifiers_isNotMigratedAgain_andRecordsTheNames() throws {
        // Given: a book as the release before named migrations left it: v1 to v5 recorded, no
        // word list and no duplicate index
        let ann = try SQLiteContactStore(path: databasePath).insert(StoreSeeds.ann)
        try DatabaseQueue(path: databasePath).write { db in
            try db.execute(
                sql: """
                    DROP TABLE contact_word; DROP TABLE contact_word_gram; DROP TABLE contact_key;
                    DELETE FROM grdb_migrations;
                    INSERT INTO grdb_migrations (identifier) VALUES ('v1'), ('v2'), ('v3'), ('v4'), ('v5');
                    """)
        }
        // When: opened (v1 to v5 run again would fail: their tables exist)
        let sut = try SQLiteContactStore(path: databasePath)
        // Then: the contact is there, found inside a word too, and the book records the names
        XCTAssertEqual(try sut.page(ContactQuery(search: "ann")).contacts.map(\.id), [ann.id])
        XCTAssertEqual(try sut.page(ContactQuery(search: "xample")).contacts.map(\.id), [ann.id])
        XCTAssertEqual(
            Set(
                try DatabaseQueue(path: databasePath).read {
                    try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations")
                }), Set(SQLiteContactStore.migrations.map(\.name)))
    }

    func test_aBookWithoutWordStarts_getsThemFromItsContacts_whenOpened() throws {
        // Given: a book as the release before word starts left it
        _ = try SQLiteContactStore(path: databasePath).insert(
            StoreSeeds.contact("Mary", "Kowalczyk", emails: ["marykowalczyk@example.org"]))
        try DatabaseQueue(path: databasePath).write { db in
            try db.execute(sql: "ALTER TABLE contact_word DROP COLUMN starts")
            try db.execute(
                sql: "DELETE FROM grdb_migrations WHERE identifier = ?",
                arguments: [SQLiteContactStore.addWordStartsInsideWords.name])
        }
        // When
        let sut = try SQLiteContactStore(path: databasePath)
        // Then: "kowalczyk" starts at 4 in her handle, and she is found as before
        let starts = try DatabaseQueue(path: databasePath).read {
            try Int64.fetchOne($0, sql: "SELECT starts FROM contact_word WHERE word = 'marykowalczyk'")
        }
        XCTAssertEqual(starts, 1 << 4)
        XCTAssertEqual(try sut.page(ContactQuery(search: "kowal")).contacts.map(\.familyName), ["Kowalczyk"])
    }

    func test_aBookRecordingLegacyIdentifiers_withoutTheAnchors_getsThemOnce() throws {
        // Given: a book as the version before page anchors left it (v1, v2, v3 recorded; no anchors)
        _ = try SQLiteContactStore(path: databasePath).insert(StoreSeeds.ann)
        try DatabaseQueue(path: databasePath).write { db in
            try db.execute(
                sql: """
                    DROP TABLE contact_anchor; DROP TABLE contact_text_vocab; DROP TABLE contact_word;
                    DROP TABLE contact_word_gram; DROP TABLE contact_key; DELETE FROM grdb_migrations;
                    INSERT INTO grdb_migrations (identifier) VALUES ('v1'), ('v2'), ('v3');
                    """)
        }
        var said = 0
        // When: opened for reading, as `query` does
        let sut = try SQLiteContactStore.openForReading(path: databasePath, upgrading: { said += 1 })
        // Then: announced once, and brought up to date
        XCTAssertEqual(said, 1)
        XCTAssertEqual(try sut.position(of: 1, sort: .last), 0)
        XCTAssertEqual(try sut.page(ContactQuery(search: "lee")).total, 1)
        _ = try SQLiteContactStore.openForReading(path: databasePath, upgrading: { said += 1 })
        XCTAssertEqual(said, 1)
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
            try db.execute(
                sql: """
                    DROP TABLE contact_phone_gram; DROP INDEX contact_id_sorts; DROP TABLE contact_count;
                    DROP TABLE contact_anchor; \(StoreSeeds.forgetting([SQLiteContactStore.addPhoneGramsSortKeysByIDAndCount, SQLiteContactStore.addPageAnchors]))
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
            // (v3 stayed applied; v2 and v4 ran again, after it.)
            XCTAssertEqual(
                Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")),
                Set(SQLiteContactStore.migrations.map(\.name)))
            XCTAssertTrue(try db.indexes(on: "contact").map(\.columns).contains(["id", "sort_first", "sort_last"]))
        }
    }

    func test_migrationV3_onAVersion2File_reindexesWordsWithDigitsApart() throws {
        // Given: a file as version 2 left it: email handles indexed as one word with their number
        let (ann, bob): (Contact, Contact) = try {
            let store = try SQLiteContactStore(path: databasePath)
            return (
                try store.insert(StoreSeeds.contact("Ann", "Kowalczyk", emails: ["ann.kowalczyk1023@mail.test"])),
                try store.insert(StoreSeeds.contact("Bob", "Adams", nickname: "Bo", emails: ["bob@mail.test"]))
            )
        }()
        let queue = try DatabaseQueue(path: databasePath)
        try queue.write { db in
            try db.execute(
                sql: """
                    DELETE FROM contact_text;
                    INSERT INTO contact_text(rowid, text) VALUES
                        (\(ann.id!), 'ann kowalczyk   ann.kowalczyk1023@mail.test'),
                        (\(bob.id!), 'bob adams bo  bob@mail.test');
                    \(StoreSeeds.forgetting([SQLiteContactStore.indexLettersAndDigitsApart]))
                    """)
            XCTAssertEqual(
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM contact_text WHERE contact_text MATCH '1023*'"), 0)
        }
        try queue.close()
        // When
        let sut = try SQLiteContactStore(path: databasePath)
        // Then: the number is a word of its own, and the rest is found as before
        XCTAssertEqual(try sut.page(ContactQuery(search: "1023")).contacts.map(\.id), [ann.id])
        XCTAssertEqual(try sut.page(ContactQuery(search: "kowalczyk1023")).contacts.map(\.id), [ann.id])
        XCTAssertEqual(try sut.page(ContactQuery(search: "bo")).contacts.map(\.id), [bob.id])
        XCTAssertEqual(try sut.page(ContactQuery(search: "mail.test")).total, 2)
        // and later saves keep the rebuilt index
        var edited = bob
        edited.emails = [LabeledValue(label: "home", value: "bob77@mail.test")]
        _ = try sut.update(edited)
        XCTAssertEqual(try sut.page(ContactQuery(search: "77")).contacts.map(\.id), [bob.id])
        try DatabaseQueue(path: databasePath).read { db in
            XCTAssertEqual(
                Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")),
                Set(SQLiteContactStore.migrations.map(\.name)))
            XCTAssertFalse(try db.tableExists("contact_text_v3"))
            XCTAssertEqual(
                try String.fetchOne(db, sql: "SELECT text FROM contact_text WHERE rowid = ?", arguments: [ann.id]),
                "ann kowalczyk   ann.kowalczyk 1023@mail.test \u{E000}kowalczyk1023")
        }
    }

    func test_foldedTextAndSortKeys_fromBytes_agreeWithFoldingEachPart() {
        // Given: contacts in ASCII, other scripts, mixed, with particles, empty fields and every list
        let address = PostalAddress(
            label: "home", street: "Rue de l'Église 4", city: "Besançon", region: "",
            postalCode: "25000", country: "FR")
        let contacts = [
            Contact(givenName: "Ann", familyName: "LEE", organization: "Acme Corp."),
            Contact(
                givenName: "Ludwig", familyName: "van Beethoven", nickname: "LvB", organization: "",
                emails: [LabeledValue(label: "work", value: "Ludwig@Example.ORG")], addresses: [address],
                notes: "Née à Bonn\tZ@[`{", tags: ["Composer", "ÉCOLE"]),
            Contact(givenName: "Ελένη", familyName: "Παπαδοπούλου", organization: "Ñúñez & Søn"),
            Contact(givenName: "", familyName: "", organization: "山田商事"),
            Contact(
                givenName: "José", familyName: "de la Cruz", emails: [LabeledValue(label: "home", value: "")],
                tags: [""]),
        ]
        for contact in contacts {
            // When
            let text = ContactKeys.foldedText(contact)
            let keys = SQLiteContactStore.SortKeys(contact)
            // Then: as folding each part and joining them, and as `sortKey` of each order
            let parts =
                [contact.givenName, contact.familyName, contact.nickname, contact.organization]
                + contact.emails.map(\.value) + contact.tags + (contact.notes.isEmpty ? [] : [contact.notes])
                + contact.addresses.flatMap(\.components)
            XCTAssertEqual(text, parts.map(ContactKeys.fold).joined(separator: " "), contact.fullName)
            XCTAssertEqual(keys.first, ContactKeys.sortKey(contact, .first), contact.fullName)
            XCTAssertEqual(keys.last, ContactKeys.sortKey(contact, .last), contact.fullName)
        }
    }

    func test_joinedKey_isThePartsJoinedByU0001_byteForByte() {
        // Given: empty parts, other scripts, decomposed letters, a small and a large result
        let parts = ["", "a", "Ñúñez", "e\u{301}", "山田商事", "@example.org", String(repeating: "x", count: 40)]
        for a in parts {
            for b in parts {
                // When / Then
                XCTAssertEqual(
                    Array(ContactKeys.joinedKey(a, b, "org").utf8), Array((a + "\u{1}" + b + "\u{1}org").utf8))
                XCTAssertEqual(
                    Array(ContactKeys.joinedKey(a, "j", b, "ann").utf8),
                    Array((a + "\u{1}j\u{1}" + b + "\u{1}ann").utf8))
            }
        }
        XCTAssertEqual(
            NameKey.stored(family: "lee", initial: "a", places: ["acme", "@example.org"], given: "ann"),
            ["lee\u{1}a\u{1}acme\u{1}ann", "lee\u{1}a\u{1}@example.org\u{1}ann"])
        XCTAssertEqual(NameKey.stored(family: "lee", initial: "a", places: [], given: "ann"), [])
    }

    func test_digitGramText_gramsOfSixAtEveryOtherDigit_acrossPhones() {
        XCTAssertEqual(ContactSearch.digitGramText([]), "")
        XCTAssertEqual(ContactSearch.digitGramText(["12345"]), "", "shorter than a gram")
        XCTAssertEqual(ContactSearch.digitGramText(["123456"]), "123456")
        XCTAssertEqual(ContactSearch.digitGramText(["1234567"]), "123456")
        XCTAssertEqual(ContactSearch.digitGramText(["12345678"]), "123456 345678")
        XCTAssertEqual(
            ContactSearch.digitGramText(["12", "48123456789", "", "5550100"]),
            "481234 123456 345678 555010")
    }

    func test_indexedText_addsAMarkedWordForEachWordFollowedByANumber() {
        XCTAssertEqual(
            ContactSearch.indexedText("olga brown 636@example.org ann 7 b 0 b 2 x"),
            "olga brown 636@example.org ann 7 b 0 b 2 x \u{E000}brown636 \u{E000}ann7 \u{E000}b0 \u{E000}b2")
        XCTAssertEqual(ContactSearch.indexedText("here 42"), "here 42 \u{E000}here42", "a number in the next word")
        XCTAssertEqual(ContactSearch.indexedText("42 1 x-y"), "42 1 x-y", "no word followed by a number")
        XCTAssertEqual(ContactSearch.indexedText(""), "")
    }

    func test_insideWordsWithStarts_marksWhereAnotherWordOfTheTextStarts() {
        // Given: a handle made of the names, beside them; a word of 3 letters is no candidate
        let text = ContactSearch.indexedText("mary kowalczyk marykowalczyk 12@mail.test zoe")
        // When
        let words = ContactSearch.insideWordsWithStarts(text)
        // Then: "kowalczyk" starts at 4 in "marykowalczyk"; nothing starts inside the others
        XCTAssertEqual(words.map(\.word), ["mary", "kowalczyk", "marykowalczyk", "mail", "test"])
        XCTAssertEqual(words.map(\.starts), [0, 0, 1 << 4, 0, 0])
        XCTAssertEqual(ContactSearch.insideWordCandidates(text), words.map(\.word))
        // and past ASCII: offsets count scalars, a combining mark belongs to its word
        let other = ContactSearch.indexedText("ольга петрова ольгапетрова 7@почта.рф e\u{301}milie xe\u{301}milie")
        let found = ContactSearch.insideWordsWithStarts(other)
        XCTAssertEqual(found.map(\.word), ContactSearch.insideWordCandidates(other))
        XCTAssertEqual(found.map(\.starts), [0, 0, 1 << 5, 0, 0, 1 << 1])
    }

    func test_insideWordsWithStarts_agreesWithTryingEveryOffsetAgainstEveryWord() {
        // Given: texts whose words end others at several offsets, repeated, in other scripts,
        // with marks, digits, and a word longer than 62 scalars
        let long = String(repeating: "ab", count: 40)
        let texts = [
            "anna annabel bel nabel abel belle", "mary kowalczyk marykowalczyk owalczyk alczyk czyk yk",
            "ольга петрова ольгапетрова етрова", "e\u{301}milie xe\u{301}milie milie \u{301}milie", "zoe zoe zoezoe",
            "\(long) \(long.dropFirst(10)) \(long.dropFirst(70)) b abab", "ann2 b 2ann nn2b ann ann",
            "山田太郎 太郎 田太郎", "olga brown 636@example.org",
        ]
        for raw in texts {
            let text = ContactSearch.indexedText(raw)
            let before = text.range(of: ContactSearch.pairMark).map { String(text[..<$0.lowerBound]) } ?? text
            let all = Set(ContactSearch.words(before))
            // When
            let found = ContactSearch.insideWordsWithStarts(text)
            // Then: bit p set exactly when the scalars from p on are a word of the text
            let expected = ContactSearch.insideWordCandidates(text).map { word -> Int64 in
                let scalars = Array(word.unicodeScalars)
                let last = min(scalars.count - ContactSearch.insideMinimum, 62)
                return (1...max(1, last)).filter { $0 <= last }.reduce(Int64(0)) { starts, offset in
                    var rest = String.UnicodeScalarView()
                    rest.append(contentsOf: scalars[offset...])
                    return all.contains(String(rest)) ? starts | 1 << Int64(offset) : starts
                }
            }
            XCTAssertEqual(found.map(\.word), ContactSearch.insideWordCandidates(text), raw)
            XCTAssertEqual(found.map(\.starts), expected, raw)
        }
    }

    func test_containsOnlyInside_leavesOutATermFoundWhereEveryHolderHasAWordStarting() {
        XCTAssertFalse(ContactSearch.containsOnlyInside("kowal", "marykowalczyk", starts: 1 << 4), "at a covered start")
        XCTAssertTrue(ContactSearch.containsOnlyInside("kowal", "marykowalczyk", starts: 0))
        XCTAssertTrue(ContactSearch.containsOnlyInside("rykow", "marykowalczyk", starts: 1 << 4), "not at the start")
        XCTAssertFalse(ContactSearch.containsOnlyInside("mary", "marykowalczyk", starts: 0), "the word's own start")
        XCTAssertFalse(ContactSearch.containsOnlyInside("ana", "anabanana", starts: 0), "found at its start too")
        XCTAssertFalse(ContactSearch.containsOnlyInside("nowak", "marykowalczyk", starts: 1 << 4), "not in it")
    }

    func test_pairQuery_findsTheMarkedPairs_aPrefixOnlyWhenTheNumberEndsTheTerm() {
        XCTAssertEqual(ContactSearch("olga.brown636").terms.map(\.pairQuery), ["\"\u{E000}brown636\"*"])
        XCTAssertEqual(
            ContactSearch("ann7.brown636@exa").terms.map(\.pairQuery),
            ["\"\u{E000}ann7\" AND \"\u{E000}brown636\""])
        XCTAssertEqual(ContactSearch("kowal 42").terms.map(\.pairQuery), [nil, nil])
    }

    func test_matchesIndexedText_isThePhraseRule_withoutTheMarkedPairs() {
        let term = ContactSearch("brown63").terms[0]
        XCTAssertTrue(term.matchesIndexedText(ContactSearch.indexedText("olga brown 636@example.org")))
        XCTAssertFalse(term.matchesIndexedText(ContactSearch.indexedText("olga brown 7 636@example.org")))
        // The pairs after the text ("... x \u{E000}brown636") are not words a phrase runs into
        XCTAssertFalse(
            ContactSearch("org.brown").terms[0]
                .matchesIndexedText(ContactSearch.indexedText("brown 636@example.org")))
        // Bytes for ASCII; Characters when the text or the term is not ASCII: the same rule
        let cyrillic = ContactSearch.indexedText(
            ContactSearch.separatingDigits(ContactKeys.fold("Ольга brown636@example.org")))
        XCTAssertTrue(term.matchesIndexedText(cyrillic))
        XCTAssertTrue(ContactSearch("ольга.brown6").terms[0].matchesIndexedText(cyrillic))
        XCTAssertFalse(ContactSearch("ольга.brown7").terms[0].matchesIndexedText(cyrillic))
        XCTAssertFalse(ContactSearch("brown6361").terms[0].matchesIndexedText(cyrillic))
        XCTAssertTrue(ContactSearch("BROWN63").terms[0].matchesIndexedText(cyrillic), "folded like the text")
    }

    func test_resolvedSearch_checksFewCandidates_andLeavesManyToFTS() throws {
        // Given
        let store = try SQLiteContactStore(path: databasePath)
        let olga = try store.insert(StoreSeeds.contact("Olga", "Brown", emails: ["olga.brown636@example.org"]))
        _ = try store.insert(StoreSeeds.contact("Al", "Brown", emails: ["al.brown6361@example.org"]))
        let queue = try DatabaseQueue(path: databasePath)
        try queue.read { db in
            // When: two candidates for "brown636*", one holding the phrase
            let found = try ResolvedSearch(ContactSearch("olga.brown636 ex"), db)
            // Then
            XCTAssertEqual(found.textMatches, [0: [olga.id!]])
            // When: more candidates than the limit
            let left = try ResolvedSearch(ContactSearch("olga.brown636"), db, candidateLimit: 1)
            // Then: FTS5 answers for the term
            XCTAssertEqual(left.textMatches, [:])
        }
        XCTAssertEqual(try store.page(ContactQuery(search: "olga.brown636")).contacts.map(\.id), [olga.id])
        XCTAssertEqual(try store.page(ContactQuery(search: "brown636")).total, 2)
    }

    func test_steppingIDs_yieldsEveryRowUntilTold_andThrowsSQLiteErrors() throws {
        // Given
        let store = try SQLiteContactStore(path: databasePath)
        let saved = try (0..<5).map { try store.insert(StoreSeeds.contact("Ann", "Lee\($0)")) }
        let queue = try DatabaseQueue(path: databasePath)
        try queue.read { db in
            let sql = "SELECT rowid FROM contact_text WHERE contact_text MATCH ? ORDER BY rowid"
            func ids(_ query: String, upTo limit: Int = .max) throws -> [Int64] {
                var ids: [Int64] = []
                try SQLiteContactStore.steppingIDs(db, sql: sql, arguments: [query]) {
                    ids.append($0); return ids.count < limit
                }
                return ids
            }
            // When / Then
            XCTAssertEqual(try ids("ann"), saved.map { $0.id! })
            XCTAssertEqual(try ids("ann", upTo: 2), saved.prefix(2).map { $0.id! })
            XCTAssertEqual(try ids("bob"), [])
            // An error while stepping (FTS5 reads its query then) is thrown, and the statement reset
            XCTAssertThrowsError(try ids("AND"))
            XCTAssertEqual(try ids("\"lee 3\""), [saved[3].id!])
        }
    }

    func test_matchSet_insertsTestsRemovesAndListsIdsInOrder() {
        var set = MatchSet(maxID: 130)
        for id: Int64 in [130, 0, 64, 63, 5, 64] { set.insert(id) }
        XCTAssertEqual(set.count, 5)
        XCTAssertEqual(set.ids, [0, 5, 63, 64, 130])
        XCTAssertTrue(set.contains(63))
        XCTAssertFalse(set.contains(62))
        XCTAssertFalse(set.contains(10_000), "beyond the set")
        XCTAssertFalse(set.contains(-1))
        XCTAssertTrue(set.remove(64))
        XCTAssertFalse(set.remove(64))
        XCTAssertFalse(set.remove(9_999))
        set.insert(500)
        XCTAssertEqual(set.ids, [0, 5, 63, 130, 500], "grows for a larger id")
        XCTAssertEqual(set.count, 5)
    }

    func test_separatingDigits_putsASpaceBetweenLettersAndDigits() {
        XCTAssertEqual(ContactSearch.separatingDigits("ann.kowalczyk1023@mail.test"), "ann.kowalczyk 1023@mail.test")
        XCTAssertEqual(ContactSearch.separatingDigits("b0b2x 42 x"), "b 0 b 2 x 42 x")
        XCTAssertEqual(ContactSearch.separatingDigits("josé2x"), "josé 2 x", "non-ASCII letters")
        XCTAssertEqual(ContactSearch.separatingDigits("محمد٣٤"), "محمد ٣٤", "non-ASCII digits")
        XCTAssertEqual(ContactSearch.separatingDigits("no digits-here"), "no digits-here")
        XCTAssertEqual(ContactSearch.separatingDigits(""), "")
        XCTAssertEqual(ContactSearch.words("Kowalczyk10 a-b"), ["Kowalczyk", "10", "a", "b"])
        // Combining marks stay in the word they follow (Devanagari vowel signs, a decomposed accent)
        XCTAssertEqual(ContactSearch.words("नमस्ते123 e\u{301}2"), ["नमस्ते", "123", "e\u{301}", "2"])
        XCTAssertEqual(ContactSearch.separatingDigits("नमस्ते123"), "नमस्ते 123")
        XCTAssertEqual(ContactSearch.indexedText("नमस्ते 123"), "नमस्ते 123 \u{E000}नमस्ते123")
    }

    func test_scanWords_followsThePlainRule_onRandomTextOfManyScripts() {
        // Given: seeded random text from pieces of several scripts, with marks, non-ASCII
        // digits, punctuation and four-byte characters
        let pieces = [
            "a", "Z", "q", "7", "0", " ", "-", "@", ".", "_", "é", "e\u{301}", "\u{301}", "Ж", "ольга",
            "محمد", "٣", "४", "नमस्ते", "्", "東京", "１", "😀", "\u{E000}", "ǅ", "ⅷ", "²", "\t",
        ]
        var random = SeededGenerator(seed: 42)
        for _ in 0..<3_000 {
            let text = (0..<random.next(upTo: 13)).map { _ in pieces[random.next(upTo: pieces.count)] }.joined()
            // Then: the one-pass scan gives what the plain rule gives
            XCTAssertEqual(ContactSearch.separatingDigits(text), Self.plainIndexText(text, pairs: false), text)
            XCTAssertEqual(
                ContactSearch.scanWords(text, addingPairs: true), Self.plainIndexText(text, pairs: true), text)
            XCTAssertEqual(
                ContactSearch.indexedText(ContactSearch.separatingDigits(text)),
                Self.plainIndexText(text, pairs: true), text)
            // And a search's words (`ContactSearch.words`, by String's scalars) are the same words
            XCTAssertEqual(ContactSearch.words(text), Self.plainRule(text).words.map(\.text), text)
        }
    }

    /// The index text's rule, scalar by scalar, as plainly as it can be said: words are runs of
    /// letters or of digits (by general category; a mark joins the word before it); a space goes
    /// between a letter and a digit that touch; with `pairs`, each letter word followed by a
    /// digit word adds a marked word made of the two, after the text.
    private static func plainIndexText(_ text: String, pairs: Bool) -> String {
        let (out, words) = plainRule(text)
        guard pairs, words.count > 1 else { return out }
        var paired = out
        for index in 1..<words.count where words[index].isDigits && !words[index - 1].isDigits {
            paired += " \u{E000}" + words[index - 1].text + words[index].text
        }
        return paired
    }

    /// The rule's separated text and its words.
    private static func plainRule(_ text: String) -> (text: String, words: [(text: String, isDigits: Bool)]) {
        enum Kind { case letter, digit, other }
        var kinds: [Kind] = []
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
                kinds.append(.letter)
            case .decimalNumber, .letterNumber, .otherNumber: kinds.append(.digit)
            case .nonspacingMark, .spacingMark, .enclosingMark: kinds.append(kinds.last ?? .other)
            default: kinds.append(.other)
            }
        }
        var out = "", words: [(text: String, isDigits: Bool)] = []
        for (index, scalar) in text.unicodeScalars.enumerated() {
            let kind = kinds[index], before = index > 0 ? kinds[index - 1] : .other
            if kind != .other && before != .other && kind != before { out.unicodeScalars.append(" ") }
            if kind != .other {
                if kind != before { words.append(("", kind == .digit)) }
                words[words.count - 1].text.unicodeScalars.append(scalar)
            }
            out.unicodeScalars.append(scalar)
        }
        return (out, words)
    }

    func test_upgrading_isSaidOnlyForABookMadeByAnOlderVersion() throws {
        var said = 0
        // A new book is not an upgrade
        _ = try SQLiteContactStore(path: databasePath, upgrading: { said += 1 })
        XCTAssertEqual(said, 0)
        // Given: the book as the version before page anchors left it
        try DatabaseQueue(path: databasePath).write { db in
            try db.execute(
                sql: "DROP TABLE contact_anchor; \(StoreSeeds.forgetting([SQLiteContactStore.addPageAnchors]))")
        }
        // When / Then: said once, before it is brought up to date
        _ = try SQLiteContactStore(path: databasePath, upgrading: { said += 1 })
        XCTAssertEqual(said, 1)
        _ = try SQLiteContactStore.openForReading(path: databasePath, upgrading: { said += 1 })
        XCTAssertEqual(said, 1, "up to date now")
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

    func test_wholeClusterPlan_pagesAsThePlainRule_withNamesThatStartWithTheWordAndOthersThatMatch() throws {
        // Given: contacts whose sort keys start with "kowal" in one order or the other (family,
        // given, organisation only, a hyphen, digits after it, accents folded away) and some that
        // match elsewhere (an email, a parenthesis before the name, a later word), in a store that
        // pages a whole run of the index from one match, with buckets of 2 anchors
        func person(_ given: String, _ family: String, org: String = "", email: String = "") -> Contact {
            Contact(
                uid: "\(given)-\(family)-\(org)-\(email)", givenName: given, familyName: family, organization: org,
                emails: email.isEmpty ? [] : [LabeledValue(label: "home", value: email)])
        }
        // (All of the first book sort under "kowal" by last name; by first name only two do.)
        let runOnly = [
            person("Ann", "Kowalczyk"), person("Bo", "Kowal-Nowak"), person("Cy", "Kowal2"),
            person("", "", org: "Kowalski Ltd"), person("Kowal", ""), person("Ed", "Kówalik"),
            person("Al", "Kowalczyk"),
        ]
        let outside = [
            person("Di", "Adams", email: "kowal@mail.test"), person("Fy", "(Kowal)"),
            person("Gus", "Brown Kowalski"), person("Kowalina", "Zed"),
        ]
        let sqlite = try SQLiteContactStore(path: databasePath, anchorBucket: 2, tuning: .init(shortestRun: 1))
        for book in [runOnly, runOnly + outside] {
            let memory = InMemoryContactStore()
            for contact in book { _ = try sqlite.insert(contact); _ = try memory.insert(contact) }
            // Then: every page of "kowal" in both orders is the plain rule's
            for sort in [SortOrder.first, .last] {
                for page in 1...6 {
                    let query = ContactQuery(search: "Kowal", sort: sort, page: page, limit: 2)
                    let (got, want) = (try sqlite.page(query), try memory.page(query))
                    XCTAssertEqual(got.total, want.total, "\(sort) page \(page)")
                    XCTAssertEqual(got.contacts.map(\.uid), want.contacts.map(\.uid), "\(sort) page \(page)")
                }
            }
            for contact in try sqlite.page(ContactQuery(limit: 100)).contacts {
                try sqlite.delete(id: contact.id!, expectedVersion: nil)
            }
        }
    }

    func test_clusterWithManyOutliers_pagesAsThePlainRule_nearPagesWalkedAndDeepOnesFromTheCluster() throws {
        // Given: 12 family names under "mar" (a run of the last-name order: the cluster), 24
        // given names under "mar" spread over other family names (the outliers; in the
        // first-name order the two swap), and 24 contacts that do not match; with the matches
        // kept as bits, and without
        func person(_ index: Int, _ given: String, _ family: String) -> Contact {
            Contact(uid: "p\(index)", givenName: given, familyName: family)
        }
        let families = [
            "Adams", "Brown", "Chen", "Diaz", "Evans", "Fox", "Gray", "Hill", "Ito", "Jones", "Kim", "Lee",
            "Nash", "Owen", "Park", "Quinn", "Reyes", "Silva", "Tan", "Vu", "Wong", "Xu", "Young", "Zed",
        ]
        var book: [Contact] = []
        for index in 0..<60 {
            switch index % 5 {
            case 0: book.append(person(index, "Bo", ["Marx", "Martin", "Marín"][index % 3]))
            case 1, 2: book.append(person(index, ["Maria", "Mark", "Marta"][index % 3], families[index % 24]))
            default: book.append(person(index, "Cy", families[(index * 7) % 24]))
            }
        }
        let memory = InMemoryContactStore()
        for contact in book { _ = try memory.insert(contact) }
        for (name, lists) in [
            ("bits", SQLiteContactStore.PagingTuning()),
            ("no bits", SQLiteContactStore.PagingTuning(keepsMatchSet: false)),
        ] {
            let path = directory.appendingPathComponent("\(name).sqlite").path
            let sqlite = try SQLiteContactStore(path: path, tuning: lists)
            for contact in book { _ = try sqlite.insert(contact) }
            // Then: every page of "mar" in both orders, and of pages of 3 and 7, is the plain rule's
            for sort in [SortOrder.last, .first] {
                for limit in [3, 7] {
                    for page in 1...(60 / limit + 1) {
                        let query = ContactQuery(search: "mar", sort: sort, page: page, limit: limit)
                        let (got, want) = (try sqlite.page(query), try memory.page(query))
                        XCTAssertEqual(got.total, want.total, "\(name) \(sort) page \(page) of \(limit)")
                        XCTAssertEqual(
                            got.contacts.map(\.uid), want.contacts.map(\.uid),
                            "\(name) \(sort) page \(page) of \(limit)")
                    }
                }
            }
        }
    }

    func test_wholeClusterPlan_countsFromTheVocabularyOnlyWhenTheWordBeginsOneIndexedWord() throws {
        // Given: two Kowas, whose sort keys make the run of "kow" by last name, and their one
        // indexed word counted as many; then a contact whose email adds a second word, "kowz"
        let sut = try SQLiteContactStore(path: databasePath, anchorBucket: 2, tuning: .init(shortestRun: 1))
        _ = try sut.insert(Contact(uid: "a", givenName: "Ann", familyName: "Kowa"))
        _ = try sut.insert(Contact(uid: "b", givenName: "Bo", familyName: "Kowa"))
        let query = ContactQuery(search: "kow", sort: .last, limit: 10)
        XCTAssertEqual(try sut.page(query).contacts.map(\.uid), ["a", "b"])
        _ = try sut.insert(
            Contact(
                uid: "c", givenName: "Cy", familyName: "Adams",
                emails: [LabeledValue(label: "home", value: "kowz@mail.test")]))
        // When
        let page = try sut.page(query)
        // Then: the first word's count equals the run, but the second word's contact is counted
        XCTAssertEqual(page.total, 3)
        XCTAssertEqual(page.contacts.map(\.uid), ["c", "a", "b"])
    }

    func test_importTransaction_saysWhetherTheBookWasEmptyWhenTheImportBegan() throws {
        // Given an empty book
        let sut = try SQLiteContactStore(path: databasePath)
        // When / Then: empty for the whole of the first import, even after its own saves
        var seen: [Bool] = []
        _ = try sut.importSession { session in
            seen.append(session.bookWasEmpty)
            try session.save(inserting: [StoreSeeds.ann], updating: [])
            seen.append(session.bookWasEmpty)
        }
        _ = try sut.importSession { session in seen.append(session.bookWasEmpty) }
        // And it is the table that is asked, not the kept count (stale if an older version wrote)
        try DatabaseQueue(path: databasePath).write { try $0.execute(sql: "UPDATE contact_count SET n = 0") }
        _ = try SQLiteContactStore(path: databasePath).importSession { session in
            seen.append(session.bookWasEmpty)
        }
        XCTAssertEqual(seen, [true, true, false, false])
    }

    func test_importSession_keepsTheIDsItAddsAsOneRun_andTellsWhichUIDsItAdded() throws {
        // Given a book of one contact, and 30 more arriving in 3 batches with an update of the first
        let sut = try SQLiteContactStore(path: databasePath)
        var ann = try sut.insert(StoreSeeds.ann)
        ann.nickname = "Annie"
        let batches = stride(from: 0, to: 30, by: 10).map { Array(StoreSeeds.numbered(30)[$0..<$0 + 10]) }
        var askedBefore: Set<String> = ["not asked"], askedAfter: Set<String> = []
        // When
        let ids = try sut.importSession { session in
            askedBefore = try session.addedUIDs(among: [batches[0][0].uid])
            for batch in batches { try session.save(inserting: batch, prepared: [], updating: []) }
            try session.save(inserting: [], prepared: [], updating: [ann])
            askedAfter = try session.addedUIDs(among: [ann.uid, batches[0][0].uid, batches[2][9].uid, "nobody"])
        }
        // Then: the ids added are one run, whatever their number, and read back in order
        XCTAssertEqual(ids.added.runs, [(ann.id! + 1)...(ann.id! + 30)])
        XCTAssertEqual(ids.added.count, 30)
        XCTAssertEqual(Array(ids.added), Array((ann.id! + 1)...(ann.id! + 30)))
        XCTAssertEqual(ids.updated, [ann.id!])
        // And the session told the UIDs it had added, not the updated contact's nor unknown ones
        XCTAssertEqual(askedBefore, [])
        XCTAssertEqual(askedAfter, [batches[0][0].uid, batches[2][9].uid])
    }

    func test_importIntoAnEmptyBook_buildsTheSetAsideIndexesUnderTheSmallerCache_thenPutsTheCacheBack() throws {
        // Given an empty book whose connection reports every statement it runs
        final class Statements: @unchecked Sendable { var sql: [String] = [] }
        let sut = try SQLiteContactStore(path: databasePath)
        let seen = Statements()
        try sut.writer.writeWithoutTransaction { db in db.trace { seen.sql.append($0.description) } }
        let before = try sut.writer.read { try Int.fetchOne($0, sql: "PRAGMA cache_size") }
        // When
        _ = try sut.importSession { session in
            try session.save(inserting: StoreSeeds.numbered(5), prepared: [], updating: [])
        }
        // Then: the rows go in under the import's cache, the indexes are made again under the
        // smaller one (SQLite's sort for CREATE INDEX spills past it), and the cache is put back
        let cacheSets = seen.sql.indices.filter { seen.sql[$0].hasPrefix("PRAGMA cache_size = ") }
        let creates = seen.sql.indices.filter { seen.sql[$0].hasPrefix("CREATE INDEX") }
        let inserts = seen.sql.indices.filter { seen.sql[$0].hasPrefix("INSERT INTO contact ") }
        XCTAssertEqual(
            cacheSets.map { seen.sql[$0] },
            [
                "PRAGMA cache_size = -\(SQLiteContactStore.importCacheKiB)",
                "PRAGMA cache_size = -\(SQLiteContactStore.indexBuildCacheKiB)",
                "PRAGMA cache_size = \(before ?? 0)",
            ])
        XCTAssertFalse(creates.isEmpty)
        XCTAssertFalse(inserts.isEmpty)
        XCTAssertLessThan(inserts.last ?? .max, cacheSets[1])
        XCTAssertLessThan(cacheSets[1], creates.first ?? -1)
        XCTAssertLessThan(creates.last ?? .max, cacheSets[2])
        XCTAssertLessThan(SQLiteContactStore.indexBuildCacheKiB, SQLiteContactStore.importCacheKiB)
    }

    func test_importIntoAnEmptyBook_sortsTheSetAsideIndexesWithHelperThreads_thenPutsTheSettingBack() throws {
        // Given an empty book whose connection reports every statement it runs
        final class Statements: @unchecked Sendable { var sql: [String] = [] }
        let sut = try SQLiteContactStore(path: databasePath)
        let seen = Statements()
        try sut.writer.writeWithoutTransaction { db in db.trace { seen.sql.append($0.description) } }
        let before = try sut.writer.read { try Int.fetchOne($0, sql: "PRAGMA threads") } ?? -1
        // When
        _ = try sut.importSession { session in
            try session.save(inserting: StoreSeeds.numbered(5), prepared: [], updating: [])
        }
        // Then: the helper threads are asked for after the last row and before the first index
        // is made again, and the connection's own setting is back after the last
        let threadSets = seen.sql.indices.filter { seen.sql[$0].hasPrefix("PRAGMA threads = ") }
        let creates = seen.sql.indices.filter { seen.sql[$0].hasPrefix("CREATE INDEX") }
        let inserts = seen.sql.indices.filter { seen.sql[$0].hasPrefix("INSERT INTO contact ") }
        XCTAssertEqual(
            threadSets.map { seen.sql[$0] },
            ["PRAGMA threads = \(SQLiteContactStore.indexBuildThreads)", "PRAGMA threads = \(before)"])
        XCTAssertEqual(
            creates.map { seen.sql[$0].split(separator: " ")[2] },
            ["contact_id_sorts", "contact_key_by_key", "contact_key_id", "contact_sort_first", "contact_sort_last"])
        XCTAssertLessThan(inserts.last ?? .max, threadSets.first ?? -1)
        XCTAssertLessThan(threadSets.first ?? .max, creates.first ?? -1)
        XCTAssertLessThan(creates.last ?? .max, threadSets.last ?? -1)
        XCTAssertEqual(try sut.writer.write { try Int.fetchOne($0, sql: "PRAGMA threads") }, before)
        // And the indexes made with them hold what the rows hold
        XCTAssertEqual(try sut.writer.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }, "ok")
        XCTAssertEqual(try sut.contacts(uids: StoreSeeds.numbered(5).map(\.uid)).count, 5)
    }

    func test_aLargePull_isWrittenUnderTheSmallerPullCache_thenPutsTheCacheBack() throws {
        // Given a book whose connection reports every statement it runs
        final class Statements: @unchecked Sendable { var sql: [String] = [] }
        let sut = try SQLiteContactStore(path: databasePath)
        let seen = Statements()
        try sut.writer.writeWithoutTransaction { db in db.trace { seen.sql.append($0.description) } }
        let before = try sut.writer.read { try Int.fetchOne($0, sql: "PRAGMA cache_size") }
        // When a first sync's pull of as many cards as make a large one is saved
        let cards = StoreSeeds.numbered(SQLiteContactStore.largePull)
        try sut.apply(
            SyncPull(
                account: "home",
                writes: cards.enumerated().map { index, card in
                    .insert(card, href: "/book/\(index).vcf", etag: "\"\(index)\"", base: "")
                }, token: "t1"))
        // Then its rows went in under the pull's cache, smaller than the import's (its dirty pages
        // stay there until it is full: a first sync's memory grew with the book), which is put back
        XCTAssertEqual(
            seen.sql.filter { $0.hasPrefix("PRAGMA cache_size = ") },
            ["PRAGMA cache_size = -\(SQLiteContactStore.pullCacheKiB)", "PRAGMA cache_size = \(before ?? 0)"])
        XCTAssertLessThan(SQLiteContactStore.pullCacheKiB, SQLiteContactStore.importCacheKiB)
        XCTAssertEqual(try sut.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sync_item") }, cards.count)
    }

    func test_streamedImport_withRowsPreparedBeforeTheUIDWasGiven_savesWhatPlainInsertsSave() throws {
        // Given: the seed book prepared as an import prepares it, before each card got its
        // uid and dates (an import gives them on the saving thread), and one row prepared by
        // some other store, which the SQLite store must not trust
        struct Foreign: PreparedContact {}
        let book = StoreSeeds.book + [StoreSeeds.full] + StoreSeeds.numbered(5)
        let imported = try SQLiteContactStore(path: databasePath)
        let prepared: [PreparedContact?] = book.enumerated().map { index, contact in
            var unsaved = contact
            unsaved.uid = ""
            unsaved.createdAt = Date(timeIntervalSince1970: 0)
            return index == 1 ? Foreign() : imported.prepareForImport(unsaved)
        }
        let insertedPath = directory.appendingPathComponent("nested/inserted.sqlite").path
        let inserted = try SQLiteContactStore(path: insertedPath)
        // When
        _ = try imported.importSession { session in
            try session.save(inserting: Array(book[..<4]), prepared: Array(prepared[..<4]), updating: [])
            try session.save(inserting: Array(book[4...]), prepared: Array(prepared[4...]), updating: [])
        }
        for contact in book { _ = try inserted.insert(contact) }
        // Then: every search finds the same contacts in the same order, with the same count
        for search in ["", "lee", "555", "1234567", "nunez", "example", "acme", "globex 020"] {
            for sort in [SortOrder.first, .last] {
                let query = ContactQuery(search: search, sort: sort, page: 1, limit: 50)
                let (got, want) = (try imported.page(query), try inserted.page(query))
                XCTAssertEqual(got.total, want.total, "\(search) \(sort)")
                XCTAssertEqual(got.contacts, want.contacts, "\(search) \(sort)")
            }
        }
        // And the index tables hold the same texts
        func texts(_ path: String) throws -> [String] {
            try DatabaseQueue(path: path).read { db in
                try String.fetchAll(db, sql: "SELECT text FROM contact_text ORDER BY rowid")
                    + String.fetchAll(db, sql: "SELECT digits FROM contact_phone ORDER BY rowid")
            }
        }
        XCTAssertEqual(try texts(databasePath), try texts(insertedPath))
        XCTAssertEqual(try imported.page(ContactQuery()).total, book.count)
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

    func test_close_removesTheWALFilesAtOnce_andLaterUseIsAStorageError() throws {
        // Given: a book, and a reader that has read it (its -wal and -shm files exist)
        _ = try SQLiteContactStore(path: databasePath).insert(StoreSeeds.ann)
        let sut = try SQLiteContactStore.openForReading(path: databasePath)
        XCTAssertEqual(try sut.page(ContactQuery()).total, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: databasePath + "-wal"))
        // When: closed, and still held (as `contactsbook query` holds it until it exits)
        try sut.close()
        // Then: nothing is left beside the book
        XCTAssertFalse(FileManager.default.fileExists(atPath: databasePath + "-wal"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: databasePath + "-shm"))
        // And the closed store refuses to read, with the store's own error
        XCTAssertThrowsError(try sut.page(ContactQuery())) { error in
            guard case .storage? = error as? ContactStoreError else { return XCTFail("\(error)") }
        }
        // And closing again does no harm
        XCTAssertNoThrow(try sut.close())
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

    func test_recordsEveryMigration_answersAsGRDBsMigratorDoes() throws {
        // Given: books recording every migration, one less, one more (a newer program's), legacy
        // identifiers, none, and no migrations table at all
        _ = try SQLiteContactStore(path: databasePath)
        let names = SQLiteContactStore.migrations.map(\.name)
        let cases: [(String, String, StatementArguments)] = [
            ("every migration", "", []),
            ("one missing", "DELETE FROM grdb_migrations WHERE identifier = ?", [names[4]]),
            ("the last missing", "DELETE FROM grdb_migrations WHERE identifier = ?", [names.last!]),
            ("a newer one too", "INSERT INTO grdb_migrations (identifier) VALUES ('added by a newer version')", []),
            (
                "legacy identifiers",
                "DELETE FROM grdb_migrations; INSERT INTO grdb_migrations (identifier) VALUES ('v1'), ('v2'), ('v3'), ('v4'), ('v5')",
                []
            ),
            ("none", "DELETE FROM grdb_migrations", []),
        ]
        for (name, change, arguments) in cases {
            let book = try DatabaseQueue()
            try SQLiteContactStore.migrator().migrate(book)
            if !change.isEmpty { try book.write { try $0.execute(sql: change, arguments: arguments) } }
            // When
            let answer = try book.read(SQLiteContactStore.recordsEveryMigration)
            // Then
            XCTAssertEqual(answer, try book.read(SQLiteContactStore.migrator().hasCompletedMigrations), name)
        }
        XCTAssertTrue(try DatabaseQueue(path: databasePath).read(SQLiteContactStore.recordsEveryMigration))
        // And a book without the table is an error (openForReading then opens it fully)
        XCTAssertThrowsError(try DatabaseQueue().read(SQLiteContactStore.recordsEveryMigration))
    }

    func test_migrationNames_someWithQuotes_areWrittenIntoTheChecksAsTheyAre() throws {
        // Given: names with a quote (the checks write them into their SQL, quotes doubled)
        XCTAssertTrue(SQLiteContactStore.migrations.contains { $0.name.contains("'") })
        // When: a book that records every one of them
        let book = try DatabaseQueue()
        try SQLiteContactStore.migrator().migrate(book)
        // Then
        XCTAssertTrue(try book.read(SQLiteContactStore.recordsEveryMigration))
        XCTAssertTrue(try book.read(SQLiteContactStore.needsNoMigration))
    }

    func test_needsNoMigration_answersWhatTheFullChecksAtOpenWouldDo() throws {
        // Given: books recording every migration, one less, a newer one too, legacy identifiers,
        // every migration and a legacy identifier, none
        let names = SQLiteContactStore.migrations.map(\.name)
        let legacy = SQLiteContactStore.migrations.compactMap(\.legacyIdentifier)
        XCTAssertFalse(legacy.isEmpty)
        let cases: [(String, String, StatementArguments)] = [
            ("every migration", "", []),
            ("one missing", "DELETE FROM grdb_migrations WHERE identifier = ?", [names[4]]),
            ("the last missing", "DELETE FROM grdb_migrations WHERE identifier = ?", [names.last!]),
            ("a newer one too", "INSERT INTO grdb_migrations (identifier) VALUES ('added by a newer version')", []),
            (
                "legacy identifiers",
                "DELETE FROM grdb_migrations; INSERT INTO grdb_migrations (identifier) VALUES ('v1'), ('v2'), ('v3'), ('v4'), ('v5')",
                []
            ),
            ("every migration and a legacy one", "INSERT INTO grdb_migrations (identifier) VALUES (?)", [legacy[0]]),
            ("none", "DELETE FROM grdb_migrations", []),
        ]
        for (name, change, arguments) in cases {
            let book = try DatabaseQueue()
            try SQLiteContactStore.migrator().migrate(book)
            if !change.isEmpty { try book.write { try $0.execute(sql: change, arguments: arguments) } }
            // When
            let answer = try book.read(SQLiteContactStore.needsNoMigration)
            // Then: true exactly when the open would rename nothing and migrate nothing
            let expected = try book.read { db in
                try !SQLiteContactStore.hasLegacyIdentifiers(db)
                    && SQLiteContactStore.migrator().hasCompletedMigrations(db)
            }
            XCTAssertEqual(answer, expected, name)
        }
        // And a book without the table is an error (the open then makes or migrates it)
        XCTAssertThrowsError(try DatabaseQueue().read(SQLiteContactStore.needsNoMigration))
    }

    func test_open_ofAnUpToDateBook_changesNothingAndSaysNothing() throws {
        // Given: a book this version made, with a contact
        let saved = try SQLiteContactStore(path: databasePath).insert(StoreSeeds.ann)
        let migrations = {
            try DatabaseQueue(path: self.databasePath).read {
                try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
            }
        }
        let recorded = try migrations()
        // When it is opened again (the short path): the same book, nothing said about upgrading
        var upgraded = false
        let again = try SQLiteContactStore(path: databasePath, upgrading: { upgraded = true })
        XCTAssertEqual(try again.page(ContactQuery()).contacts, [saved])
        XCTAssertFalse(upgraded)
        XCTAssertEqual(try migrations(), recorded)
        // (Books that need migrating take the full path: UpgradeFixtureTests, Tests/python/test_upgrade_books.py.)
    }

    func test_close_afterASessionRead_removesTheWALFiles() throws {
        // Given: a session's store (a pool) that has written and read, so a reader connection is open
        let sut = try SQLiteContactStore(path: databasePath)
        _ = try sut.insert(StoreSeeds.ann)
        XCTAssertEqual(try sut.page(ContactQuery(search: "ann")).total, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: databasePath + "-wal"))
        // When
        try sut.close()
        // Then: nothing is left beside the book (GRDB closes the writer first; a read-only reader
        // closing last could not remove them)
        XCTAssertFalse(FileManager.default.fileExists(atPath: databasePath + "-wal"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: databasePath + "-shm"))
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
        try FileManager.default.createDirectory(
            atPath: (databasePath as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: databasePath, contents: nil))
        // When
        let sut = try SQLiteContactStore.openForReading(path: databasePath)
        // Then: readable, and the schema now exists
        XCTAssertEqual(try sut.page(ContactQuery(search: "ann")).total, 0)
        let queue = try DatabaseQueue(path: databasePath)
        XCTAssertEqual(
            try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") },
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

    func test_aFamilyNameSortsPastItsParticles_andTheNameOrderIsKept() throws {
        // Given
        let sut = try SQLiteContactStore(path: databasePath)
        let ludwig = try sut.insert(Contact(uid: "l", givenName: "Ludwig", familyName: "van Beethoven"))
        _ = try sut.insert(Contact(uid: "v", givenName: "Vera", familyName: "Vance"))
        _ = try sut.insert(Contact(uid: "a", givenName: "Ann", familyName: "Adams"))
        let taro = try sut.insert(Contact(uid: "t", givenName: "太郎", familyName: "山田", nameOrder: .familyFirst))
        // Then: under B, between Adams and Vance
        XCTAssertEqual(
            try sut.page(ContactQuery(sort: .last, limit: 10)).contacts.map(\.familyName),
            ["Adams", "van Beethoven", "Vance", "山田"])
        XCTAssertEqual(try sut.position(of: ludwig.id ?? 0, sort: .last), 1)
        XCTAssertEqual(try SQLiteContactStore(path: databasePath).contact(id: taro.id ?? 0)?.fullName, "山田 太郎")
    }

    func test_aBookFromBeforeNameOrders_getsTheColumn_andItsParticleNamesResorted() throws {
        // Given: a book as the version before left it: no name_order, "van Beethoven" keyed under V
        let ludwig = try SQLiteContactStore(path: databasePath).insert(
            Contact(uid: "l", givenName: "Ludwig", familyName: "van Beethoven"))
        _ = try SQLiteContactStore(path: databasePath).insert(Contact(uid: "v", givenName: "Vera", familyName: "Vance"))
        try DatabaseQueue(path: databasePath).write { db in
            try db.execute(
                sql: """
                    ALTER TABLE contact DROP COLUMN name_order;
                    UPDATE contact SET sort_last = 'van beethoven' || char(1) || 'ludwig' || char(1) WHERE uid = 'l';
                    \(StoreSeeds.forgetting([SQLiteContactStore.addNameOrderAndSortPastParticles]))
                    """)
        }
        // When
        let sut = try SQLiteContactStore(path: databasePath)
        // Then
        XCTAssertEqual(try sut.position(of: ludwig.id ?? 0, sort: .last), 0)
        XCTAssertEqual(try sut.page(ContactQuery(sort: .last)).contacts.map(\.familyName), ["van Beethoven", "Vance"])
        XCTAssertEqual(try sut.contact(id: ludwig.id ?? 0)?.nameOrder, .givenFirst)
    }
}
