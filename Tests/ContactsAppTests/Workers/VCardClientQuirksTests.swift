import XCTest

@testable import ContactsApp

/// What real clients write that the specs do not say (issue 25, item 8), each in the smallest
/// card that shows it, shaped after the card that showed it (iOS 6, Android's vCard test cards,
/// Outlook 2003, RFC 2426's AGENT example), and what the import's report says about it.
final class VCardClientQuirksTests: XCTestCase {
    var sut: VCardReader!

    override func setUp() {
        super.setUp()
        sut = VCardReader()
    }

    private func read(_ text: String) -> ParsedContacts { sut.read(Data(text.utf8)) }
    private func read(_ bytes: [UInt8]) -> ParsedContacts { sut.read(Data(bytes)) }

    // MARK: - Line ends

    func test_crCrLfEndings_asIOS6WritesThem_readWithFoldedPhotoAndLineNumbers() throws {
        // Given: every line ends CR CR LF; the photo is folded
        let card =
            "BEGIN:VCARD\r\r\nVERSION:3.0\r\r\nN:Smith;Bob;;;\r\r\nFN:Bob Smith\r\r\n"
            + "item1.EMAIL;type=INTERNET;type=pref:bob@smith\r\r\nPHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ\r\r\n SkZJ\r\r\nEND:VCARD\r\r\n"
        // When
        let result = read(card)
        // Then
        XCTAssertEqual(result.problems, [])
        let contact = try XCTUnwrap(result.entries.first?.contact)
        XCTAssertEqual(contact.fullName, "Bob Smith")
        XCTAssertEqual(contact.extraProperties, ["PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJ"])
        XCTAssertEqual(
            result.warnings.withoutAddedNames,
            [.init(line: 5, reason: "EMAIL \"bob@smith\" is not an email address (kept)", kind: .invalid)])
    }

    func test_bareCREndings_readWithFoldingAndQuotedPrintableSoftBreaks() throws {
        // When
        let result = read(
            "BEGIN:VCARD\rVERSION:2.1\rN:Lee;Ann\rNOTE;ENCODING=QUOTED-PRINTABLE:one=0D=0Atw=\ro\rTITLE:Chief\r Scientist\rEND:VCARD\r"
        )
        // Then
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.warnings.withoutAddedNames, [])
        let contact = try XCTUnwrap(result.entries.first?.contact)
        XCTAssertEqual(contact.notes, "one\ntwo")
        XCTAssertEqual(contact.title, "Chief Scientist")
    }

    func test_aCRInsideALineOfAnLFFile_staysInTheValue() throws {
        // When: the first line break is CRLF, so a lone CR later is text, as it was
        let result = read("BEGIN:VCARD\r\nFN:A\r\nNOTE:x\ry\r\nEND:VCARD\r\n")
        // Then
        XCTAssertEqual(result.entries.first?.contact.notes, "x\ny")
    }

    func test_aCRLFFile_keepsACRItsValueHoldsRightBeforeAFold() throws {
        // Given: a value folded right after a CR it holds (fuzz-vcard's shape): CR CR LF there
        // is that CR and the line end, since the file's lines end CRLF
        let result = read("BEGIN:VCARD\r\nFN:A\r\nNOTE:ab\r\r\n c\r\nEND:VCARD\r\n")
        // Then
        XCTAssertEqual(result.entries.first?.contact.notes, "ab\nc")
    }

    // MARK: - Character sets

    func test_shiftJIS_plainAndQuotedPrintable_asJapanesePhonesWrite() throws {
        // Given: 安藤 ロイド in Shift_JIS, and an address in Shift_JIS quoted-printable, folded by `=`
        let name: [UInt8] = [0x88, 0xC0, 0x93, 0xA1, 0x20, 0x83, 0x8D, 0x83, 0x43, 0x83, 0x68]
        let card =
            Array("BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=SHIFT_JIS:".utf8) + name
            + Array("\r\nADR;HOME;CHARSET=SHIFT_JIS;ENCODING=QUOTED-PRINTABLE:;;=93=8C=8B=9E=93=73=\r\n".utf8)
            + Array("=8F=61=92=4A=8B=E6;Tokyo;;150-8512;\r\nX-PHONETIC;CHARSET=SHIFT_JIS:".utf8) + name
            + Array("\r\nEND:VCARD\r\n".utf8)
        // When
        let result = read(card)
        // Then
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.warnings.withoutAddedNames, [])
        let contact = try XCTUnwrap(result.entries.first?.contact)
        XCTAssertEqual(contact.fullName, "安藤 ロイド")
        XCTAssertEqual(contact.addresses.map(\.street), ["東京都渋谷区"])
        XCTAssertEqual(contact.extraProperties, ["X-PHONETIC:安藤 ロイド"], "kept decoded, without CHARSET")
    }

    func test_latinCharsets_throughFoundation_andOthers_throughIconv() throws {
        // Given: René € in Windows-1252 (QP), Zoë in ISO-8859-1, Иван in KOI8-R
        let card =
            Array("BEGIN:VCARD\nVERSION:2.1\nFN;CHARSET=WINDOWS-1252;ENCODING=QUOTED-PRINTABLE:Ren=E9 =80\n".utf8)
            + Array("NOTE;CHARSET=ISO-8859-1:Zo".utf8) + [0xEB] + Array("\nNICKNAME;CHARSET=KOI8-R:".utf8) + [
                0xE9, 0xD7, 0xC1, 0xCE,
            ]
            + Array("\nEND:VCARD\n".utf8)
        // When
        let result = read(card)
        // Then
        XCTAssertEqual(result.warnings.withoutAddedNames, [])
        let contact = try XCTUnwrap(result.entries.first?.contact)
        XCTAssertEqual([contact.fullName, contact.notes, contact.nickname], ["René €", "Zoë", "Иван"])
    }

    func test_aByteNotValidInItsCharset_becomesU_FFFD_andIsNamedByItsLine() throws {
        // Given: a stray =80 in a UTF-8 QP value, a byte Shift_JIS lacks, and a charset nobody knows
        let card =
            Array(
                "BEGIN:VCARD\nVERSION:2.1\nN:Lee;Ann\nNOTE;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:caf=C3=A9 =80 ok\n"
                    .utf8)
            + Array("TITLE;CHARSET=SHIFT_JIS:A".utf8) + [0x83]
            + Array("\nX-LABEL;CHARSET=X-NOBODY:plain\nEND:VCARD\n".utf8)
        // When
        let result = read(card)
        // Then: the card is kept, each value with what could be read
        XCTAssertEqual(result.problems, [])
        let contact = try XCTUnwrap(result.entries.first?.contact)
        XCTAssertEqual(contact.notes, "café \u{FFFD} ok")
        XCTAssertEqual(contact.title, "A\u{FFFD}")
        XCTAssertEqual(contact.extraProperties, ["X-LABEL:plain"])
        XCTAssertEqual(
            result.warnings.withoutAddedNames,
            [
                .init(line: 4, reason: "NOTE: 1 byte not valid in UTF-8 replaced by U+FFFD", kind: .changed),
                .init(line: 5, reason: "TITLE: 1 byte not valid in SHIFT_JIS replaced by U+FFFD", kind: .changed),
                .init(
                    line: 6,
                    reason: "X-LABEL: CHARSET=X-NOBODY is not a character set this system knows: read as UTF-8",
                    kind: .changed),
            ])
    }

    func test_badQuotedPrintableEscapes_costTheirBytes_notTheCard() throws {
        // Given: `=ZZ` (no escape), and a value ending in `=` right before END:VCARD
        let card =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Lee;Ann\r\nNOTE;ENCODING=QUOTED-PRINTABLE:a=ZZb\r\n"
            + "TITLE;ENCODING=QUOTED-PRINTABLE:Boss=\r\nEND:VCARD\r\nBEGIN:VCARD\r\nFN:Next One\r\nEND:VCARD\r\n"
        // When
        let result = read(card)
        // Then: both cards read, and each change named by its value's line
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.entries.map(\.contact.fullName), ["Ann Lee", "Next One"])
        XCTAssertEqual(result.entries.first?.contact.notes, "a=ZZb")
        XCTAssertEqual(result.entries.first?.contact.title, "Boss")
        XCTAssertEqual(
            result.warnings.withoutAddedNames,
            [
                .init(line: 4, reason: "NOTE: '=ZZ' is not a quoted-printable escape: kept as written", kind: .changed),
                .init(
                    line: 5,
                    reason:
                        "TITLE: the quoted-printable value ends in a soft line break ('=') with nothing after it: the '=' dropped",
                    kind: .changed),
            ])
    }

    func test_aBase64ValueWithBytesThatAreNotText_keepsTheCard_andNamesTheLine() throws {
        // When
        let result = read(
            Array("BEGIN:VCARD\nFN:Ann Lee\nPHOTO;ENCODING=b;TYPE=JPEG:/9j/".utf8) + [0xFF]
                + Array("4AAQ\nEND:VCARD\n".utf8))
        // Then
        XCTAssertEqual(result.entries.first?.contact.extraProperties, ["PHOTO;ENCODING=b;TYPE=JPEG:/9j/\u{FFFD}4AAQ"])
        XCTAssertEqual(
            result.warnings.withoutAddedNames,
            [.init(line: 3, reason: "PHOTO: 1 byte not valid in base64 text replaced by U+FFFD", kind: .changed)])
    }

    // MARK: - Comments and continuations

    func test_commentLines_outsideCardsAreSkipped_insideAreNamed_andAQuotedPrintableBreakStillJoinsAHash() throws {
        // Given: Android's test card v21_invalid_comment_line.vcf, in shape
        let card =
            "# exported by hand\r\nBEGIN:vCard\r\nVERSION:2.1\r\nN:;Conference Call\r\n# ignore me\r\n"
            + "NOTE;ENCODING=QUOTED-PRINTABLE:before (sharp ->=\r\n#<- sharp) after\r\n# me too\r\nEND:vCard\r\n"
        // When
        let result = read(card)
        // Then
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.entries.first?.contact.notes, "before (sharp ->#<- sharp) after")
        XCTAssertEqual(
            result.warnings.withoutAddedNames,
            [
                .init(line: 5, reason: "a comment line, not a property: skipped", kind: .changed),
                .init(line: 8, reason: "a comment line, not a property: skipped", kind: .changed),
            ])
        XCTAssertEqual(result.skippedLines, 0)
    }

    func test_a21ValueContinuedAfterABackslash_readsAsLineBreaks() throws {
        // Given: Android's test card v21_adr_multiple_line.vcf, in shape: a street on three lines
        let card =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Post\r\nADR;HOME:;;Anna Beispiel\\\r\n1234567\\\r\nPackstation 101;Hamburg;;20095;Deutschland\r\n"
            + "BDAY;VALUE=DATE:20081203\r\nNOTE:C:\\\r\nEND:VCARD\r\n"
        // When
        let result = read(card)
        // Then: the street keeps its lines; a backslash before a property is the value's own
        XCTAssertEqual(result.problems, [])
        let contact = try XCTUnwrap(result.entries.first?.contact)
        XCTAssertEqual(
            contact.addresses,
            [
                PostalAddress(
                    label: "home", street: "Anna Beispiel\n1234567\nPackstation 101",
                    city: "Hamburg", postalCode: "20095", country: "Deutschland")
            ])
        XCTAssertEqual(contact.birthday, Birthday(year: 2008, month: 12, day: 3))
        XCTAssertEqual(contact.notes, "C:\\")
        XCTAssertEqual(
            result.warnings.withoutAddedNames,
            [
                .init(
                    line: 4,
                    reason: "ADR: the value continues on the next line after a backslash: read as a line break",
                    kind: .changed),
                .init(
                    line: 5,
                    reason: "ADR: the value continues on the next line after a backslash: read as a line break",
                    kind: .changed),
            ])
    }

    func test_a21LineContinuedByIndentedLines_unfolds_andBase64LosesItsIndent() throws {
        // Given: Android's v21_invalid_multiple_line.vcf (an address on an indented line) and
        // Outlook 2003's KEY, whose base64 lines are indented by four spaces
        let card =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:;Omega;;;\r\nEMAIL;INTERNET:\"Omega\"\r\n  <omega@example.com>\r\n"
            + "KEY;X509;ENCODING=BASE64:\r\n    MIIDITCC\r\n    AoqgAwIB\r\n\r\nEND:VCARD\r\n"
        // When
        let result = read(card)
        // Then
        let contact = try XCTUnwrap(result.entries.first?.contact)
        // 2.1 unfolds as RFC 822 does: the line break goes, both spaces after it stay
        XCTAssertEqual(contact.emails.map(\.value), ["\"Omega\"  <omega@example.com>"])
        XCTAssertEqual(contact.extraProperties, ["KEY;X509;ENCODING=BASE64:MIIDITCCAoqgAwIB"])
    }

    func test_aFoldKeepsItsWhiteSpaceIn21Only_cardByCard_andInANestedCardByItsOwnVersion() throws {
        // Given: the same folded note in a 2.1 card, a 3.0 card and a 4.0 card of one file, and a
        // 2.1 card whose AGENT is a 3.0 card, folded after it as well
        let note = "NOTE:two\r\n  spaces\r\n"
        let file =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:A\r\n\(note)END:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:B\r\n\(note)END:VCARD\r\n"
            + "BEGIN:VCARD\r\nversion: 4.0\r\nFN:C\r\n\(note)END:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:D\r\nAGENT:\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:E\r\n\(note)END:VCARD\r\n"
            + "\(note)END:VCARD\r\n"
        // When
        let result = read(file)
        // Then
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.entries.map(\.contact.fullName), ["A", "B", "C", "D"])
        XCTAssertEqual(result.entries.map(\.contact.notes), ["two  spaces", "two spaces", "two spaces", "two  spaces"])
        let agent = try XCTUnwrap(result.entries[3].contact.card?.lines.first { $0.hasPrefix("AGENT:") })
        XCTAssertTrue(agent.contains("NOTE:two spaces"), agent)
    }

    // MARK: - What every export will change, named at the import

    func test_aControlCharacterInAValue_isNamedByItsLine_asTheExportRemovesIt() throws {
        // Given: Outlook 2003's FBURL, a form feed at its end (=0C), and a raw one in a NOTE
        let card =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Doe;John\r\nFBURL;ENCODING=QUOTED-PRINTABLE:http://example.com/fb=0C\r\n"
            + "NOTE:a\u{0C}b\u{07}c\tok\r\nEND:VCARD\r\n"
        // When
        let result = read(card)
        let exported = VCardWriter(version: .v3).card(for: try XCTUnwrap(result.entries.first?.contact))
        // Then
        XCTAssertEqual(
            result.warnings.withoutAddedNames,
            [
                .init(
                    line: 4,
                    reason:
                        "FBURL: control character U+000C removed: an export leaves it out (a vCard may not hold one)",
                    kind: .changed),
                .init(
                    line: 5,
                    reason:
                        "NOTE: control characters U+000C, U+0007 removed: an export leaves them out (a vCard may not hold them)",
                    kind: .changed),
            ])
        XCTAssertTrue(exported.contains("FBURL:http://example.com/fb\r\n"), exported)
        XCTAssertTrue(exported.contains("NOTE:abc\tok\r\n"), exported)
    }

    func test_a21KeyThatIsALink_isNamedByItsLine_asTheExportAs30WritesItAsText() throws {
        // Given: ical4j's vcard-antoni-outlook2003-valueurl.vcf's KEY, and an inline key beside it
        let card =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Mylka;Antoni\r\nKEY;VALUE=URL:https://example.org/gunnar.key\r\n"
            + "KEY;X509;ENCODING=BASE64:MIIDITCC\r\nEND:VCARD\r\n"
        // When
        let result = read(card)
        let exported = VCardWriter(version: .v3).card(for: try XCTUnwrap(result.entries.first?.contact))
        // Then: only the link is named
        XCTAssertEqual(
            result.warnings.withoutAddedNames,
            [
                .init(
                    line: 4,
                    reason:
                        "KEY: a link to a key, which vCard 3.0's KEY cannot be (only the key itself, as binary or text): "
                        + "an export as 3.0 writes the link as text", kind: .changed)
            ])
        XCTAssertTrue(exported.contains("KEY;VALUE=text:https://example.org/gunnar.key\r\n"), exported)
    }

    // MARK: - Nested cards

    func test_21Agent_theNestedCardIsTheAgentsValue_andTheParentGoesOn() throws {
        // Given: `AGENT:` and the agent's card on the lines after it, as 2.1 writes it
        let card =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Lee;Ann\r\nAGENT:\r\nBEGIN:VCARD\r\nVERSION:2.1\r\nN:Ek;Bo\r\n"
            + "NOTE;ENCODING=QUOTED-PRINTABLE:two=0D=0Alines\r\nEND:VCARD\r\nTEL;CELL:+1 555 0100\r\nEND:VCARD\r\n"
        // When
        let result = read(card)
        // Then: one contact, the agent inside it, the parent's phone after it kept
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.warnings.withoutAddedNames, [])
        XCTAssertEqual(result.entries.map(\.contact.fullName), ["Ann Lee"])
        let contact = try XCTUnwrap(result.entries.first?.contact)
        XCTAssertEqual(contact.phones.map(\.value), ["+1 555 0100"])
        let agent = "AGENT:BEGIN:VCARD\\nVERSION:2.1\\nN:Ek\\;Bo\\nNOTE:two\\\\nlines\\nEND:VCARD"
        XCTAssertEqual(contact.extraProperties, [agent])
        // And it is written back with the card, and reads back the same
        let written = VCardWriter(version: .v3).card(for: contact)
        XCTAssertTrue(written.contains(agent + "\r\n"), written)
        XCTAssertEqual(read(written).entries.first?.contact.extraProperties, [agent])
    }

    func test_30Agent_escapedInOneValue_orWrittenOverLines_staysWithItsCard() throws {
        // Given: RFC 2426's example (one escaped, folded value), and `AGENT:BEGIN:VCARD` with the
        // card's lines after it
        let escaped =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Frank Dawson\r\nAGENT:BEGIN:VCARD\\nFN:Susan Thomas\\nTEL:+1-919-555-\r\n"
            + " 1234\\nEMAIL\\;INTERNET:sthomas@host.com\\nEND:VCARD\\n\r\nEND:VCARD\r\n"
        let overLines =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Frank Dawson\r\nAGENT:BEGIN:VCARD\r\nFN:Susan Thomas\r\nEND:VCARD\r\n"
            + "EMAIL:frank@example.org\r\nEND:VCARD\r\n"
        // When
        let first = read(escaped), second = read(overLines)
        // Then
        XCTAssertEqual(first.entries.map(\.contact.fullName), ["Frank Dawson"])
        XCTAssertEqual(
            first.entries.first?.contact.extraProperties,
            [
                "AGENT:BEGIN:VCARD\\nFN:Susan Thomas\\nTEL:+1-919-555-1234\\nEMAIL\\;INTERNET:sthomas@host.com\\nEND:VCARD\\n"
            ])
        XCTAssertEqual(second.entries.map(\.contact.fullName), ["Frank Dawson"])
        XCTAssertEqual(
            second.entries.first?.contact.extraProperties, ["AGENT:BEGIN:VCARD\\nFN:Susan Thomas\\nEND:VCARD"])
        XCTAssertEqual(second.entries.first?.contact.emails.map(\.value), ["frank@example.org"])
        XCTAssertEqual(first.problems + second.problems, [])
    }

    func test_anAgentCardCutOffByTheFilesEnd_costsItsCard_withTheReason() {
        // When
        let result = read("BEGIN:VCARD\nFN:Ann Lee\nEND:VCARD\nBEGIN:VCARD\nFN:Bo Ek\nAGENT:\nBEGIN:VCARD\nFN:Cy\n")
        // Then
        XCTAssertEqual(result.entries.map(\.contact.fullName), ["Ann Lee"])
        XCTAssertEqual(
            result.problems, [.init(line: 4, reason: "the card of its AGENT has no END:VCARD (is the file truncated?)")]
        )
    }

    func test_cardsInsideACard_notAnAgents_areCardsOfTheirOwn_andTheParentIsKept() {
        // Given: Android's test card v21_nest.vcf, in shape
        let file =
            "BEGIN:VCARD\nVERSION:2.1\nN:parent\nBEGIN:VCARD\nVERSION:2.1\nN:nest1\nEND:VCARD\n"
            + "BEGIN:VCARD\nVERSION:2.1\nN:nest2\nEND:VCARD\nTEL:1\nEND:VCARD\n"
        // When
        let result = read(file)
        // Then: the nested cards first (they end first), then the parent with its phone
        XCTAssertEqual(result.entries.map(\.contact.familyName), ["nest1", "nest2", "parent"])
        XCTAssertEqual(result.entries.map(\.line), [4, 8, 1])
        XCTAssertEqual(result.entries.last?.contact.phones.map(\.value), ["1"])
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(
            result.warnings.withoutAddedNames,
            [
                .init(
                    line: 4, reason: "a card inside the card of line 1, not an AGENT's: read as a card of its own",
                    kind: .changed),
                .init(
                    line: 8, reason: "a card inside the card of line 1, not an AGENT's: read as a card of its own",
                    kind: .changed),
            ])
    }

    // MARK: - Cards without a name

    func test_aCardWithoutAName_isNamedByItsEmailHandleNicknameOrPhone_inThatOrder() {
        // Given
        let cards = [
            "TEL:+1 555 0100\nEMAIL:ann@example.org\n", "TEL:+1 555 0100\nX-JABBER:bo@jabber.example\n",
            "IMPP:xmpp:cy@chat.example\nNICKNAME:Cyd\n", "TEL;CELL:tel:+1-555-0199\nNICKNAME:Dee,Dede\n",
            "TEL;CELL:tel:+1-555-0199\n",
        ]
        // When
        let result = read(cards.map { "BEGIN:VCARD\nVERSION:3.0\n" + $0 + "END:VCARD\n" }.joined())
        // Then
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(
            result.entries.map(\.contact.fullName),
            ["ann@example.org", "bo@jabber.example", "cy@chat.example", "Dee", "+1-555-0199"])
        XCTAssertEqual(
            result.entries.first?.contact.emails.map(\.value), ["ann@example.org"], "the email is still the email")
        XCTAssertEqual(result.warnings.withoutAddedNames.map(\.line), [4, 9, 13, 19, 23])
        XCTAssertEqual(
            result.warnings.withoutAddedNames.first?.reason,
            "the card has no name (N, FN or ORG): named \"ann@example.org\" after its EMAIL")
        XCTAssertEqual(
            result.warnings.withoutAddedNames.last?.reason,
            "the card has no name (N, FN or ORG): named \"+1-555-0199\" after its TEL")
    }

    func test_aCardWithNothingToNameIt_isNamedNoName_andAnEmptyCardIsRefused() {
        // When
        let result = read(
            "BEGIN:VCARD\nVERSION:3.0\nPHOTO;ENCODING=b;TYPE=JPEG:/9j/\nEND:VCARD\n"
                + "BEGIN:VCARD\nVERSION:3.0\nUID:x\nN:;;;;\nEND:VCARD\n")
        // Then
        XCTAssertEqual(result.entries.map(\.contact.fullName), ["(no name)"])
        XCTAssertEqual(
            result.warnings.withoutAddedNames,
            [
                .init(
                    line: 1,
                    reason: "the card has no name (N, FN or ORG) and nothing to name it by: named \"(no name)\"",
                    kind: .changed)
            ])
        XCTAssertEqual(
            result.problems, [.init(line: 5, reason: "the card is empty: no name (N, FN or ORG) and nothing else")])
    }

    // MARK: - Together

    /// One file with every quirk above, for the streaming tests (batches and chunks of any size
    /// must read what the whole file reads).
    static let everyQuirk: [UInt8] =
        Array(
            ("# comment\r\r\nBEGIN:VCARD\r\r\nVERSION:2.1\r\r\nN:parent\r\r\nAGENT:\r\r\nBEGIN:VCARD\r\r\n"
                + "N:Agent\r\r\nEND:VCARD\r\r\n# inside\r\r\nBEGIN:VCARD\r\r\nEMAIL:nested@example.org\r\r\nEND:VCARD\r\r\n"
                + "ADR:;;a\\\r\r\nb;c;;;\r\r\nNOTE;ENCODING=QUOTED-PRINTABLE:x=ZZ=\r\r\n=80\r\r\nEND:VCARD\r\r\nstray\r\r\nEND:VCARD\r\r\n"
                + "BEGIN:VCARD\r\r\nNICKNAME;CHARSET=KOI8-R:").utf8) + [0xE9, 0xD7]
        + Array("\r\r\nEND:VCARD\r\r\nBEGIN:VCARD\r\r\nN:Cut\r\r\n".utf8)

    func test_everyQuirkInOneFile_eachNamedByItsLine() {
        // When
        let result = read(Self.everyQuirk)
        // Then
        XCTAssertEqual(result.entries.map(\.contact.fullName), ["nested@example.org", "parent", "Ив"])
        XCTAssertEqual(result.problems, [.init(line: 23, reason: "the card has no END:VCARD (is the file truncated?)")])
        // The comment in the parent (9), the nested card named by its email (11), the
        // backslash (13), the `=ZZ` and `=80` (15), the nested card named when its parent
        // ended (10), the stray line and END:VCARD (18, 19), the last card named (21)
        XCTAssertEqual(result.warnings.withoutAddedNames.map(\.line), [9, 11, 13, 15, 15, 10, 18, 19, 21])
        XCTAssertEqual(
            result.warnings.withoutAddedNames.map(\.kind),
            [.changed, .changed, .changed, .changed, .changed, .changed, .skipped, .skipped, .changed])
        XCTAssertEqual(result.skippedLines, 2)
    }
}

extension Array where Element == ParsedContacts.Problem {
    /// Without the notes naming the FN and N an export will add to a card that came without them
    /// (`VCardReader.namesAnExportAdds`, tested in VCardReaderTests): most quirk cards are names-only
    /// fragments, and these tests are about something else.
    var withoutAddedNames: [ParsedContacts.Problem] {
        filter { !$0.reason.hasPrefix("no FN (display name): ") && !$0.reason.hasPrefix("no N (name parts): ") }
    }
}
