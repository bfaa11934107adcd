import CSV
import Foundation
import XCTest
@testable import ContactsApp

/// The CSV export writes what CSV.swift's `CSVWriter` writes, and what it writes reads back.
final class ContactsCSVTests: XCTestCase {
    /// `CSVWriter`'s text for the rows, each ending in CRLF, as the export wrote it before.
    private func libraryText(_ rows: [[String]]) throws -> String {
        let writer = try CSVWriter(stream: OutputStream(toMemory: ()), newline: .crlf)
        for row in rows { try writer.write(row: row) }
        writer.stream.close()
        let data = try XCTUnwrap(writer.stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data)
        return String(decoding: data, as: UTF8.self) + "\r\n"
    }

    private func ourText(_ rows: [[String]]) -> String {
        var bytes: [UInt8] = []
        for row in rows { ContactsCSV.append(row: row, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    func test_rows_areCSVWritersText_forFieldsOfEveryKind() throws {
        // Given: edge cases, then seeded random rows of quotes, commas, line breaks, spaces,
        // separators, non-Latin text and empty fields
        var tables: [[[String]]] = [[[""]], [["a"]], [["", ""]], [["\""]], [["a,b", "c\"d\"", "e\r\nf", "g\nh", "i\rj"]],
                                    [[" lead", "trail ", "  "]], [["山田", "zoë", "\u{1F600}"]]]
        var random = SeededGenerator(seed: 23)
        let pieces = ["a", "Zoë", "山", " ", ",", "\"", "\r", "\n", "\r\n", " | ", ";", ":", "\t", "\u{1F600}"]
        for _ in 0..<300 {
            tables.append((0..<(1 + random.next(upTo: 3))).map { _ in
                (0..<(1 + random.next(upTo: 5))).map { _ in
                    (0..<random.next(upTo: 6)).map { _ in pieces[random.next(upTo: pieces.count)] }.joined()
                }
            })
        }
        for rows in tables {
            // Then
            XCTAssertEqual(ourText(rows), try libraryText(rows), "\(rows)")
        }
    }

    func test_aCommaBeforeACombiningMark_isQuoted_soTheRowReadsBack() throws {
        // Given: a field whose comma starts a grapheme cluster with a combining acute
        let rows = [["given_name", "family_name"], ["a,\u{301}b", "Lee"]]
        // When
        let parsed = ContactsCSV.read(Data(ourText(rows).utf8))
        // Then: the comma is quoted by its byte, and the field comes back whole
        XCTAssertTrue(ourText(rows).contains("\"a,\u{301}b\""))
        XCTAssertEqual(parsed.entries.map(\.contact.givenName), ["a,\u{301}b"])
    }

    func test_header_isOurColumnsInOrder() {
        XCTAssertEqual(ContactsCSV.header, ContactsCSV.columns.joined(separator: ",") + "\r\n")
    }
}
