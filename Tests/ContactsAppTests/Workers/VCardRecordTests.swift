import XCTest

@testable import ContactsApp

/// The kept card's lines and version, and the writer's handling of its VERSION and UID lines:
/// all read by bytes since the export measurements of issue 25 (bench/FINDINGS.md).
final class VCardRecordTests: XCTestCase {
    func test_lines_areTheLinesItWasMadeFrom_whateverTheyHold() {
        // Given: non-ASCII text, an empty line, a line ending in CR (CR LF is one Character, so a
        // split by Characters joined it to the next) and a combining mark at a line's start.
        let cases: [[String]] = [
            ["VERSION:4.0", "FN:Zoë Søndergaard", "N:王;伟;;;"],
            ["VERSION:3.0", "", "NOTE:between blank lines", ""],
            ["VERSION:2.1", "NOTE:ends in CR\r", "TEL:+1 555 0100", "X-A:\u{301}combining"],
            ["ONE"],
        ]
        for lines in cases {
            // When
            let record = VCardRecord(lines: lines)
            // Then
            XCTAssertEqual(record.lines, lines)
            XCTAssertEqual(VCardRecord(text: record.text).lines, lines)
        }
        XCTAssertEqual(VCardRecord(text: "").lines, [])
    }

    func test_version_isTheVersionLinesValue_inAnyCase_elseThree() {
        let cases: [([String], VCardVersion)] = [
            (["FN:A", "VERSION:4.0"], .v4),
            (["version:2.1"], .v21),
            (["Version: 4.0 "], .v4),
            (["FN:A"], .v3),
            (["VERSION:5.0"], .v3),
            (["X-VERSION:4.0", "FN:A"], .v3),
            (["NOTE:VERSION:4.0"], .v3),
            (["VERSION:4.0              x"], .v3), // longer than a version line can be
            (["NOTE:ends in CR\r", "VERSION:4.0"], .v4),
            (["FN:Søren", "VERSION:3.0"], .v3),
            ([], .v3),
        ]
        for (lines, expected) in cases {
            XCTAssertEqual(VCardRecord(lines: lines).version, expected, "\(lines)")
        }
    }

    func test_writer_keptCard_versionLineInAnyCaseIsWrittenOnce_andUIDLineInAnyCaseIsReplaced() {
        // Given: a kept 4.0 card whose VERSION and UID are in lower case, the UID not the contact's.
        var contact = Contact(uid: "u-1", givenName: "Ann", updatedAt: VCardSeeds.now)
        contact.card = VCardRecord(lines: ["version:4.0", "FN:Ann", "uid:old", "N:;Ann;;;", "X-UIDX:kept", "NOTE:Zoë"])
        // When
        let text = VCardWriter(version: .v4).card(for: contact)
        // Then
        XCTAssertEqual(
            text,
            [
                "BEGIN:VCARD", "VERSION:4.0", "FN:Ann", "UID:u-1", "N:;Ann;;;", "X-UIDX:kept",
                "NOTE:Zoë", "END:VCARD",
            ].map { $0 + "\r\n" }.joined())
    }

    func test_writer_keptCard_matchingUIDWithParameterIsKept_andASecondUIDDropped() {
        // Given
        var contact = Contact(uid: "u-1", givenName: "Ann", updatedAt: VCardSeeds.now)
        contact.card = VCardRecord(lines: ["VERSION:4.0", "Uid;VALUE=text:u-1", "FN:Ann", "UID:u-2"])
        // When
        let text = VCardWriter(version: .v4).card(for: contact)
        // Then
        XCTAssertEqual(
            text,
            ["BEGIN:VCARD", "VERSION:4.0", "Uid;VALUE=text:u-1", "FN:Ann", "END:VCARD"]
                .map { $0 + "\r\n" }.joined())
    }

    func test_export_aQuotedPrintableValueEndingInCR_keepsTheNextPropertyOnItsOwnLine() {
        // Given: a 2.1 card whose NOTE decodes to a value ending in CR (`=0D`). Read back by
        // Characters, its kept line and the TEL after it were one line: the phone went into the note.
        let file =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Lee;Ann\r\nNOTE;ENCODING=QUOTED-PRINTABLE:abc=0D\r\n"
            + "TEL;CELL:+1 555 0100\r\nEND:VCARD\r\n"
        let contact = VCardReader().read(Data(file.utf8)).entries[0].contact
        // When
        let lines = VCardWriter(version: .v4).card(for: contact).components(separatedBy: "\r\n")
        // Then
        XCTAssertTrue(lines.contains("NOTE:abc\\n"), "\(lines)")
        XCTAssertTrue(lines.contains("TEL;TYPE=cell:+1 555 0100"), "\(lines)")
    }
}
