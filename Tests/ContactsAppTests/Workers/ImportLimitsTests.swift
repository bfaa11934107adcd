import Foundation
import XCTest

@testable import ContactsApp

/// Issue 26, item 11: an import reads lines and rows up to a limit, in bounded memory, and
/// stops at one it cannot skip, naming its line.
final class ImportLimitsTests: XCTestCase {
    /// `bytes` handed out `size` bytes at a time, then `endless` more chunks of `filler` if set.
    private func chunks(
        _ bytes: [UInt8], size: Int, then filler: UInt8? = nil, count endless: Int = 0,
        read: ((Int) -> Void)? = nil
    ) -> (inout [UInt8]) -> Bool {
        var offset = 0, extra = 0
        return { buffer in
            if offset < bytes.count {
                buffer = Array(bytes[offset..<min(offset + size, bytes.count)])
                offset += size
            } else if let filler, extra < endless {
                buffer = [UInt8](repeating: filler, count: size)
                extra += 1
            } else {
                return false
            }
            read?(offset + extra * size)
            return true
        }
    }

    func test_vcard_aLineWithNoEndOutsideAnyCard_stopsAtTheLimit_notAtTheEndOfTheInput() {
        // Given: a card, then NUL bytes as /dev/zero gives them (far more than the limit)
        let sut = VCardReader(maximumLineBytes: 1_000)
        var consumed = 0
        var batches: [ParsedContacts] = []

        // When
        XCTAssertThrowsError(
            try sut.read(
                batchSize: 1,
                nextChunk: chunks(
                    Array("BEGIN:VCARD\nFN:Ann Lee\nEND:VCARD\n".utf8),
                    size: 100, then: 0, count: 1_000_000
                ) { consumed = $0 },
                { batches.append($0) })
        ) { error in
            // Then: named by its line, and read no further than the limit and a chunk past it
            XCTAssertEqual(error as? VCardReader.LineTooLong, .init(line: 4, limit: 1_000))
            XCTAssertEqual("\(error)", "line 4 is longer than 1000 bytes, outside any card: not a vCard file")
        }
        XCTAssertLessThan(consumed, 1_300)
        XCTAssertEqual(batches.flatMap(\.entries).map(\.contact.fullName), ["Ann Lee"])
    }

    func test_vcard_noLineBreakAtAll_isOneLineOverTheLimit() {
        let sut = VCardReader(maximumLineBytes: 1_000)
        XCTAssertThrowsError(try sut.read(batchSize: 10, nextChunk: chunks([], size: 64, then: 0, count: 100)) { _ in })
        { error in
            XCTAssertEqual(error as? VCardReader.LineTooLong, .init(line: 1, limit: 1_000))
        }
    }

    func test_vcard_aLineOverTheLimitInACard_byFoldsOrWhole_makesThatCardUnreadable_readInChunksAsWhole() throws {
        // Given: one card long by its folds, one by one physical line, and a good one after
        let folds = (0..<50).map { _ in " " + String(repeating: "b", count: 40) + "\r\n" }.joined()
        let text =
            "BEGIN:VCARD\r\nFN:Folded\r\nNOTE:a\r\n" + folds + "END:VCARD\r\n"
            + "BEGIN:VCARD\r\nFN:Long\r\nNOTE:" + String(repeating: "c", count: 5_000) + "\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nFN:Small One\r\nEND:VCARD\r\n"
        let sut = VCardReader(maximumLineBytes: 1_000)
        let whole = sut.read(Data(text.utf8))

        // Then
        XCTAssertEqual(whole.entries.map(\.contact.fullName), ["Small One"])
        XCTAssertEqual(
            whole.problems,
            [
                .init(line: 3, reason: "the line is longer than 1000 bytes"),
                .init(line: 57, reason: "the line is longer than 1000 bytes"),
            ])
        for size in [1, 7, 999, 1_000, 1_001, 4_096] {
            var batches: [ParsedContacts] = []
            try sut.read(batchSize: 1, nextChunk: chunks(Array(text.utf8), size: size)) { batches.append($0) }
            XCTAssertEqual(batches.flatMap(\.entries), whole.entries, "chunks of \(size)")
            XCTAssertEqual(batches.flatMap(\.problems), whole.problems, "chunks of \(size)")
        }
    }

    func test_vcard_inMemory_aLongLineOutsideAnyCard_isAProblem_theRestIsRead() {
        let sut = VCardReader(maximumLineBytes: 1_000)
        let result = sut.read(
            Data((String(repeating: "x", count: 3_000) + "\nBEGIN:VCARD\nFN:Ann Lee\nEND:VCARD\n").utf8))
        XCTAssertEqual(result.entries.map(\.contact.fullName), ["Ann Lee"])
        XCTAssertEqual(
            result.problems,
            [.init(line: 1, reason: "the line is longer than 1000 bytes, outside any card: not a vCard file")])
    }

    // MARK: - One card's size (a card is held until its END:VCARD)

    /// `BEGIN:VCARD` and `FN:Big`, then `count` lines of `line`, handed out a chunk at a time and
    /// never held whole here either; then `tail`.
    private func endlessCard(line: String, count: Int, tail: String, read: ((Int) -> Void)? = nil) -> (inout [UInt8]) ->
        Bool
    {
        let head = Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Big\r\n".utf8), body = Array((line + "\r\n").utf8)
        var part = 0, consumed = 0
        return { buffer in
            switch part {
            case 0: buffer = head
            case 1...count: buffer = body
            case count + 1: buffer = Array(tail.utf8)
            default: return false
            }
            part += 1
            consumed += buffer.count
            read?(consumed)
            return true
        }
    }

    private let goodCard = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lee;Ann;;;\r\nFN:Ann Lee\r\nEND:VCARD\r\n"

    func test_vcard_aCardOverTheByteLimit_isNamedByItsLineAndSkipped_theCardsAfterItRead() throws {
        // Given: a card of 5,000 lines of 100 bytes (500 KB, a 1 KB limit), then a good card
        let sut = VCardReader(maximumCardBytes: 1_000)
        var batches: [ParsedContacts] = []

        // When
        try sut.read(
            batchSize: 1,
            nextChunk: endlessCard(
                line: "NOTE:" + String(repeating: "x", count: 95), count: 5_000,
                tail: "END:VCARD\r\n" + goodCard)
        ) { batches.append($0) }

        // Then
        XCTAssertEqual(
            batches.flatMap(\.problems),
            [
                .init(
                    line: 1,
                    reason: "the card is larger than 1000 bytes, the limit for one card "
                        + "(CONTACTSBOOK_IMPORT_MAX_CARD sets it): skipped")
            ])
        XCTAssertEqual(batches.flatMap(\.entries).map { [$0.contact.fullName, "\($0.line)"] }, [["Ann Lee", "5005"]])
        XCTAssertEqual(batches.flatMap(\.warnings), [], "nothing of the big card is read as lines outside a card")
    }

    func test_vcard_aCardOfTooManyLines_isSkipped_inMemoryAsInChunks() throws {
        // Given: 50 short lines where 20 are allowed
        let text = "BEGIN:VCARD\r\nFN:Big\r\n" + String(repeating: "NOTE:x\r\n", count: 50) + "END:VCARD\r\n" + goodCard
        let sut = VCardReader(maximumCardLines: 20)

        // When
        let whole = sut.read(Data(text.utf8))

        // Then
        XCTAssertEqual(
            whole.problems, [.init(line: 1, reason: "the card has more than 20 lines, the limit for one card: skipped")]
        )
        XCTAssertEqual(whole.entries.map(\.contact.fullName), ["Ann Lee"])
        for size in [1, 9, 4_096] {
            var batches: [ParsedContacts] = []
            try sut.read(batchSize: 1, nextChunk: chunks(Array(text.utf8), size: size)) { batches.append($0) }
            XCTAssertEqual(batches.flatMap(\.entries), whole.entries, "chunks of \(size)")
            XCTAssertEqual(batches.flatMap(\.problems), whole.problems, "chunks of \(size)")
        }
    }

    func test_vcard_aCardWithNoEnd_isNamedAtTheEndOfTheFile_byItsLimit() throws {
        // Given: a card that grows until the file ends
        let sut = VCardReader(maximumCardBytes: 4_096)
        var batches: [ParsedContacts] = []

        // When
        try sut.read(
            batchSize: 10,
            nextChunk: endlessCard(
                line: "NOTE:" + String(repeating: "y", count: 500), count: 1_000,
                tail: "")
        ) { batches.append($0) }

        // Then
        XCTAssertEqual(
            batches.flatMap(\.problems),
            [
                .init(
                    line: 1,
                    reason: "the card is larger than 4 KiB, the limit for one card "
                        + "(CONTACTSBOOK_IMPORT_MAX_CARD sets it): skipped")
            ])
        XCTAssertEqual(batches.flatMap(\.entries), [])
    }

    func test_vcard_anAgentsCardInsideACardOverTheLimit_doesNotEndIt() throws {
        // Given: the AGENT's END:VCARD comes while its card is over the limit, and lines of that card follow it
        let text =
            "BEGIN:VCARD\r\nFN:Big\r\n" + String(repeating: "NOTE:x\r\n", count: 10)
            + "AGENT:BEGIN:VCARD\r\nFN:Agent\r\nEND:VCARD\r\nNOTE:after the agent\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nFN:Boss\r\n" + String(repeating: "NOTE:x\r\n", count: 10)
            + "AGENT:\r\nBEGIN:VCARD\r\nFN:Her Agent\r\nEND:VCARD\r\nNOTE:after the agent\r\nEND:VCARD\r\n" + goodCard

        // When
        let result = VCardReader(maximumCardLines: 8).read(Data(text.utf8))

        // Then: both big cards skipped whole, neither agent read as a card of its own
        XCTAssertEqual(
            result.problems,
            [
                .init(line: 1, reason: "the card has more than 8 lines, the limit for one card: skipped"),
                .init(line: 18, reason: "the card has more than 8 lines, the limit for one card: skipped"),
            ])
        XCTAssertEqual(result.entries.map(\.contact.fullName), ["Ann Lee"])
        XCTAssertEqual(result.warnings, [])
    }

    func test_vcard_aCardWithoutEnd_followedByManyCards_isNamedOnceTheyPassTheLimit_andEveryCardIsRead() throws {
        // Given: a card whose END:VCARD is missing, then 300 good cards (each suspends it, as a
        // card nested in it would; what they leave with it counts against its limit)
        let text =
            "BEGIN:VCARD\r\nFN:Cut Short\r\n" + (0..<300).map { "BEGIN:VCARD\r\nFN:P\($0)\r\nEND:VCARD\r\n" }.joined()
        let sut = VCardReader(maximumCardLines: 100)

        // When
        var batches: [ParsedContacts] = []
        try sut.read(batchSize: 50, nextChunk: chunks(Array(text.utf8), size: 1_000)) { batches.append($0) }

        // Then: named once, where it passed the limit, not at the end of the file
        XCTAssertEqual(batches.flatMap(\.entries).count, 300)
        XCTAssertEqual(
            batches.flatMap(\.problems),
            [
                .init(
                    line: 1,
                    reason: "the card has no END:VCARD within the limit for one card "
                        + "(16 MiB, 100 lines and 64 cards inside it)")
            ])
        XCTAssertEqual(batches.flatMap(\.problems).count, 1)
    }

    func test_vcard_cardsBegunInsideEachOtherWithoutEnd_nestAtMost64Deep_eachNamedOnce() throws {
        // Given: 200 BEGIN:VCARD lines, then one whole card
        let text = String(repeating: "BEGIN:VCARD\r\n", count: 200) + goodCard

        // When
        let result = VCardReader().read(Data(text.utf8))

        // Then
        XCTAssertEqual(result.entries.map(\.contact.fullName), ["Ann Lee"])
        XCTAssertEqual(result.problems.count, 200)
        XCTAssertEqual(Set(result.problems.map(\.line)), Set(1...200))
        XCTAssertEqual(
            result.problems.filter { $0.reason.hasPrefix("the card has no END:VCARD within the limit") }.count, 200 - 64
        )
    }

    func test_worker_readsTheCardLimitFromTheEnvironment_andImportsTheRest() throws {
        XCTAssertEqual(ImportExportWorker.configuredMaximumCardBytes(["CONTACTSBOOK_IMPORT_MAX_CARD": "2M"]), 2 << 20)
        XCTAssertEqual(
            ImportExportWorker.configuredMaximumCardBytes(["CONTACTSBOOK_IMPORT_MAX_CARD": "lots"]), 16 << 20)
        XCTAssertEqual(ImportExportWorker.configuredMaximumCardBytes([:]), 16 << 20)

        // Given: a worker allowing 2 KB a card, and a file with a 10 KB card between two small ones
        let store = InMemoryContactStore()
        let sut = ImportExportWorker(
            environment: ContactsEnvironment(store: store, makeUID: VCardSeeds.UIDMaker().make),
            maximumCardBytes: 2_000)
        let big =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Big;Bo;;;\r\nFN:Bo Big\r\nNOTE:" + String(repeating: "z", count: 10_000)
            + "\r\nEND:VCARD\r\n"

        // When
        let report = try sut.importContacts(
            Data((goodCard + big + goodCard.replacingOccurrences(of: "Ann", with: "Cy")).utf8),
            format: .vcard)

        // Then
        XCTAssertEqual(report.added, 2)
        XCTAssertEqual(
            report.problems,
            [
                .init(
                    line: 6,
                    reason: "the card is larger than 2000 bytes, the limit for one card "
                        + "(CONTACTSBOOK_IMPORT_MAX_CARD sets it): skipped")
            ])
        XCTAssertEqual(
            try store.page(ContactQuery(sort: .last, limit: 10)).contacts.map(\.fullName), ["Ann Lee", "Cy Lee"])
    }

    func test_csv_aRowOverTheLimit_stopsTheReadingNamingItsLine() {
        // Given: a good row, then a field that does not end (an open quote, then NULs)
        let head = Array("given_name,family_name,notes\r\nAnn,Lee,hi\r\nBo,Ray,\"".utf8)
        var consumed = 0

        // When / Then
        XCTAssertThrowsError(
            try ContactsCSV.read(
                batchSize: 1, maximumRowBytes: 10_000,
                nextChunk: chunks(head, size: 512, then: 0, count: 100_000) { consumed = $0 }
            ) { _ in }
        ) { error in
            XCTAssertEqual(error as? CSVInputStream.RowTooLong, .init(line: 3, limit: 10_000))
            XCTAssertEqual("\(error)", "the row of line 3 is longer than 10000 bytes: not a CSV file of contacts")
        }
        XCTAssertLessThan(consumed, 100_000)
    }

    func test_csv_aHeaderOfNoEnd_stopsAtLineOne() {
        XCTAssertThrowsError(
            try ContactsCSV.read(
                batchSize: 1, maximumRowBytes: 10_000,
                nextChunk: chunks([], size: 4_096, then: 0, count: 1_000)
            ) { _ in }
        ) { error in
            XCTAssertEqual(error as? CSVInputStream.RowTooLong, .init(line: 1, limit: 10_000))
        }
    }

    func test_csv_aRowOfTooManyFields_stopsTheReadingNamingItsLine_quotedCommasAndLineBreaksNotCounted() throws {
        // Given: rows of 10 fields, one with commas and a line break inside quotes, then a row of 11
        let ten = Array(repeating: "x", count: 8).joined(separator: ",")
        let text =
            "given_name,family_name," + ten + "\r\nAnn,Lee," + ten + "\r\n\"Bo, \"\"the\"\"\r\nman\",\"Ray,,\"," + ten
            + "\nCy,Dee," + ten + ",z\r\nDi,Fox\r\n"

        // (The import stops there and keeps nothing: what the reader handed out before does not matter.)
        for size in [1, 5, 4_096] {
            XCTAssertThrowsError(
                try ContactsCSV.read(batchSize: 1, maximumFields: 10, nextChunk: chunks(Array(text.utf8), size: size)) {
                    _ in
                }
            ) { error in
                // Then: the row of line 5 (the quoted break made line 4) is named
                XCTAssertEqual(
                    error as? CSVInputStream.RowTooLong, .init(line: 5, limit: 10, fields: true), "chunks of \(size)")
                XCTAssertEqual("\(error)", "the row of line 5 has more than 10 fields: not a CSV file of contacts")
            }
        }
    }

    func test_csv_aHeaderOfTooManyFields_stopsAtLineOne() {
        let text = String(repeating: "given_name,", count: 20_000) + "\r\nAnn\r\n"
        XCTAssertThrowsError(
            try ContactsCSV.read(batchSize: 1, nextChunk: chunks(Array(text.utf8), size: 65_536)) { _ in }
        ) { error in
            XCTAssertEqual(error as? CSVInputStream.RowTooLong, .init(line: 1, limit: 10_000, fields: true))
        }
    }

    func test_csv_rowsUnderTheLimit_readAsBefore() throws {
        let text =
            "given_name,family_name,notes\r\nAnn,Lee,\"" + String(repeating: "n", count: 9_000) + "\"\r\nBo,Ray,\r\n"
        var entries: [ParsedContacts.Entry] = []
        try ContactsCSV.read(batchSize: 1, maximumRowBytes: 10_000, nextChunk: chunks(Array(text.utf8), size: 333)) {
            entries += $0.entries
        }
        XCTAssertEqual(entries.map(\.contact.givenName), ["Ann", "Bo"])
        XCTAssertEqual(entries.first?.contact.notes.count, 9_000)
    }
}
