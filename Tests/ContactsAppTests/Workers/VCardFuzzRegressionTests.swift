@testable import ContactsApp
import XCTest

/// Inputs `scripts/fuzz vcard` found, kept as regression tests (bench/ROBUSTNESS.md).
final class VCardFuzzRegressionTests: XCTestCase {
    var sut: VCardReader!

    override func setUp() {
        super.setUp()
        sut = VCardReader()
    }

    private func read(_ text: String) -> [Contact] { sut.read(Data(text.utf8)).entries.map(\.contact) }

    func test_read_aLoneCRInAValue_isANewline_asTheWriterWritesIt() throws {
        // Given the shape fuzz-vcard found: a CR without LF inside an EMAIL and an ADR's country
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEMAIL:a\rb\r\nADR;TYPE=work:;;1 Loop;Cupertino;CA;95014;USA\ret\r\nEND:VCARD\r\n"
        // When
        let contact = try XCTUnwrap(read(card).first)
        // Then
        XCTAssertEqual(contact.emails.map(\.value), ["a\nb"])
        XCTAssertEqual(contact.addresses.map(\.country), ["USA\net"])
    }

    func test_roundTrip_valuesWithLoneCRs_readBackTheSame() throws {
        // Given
        let card = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nN:B\rC;A;;;\r\nNOTE:x\ry\\nz\r\nEND:VCARD\r\n"
        let contacts = read(card)
        // When
        let again = read(contacts.map(VCardWriter().card(for:)).joined())
        // Then
        XCTAssertEqual(contacts.count, 1)
        XCTAssertEqual(again.map(\.withoutCard), contacts.map(\.withoutCard)) // the cards differ: written anew, line breaks escaped
    }

    func test_roundTrip_aLabelWithLoneCRs_readsAsNewlines_andBackTheSame() throws {
        // Given the shape fuzz-vcard found after the eighth session's merge: CRs inside a quoted TYPE
        let card = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nTEL;VALUE=uri;TYPE=\"work,0o\r\r\rice\":tel:+33-1\r\nEND:VCARD\r\n"
        let contacts = read(card)
        // When
        let again = read(contacts.map(VCardWriter().card(for:)).joined())
        // Then
        XCTAssertEqual(contacts.first?.phones.map(\.label), ["work 0o\n\n\nice"])
        XCTAssertEqual(again.map(\.withoutCard), contacts.map(\.withoutCard)) // the cards differ: written anew, line breaks escaped
    }

    func test_unescape_aBackslashBeforeACombiningMark_escapesTheMark() {
        // When / Then: the writer escapes a backslash as `\\`, scalar by scalar
        XCTAssertEqual(VCardText.unescape(VCardText.escape("a\\\u{0301}b")), "a\\\u{0301}b")
        XCTAssertEqual(VCardText.unescape("a\\\u{0301}b"), "a\u{0301}b")
    }

    func test_roundTrip_aPhoneWithParametersAfterASpace_readsBackTheSame() throws {
        // Given the shape fuzz-vcard found in CI: `+1 ;France` read as "+1 ", written, read as "+1"
        let card = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nTEL;VALUE=text;TYPE=work:+1 ;France\r\nEND:VCARD\r\n"
        let contacts = read(card)
        // When
        let again = read(contacts.map(VCardWriter().card(for:)).joined())
        // Then
        XCTAssertEqual(contacts.first?.phones.map(\.value), ["+1"])
        XCTAssertEqual(again.map(\.withoutCard), contacts.map(\.withoutCard)) // the cards differ: written anew, line breaks escaped
    }

    func test_roundTrip_aTelURIWithASpaceAfterTheScheme_readsBackTheSame() throws {
        // Given the second shape fuzz-vcard found: a space after `tel:` stayed at the value's start
        let card = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nTEL;VALUE=uri;TYPE=home:tel: 555 0100\r\nEND:VCARD\r\n"
        let contacts = read(card)
        // When
        let again = read(contacts.map(VCardWriter().card(for:)).joined())
        // Then
        XCTAssertEqual(contacts.first?.phones.map(\.value), ["555 0100"])
        XCTAssertEqual(again.map(\.withoutCard), contacts.map(\.withoutCard)) // the cards differ: written anew, line breaks escaped
    }
}
