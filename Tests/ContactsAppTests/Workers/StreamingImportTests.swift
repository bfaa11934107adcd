import Foundation
import SceneCore
import XCTest

@testable import ContactsApp

/// The import streamed in chunks and batches reads exactly what reading the whole file reads,
/// and saves all of it in one transaction or nothing.
final class StreamingImportTests: XCTestCase {
    /// Folding (inside a UTF-8 character, with a tab), CRLF and LF mixed, a BOM, blank lines,
    /// escapes, a quoted-printable soft break, empty values and a last line without a break.
    static let awkwardFile: [UInt8] = {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let start: [UInt8] = Array("BEGIN:VCARD\r\nVERSION:3.0\r\nN:Zo".utf8)
        let foldInsideE: [UInt8] = [0xC3] + Array("\r\n ".utf8) + [0xAB] // ë (C3 AB) folded in the middle
        var rest = ";Ann;;;\r\nFN:Ann Zoë\nNOTE:a\\nb\\, c\\; d\\\\\r\n\tcontinued\r\n"
        rest += "TEL;TYPE=CELL:+1 555 0100\r\nEMAIL:\r\n\r\nX-EMPTY:\r\nEND:VCARD\r\n"
        rest +=
            "BEGIN:VCARD\nVERSION:2.1\nN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=91=C3=BA=\n=C3=B1ez;Jos=C3=A9;;;\n"
        rest += "ORG:Café Müller\nEND:VCARD\n"
        rest += "garbage line\n"
        rest += "BEGIN:VCARD\nVERSION:4.0\nUID:last\nFN:No Break\nEND:VCARD"
        return bom + start + foldInsideE + Array(rest.utf8)
    }()

    private func chunks(_ bytes: [UInt8], size: Int) -> (inout [UInt8]) -> Bool {
        var offset = 0
        return { buffer in
            guard offset < bytes.count else { return false }
            buffer = Array(bytes[offset..<min(offset + size, bytes.count)])
            offset += size
            return true
        }
    }

    /// `awkwardFile` with every line ending (CRLF or LF) made `ending`: CR CR LF as iOS 6
    /// writes, or a bare CR as classic Mac OS did.
    static func awkwardFile(endingLinesWith ending: String) -> [UInt8] {
        var result: [UInt8] = [], index = 0
        let file = awkwardFile
        while index < file.count {
            if file[index] == 0x0D, index + 1 < file.count, file[index + 1] == 0x0A {
                result += Array(ending.utf8); index += 2
            } else if file[index] == 0x0A {
                result += Array(ending.utf8); index += 1
            } else {
                result.append(file[index]); index += 1
            }
        }
        return result
    }

    static let awkwardFiles = [awkwardFile, awkwardFile(endingLinesWith: "\r\r\n"), awkwardFile(endingLinesWith: "\r")]

    func test_splitter_inChunksOfAnySize_givesTheLinesOfTheWholeFile() {
        for file in Self.awkwardFiles {
            // Given
            let whole = VCardContentLines.split(Data(file))
            for size in 1...40 {
                // When
                var splitter = VCardContentLines.Splitter()
                var lines: [VCardContentLine] = []
                let next = chunks(file, size: size)
                var buffer: [UInt8] = []
                while next(&buffer) { buffer.withUnsafeBufferPointer { splitter.feed($0) { lines.append($0) } } }
                splitter.finish { lines.append($0) }
                // Then
                XCTAssertEqual(lines.map(\.bytes), whole.map(\.bytes), "chunk size \(size)")
                XCTAssertEqual(lines.map(\.line), whole.map(\.line), "chunk size \(size)")
            }
        }
    }

    func test_splitter_crCrLfAndBareCREndings_giveTheLinesOfCRLF() {
        // Given
        let crlf = VCardContentLines.split(Data(Self.awkwardFile(endingLinesWith: "\r\n")))
        for ending in ["\r\r\n", "\r", "\n"] {
            // When
            let lines = VCardContentLines.split(Data(Self.awkwardFile(endingLinesWith: ending)))
            // Then: the same logical lines on the same line numbers
            XCTAssertEqual(lines.map(\.bytes), crlf.map(\.bytes), ending.debugDescription)
            XCTAssertEqual(lines.map(\.line), crlf.map(\.line), ending.debugDescription)
        }
        XCTAssertEqual(crlf.count, 20)
    }

    func test_reader_inBatches_readsWhatTheWholeFileReads() throws {
        // Given
        let sut = VCardReader()
        let files =
            Self.awkwardFiles
            + ["apple-3.0.vcf", "android-2.1.vcf", "rfc6350-4.0.vcf", "bad.vcf"]
            .map { [UInt8](VCardSeeds.fixture($0)) } + [VCardClientQuirksTests.everyQuirk]
        for file in files {
            let whole = sut.read(Data(file))
            for (batchSize, chunkSize) in [(1, 1), (2, 7), (3, 64), (1000, 1 << 20)] {
                // When
                var batches: [ParsedContacts] = []
                try sut.read(batchSize: batchSize, nextChunk: chunks(file, size: chunkSize)) { batches.append($0) }
                // Then
                XCTAssertEqual(batches.flatMap(\.entries), whole.entries)
                XCTAssertEqual(batches.flatMap(\.problems), whole.problems)
                XCTAssertEqual(batches.flatMap(\.warnings), whole.warnings)
                XCTAssertEqual(batches.map(\.skippedLines).reduce(0, +), whole.skippedLines)
                XCTAssertTrue(batches.allSatisfy { $0.entries.count <= batchSize })
            }
        }
    }

    /// Rows without a name, blank rows, a quoted field across lines, and Windows-1252 text.
    static let awkwardCSV: [[UInt8]] = {
        let ours =
            "\u{FEFF}given_name,family_name,emails,notes\r\nAnn,Lee,work:ann@x.test | home:a@y.test,\r\n"
            + ",,nobody@x.test,\r\n \t , ,,\r\nBo,\"Quoted, Name\",,\"two\r\nlines\"\r\nCy,Zed,,\r\n,,,\r\nDi,,,"
        let google = String(decoding: VCardSeeds.fixture("google.csv"), as: UTF8.self)
        let latin: [UInt8] =
            Array("First Name,Last Name\r\nJos".utf8) + [0xE9] + Array(",N\r\n".utf8) + [0xD1]
            + Array("u,\r\n".utf8) // "José N" and "Ñu" in Windows-1252
        return [
            Array(ours.utf8), Array(google.utf8), latin, Array("given_name\r\n".utf8),
            Array("nothing,known\r\nx,y".utf8),
        ]
    }()

    func test_csv_inBatches_readsWhatTheWholeFileReads_batchByBatch() throws {
        for file in Self.awkwardCSV {
            // Given
            let whole = ContactsCSV.read(Data(file))
            for batchSize in [1, 2, 3, 1000] {
                // When
                var batches: [ParsedContacts] = []
                ContactsCSV.read(Data(file), batchSize: batchSize) { batches.append($0) }
                // Then: the same entries and problems, no batch over the size (entries and
                // problems together), every batch but the last full, and at least one batch
                XCTAssertEqual(batches.flatMap(\.entries), whole.entries)
                XCTAssertEqual(batches.flatMap(\.problems), whole.problems)
                XCTAssertTrue(batches.allSatisfy { $0.entries.count + $0.problems.count <= batchSize })
                XCTAssertTrue(batches.dropLast().allSatisfy { $0.entries.count + $0.problems.count == batchSize })
                XCTAssertFalse(batches.isEmpty)
            }
        }
        // And the first file reads as it should
        let first = ContactsCSV.read(Data(Self.awkwardCSV[0]))
        XCTAssertEqual(first.entries.map(\.contact.fullName), ["Ann Lee", "Bo Quoted, Name", "Cy Zed", "Di"])
        XCTAssertEqual(first.entries[0].contact.emails.map(\.label), ["work", "home"])
        XCTAssertEqual(first.entries[1].contact.notes, "two\nlines")
        XCTAssertEqual(first.problems.map(\.line), [3])
        XCTAssertEqual(ContactsCSV.read(Data(Self.awkwardCSV[2])).entries.map(\.contact.fullName), ["José N", "Ñu"])
    }

    func test_csv_handsOutEachBatchBeforeReadingTheRowsAfterIt() {
        // Given: a row without a name after the first two
        let text = "given_name,family_name,emails\r\nAnn,A,\r\nBo,B,\r\n,,z@x.test\r\nCy,C,\r\nDi,D,\r\n"
        // When
        var batches: [ParsedContacts] = []
        ContactsCSV.read(Data(text.utf8), batchSize: 2) { batches.append($0) }
        // Then: its problem is in the batch after the first, which was handed out before it was
        // read, and counts towards that batch's size
        XCTAssertEqual(batches.map { $0.entries.map(\.contact.givenName) }, [["Ann", "Bo"], ["Cy"], ["Di"]])
        XCTAssertEqual(batches.map { $0.problems.map(\.line) }, [[], [4], []])
    }

    /// UTF-8 and Windows-1252 in one file: "Zoë" (C3 AB), "José" (E9), "€" (80), a UTF-8 "Ñ"
    /// split by every chunk size below, and a lone UTF-8 lead byte at the very end.
    static let mixedEncodingCSV: [UInt8] =
        Array("\u{FEFF}given_name,family_name\r\nZo".utf8) + [0xC3, 0xAB]
        + Array(",Lee\r\nJos".utf8) + [0xE9] + Array(",Price ".utf8) + [0x80] + Array("\r\n".utf8) + [0xC3, 0x91]
        + Array("u,Ng\r\nLast,Byte".utf8) + [0xC3]

    func test_csv_inChunksOfAnySize_readsWhatTheWholeFileReads() throws {
        for file in Self.awkwardCSV + [Self.mixedEncodingCSV] {
            // Given
            let whole = ContactsCSV.read(Data(file))
            for size in Array(1...9) + [64, 1 << 20] {
                // When
                var batches: [ParsedContacts] = []
                try ContactsCSV.read(batchSize: 2, nextChunk: chunks(file, size: size)) { batches.append($0) }
                // Then
                XCTAssertEqual(batches.flatMap(\.entries), whole.entries, "chunk size \(size)")
                XCTAssertEqual(batches.flatMap(\.problems), whole.problems, "chunk size \(size)")
            }
        }
    }

    func test_csv_bytesThatAreNotUTF8_readAsWindows1252_andTheRestAsUTF8() {
        // When
        let parsed = ContactsCSV.read(Data(Self.mixedEncodingCSV))
        // Then
        XCTAssertEqual(parsed.entries.map(\.contact.fullName), ["Zoë Lee", "José Price €", "Ñu Ng", "Last ByteÃ"])
        XCTAssertEqual(parsed.problems, [])
    }

    func test_csv_aFailingRead_isThrownAfterTheRowsReadBeforeIt() {
        // Given: a file whose second chunk cannot be read
        struct ReadFailure: Error {}
        var calls = 0
        let first = Array("given_name,family_name\r\nAnn,Lee\r\nBo,Ng\r\n".utf8)
        // When
        var batches: [ParsedContacts] = []
        XCTAssertThrowsError(
            try ContactsCSV.read(
                batchSize: 1,
                nextChunk: { buffer in
                    calls += 1
                    guard calls == 1 else { throw ReadFailure() }
                    buffer = first
                    return true
                }
            ) { batches.append($0) }
        ) { error in
            // Then: the failure, not a problem in the rows
            XCTAssertTrue(error is ReadFailure)
        }
        XCTAssertEqual(batches.flatMap(\.entries).map(\.contact.fullName), ["Ann Lee", "Bo Ng"])
        XCTAssertEqual(batches.flatMap(\.problems), [])
    }

    func test_csv_badRows_areHandedOutInBatchesToo() {
        // Given: five rows without a name, then one person, read two at a time
        let text = "given_name,family_name,notes\r\n" + String(repeating: ",,nobody\r\n", count: 5) + "Ann,Lee,\r\n"
        // When
        var batches: [ParsedContacts] = []
        ContactsCSV.read(Data(text.utf8), batchSize: 2) { batches.append($0) }
        // Then: no batch holds more than two things, problems or contacts
        XCTAssertEqual(batches.map { $0.problems.count + $0.entries.count }, [2, 2, 2])
        XCTAssertEqual(batches.flatMap(\.problems).map(\.line), [2, 3, 4, 5, 6])
        XCTAssertEqual(batches.flatMap(\.entries).map(\.contact.givenName), ["Ann"])
    }

    func test_csv_givesEachRowTheFileLineItStartsOn_pastFieldsThatHoldLineBreaks() {
        // Given: a header, a row, a row whose quoted note spans three lines (CRLF, then LF), a
        // blank line, a row with no name, and a last row
        let text =
            "given_name,family_name,notes\r\nAnn,Lee,\r\nBo,Ng,\"one\r\ntwo\nthree\"\r\n\r\n,,nobody\r\nCy,Zed,\r\n"
        // When
        let parsed = ContactsCSV.read(Data(text.utf8))
        // Then: lines 2 and 3 (to 5); the blank line 6 is skipped; the nameless row is line 7
        XCTAssertEqual(parsed.entries.map(\.line), [2, 3, 8])
        XCTAssertEqual(parsed.entries.map(\.contact.givenName), ["Ann", "Bo", "Cy"])
        XCTAssertEqual(parsed.entries[1].contact.notes, "one\ntwo\nthree")
        XCTAssertEqual(parsed.problems, [.init(line: 7, reason: "the row has no name and no organisation")])
    }

    func test_importCSV_savesEachBatchWithTheRowsPreparedForIt() throws {
        // Given: a worker saving 2 rows at a time, and a CSV of 7 rows
        let store = PreparingStoreSpy()
        let progress = ImportExportWorkerTests.ProgressReporterSpy()
        let sut = ImportExportWorker(
            environment: ContactsEnvironment(
                store: store, now: { VCardSeeds.now }, makeUID: { "x" }, progress: progress),
            importBatchSize: 2, importChunkSize: 64)
        let text = "uid,given_name,family_name\r\n" + (0..<7).map { "row-\($0),Ann,Person\($0)\r\n" }.joined()
        // When
        let report = try sut.importContacts(Data(text.utf8), format: .csv)
        // Then: saved in four batches, each insert with its prepared row, progress after each
        XCTAssertEqual(report.added, 7)
        XCTAssertEqual(store.saves.map(\.inserting.count), [2, 2, 2, 1])
        XCTAssertEqual(store.saves.flatMap(\.inserting).map(\.uid), (0..<7).map { "row-\($0)" })
        XCTAssertTrue(store.saves.allSatisfy { $0.prepared.count == $0.inserting.count })
        XCTAssertEqual(progress.events.filter { if case .report = $0 { return true } else { return false } }.count, 5)
    }

    func test_reader_awkwardFile_readsFoldsEscapesQuotedPrintableAndEmptyValues() {
        // When
        let result = VCardReader().read(Data(Self.awkwardFile))
        // Then
        XCTAssertEqual(result.entries.map(\.contact.familyName), ["Zoë", "Ñúñez", "Break"])
        XCTAssertEqual(result.entries.first?.contact.notes, "a\nb, c; d\\continued")
        XCTAssertEqual(result.entries.first?.contact.emails, [LabeledValue(label: "other", value: "")])
        XCTAssertEqual(result.entries.first?.contact.extraProperties, ["X-EMPTY:"])
        XCTAssertEqual(result.entries[1].contact.givenName, "José")
        XCTAssertEqual(result.entries[1].contact.organization, "Café Müller")
        XCTAssertEqual(result.entries[2].contact.uid, "last")
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(
            result.warnings.withoutAddedNames,
            [
                .init(line: 9, reason: "EMAIL \"\" is not an email address (kept)", kind: .invalid),
                .init(line: 19, reason: "a line outside any card (expected BEGIN:VCARD): skipped", kind: .skipped),
            ])
        XCTAssertEqual(result.skippedLines, 1)
    }

    func test_reader_invalidUTF8_costsTheBadBytesOnly() {
        // Given
        let file =
            Array("BEGIN:VCARD\nFN:Bad\nNOTE:é".utf8) + [0xC3, 0x28]
            + Array("\nEND:VCARD\nBEGIN:VCARD\nFN:Good One\nEND:VCARD\n".utf8)
        // When
        let result = VCardReader().read(Data(file))
        // Then: the value is kept with U+FFFD for the byte, and the change named by its line
        XCTAssertEqual(result.entries.map(\.contact.fullName), ["Bad", "Good One"])
        XCTAssertEqual(result.entries.first?.contact.notes, "é\u{FFFD}(")
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(
            result.warnings.withoutAddedNames,
            [.init(line: 3, reason: "NOTE: 1 byte not valid in UTF-8 replaced by U+FFFD", kind: .changed)])
    }

    // MARK: - The worker

    private static func cards(_ count: Int) -> Data {
        Data(
            (0..<count).map { i in
                "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:card-\(i)\r\nFN:Ann Person\(i)\r\nN:Person\(i);Ann;;;\r\n"
                    + "TEL;TYPE=cell:+1 555 \(1000 + i)\r\nEND:VCARD\r\n"
            }.joined().utf8)
    }

    func test_import_largeFileInBatches_savesEveryCard_reportsEachBatch_andAnnouncesOnce() throws {
        // Given a worker that reads 7 bytes and saves 3 cards at a time
        let store = try SQLiteContactStore(path: ":memory:")
        let progress = ImportExportWorkerTests.ProgressReporterSpy(),
            changes = ImportExportWorkerTests.ChangeNotifierSpy()
        let sut = ImportExportWorker(
            environment: ContactsEnvironment(
                store: store, now: { VCardSeeds.now }, makeUID: { "x" },
                changes: changes, progress: progress),
            importBatchSize: 3, importChunkSize: 7)
        // When
        let report = try sut.importContacts(Self.cards(10), format: .vcard)
        // Then
        XCTAssertEqual(report.added, 10)
        let all = try store.page(ContactQuery(sort: .last, limit: 100)).contacts
        XCTAssertEqual(Set(all.map(\.uid)), Set((0..<10).map { "card-\($0)" }))
        XCTAssertEqual(
            progress.events,
            [
                .begin(title: "Importing contacts", total: nil),
                .report(completed: 0, total: 3, message: "read 3 cards, saving"),
                .report(completed: 3, total: 6, message: "read 6 cards, saving"),
                .report(completed: 6, total: 9, message: "read 9 cards, saving"),
                .report(completed: 9, total: 10, message: "read 10 cards, saving"),
                .report(completed: 10, total: 10, message: "saved"),
                .end(message: nil),
            ])
        XCTAssertEqual(
            changes.changes, [DataChange(topic: "contacts", kind: "created", ids: (1...10).map(String.init))])
    }

    func test_importFile_inBatches_reimportIsUnchanged_andRepeatedUIDsAcrossBatchesGetNewOnes() throws {
        // Given a file whose card 4 repeats card 1's UID, imported 2 cards per batch
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("Streaming-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("cards.vcf")
        let text = String(decoding: Self.cards(5), as: UTF8.self).replacingOccurrences(
            of: "UID:card-4", with: "UID:card-1")
        try Data(text.utf8).write(to: file)
        let store = try SQLiteContactStore(path: ":memory:")
        let sut = ImportExportWorker(
            environment: ContactsEnvironment(store: store, now: { VCardSeeds.now }, makeUID: { "x" }),
            importBatchSize: 2, importChunkSize: 5)
        // When
        let first = try sut.importFile(at: file.path, format: .auto)
        let again = try sut.importFile(at: file.path, format: .auto)
        // Then
        XCTAssertEqual(first.added, 5)
        XCTAssertEqual(first.newUIDs, 1)
        XCTAssertEqual(again.added, 0)
        XCTAssertEqual(again.unchanged, 5)
        XCTAssertEqual(again.newUIDs, 1)
    }

    func test_importFile_asksTheSessionOncePerBatch_andOnceMorePerFurtherDerivation() throws {
        // Given two batches of 3: Ann (UID ann), Ann again, a card without a UID; then that card
        // again, Ann a third time, and Bo
        func card(_ uid: String?, _ name: String) -> String {
            "BEGIN:VCARD\r\nVERSION:4.0\r\n" + (uid.map { "UID:\($0)\r\n" } ?? "")
                + "FN:\(name)\r\nN:\(name);;;;\r\nEND:VCARD\r\n"
        }
        let text = [
            card("ann", "Ann"), card("ann", "Ann"), card(nil, "Nobody"),
            card(nil, "Nobody"), card("ann", "Ann"), card("bo", "Bo"),
        ].joined()
        let store = QuestionsSpy()
        let sut = ImportExportWorker(
            environment: ContactsEnvironment(store: store, now: { VCardSeeds.now }, makeUID: { "x" }),
            importBatchSize: 3, importChunkSize: 64)
        // When
        let report = try sut.importContacts(Data(text.utf8), format: .vcard)
        // Then: each batch asks once for its UIDs and first derivations, and once for each
        // derivation a repeated card needs that the book has not told yet: Ann's second card
        // (batch 1); the card without a UID, whose first derivation batch 1 added (its second,
        // batch 2); Ann's third, whose first derivation batch 1 added (asked) and its second
        let nobody = store.saved.first { $0.givenName.isEmpty && $0.familyName == "Nobody" }
        XCTAssertEqual(store.questions.map(\.count), [3, 1, 3, 1, 1, 1])
        XCTAssertEqual(store.questions[0], ["ann", "ann", try XCTUnwrap(nobody).uid])
        XCTAssertEqual(store.questions[2].suffix(2), ["ann", "bo"])
        XCTAssertEqual(report.added, 6)
        XCTAssertEqual(report.newUIDs, 4)
        XCTAssertEqual(Set(store.saved.map(\.uid)).count, 6)
    }

    func test_importCSV_inBatches_rowsWithoutUIDsRepeatedAcrossBatches_eachGetTheirOwn_andAReimportIsUnchanged() throws
    {
        // Given: one row without a UID three times, in batches of 2, so each time in another batch
        let csv = Data("given_name,family_name\nAnn,Lee\nBob,Kay\nAnn,Lee\nCid,Roe\nAnn,Lee\n".utf8)
        let store = try SQLiteContactStore(path: ":memory:")
        let sut = ImportExportWorker(
            environment: ContactsEnvironment(store: store, now: { VCardSeeds.now }, makeUID: { "x" }),
            importBatchSize: 2)
        // When
        let first = try sut.importContacts(csv, format: .csv)
        let again = try sut.importContacts(csv, format: .csv)
        // Then: five contacts with five UIDs, the same ones the second time (nothing added)
        XCTAssertEqual([first.added, first.newUIDs, first.unchanged], [5, 5, 0])
        XCTAssertEqual([again.added, again.newUIDs, again.unchanged], [0, 5, 5])
        let uids = try store.page(ContactQuery(sort: .last, limit: 100)).contacts.map(\.uid)
        XCTAssertEqual(Set(uids).count, 5)
    }

    func test_import_byDefault_savesBatchesOf500_soTheSavingThreadStartsAfter500Cards() throws {
        // Given: a worker with the default batch size, and a file of 1,201 cards
        let store = PreparingStoreSpy()
        let sut = ImportExportWorker(
            environment: ContactsEnvironment(store: store, now: { VCardSeeds.now }, makeUID: { "x" }))
        // When
        let report = try sut.importContacts(Self.cards(1_201), format: .vcard)
        // Then: saved 500 cards at a time, the last batch the rest, every card in file order
        XCTAssertEqual(report.added, 1_201)
        XCTAssertEqual(store.saves.map(\.inserting.count), [500, 500, 201])
        XCTAssertEqual(store.saves.flatMap(\.inserting).map(\.uid), (0..<1_201).map { "card-\($0)" })
    }

    func test_importPipeCapacity_keeps4000CardsWaiting_andAtLeastTwoBatches() {
        // Given / When / Then: batches of 500 wait 8 at a time (as many cards as 2 batches of
        // 2,000 did), and a batch of 2,000 or more still lets 2 wait
        XCTAssertEqual(ImportExportWorker.importPipeCapacity(batchSize: 500), 8)
        XCTAssertEqual(ImportExportWorker.importPipeCapacity(batchSize: 2_000), 2)
        XCTAssertEqual(ImportExportWorker.importPipeCapacity(batchSize: 5_000), 2)
        XCTAssertEqual(ImportExportWorker.importPipeCapacity(batchSize: 3), 1_333)
        XCTAssertEqual(ImportExportWorker.importPipeCapacity(batchSize: 0), 4_000)
    }

    func test_import_handsEachNewContactWhatTheStorePreparedFromItsCard_onTheReadingThread() throws {
        // Given: a book holding card 1 as it is in the file and card 2 changed; a file of 7 cards
        // whose card 5 repeats card 0's UID and whose card 6 has none; 2 cards per batch
        let store = PreparingStoreSpy()
        let sut = ImportExportWorker(
            environment: ContactsEnvironment(store: store, now: { VCardSeeds.now }, makeUID: { "x" }),
            importBatchSize: 2, importChunkSize: 64)
        _ = try sut.importContacts(Self.cards(3), format: .vcard)
        var changed = try XCTUnwrap(store.contacts(uids: ["card-2"]).first)
        changed.nickname = "Changed"
        _ = try store.update(changed)
        store.saves.removeAll()
        let text =
            String(decoding: Self.cards(6), as: UTF8.self).replacingOccurrences(of: "UID:card-5", with: "UID:card-0")
            + "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:No Uid\r\nEND:VCARD\r\n"
        // When
        let report = try sut.importContacts(Data(text.utf8), format: .vcard)
        // Then: every insert came with the row prepared from its own card, prepared off the
        // saving thread; the update (card 2) and the unchanged card 1 came with none
        XCTAssertEqual(report.added, 4)
        XCTAssertEqual(report.updated, 1)
        XCTAssertEqual(report.unchanged, 2)
        let inserted = store.saves.flatMap(\.inserting)
        XCTAssertEqual(inserted.map(\.givenName), ["Ann", "Ann", "Ann", "No"])
        XCTAssertEqual(inserted.map(\.familyName), ["Person3", "Person4", "Person5", "Uid"])
        for save in store.saves {
            XCTAssertEqual(save.prepared.count, save.inserting.count)
            for (contact, prepared) in zip(save.inserting, save.prepared) {
                let marker = try XCTUnwrap(prepared as? PreparingStoreSpy.Marker)
                XCTAssertEqual(marker.name, contact.givenName + " " + contact.familyName)
                XCTAssertFalse(marker.preparedOnCallingThread)
            }
        }
        XCTAssertEqual(store.saves.flatMap(\.updating).map(\.uid), ["card-2"])
    }

    func test_import_aBatchFailingToSave_rollsBackTheWholeImport() throws {
        // Given a store whose third batch fails to save, after two were saved in the transaction
        let inner = try SQLiteContactStore(path: ":memory:")
        let store = FailingBatchStore(inner: inner, failingBatch: 3)
        let changes = ImportExportWorkerTests.ChangeNotifierSpy()
        let sut = ImportExportWorker(
            environment: ContactsEnvironment(store: store, now: { VCardSeeds.now }, makeUID: { "x" }, changes: changes),
            importBatchSize: 2, importChunkSize: 64)
        // When
        XCTAssertThrowsError(try sut.importContacts(Self.cards(10), format: .vcard)) { error in
            // Then
            XCTAssertEqual(error as? ContactsFailure, .storage("disk full"))
        }
        XCTAssertEqual(store.savedBatches, 2)
        XCTAssertEqual(try inner.page(ContactQuery()).total, 0)
        XCTAssertEqual(changes.changes, [])
    }

    func test_store_importInBatches_aFailingSave_savesNothing() throws {
        // Given
        let sut = try SQLiteContactStore(path: ":memory:")
        let ann = Contact(uid: "ann", givenName: "Ann"), twin = Contact(uid: "", givenName: "Twin")
        // When
        XCTAssertThrowsError(
            try sut.importInBatches { transaction in
                try transaction.save(inserting: [ann], updating: [])
                XCTAssertEqual(try transaction.contacts(uids: ["ann"]).map(\.givenName), ["Ann"])
                try transaction.save(inserting: [twin], updating: [])
            })
        // Then
        XCTAssertEqual(try sut.page(ContactQuery()).total, 0)
        XCTAssertEqual(try sut.page(ContactQuery(search: "Ann")).total, 0)
    }
}

/// A store whose import transaction fails on one batch, as a full disk would.
final class FailingBatchStore: ForwardingContactStore {
    let failingBatch: Int
    private(set) var savedBatches = 0
    init(inner: SQLiteContactStore, failingBatch: Int) {
        self.failingBatch = failingBatch
        super.init(inner: inner)
    }
    override func importInBatches(_ body: (ContactImportTransaction) throws -> Void) throws -> ImportedIDs {
        try inner.importInBatches { transaction in
            try body(
                WatchedImportSession(inner: PlainImportSession(transaction)) { _ in
                    guard self.savedBatches + 1 < self.failingBatch else {
                        throw ContactStoreError.storage("disk full")
                    }
                    self.savedBatches += 1
                })
        }
    }
}

/// An in-memory store with an import session: it prepares a marker naming each contact (and
/// the thread it was made on) and records every batch its session is asked to save.
final class PreparingStoreSpy: ForwardingContactStore, ImportSessionStore {
    struct Marker: PreparedContact {
        let name: String
        let preparedOnCallingThread: Bool
    }
    struct Save {
        var inserting: [Contact]
        var prepared: [PreparedContact?]
        var updating: [Contact]
    }
    private let callingThread = Thread.current
    var saves: [Save] = []

    init() { super.init(inner: InMemoryContactStore()) }

    func prepareForImport(_ contact: Contact) -> PreparedContact? {
        Marker(
            name: contact.givenName + " " + contact.familyName, preparedOnCallingThread: Thread.current == callingThread
        )
    }
    func importSession(_ body: (ContactImportSession) throws -> Void) throws -> ImportedIDs {
        try inner.importInBatches { transaction in
            try body(
                WatchedImportSession(inner: PlainImportSession(transaction)) { batch in
                    self.saves.append(
                        Save(inserting: batch.inserting, prepared: batch.prepared, updating: batch.updating))
                })
        }
    }
}

/// An in-memory store with an import session that records every question of which UIDs the
/// import added (`addedUIDs`), and every contact saved.
final class QuestionsSpy: ForwardingContactStore, ImportSessionStore {
    var questions: [[String]] = []
    var saved: [Contact] = []

    init() { super.init(inner: InMemoryContactStore()) }

    func prepareForImport(_ contact: Contact) -> PreparedContact? { nil }
    func importSession(_ body: (ContactImportSession) throws -> Void) throws -> ImportedIDs {
        try inner.importInBatches { transaction in
            try body(Asking(inner: PlainImportSession(transaction), spy: self))
        }
    }

    private final class Asking: ContactImportSession {
        let inner: ContactImportSession
        let spy: QuestionsSpy
        init(inner: ContactImportSession, spy: QuestionsSpy) { self.inner = inner; self.spy = spy }
        var bookWasEmpty: Bool { inner.bookWasEmpty }
        func contacts(uids: [String]) throws -> [Contact] { try inner.contacts(uids: uids) }
        func save(inserting: [Contact], prepared: [PreparedContact?], updating: [Contact]) throws {
            spy.saved += inserting
            try inner.save(inserting: inserting, prepared: prepared, updating: updating)
        }
        func addedUIDs(among uids: [String]) throws -> Set<String> {
            spy.questions.append(uids)
            return try inner.addedUIDs(among: uids)
        }
    }
}
