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

    // MARK: - A card in its own version (`planSameVersion`, every export of an unchanged card)

    /// The same-version plan's lines as strings, and its notes.
    private func plannedSame(_ record: VCardRecord, _ version: VCardWriter.Version) -> (
        lines: [String], notes: [String]
    ) {
        var text = record.text
        return text.withUTF8 { bytes in
            var notes = SUT.Notes()
            let lines = SUT.planSameVersion(bytes, in: version, notes: &notes).flatMap { line -> [String] in
                switch line {
                case .kept(let range):
                    return [String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)]
                case .preferred: XCTFail("a card in its own version has no 4.0 PREF to write"); return []
                case .converted(let converted): return converted
                }
            }
            return (lines, notes.sentences)
        }
    }

    /// What the writer gave before the plan: `convert` of the record's lines less its VERSION lines.
    private func assertSameIsConvert(
        _ record: VCardRecord, _ version: VCardWriter.Version, _ message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let fast = plannedSame(record, version)
        let lines = record.lines.filter { !($0.utf8.count <= 16 && $0.uppercased().hasPrefix("VERSION:")) }
        let slow = SUT.convert(lines, from: SUT.SourceVersion(version), to: version)
        XCTAssertEqual(fast.lines, slow.lines, message, file: file, line: line)
        XCTAssertEqual(fast.notes, slow.notes, message, file: file, line: line)
    }

    func test_planSameVersion_isConvert_forEveryCorpusCardIn30And40() throws {
        // Given: the corpus's files, read as an import reads them
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/vcards")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "vcf" }
        var checked: [VCardWriter.Version: Int] = [:]
        for file in files {
            for entry in VCardReader().read(try Data(contentsOf: file)).entries {
                guard let card = entry.contact.card, card.version != .v21 else { continue }
                let version: VCardWriter.Version = card.version == .v4 ? .v4 : .v3
                // When / Then
                assertSameIsConvert(card, version, "\(file.lastPathComponent) line \(entry.line)")
                checked[version, default: 0] += 1
            }
        }
        XCTAssertGreaterThan(checked[.v3] ?? 0, 40)
        XCTAssertGreaterThan(checked[.v4] ?? 0, 5)
    }

    func test_planSameVersion_isConvert_lineByLineAtEachDecision_inBothVersions() {
        // Given: one line for each way `convert` takes a line of a card in its own version
        let lines = [
            "VERSION:4.0", "version:3.0", "VERSION:4.0 ", "VERSION;X=Y:4.0", "End", "begin:VCARD", "item1.END:x",
            "VERSION:2.\u{0}1", // the writer's VERSION lines dropped before; a control character noted
            "FN:Ann Lee", "N:Lee;Ann;;;", ":no name", "item1.:empty name", "no property at all", "",
            "EMAIL;TYPE=work:a@example.com", "TEL;VALUE=text;TYPE=cell:+351 945 874 9326",
            "TEL;VALUE=uri:tel:+1-555-0101", "TEL;VALUE=URI:+1 555 0102", "tel;type=x;value=Uri:not a uri",
            "REV:0", "REV:2017-05-10T14:36:01Z", "rev:20170510T143601Z", "REVISION:x",
            "CLASS:PUBLIC", "NAME:x", "MAILER:x", "PROFILE:VCARD", "GEO:1.5;2.5", "GEO:geo:1.5,2.5", "geo;x=y:2,3",
            "ANNIVERSARY:20000101", "RELATED;TYPE=friend:urn:uuid:1", "GENDER:F", "ORG-DIRECTORY:x", "X-GENDER:F",
            "TEL;WORK:+1 555 0103", "N;CHARSET=UTF-8:Lee;Ann;;;", "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ SkZJRg==",
            "PHOTO;ENCODING=BASE64;TYPE=JPEG:/9j/4AAQSkZJRg==", "NOTE;LANGUAGE=\"a;b:c\":x", "NOTE:a\u{0C}b",
            "NOTE:a\u{85}b", "NÖTE:x", "VERSİON:4.0", "item1.VERSİON:4.0", "X-ÄB:x", "UID:1", "uid;x=y:2",
            "ADR;TYPE=home:;;264 ul. Długa;Kraków;;77941;Poland", "BDAY:--0415",
        ]
        for version in [VCardWriter.Version.v3, .v4] {
            for line in lines {
                // When / Then: alone, and all together in one card
                assertSameIsConvert(VCardRecord(lines: [line]), version, "\(version) \(line)")
            }
            assertSameIsConvert(VCardRecord(lines: lines), version, "\(version) all")
            assertSameIsConvert(VCardRecord(lines: []), version, "\(version) none")
            assertSameIsConvert(VCardRecord(text: "FN:A\n"), version, "\(version) an empty last line")
        }
    }

    func test_export40As40_keepsTheCardsUIDWhenItIsTheContacts_andWritesTheContactsOtherwise() {
        // Given: cards whose UID is the contact's byte for byte, escaped, spaced, or another
        let cases: [(card: String, uid: String, written: String)] = [
            ("UID:urn:uuid:6b94b5b5", "urn:uuid:6b94b5b5", "UID:urn:uuid:6b94b5b5"),
            ("uid;VALUE=text:a\\,b", "a,b", "uid;VALUE=text:a\\,b"), // unescaped, it is the contact's
            ("UID: padded ", "padded", "UID: padded "), // trimmed, it is the contact's
            ("UID:e\u{301}", "\u{E9}", "UID:e\u{301}"), // canonically the same String
            ("UID:old", "new", "UID:new"),
            ("UID:", "new", "UID:new"),
        ]
        for (card, uid, written) in cases {
            var contact = Contact(uid: uid, formattedName: "Ann Lee")
            contact.card = VCardRecord(lines: ["VERSION:4.0", "FN:Ann Lee", card, "UID:second"])
            var out: [UInt8] = []
            var notes: [String] = []
            // When
            VCardWriter(version: .v4).append(contact, to: &out, notes: &notes)
            // Then: one UID, the second left out, as before the card was written from its bytes
            let expected = ["BEGIN:VCARD", "VERSION:4.0", "FN:Ann Lee", written, "END:VCARD", ""]
            XCTAssertEqual(String(decoding: out, as: UTF8.self), expected.joined(separator: "\r\n"), card)
            XCTAssertEqual(notes, [], card)
        }
    }

    func test_recordVersion_readsTheCommonSpellingsByBytes_andTheRestAsBefore() {
        let cases: [(String, VCardVersion)] = [
            ("VERSION:4.0", .v4), ("VERSION:3.0", .v3), ("VERSION:2.1", .v21), ("version:4.0", .v4),
            ("VERSION:4", .v4), ("VERSION: 4.0", .v4), ("VERSION:4.1", .v3), ("VERSION:3.1", .v3), ("FN:x", .v3),
        ]
        for (line, version) in cases {
            XCTAssertEqual(VCardRecord(lines: ["FN:A", line]).version, version, line)
        }
    }
}
