import Foundation
import GRDB
import XCTest

@testable import ContactsApp

/// The saving thread's plumbing of an import (bench/FINDINGS.md, `import6save`): texts bound
/// without SQLite's copy, a contact's duplicate keys in one statement, the word list's starts,
/// and the filter of the UIDs an import added.
final class ImportSavingTests: XCTestCase {
    // MARK: - Texts bound without a copy

    func test_run_bindsEveryText_smallLargeEmptyNullAndWithZeroBytes_asGiven() throws {
        // Given a table of many text columns, and rows of texts of every kind: a small string
        // (its bytes on the stack while bound), a large one (its own storage), empty, NULL,
        // other scripts, a zero byte inside
        let sut = try DatabaseQueue()
        let columns = (0..<20).map { "t\($0)" }
        try sut.write { db in
            try db.execute(sql: "CREATE TABLE t (\(columns.joined(separator: ", ")))")
        }
        let texts: [String?] = [
            "", "a", "fifteen bytes!!", "sixteen bytes!!!", String(repeating: "long ", count: 200), nil,
            "zażółć gęślą jaźń", "नमस्ते", "a\u{0}b", "\u{0}", "🙂🙂🙂🙂", "x", nil, "y",
            String(repeating: "é", count: 1000), "tail", "", "z", "last but one", "last",
        ]
        let rows = [texts, Array(texts.reversed()), texts.map { $0.map { $0 + "!" } }]
        let sql = "INSERT INTO t VALUES (" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        // When: each row bound and stepped through the same statement, one after another
        try sut.write { db in
            let statement = try db.makeStatement(sql: sql)
            for row in rows {
                try SQLiteContactStore.run(statement, db) { binder in for text in row { binder.text(text) } }
            }
        }
        // Then: each row holds what it was given, byte for byte, as text (read as hex: GRDB
        // reads a text as a C string, which would stop at the zero byte)
        let hex = columns.map { "CASE WHEN \($0) IS NULL THEN NULL ELSE typeof(\($0)) || ' ' || hex(\($0)) END" }
        let read = try sut.read { db in
            try Row.fetchAll(db, sql: "SELECT \(hex.joined(separator: ", ")) FROM t ORDER BY rowid").map { row in
                (0..<columns.count).map { row[$0] as String? }
            }
        }
        let expected = rows.map { row in
            row.map { text in text.map { "text " + $0.utf8.map { String(format: "%02X", $0) }.joined() } }
        }
        XCTAssertEqual(read, expected)
    }

    func test_run_leavesNoBindingBehind_soAStatementRunAgainWithoutAValueBindsNull() throws {
        // Given a statement run once with a text
        let sut = try DatabaseQueue()
        try sut.write { db in try db.execute(sql: "CREATE TABLE t (a, b)") }
        // When it is run again, binding only its first parameter
        let second = try sut.write { db -> [Row] in
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?)")
            let first: String = "first", long: String = "a text long enough for the heap", second: String = "second"
            try SQLiteContactStore.run(statement, db) {
                $0.text(first); $0.text(long)
            }
            try SQLiteContactStore.run(statement, db) { $0.text(second) }
            return try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY rowid")
        }
        // Then: its second parameter is NULL, not the bytes of the first run's text
        XCTAssertEqual(second.map { $0[0] as String? }, ["first", "second"])
        XCTAssertEqual(second.map { $0[1] as String? }, ["a text long enough for the heap", nil])
    }

    // MARK: - A contact's duplicate keys in one statement

    func test_insertKeys_writesTheRowsAndRowidsOneStatementPerKeyWrites_forEveryCount() throws {
        // Given keys of many counts: none, one, a statement's worth, one more, several statements'
        let kinds: [DuplicateReason.Kind] = [.email, .phone, .name, .uid]
        func keys(_ count: Int) -> [(kind: DuplicateReason.Kind, key: String)] {
            (0..<count).map { (kind: kinds[$0 % kinds.count], key: "key \($0) " + String(repeating: "k", count: $0)) }
        }
        let per = SQLiteContactStore.RowStatements.keysPerStatement
        let counts = [0, 1, 2, 7, per - 1, per, per + 1, 2 * per + 3]
        func written(_ insert: ([(kind: DuplicateReason.Kind, key: String)], Int64, Database) throws -> Void) throws
            -> [[String]]
        {
            let book = try DatabaseQueue()
            try SQLiteContactStore.migrator().migrate(book)
            return try book.write { db in
                for (id, count) in counts.enumerated() { try insert(keys(count), Int64(id + 1), db) }
                return try Row.fetchAll(db, sql: "SELECT rowid, kind, key, id FROM contact_key ORDER BY rowid").map {
                    row in (0..<4).map { "\(row[$0] as DatabaseValue)" }
                }
            }
        }
        // When: written a statement per key (an ordinary save), and by an import's statements
        let oneByOne = try written { keys, id, db in try SQLiteContactStore.indexMatchKeys(keys, id: id, db) }
        let together = try written { keys, id, db in
            try SQLiteContactStore.RowStatements(db).insertKeys(keys, id: id, db)
        }
        // Then: the same rows, under the same rowids
        XCTAssertEqual(together.count, counts.reduce(0, +))
        XCTAssertEqual(together, oneByOne)
    }

    func test_keysStatement_leavesFTS5sPendingTermsUnflushed_unlikeTheSameStatementWithABORT() throws {
        // Given a book in a write transaction that has added to the word index (FTS5 holds the
        // terms in memory until the commit, or a savepoint)
        func flushed(_ sql: String) throws -> Bool {
            let book = try DatabaseQueue()
            try SQLiteContactStore.migrator().migrate(book)
            return try book.write { db in
                try db.execute(sql: "INSERT INTO contact_text(rowid, text) VALUES (1, 'anna kowalska')")
                let segments = try Int.fetchOne(db, sql: "SELECT count(*) FROM contact_text_data")
                // When: three keys go in one statement
                try SQLiteContactStore.run(db.makeStatement(sql: sql), db) { binder in
                    for key in ["a", "b", "c"] { binder.text(Optional("email")); binder.text(key); binder.integer(1) }
                }
                return try Int.fetchOne(db, sql: "SELECT count(*) FROM contact_text_data") != segments
            }
        }
        // Then: `OR FAIL` needs no statement journal, so no savepoint on the virtual tables and
        // no flush; the default conflict clause (ABORT) would flush them at every contact
        XCTAssertFalse(try flushed(SQLiteContactStore.RowStatements.keysSQL(count: 3)))
        XCTAssertTrue(
            try flushed(
                SQLiteContactStore.RowStatements.keysSQL(count: 3).replacingOccurrences(of: " OR FAIL", with: "")))
    }

    // MARK: - The word list's starts

    func test_wordStarts_keepsEachWordOnce_firstAddedFirst_withTheStartsAllItsContactsShare() {
        // Given
        var sut = SQLiteContactStore.WordStarts()
        // When: words added as an import's contacts hold them, one repeated with other starts
        sut.add("kowalski", 0b1011)
        sut.add("anna", 0b1)
        sut.add("kowalski", 0b0110)
        sut.add("zofia", 0)
        sut.add("kowalski", 0b1111)
        // Then: each once, in the order first added, its starts those every time shared
        XCTAssertEqual(sut.count, 3)
        XCTAssertEqual(sut.entries.map(\.word), ["kowalski", "anna", "zofia"])
        XCTAssertEqual(sut.entries.map(\.starts), [0b0010, 0b1, 0])
        // And emptied, it starts again
        sut.removeAll()
        sut.add("anna", 0b10)
        XCTAssertEqual(sut.entries.map(\.word), ["anna"])
        XCTAssertEqual(sut.entries.map(\.starts), [0b10])
    }

    func test_wordStarts_agreesWithADictionaryOfTheSameWords() {
        // Given 5,000 words drawn from 300, each with starts of its own
        var sut = SQLiteContactStore.WordStarts()
        var expected: [String: Int64] = [:]
        var state: UInt64 = 12345
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        // When
        for _ in 0..<5000 {
            let word = "w\(next() % 300)", starts = Int64(next() & 0xFFFF)
            sut.add(word, starts)
            expected[word, default: starts] &= starts
        }
        // Then
        XCTAssertEqual(sut.count, expected.count)
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: sut.entries.map { ($0.word, $0.starts) }), expected)
    }

    func test_wordStarts_merged_holdsWhatAddingEachWordInTurnHolds_inTheSameOrder() {
        // Given 40 batches of 100 words drawn from 500, each gathered alone, and every word
        // added in turn to one list
        var merged = SQLiteContactStore.WordStarts(), inTurn = SQLiteContactStore.WordStarts()
        var state: UInt64 = 777
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        // When each batch is merged into the other list
        for _ in 0..<40 {
            var batch = SQLiteContactStore.WordStarts()
            for _ in 0..<100 {
                let word = "w\(next() % 500)", starts = Int64(next() & 0xFF)
                batch.add(word, starts)
                inTurn.add(word, starts)
            }
            merged.merge(batch)
        }
        // Then: the same words, in the same order, with the same starts
        XCTAssertEqual(merged.count, inTurn.count)
        XCTAssertEqual(merged.entries.map(\.word), inTurn.entries.map(\.word))
        XCTAssertEqual(merged.entries.map(\.starts), inTurn.entries.map(\.starts))
    }

    /// Contacts whose words repeat across them with other neighbours (so their starts differ).
    private static func wordyContacts(_ count: Int) -> [Contact] {
        let given = ["Mary", "Anna", "Kowal", "Zofia", "Hiroshi"]
        let family = ["Kowalczyk", "Annasdottir", "Marysia", "Nakamura", "Czyk"]
        let organization = ["Acme Works", "Kowalczyk Brothers", "", "Works Annex"]
        return (0..<count).map { index in
            let first = given[index % given.count], last = family[index / 2 % family.count]
            return StoreSeeds.contact(
                first, last, uid: "uid-\(index)", organization: organization[index % organization.count],
                emails: ["\(first)\(last)\(index % 3)@example.com".lowercased()])
        }
    }

    /// The word list as a book holds it: each word with its starts, and the trigram table's
    /// rows in the order the words were added.
    private static func wordList(_ store: SQLiteContactStore) throws -> [String] {
        try store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT word || ' ' || starts FROM contact_word ORDER BY word")
                + String.fetchAll(db, sql: "SELECT rowid || ' ' || word FROM contact_word_gram ORDER BY rowid")
        }
    }

    func test_importSession_aBatchsWordsGatheredWhenPrepared_writeTheWordListOfRowByRow() throws {
        // Given 60 contacts in 3 batches, imported once with nothing prepared (each row's words
        // added on the saving thread) and once prepared by batch (the words gathered then)
        let contacts = Self.wordyContacts(60)
        let batches = stride(from: 0, to: 60, by: 20).map { Array(contacts[$0..<$0 + 20]) }
        let rowByRow = try SQLiteContactStore(path: ":memory:")
        _ = try rowByRow.importSession { session in
            for batch in batches { try session.save(inserting: batch, prepared: [], updating: []) }
        }
        let sut = try SQLiteContactStore(path: ":memory:")
        var gathered: [SQLiteContactStore.BatchWords?] = []
        // When
        _ = try sut.importSession { session in
            for batch in batches {
                let prepared = sut.prepareForImport(batch: batch)
                gathered.append(SQLiteContactStore.BatchWords.whole(prepared, inserting: batch.count))
                try session.save(inserting: batch, prepared: prepared, updating: [])
            }
        }
        // Then: each save took its batch's gathered words, and the word lists are the same
        XCTAssertEqual(gathered.map { $0?.rows }, [20, 20, 20])
        XCTAssertFalse(try Self.wordList(sut).isEmpty)
        XCTAssertEqual(try Self.wordList(sut), try Self.wordList(rowByRow))
    }

    func test_importSession_partOfABatchPrepared_addsItsRowsWordsOneByOne() throws {
        // Given a batch of 20 prepared together, of which a save inserts 19 (one was unchanged)
        let contacts = Self.wordyContacts(20)
        let kept = contacts.indices.filter { $0 != 7 }
        let rowByRow = try SQLiteContactStore(path: ":memory:")
        _ = try rowByRow.importSession { session in
            try session.save(inserting: kept.map { contacts[$0] }, prepared: [], updating: [])
        }
        let sut = try SQLiteContactStore(path: ":memory:")
        let prepared = sut.prepareForImport(batch: contacts)
        // When
        _ = try sut.importSession { session in
            try session.save(inserting: kept.map { contacts[$0] }, prepared: kept.map { prepared[$0] }, updating: [])
        }
        // Then: not the batch's words (they hold the 20th card's), the 19 rows' own
        XCTAssertNil(SQLiteContactStore.BatchWords.whole(kept.map { prepared[$0] }, inserting: 19))
        XCTAssertEqual(try Self.wordList(sut), try Self.wordList(rowByRow))
        // And two batches' rows together, as many as one has, are not taken for either
        let other = sut.prepareForImport(batch: contacts)
        XCTAssertNil(SQLiteContactStore.BatchWords.whole(Array(prepared[0..<10] + other[10..<20]), inserting: 20))
        XCTAssertNotNil(SQLiteContactStore.BatchWords.whole(other, inserting: 20))
    }

    // MARK: - The UIDs an import added

    func test_uidFilter_holdsEveryUIDInserted_andAlmostNoOther() {
        // Given 20,000 UIDs inserted
        var sut = SQLiteContactStore.UIDFilter()
        let inserted = (0..<20_000).map { "urn:uuid:\($0)-inserted" }
        for uid in inserted { sut.insert(uid) }
        // Then: every one may be there (never a UID it was given left out)
        XCTAssertTrue(inserted.allSatisfy(sut.mayContain))
        // And of 20,000 others, hardly any (about 0.007 expected; the hash's seed varies by run)
        let others = (0..<20_000).map { "urn:uuid:\($0)-other" }
        XCTAssertLessThan(others.filter(sut.mayContain).count, 20)
        // And an empty filter holds nothing
        XCTAssertFalse(SQLiteContactStore.UIDFilter().mayContain(inserted[0]))
    }

    func test_importSession_addedUIDs_findsEveryUIDItAddedOrUpdated_acrossBatches() throws {
        // Given a book of one contact, and an import adding 300 in 3 batches, then updating one
        // it added and the one that was there
        let sut = try SQLiteContactStore(path: ":memory:")
        var ann = try sut.insert(StoreSeeds.ann)
        ann.nickname = "Annie"
        let numbered = StoreSeeds.numbered(300)
        var answers: [Set<String>] = []
        // When
        _ = try sut.importSession { session in
            for start in stride(from: 0, to: 300, by: 100) {
                let batch = Array(numbered[start..<start + 100])
                answers.append(try session.addedUIDs(among: batch.map(\.uid) + [ann.uid]))
                try session.save(inserting: batch, prepared: [], updating: [])
                answers.append(try session.addedUIDs(among: numbered.map(\.uid) + [ann.uid, "nobody"]))
            }
            var added = try session.contacts(uids: [numbered[5].uid])[0]
            added.nickname = "changed"
            try session.save(inserting: [], prepared: [], updating: [added, ann])
            answers.append(try session.addedUIDs(among: [numbered[5].uid, ann.uid]))
        }
        // Then: before a batch is saved none of it is added; after, exactly what was saved so far
        XCTAssertEqual(answers[0], [])
        XCTAssertEqual(answers[1], Set(numbered[0..<100].map(\.uid)))
        XCTAssertEqual(answers[2], [])
        XCTAssertEqual(answers[3], Set(numbered[0..<200].map(\.uid)))
        XCTAssertEqual(answers[4], [])
        XCTAssertEqual(answers[5], Set(numbered.map(\.uid)))
        // And an update keeps an added contact added, and the stored one not
        XCTAssertEqual(answers[6], [numbered[5].uid])
    }
}
