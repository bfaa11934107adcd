import XCTest

@testable import ContactsApp

/// The 3.0 → 4.0 conversion read off a card record's bytes (`VCardVersionConverter.plan3To4`,
/// used by every export of a 3.0 card as 4.0) must give what `convert` gives, line for line and
/// note for note: checked on every 3.0 card of the real-card corpus (Tests/Fixtures/vcards) and
/// on lines made to sit at each of its decisions.
final class VCardByteConversionTests: XCTestCase {
    typealias SUT = VCardVersionConverter

    /// The plan's lines as strings, and its notes; nil when it declined the card.
    private func planned(_ record: VCardRecord) -> (lines: [String], notes: [String])? {
        var text = record.text
        return text.withUTF8 { bytes in
            var notes = SUT.Notes()
            guard let plan = SUT.plan3To4(bytes, notes: &notes) else { return nil }
            let lines = plan.flatMap { line -> [String] in
                switch line {
                case .kept(let range):
                    return [String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)]
                case .preferred(let range, let colon, let name):
                    var out = Array(bytes[range.lowerBound..<name.lowerBound])
                    for byte in bytes[name] { out.append(byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte) }
                    SUT.Syntax.appendPrefAs4Parameters(
                        UnsafeBufferPointer(rebasing: bytes[range]), (true, colon), to: &out)
                    return [String(decoding: out, as: UTF8.self)]
                case .converted(let converted): return converted
                }
            }
            return (lines, notes.sentences)
        }
    }

    private func assertPlanIsConvert(
        _ record: VCardRecord, _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        guard let fast = planned(record) else { return false }
        let slow = SUT.convert(record.lines, from: .v3, to: .v4)
        XCTAssertEqual(fast.lines, slow.lines, message, file: file, line: line)
        XCTAssertEqual(fast.notes, slow.notes, message, file: file, line: line)
        return true
    }

    func test_plan3To4_isConvert_forEveryCorpusCardIn30() throws {
        // Given: the corpus's files, read as an import reads them
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/vcards")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "vcf" }
        XCTAssertGreaterThan(files.count, 50)
        var planned = 0, declined = 0
        for file in files {
            for entry in VCardReader().read(try Data(contentsOf: file)).entries {
                guard let card = entry.contact.card, card.version == .v3 else { continue }
                // When / Then
                if assertPlanIsConvert(card, "\(file.lastPathComponent) line \(entry.line)") {
                    planned += 1
                } else {
                    declined += 1
                }
            }
        }
        XCTAssertGreaterThan(planned, 40)
        XCTAssertLessThan(declined, planned / 4, "most 3.0 cards are read off their bytes")
    }

    func test_plan3To4_isConvert_lineByLineAtEachDecision() {
        // Given: one line for each way `convert` takes a line of a 3.0 card going to 4.0
        let lines = [
            "VERSION:3.0", "version;x=y:3.0", "End", "begin:VCARD", // the writer's own, dropped
            // kept as they are
            "PRODID:-//Apple Inc.//iPhone OS 17.4//EN", "fn:Ann Lee", ":no name", "item1.:empty name",
            "EMAIL;type=INTERNET;type=WORK:a@example.com", // plain types, no pref: kept
            "item2.email;type=INTERNET;Type=pref,home:b@example.com", // pref: PREF=1, name upper-cased
            // a TEL is converted only as a tel: URI
            "TEL;type=CELL;type=pref:+1 555 0100", "TEL;TYPE=cell:tel:+1-555-0101;ext=7",
            "TEL;TYPE=\"work,voice\";type=pref:+1 555 0102", // quoted: parsed
            "ADR;TYPE=home;TYPE=pref;LABEL=x:;;1 Main St;Town;;;", "NOTE;LANGUAGE=en:hi", // other parameters: parsed
            "BDAY;value=date:1990-05-17", "BDAY;X-APPLE-OMIT-YEAR=1604:1604-05-17", // converted
            "REV:0", "REV:2017-05-10T14:36:01Z", "CLASS:PUBLIC", "MAILER:x", "GEO:1.5;2.5",
            "TZ:-05:00", "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRg==", "KEY;TYPE=PGP:http://example.org/k",
            "X-ADDRESSBOOKSERVER-KIND:group", "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:1", "X-GENDER:F",
            "X-RELATED:urn:uuid:2",
            "AGENT;VALUE=uri:mailto:a@example.com", "N;CHARSET=UTF-8:Lee;Ann;;;", "TEL;WORK:+1 555 0103",
            "X-MS-CARDPICTURE;TYPE=JPEG;ENCODING=b:/9j/4AAQSkZJRg==", "CONTEXT-FREE;CONTEXT=word:x",
            "no property at all", "", "UID:1",
        ]
        for line in lines {
            // When / Then: alone, and all together in one card
            XCTAssertTrue(assertPlanIsConvert(VCardRecord(lines: [line]), line), line)
        }
        XCTAssertTrue(assertPlanIsConvert(VCardRecord(lines: lines), "all"))
        XCTAssertTrue(assertPlanIsConvert(VCardRecord(lines: []), "none"))
    }

    func test_plan3To4_declines_whatLooksAcrossLines_controlCharacters_andNamesNotInASCII() {
        // Given / When / Then: `convert` does these cards
        for line in [
            "LABEL;TYPE=home:1 Main St", "SORT-STRING:Lee", "X-ABShowAs:COMPANY", "item1.X-ANNIVERSARY:2000-01-01",
            "NOTE:a\u{0C}b", "NÖTE:x", "VERSİON:3.0",
        ] {
            XCTAssertNil(planned(VCardRecord(lines: ["FN:A", line])), line)
            _ = SUT.convert(["FN:A", line], from: .v3, to: .v4) // and it does them
        }
    }

    func test_export3As4_fromTheBytes_writesRequiredNamesTheContactsUIDAndFolds() throws {
        // Given: a 3.0 card without FN, with a UID another contact had (the import gave this one
        // its own), and a preferred email long enough to fold
        let long = String(repeating: "x", count: 70) + "@example.com"
        var contact = Contact(uid: "new-uid", givenName: "Ann", familyName: "Lee")
        contact.card = VCardRecord(lines: [
            "VERSION:3.0", "N:Lee;Ann;;;", "UID:old-uid", "item1.EMAIL;type=INTERNET;type=pref:" + long,
            "item1.X-ABLabel:_$!<Other>!$_", "UID:second", "BDAY;value=date:1990-05-17",
        ])
        var notes: [String] = []
        var out: [UInt8] = []
        // When
        VCardWriter(version: .v4).append(contact, to: &out, notes: &notes)
        // Then
        let folded = "item1.EMAIL;TYPE=INTERNET;PREF=1:" + long
        let expected = [
            "BEGIN:VCARD", "VERSION:4.0", "FN:Ann Lee", "N:Lee;Ann;;;", "UID:new-uid",
            String(folded.prefix(75)), " " + String(folded.dropFirst(75)),
            "item1.X-ABLabel:_$!<Other>!$_", "BDAY:19900517", "END:VCARD", "",
        ]
        XCTAssertEqual(String(decoding: out, as: UTF8.self), expected.joined(separator: "\r\n"))
        XCTAssertEqual(notes, [VCardWriter.addedNote("FN", version: .v4)])
    }
}
