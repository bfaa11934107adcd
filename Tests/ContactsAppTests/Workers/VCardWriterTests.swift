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
            phones: [LabeledValue(label: "mobile", value: "+1 555 0100"), LabeledValue(label: "Lab bench", value: "0200")],
            emails: [LabeledValue(label: "work", value: "ann@acme.example")],
            birthday: Birthday(year: nil, month: 5, day: 17), notes: "a\\b\nc", tags: ["x,y", "z"],
            updatedAt: VCardSeeds.now, extraProperties: ["item1.URL:https://a.example", "X-FOO:bar"])
        // When
        let text = sut.card(for: contact)
        // Then
        XCTAssertEqual(text, [
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
        XCTAssertEqual(physical.enumerated().map { $0.offset == 0 ? String($0.element) : String($0.element.dropFirst()) }.joined(), line)
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
            XCTAssertEqual(again.entries.map(\.contact), contacts, "\(version)")
        }
    }
}
