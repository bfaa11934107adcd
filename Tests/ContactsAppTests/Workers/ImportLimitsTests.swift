import Foundation
import XCTest
@testable import ContactsApp

/// Issue 26, item 11: an import reads lines and rows up to a limit, in bounded memory, and
/// stops at one it cannot skip, naming its line.
final class ImportLimitsTests: XCTestCase {
    /// `bytes` handed out `size` bytes at a time, then `endless` more chunks of `filler` if set.
    private func chunks(_ bytes: [UInt8], size: Int, then filler: UInt8? = nil, count endless: Int = 0,
                        read: ((Int) -> Void)? = nil) -> (inout [UInt8]) -> Bool {
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
        XCTAssertThrowsError(try sut.read(batchSize: 1, nextChunk: chunks(Array("BEGIN:VCARD\nFN:Ann Lee\nEND:VCARD\n".utf8),
                                                                          size: 100, then: 0, count: 1_000_000) { consumed = $0 },
                                           { batches.append($0) })) { error in
            // Then: named by its line, and read no further than the limit and a chunk past it
            XCTAssertEqual(error as? VCardReader.LineTooLong, .init(line: 4, limit: 1_000))
            XCTAssertEqual("\(error)", "line 4 is longer than 1000 bytes, outside any card: not a vCard file")
        }
        XCTAssertLessThan(consumed, 1_300)
        XCTAssertEqual(batches.flatMap(\.entries).map(\.contact.fullName), ["Ann Lee"])
    }

    func test_vcard_noLineBreakAtAll_isOneLineOverTheLimit() {
        let sut = VCardReader(maximumLineBytes: 1_000)
        XCTAssertThrowsError(try sut.read(batchSize: 10, nextChunk: chunks([], size: 64, then: 0, count: 100)) { _ in }) { error in
            XCTAssertEqual(error as? VCardReader.LineTooLong, .init(line: 1, limit: 1_000))
        }
    }

    func test_vcard_aLineOverTheLimitInACard_byFoldsOrWhole_makesThatCardUnreadable_readInChunksAsWhole() throws {
        // Given: one card long by its folds, one by one physical line, and a good one after
        let folds = (0..<50).map { _ in " " + String(repeating: "b", count: 40) + "\r\n" }.joined()
        let text = "BEGIN:VCARD\r\nFN:Folded\r\nNOTE:a\r\n" + folds + "END:VCARD\r\n"
            + "BEGIN:VCARD\r\nFN:Long\r\nNOTE:" + String(repeating: "c", count: 5_000) + "\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nFN:Small One\r\nEND:VCARD\r\n"
        let sut = VCardReader(maximumLineBytes: 1_000)
        let whole = sut.read(Data(text.utf8))

        // Then
        XCTAssertEqual(whole.entries.map(\.contact.fullName), ["Small One"])
        XCTAssertEqual(whole.problems, [.init(line: 3, reason: "the line is longer than 1000 bytes"),
                                        .init(line: 57, reason: "the line is longer than 1000 bytes")])
        for size in [1, 7, 999, 1_000, 1_001, 4_096] {
            var batches: [ParsedContacts] = []
            try sut.read(batchSize: 1, nextChunk: chunks(Array(text.utf8), size: size)) { batches.append($0) }
            XCTAssertEqual(batches.flatMap(\.entries), whole.entries, "chunks of \(size)")
            XCTAssertEqual(batches.flatMap(\.problems), whole.problems, "chunks of \(size)")
        }
    }

    func test_vcard_inMemory_aLongLineOutsideAnyCard_isAProblem_theRestIsRead() {
        let sut = VCardReader(maximumLineBytes: 1_000)
        let result = sut.read(Data((String(repeating: "x", count: 3_000) + "\nBEGIN:VCARD\nFN:Ann Lee\nEND:VCARD\n").utf8))
        XCTAssertEqual(result.entries.map(\.contact.fullName), ["Ann Lee"])
        XCTAssertEqual(result.problems, [.init(line: 1, reason: "the line is longer than 1000 bytes, outside any card: not a vCard file")])
    }

    func test_csv_aRowOverTheLimit_stopsTheReadingNamingItsLine() {
        // Given: a good row, then a field that does not end (an open quote, then NULs)
        let head = Array("given_name,family_name,notes\r\nAnn,Lee,hi\r\nBo,Ray,\"".utf8)
        var consumed = 0

        // When / Then
        XCTAssertThrowsError(try ContactsCSV.read(batchSize: 1, maximumRowBytes: 10_000,
                                                  nextChunk: chunks(head, size: 512, then: 0, count: 100_000) { consumed = $0 }) { _ in }) { error in
            XCTAssertEqual(error as? CSVInputStream.RowTooLong, .init(line: 3, limit: 10_000))
            XCTAssertEqual("\(error)", "the row of line 3 is longer than 10000 bytes: not a CSV file of contacts")
        }
        XCTAssertLessThan(consumed, 100_000)
    }

    func test_csv_aHeaderOfNoEnd_stopsAtLineOne() {
        XCTAssertThrowsError(try ContactsCSV.read(batchSize: 1, maximumRowBytes: 10_000,
                                                  nextChunk: chunks([], size: 4_096, then: 0, count: 1_000)) { _ in }) { error in
            XCTAssertEqual(error as? CSVInputStream.RowTooLong, .init(line: 1, limit: 10_000))
        }
    }

    func test_csv_rowsUnderTheLimit_readAsBefore() throws {
        let text = "given_name,family_name,notes\r\nAnn,Lee,\"" + String(repeating: "n", count: 9_000) + "\"\r\nBo,Ray,\r\n"
        var entries: [ParsedContacts.Entry] = []
        try ContactsCSV.read(batchSize: 1, maximumRowBytes: 10_000, nextChunk: chunks(Array(text.utf8), size: 333)) {
            entries += $0.entries
        }
        XCTAssertEqual(entries.map(\.contact.givenName), ["Ann", "Bo"])
        XCTAssertEqual(entries.first?.contact.notes.count, 9_000)
    }
}
