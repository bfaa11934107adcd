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
        var tables: [[[String]]] = [
            [[""]], [["a"]], [["", ""]], [["\""]], [["a,b", "c\"d\"", "e\r\nf", "g\nh", "i\rj"]],
            [[" lead", "trail ", "  "]], [["山田", "zoë", "\u{1F600}"]],
        ]
        var random = SeededGenerator(seed: 23)
        let pieces = ["a", "Zoë", "山", " ", ",", "\"", "\r", "\n", "\r\n", " | ", ";", ":", "\t", "\u{1F600}"]
        for _ in 0..<300 {
            tables.append(
                (0..<(1 + random.next(upTo: 3))).map { _ in
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

/// Our multi-value columns keep text that holds their own separators.
final class ContactsCSVEscapeTests: XCTestCase {
    private func roundTrip(_ contact: Contact) -> Contact? {
        var bytes = Array(ContactsCSV.header.utf8)
        ContactsCSV.append([contact], to: &bytes)
        return ContactsCSV.read(Data(bytes)).entries.first?.contact
    }

    func test_separatorsInsideItems_readBackWhole() throws {
        // Given: a pipe between spaces, a label with a colon, an address part with a semicolon, backslashes
        var contact = Contact()
        contact.givenName = "Ann"
        contact.emails = [LabeledValue(label: "work:old", value: "ann@example.org")]
        contact.phones = [
            LabeledValue(label: "home", value: "+1 555 | ext 4"), LabeledValue(label: "a\\b", value: "C:\\x\\"),
        ]
        contact.addresses = [
            PostalAddress(
                label: "home", street: "Flat 2; Block B | rear", city: "Ulm\\", region: "",
                postalCode: "89073", country: "DE")
        ]
        contact.tags = ["a | b", "c;d:e", "\\"]
        // When
        let back = try XCTUnwrap(roundTrip(contact))
        // Then
        XCTAssertEqual(back.emails, contact.emails)
        XCTAssertEqual(back.phones, contact.phones)
        XCTAssertEqual(back.addresses, contact.addresses)
        XCTAssertEqual(back.tags, contact.tags)
    }

    func test_plainItems_areWrittenAsBefore() {
        // Given: nothing to escape
        var contact = Contact()
        contact.givenName = "Ann"
        contact.emails = [
            LabeledValue(label: "work", value: "ann@example.org"), LabeledValue(label: "home", value: "a@b.c"),
        ]
        contact.addresses = [
            PostalAddress(
                label: "home", street: "1 Main St", city: "Ulm", region: "", postalCode: "89073",
                country: "DE")
        ]
        // When
        var bytes: [UInt8] = []
        ContactsCSV.append([contact], to: &bytes)
        // Then: the format other tools already read is unchanged
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.contains(",work:ann@example.org | home:a@b.c,"), text)
        XCTAssertTrue(text.contains(",home:1 Main St; Ulm; ; 89073; DE,"), text)
    }

    func test_aBackslashBeforeAnythingElse_readsAsItself() {
        // Given: a file from elsewhere, with backslashes that escape nothing and a label without a colon
        let csv = "given_name,emails,addresses,tags\r\nAnn,work:a\\b@x.org | plain@x.org,home:C:\\dir; Ulm,x\\y\r\n"
        // When
        let contact = ContactsCSV.read(Data(csv.utf8)).entries.first?.contact
        // Then
        XCTAssertEqual(
            contact?.emails,
            [
                LabeledValue(label: "work", value: "a\\b@x.org"),
                LabeledValue(label: "other", value: "plain@x.org"),
            ])
        XCTAssertEqual(contact?.addresses.first?.street, "C:\\dir")
        XCTAssertEqual(contact?.addresses.first?.city, "Ulm")
        XCTAssertEqual(contact?.tags, ["x\\y"])
    }

    func test_aGoogleLabelWithBlanksAroundIt_isReadTrimmed_andReadsBackFromOurCSVTheSame() {
        // Given: a Google export whose labels have blanks after Google's "* " mark and around them
        // (fuzz-csv's find: "*  555 0100" read as the label " 555 0100", read back as "555 0100")
        let csv = """
            First Name,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value\r
            Ann, Work ,ann@example.org,*  Home ,555 0100\r

            """
        // When
        let contacts = ContactsCSV.read(Data(csv.utf8)).entries.map(\.contact)
        var bytes = Array(ContactsCSV.header.utf8)
        ContactsCSV.append(contacts, to: &bytes)
        let readBack = ContactsCSV.read(Data(bytes)).entries.map(\.contact)
        // Then
        XCTAssertEqual(contacts.first?.emails, [LabeledValue(label: "work", value: "ann@example.org")])
        XCTAssertEqual(contacts.first?.phones, [LabeledValue(label: "home", value: "555 0100")])
        XCTAssertEqual(readBack, contacts)
    }
}
