import XCTest

@testable import ContactsApp

final class VCardWriterTests: XCTestCase {
    var sut: VCardWriter!

    override func setUp() {
        super.setUp()
        sut = VCardWriter()
    }

    func test_card_v4_writesEveryFieldEscapedWithCRLF() {
        // Given
        let contact = Contact(
            uid: "u-1", givenName: "Ann", familyName: "Lee", organization: "Acme; Sales, EMEA",
            phones: [
                LabeledValue(label: "mobile", value: "+1 555 0100"), LabeledValue(label: "Lab bench", value: "0200"),
            ],
            emails: [LabeledValue(label: "work", value: "ann@acme.example")],
            birthday: Birthday(year: nil, month: 5, day: 17), notes: "a\\b\nc", tags: ["x,y", "z"],
            updatedAt: VCardSeeds.now, extraProperties: ["item1.URL:https://a.example", "X-FOO:bar"])
        // When
        let text = sut.card(for: contact)
        // Then
        XCTAssertEqual(
            text,
            [
                "BEGIN:VCARD", "VERSION:4.0", "UID:u-1", "FN:Ann Lee", "N:Lee;Ann;;;", "ORG:Acme\\; Sales\\, EMEA",
                "TEL;TYPE=cell:+1 555 0100", "item2.TEL:0200", "item2.X-ABLabel:Lab bench",
                "EMAIL;TYPE=work:ann@acme.example", "BDAY:--0517", "NOTE:a\\\\b\\nc", "CATEGORIES:x\\,y,z",
                "REV:20231114T221320Z", "item1.URL:https://a.example", "X-FOO:bar", "END:VCARD",
            ].map { $0 + "\r\n" }.joined())
    }

    func test_card_v3_birthdayWithoutYear_usesAppleOmitYear() {
        // Given
        sut = VCardWriter(version: .v3)
        let contact = Contact(uid: "u", givenName: "A", birthday: Birthday(year: nil, month: 2, day: 29))
        // When
        let text = sut.card(for: contact)
        // Then
        XCTAssertTrue(text.contains("VERSION:3.0\r\n"))
        XCTAssertTrue(text.contains("BDAY;X-APPLE-OMIT-YEAR=1604:1604-02-29\r\n"))
    }

    func test_fold_at75Octets_neverSplitsUTF8() {
        // Given
        let line = "NOTE:" + String(repeating: "é€", count: 60)
        // When
        let folded = VCardWriter.fold(line)
        // Then
        let physical = folded.components(separatedBy: "\r\n").dropLast()
        XCTAssertGreaterThan(physical.count, 1)
        for part in physical { XCTAssertLessThanOrEqual(part.utf8.count, 75) }
        XCTAssertTrue(physical.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        XCTAssertEqual(
            physical.enumerated().map { $0.offset == 0 ? String($0.element) : String($0.element.dropFirst()) }.joined(),
            line)
        XCTAssertFalse(folded.contains("\u{FFFD}"))
    }

    func test_roundTrip_everyFixtureCard_readsBackTheSame() {
        for version in [VCardWriter.Version.v4, .v3] {
            // Given
            sut = VCardWriter(version: version)
            let fixtures = ["apple-3.0.vcf", "android-2.1.vcf", "rfc6350-4.0.vcf"]
            let contacts = fixtures.flatMap { VCardReader().read(VCardSeeds.fixture($0)).entries.map(\.contact) }
            // When
            let text = contacts.map(sut.card(for:)).joined()
            let again = VCardReader().read(Data(text.utf8))
            // Then
            XCTAssertEqual(again.problems, [], "\(version)")
            // Every field reads back; the kept properties are converted to the version written
            func fields(_ contact: Contact) -> Contact { var c = contact.withoutCard; c.extraProperties = []; return c }
            XCTAssertEqual(again.entries.map { fields($0.contact) }, contacts.map(fields), "\(version)")
        }
    }

    func test_aCardWithoutFNOrN_isWrittenWithThem_asEachVersionRequires() throws {
        // Given: a phone's card that holds only a number (named after it on import), and a 4.0
        // card with FN alone
        let cards =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nTEL;TYPE=cell:+81 3 0000 0000\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:x\r\nFN:Ann Lee\r\nEND:VCARD\r\n"
        let contacts = VCardReader().read(Data(cards.utf8)).entries.map(\.contact)
        XCTAssertEqual(contacts.map(\.fullName), ["+81 3 0000 0000", "Ann Lee"])
        // When
        let v3 = contacts.map(VCardWriter(version: .v3).card(for:))
        let v4 = contacts.map(VCardWriter(version: .v4).card(for:))
        // Then: FN in both versions, from the fields, with N (which 3.0 requires, and which in 4.0
        // keeps the fields as they are: an FN alone reads back split into names); N in 3.0 always
        XCTAssertTrue(v3[0].contains("\r\nFN:+81 3 0000 0000\r\nN:;+81 3 0000 0000;;;\r\n"), v3[0])
        XCTAssertTrue(v3[1].contains("\r\nN:Lee;Ann;;;\r\n"), v3[1])
        XCTAssertTrue(v4[0].contains("\r\nFN:+81 3 0000 0000\r\nN:;+81 3 0000 0000;;;\r\n"), v4[0])
        XCTAssertEqual(VCardReader().read(Data(v4[0].utf8)).entries.first?.contact.givenName, "+81 3 0000 0000")
        XCTAssertEqual(v4[1], "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:x\r\nFN:Ann Lee\r\nEND:VCARD\r\n")
    }

    func test_theFNAndNAddedToACard_carryNoControlCharacter() {
        // Given the shape fuzz-vcard found: a kept card without FN, its contact's name holding a control
        let contact = Contact(uid: "x", givenName: "A\u{1}nn", card: VCardRecord(lines: ["VERSION:4.0", "TEL:1"]))
        // When
        let written = VCardWriter(version: .v3).card(for: contact)
        // Then
        XCTAssertEqual(written, "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nN:;Ann;;;\r\nTEL:1\r\nUID:x\r\nEND:VCARD\r\n")
    }

    func test_roundTrip_inTheCardsOwnVersion_keepsEveryPropertyAsItCame() {
        for (fixture, version) in [("apple-3.0.vcf", VCardWriter.Version.v3), ("rfc6350-4.0.vcf", .v4)] {
            // Given
            let contacts = VCardReader().read(VCardSeeds.fixture(fixture)).entries.map(\.contact)
            // When
            let again = VCardReader().read(Data(contacts.map(VCardWriter(version: version).card(for:)).joined().utf8))
            // Then: the same fields and kept properties, and the same lines but the UIDs the book gave
            XCTAssertEqual(again.entries.map(\.contact.withoutCard), contacts.map(\.withoutCard), fixture)
            for (read, original) in zip(again.entries.map(\.contact), contacts) {
                let uidless = { (c: Contact) in c.card?.lines.filter { !$0.hasPrefix("UID") } }
                XCTAssertEqual(uidless(read), uidless(original), fixture)
            }
        }
    }

    // MARK: - The byte writer

    func test_timestamp_isWhatCalendarGivesInUTC() {
        // Given seconds across leap years, centuries, before 1970 and with fractions
        var seconds: [Double] = [
            0, -1, -0.5, 0.999, 951_782_400, 951_868_799.9, 4_107_542_399, -2_208_988_800, 253_402_300_799,
        ]
        var state: UInt64 = 42
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            seconds.append(Double(Int64(bitPattern: state >> 1) % 20_000_000_000) / 3)
        }
        for value in seconds {
            let date = Date(timeIntervalSince1970: value)
            // When / Then
            XCTAssertEqual(VCardWriter.timestamp(date), VCardWriter.calendarTimestamp(date), "\(value)")
        }
    }

    func test_card_longLinesEscapesAndLineBreaks_areFoldedAndEscapedAsLinesAre() {
        // Given text that needs escaping and folding, in several scripts
        let long = String(repeating: "Zoë 😀 ñ; a,b\\c\r\nd\re\n ", count: 9)
        let contact = Contact(
            uid: long, givenName: long, familyName: "Ünal", organization: long, title: long,
            phones: [LabeledValue(label: long, value: long)], emails: [LabeledValue(label: "", value: long)],
            addresses: [
                PostalAddress(label: "home", street: long, city: long, region: "", postalCode: "", country: long)
            ],
            birthday: Birthday(year: 7, month: 1, day: 2), notes: long, tags: [long, ""],
            updatedAt: VCardSeeds.now,
            extraProperties: [
                "X-CONTACTSBOOK-NAME-PREFIX:" + VCardText.escape(long), "X-LONG:" + VCardText.escape(long),
            ])
        // When
        let text = sut.card(for: contact)
        // Then: every line as the writer's line-by-line rules make it
        let l: String = VCardText.escape(long)
        var lines: [String] = ["BEGIN:VCARD", "VERSION:4.0", "UID:" + l]
        lines.append("FN:" + VCardText.escape(contact.fullName))
        lines.append("N:Ünal;" + l + ";;" + l + ";")
        lines += ["ORG:" + l, "TITLE:" + l, "item1.TEL:" + l, "item1.X-ABLabel:" + l, "EMAIL:" + l]
        let address: String = "ADR;TYPE=home:;;" + l + ";" + l + ";;;" + l
        lines += [address, "BDAY:00070102", "NOTE:" + l, "CATEGORIES:" + l + ","]
        lines += ["REV:20231114T221320Z", "X-LONG:" + l, "END:VCARD"]
        let expected: String = lines.map(VCardWriter.fold).joined()
        XCTAssertEqual(text, expected)
        let notes: String = long.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        XCTAssertEqual(VCardReader().read(Data(text.utf8)).entries.first?.contact.notes, notes)
    }

    func test_escapedValues_areVCardTextEscape_whereverTheEscapedCharactersFall() {
        // Given seeded random notes made of characters to escape, line breaks of every kind
        // (CRLF, a lone CR or LF, CR CR LF) and plain text of several scripts
        let pieces = ["\\", ";", ",", "\r\n", "\r", "\n", "a", "Zoë", "😀", " ", "ñ;"]
        var random = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let notes = (0..<random.next(upTo: 9)).map { _ in pieces[random.next(upTo: pieces.count)] }.joined()
            guard !notes.isEmpty else { continue }
            // When
            let text = sut.card(for: Contact(uid: "u", givenName: "Ann", notes: notes, updatedAt: VCardSeeds.now))
            // Then: the NOTE line is `VCardText.escape` of them, folded
            XCTAssertTrue(text.contains(VCardWriter.fold("NOTE:" + VCardText.escape(notes))), notes.debugDescription)
        }
    }

    func test_labels_knownTypesInAnyCaseAndCustomOnes_areWrittenAsBefore() {
        // Given phones and emails labelled with known types (as read, and typed in other cases)
        // and custom labels
        let contact = Contact(
            uid: "u", givenName: "Ann",
            phones: [
                LabeledValue(label: "mobile", value: "1"), LabeledValue(label: "Home", value: "2"),
                LabeledValue(label: "home fax", value: "3"), LabeledValue(label: "cell", value: "4"),
                LabeledValue(label: "other", value: "5"), LabeledValue(label: "boat", value: "6"),
            ],
            emails: [LabeledValue(label: "work", value: "a@b"), LabeledValue(label: "fax", value: "c@d")],
            updatedAt: VCardSeeds.now)
        // When
        let lines = sut.card(for: contact).components(separatedBy: "\r\n")
        // Then
        XCTAssertEqual(
            lines.filter { $0.contains("TEL") || $0.contains("EMAIL") || $0.contains("ABLabel") },
            [
                "TEL;TYPE=cell:1", "TEL;TYPE=home:2", "TEL;TYPE=home,fax:3", "TEL;TYPE=cell:4", "TEL:5",
                "item1.TEL:6", "item1.X-ABLabel:boat", "EMAIL;TYPE=work:a@b", "item2.EMAIL:c@d", "item2.X-ABLabel:fax",
            ])
    }

    func test_birthdayAndPadding_matchStringFormat() {
        for value in [0, 7, 42, 999, 1604, 12345] {
            XCTAssertEqual(Birthday.padded(value, 2), String(format: "%02d", value))
            XCTAssertEqual(Birthday.padded(value, 4), String(format: "%04d", value))
        }
        XCTAssertEqual(Birthday(year: 985, month: 3, day: 9).isoString, "0985-03-09")
        XCTAssertEqual(Birthday(year: nil, month: 12, day: 24).isoString, "--12-24")
    }
}
