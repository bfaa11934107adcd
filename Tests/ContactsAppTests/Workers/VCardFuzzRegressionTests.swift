import XCTest

@testable import ContactsApp

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
        let card =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEMAIL:a\rb\r\nADR;TYPE=work:;;1 Loop;Cupertino;CA;95014;USA\ret\r\nEND:VCARD\r\n"
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
        // the cards differ: written anew, line breaks escaped
        XCTAssertEqual(again.map(\.withoutCard), contacts.map(\.withoutCard))
    }

    func test_roundTrip_aLabelWithLoneCRs_readsAsNewlines_andBackTheSame() throws {
        // Given the shape fuzz-vcard found after the eighth session's merge: CRs inside a quoted TYPE
        let card =
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nTEL;VALUE=uri;TYPE=\"work,0o\r\r\rice\":tel:+33-1\r\nEND:VCARD\r\n"
        let contacts = read(card)
        // When
        let again = read(contacts.map(VCardWriter().card(for:)).joined())
        // Then
        XCTAssertEqual(contacts.first?.phones.map(\.label), ["work 0o\n\n\nice"])
        // the cards differ: written anew, line breaks escaped
        XCTAssertEqual(again.map(\.withoutCard), contacts.map(\.withoutCard))
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
        // the cards differ: written anew, line breaks escaped
        XCTAssertEqual(again.map(\.withoutCard), contacts.map(\.withoutCard))
    }

    func test_roundTrip_aTelURIWithASpaceAfterTheScheme_readsBackTheSame() throws {
        // Given the second shape fuzz-vcard found: a space after `tel:` stayed at the value's start
        let card = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nTEL;VALUE=uri;TYPE=home:tel: 555 0100\r\nEND:VCARD\r\n"
        let contacts = read(card)
        // When
        let again = read(contacts.map(VCardWriter().card(for:)).joined())
        // Then
        XCTAssertEqual(contacts.first?.phones.map(\.value), ["555 0100"])
        // the cards differ: written anew, line breaks escaped
        XCTAssertEqual(again.map(\.withoutCard), contacts.map(\.withoutCard))
    }

    // MARK: - Found by fuzz-vcard's kept-card invariants

    /// The card written, read back: exactly one contact, and no problem.
    private func readOne(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Contact {
        let read = sut.read(Data(text.utf8))
        XCTAssertEqual(read.problems, [], file: file, line: line)
        XCTAssertEqual(read.entries.count, 1, file: file, line: line)
        return try XCTUnwrap(read.entries.first?.contact, file: file, line: line)
    }

    /// A save through `CardPatch`: the contact as read, as edited, the card saved, and that card read back.
    private struct Save {
        let contact: Contact
        let edited: Contact
        let card: VCardRecord
        let view: Contact
    }

    /// Reads `text` (one contact, no problem), edits it, saves it with `CardPatch.reconciled` and
    /// reads the saved card back as the reader reads a stored contact's card.
    private func savedAndReadBack(
        _ text: String, file: StaticString = #filePath, line: UInt = #line, edit: (inout Contact) -> Void
    ) throws -> Save {
        let contact = try readOne(text, file: file, line: line)
        var edited = contact
        edit(&edited)
        let card = try XCTUnwrap(CardPatch.reconciled(edited).card, file: file, line: line)
        let view = try XCTUnwrap(VCardReader.view(of: card), file: file, line: line).contact
        return Save(contact: contact, edited: edited, card: card, view: view)
    }

    func test_export_aVersionLineWithControlCharacters_isNotWrittenAsASecondVersion() throws {
        // Given the shape fuzz-vcard found: NULs inside VERSION, which the reader keeps as a line
        // and the export's control-character removal turned into `VERSION:2.1`
        let contact = try readOne("BEGIN:VCARD\r\nVERSION:2.\u{0}\u{0}\u{0}1\r\nN:nest2\r\nEND:VCARD\r\n")
        // When
        let written = VCardWriter(version: .v3).card(for: contact)
        // Then: one VERSION, the writer's, and a second export writes the same
        // FN, required, from the fields
        XCTAssertEqual(written, "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:nest2\r\nN:nest2\r\nEND:VCARD\r\n")
        XCTAssertEqual(VCardWriter(version: .v3).card(for: try readOne(written)), written)
    }

    func test_export_combiningMarkAfterTheColon_ofUIDAndVERSION_keepsOneOfEach() throws {
        // Given the shape fuzz-vcard found with this branch's seeds: `UID:` and U+0301 (one
        // Character ':' + mark), and a VERSION line the same way
        let contact = try readOne("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:\u{0618}x\r\nUID:\u{0301}id\r\nEND:VCARD\r\n")
        let odd = try readOne("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nVERSION:\u{0301}4\r\nEND:VCARD\r\n")
        // When
        let written = VCardWriter(version: .v4).card(for: contact)
        let oddWritten = VCardWriter(version: .v3).card(for: odd)
        // Then: the UID kept as the card's one UID line; the writer's VERSION the only one
        XCTAssertEqual(
            written.components(separatedBy: "\r\n").filter { $0.unicodeScalars.starts(with: "UID:".unicodeScalars) },
            ["UID:\u{0301}id"])
        XCTAssertEqual(
            oddWritten.components(separatedBy: "\r\n").filter {
                $0.unicodeScalars.starts(with: "VERSION".unicodeScalars)
            },
            ["VERSION:3.0"])
    }

    func test_convert_aTelephoneSaidToBeURI_in21Syntax_isRepairedToValidText() {
        // Given the shape fuzz-vcard found: a bare parameter beside VALUE=uri on a number that is no URI
        let line = "TEL;VALUE=uri;TSION:4.0"
        // When
        let result = VCardVersionConverter.convert([line], from: .v3, to: .v3)
        // Then: valid 3.0, as a same-version export of it in 3.0's syntax would be
        XCTAssertEqual(result.lines, ["TEL;TYPE=TSION:4.0"])
        XCTAssertFalse(VCardVersionConverter.Names.hasNoPlace(result.lines[0], in: .v3))
    }

    func test_convert_a4OnlyPropertyIn21Syntax_inA3Card_isRepairedAndRenamed() {
        // Given the shape fuzz-vcard found (CI, stop 35): a 3.0 card's RELATED with bare parameters
        let line = "RELATED;BEGI;N:urn:uuid:alexandrine"
        // When
        let result = VCardVersionConverter.convert([line], from: .v3, to: .v3)
        // Then: in 3.0's syntax and under 3.0's name for it, with a note for each change
        XCTAssertEqual(result.lines, ["X-RELATED;TYPE=BEGI,N:urn:uuid:alexandrine"])
        XCTAssertFalse(VCardVersionConverter.Names.hasNoPlace(result.lines[0], in: .v3))
        XCTAssertFalse(VCardVersionConverter.Syntax.needsRepair(result.lines[0], in: .v3))
        XCTAssertTrue(result.notes.contains { $0.contains("X-RELATED") }, "\(result.notes)")
    }

    func test_export_aBackslashBeforeAControlCharacter_goesWithIt_soTheCardWrittenReadsTheSame() throws {
        // Given the shape fuzz-vcard found (stop 36): an escaping backslash right before a NUL,
        // which the reader reads as the NUL (then drops); and an escaped backslash before one
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bf3ly\\\u{0}\r\nFN:Bug\\\\\u{0} 195\r\nEND:VCARD\r\n"
        // When
        let contact = try readOne(card)
        let converted = VCardVersionConverter.convert(["UID:bf3ly\\\u{0}", "NOTE:a\\\u{0}n"], from: .v3, to: .v4)
        let back = try readOne(VCardWriter(version: .v4).card(for: contact))
        // Then: the lone backslash leaves with the NUL (else `a\<NUL>n` would be written as a line break)
        XCTAssertEqual(contact.uid, "bf3ly")
        XCTAssertEqual(contact.fullName, "Bug\\ 195")
        XCTAssertEqual(converted.lines, ["UID:bf3ly", "NOTE:an"])
        XCTAssertEqual(back.uid, contact.uid)
        XCTAssertEqual(back.fullName, contact.fullName)
    }

    func test_read_aUIDWithControlCharacters_readsWithoutThem_asTheExportWritesIt() throws {
        // Given the shape fuzz-vcard found: ESCs inside a UID (the export wrote them raw, in a new UID line)
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bf3ly\u{1B}\u{1B}\u{1B}965h\r\nFN:bug 195\r\nEND:VCARD\r\n"
        // When
        let contact = try readOne(card)
        let written = VCardWriter(version: .v3).card(for: contact)
        // Then
        XCTAssertEqual(contact.uid, "bf3ly965h")
        XCTAssertEqual(
            // N, required in 3.0
            written, "BEGIN:VCARD\r\nVERSION:3.0\r\nN:195;bug;;;\r\nUID:bf3ly965h\r\nFN:bug 195\r\nEND:VCARD\r\n")
        XCTAssertEqual(try readOne(written).uid, contact.uid)
    }

    func test_exportAs30_aBirthdayTheReaderReadsButTheConverterDidNotParse_staysTheBirthday() throws {
        // Given the shape fuzz-vcard found (a date-time whose time is none), and 4.0's text birthdays
        let values = ["BDAY:1990-05-17T00:00L;x", "BDAY;VALUE=text:1990-05-17", "BDAY;VALUE=text:--0517"]
        for value in values {
            let contact = try readOne("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\n\(value)\r\nEND:VCARD\r\n")
            // When
            let written = VCardWriter(version: .v3).card(for: contact)
            // Then
            XCTAssertNotNil(contact.birthday, value)
            XCTAssertEqual(try readOne(written).birthday, contact.birthday, written)
            XCTAssertFalse(written.contains("X-BDAY"), written)
        }
    }

    func test_roundTrip_aLineFoldedAfterAnEquals_whoseParameterOnlyMentionsQuotedPrintable_readsBackTheSame() throws {
        // Given the shape fuzz-vcard found: `CODING=QUOTED-PRINTABLE` (no ENCODING) and a fold after `=`,
        // which the reader took for a QP soft line break
        let line = "X-ANDROID-CUSTOM;CODING=QUOTED-PRINTABLE:vnd.android.cursor.item/nickname;=C3=91o=C3=B1o;1;;;"
        let contact = try readOne("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\n\(line)\r\nEND:VCARD\r\n")
        // When
        let written = VCardWriter(version: .v3).card(for: contact)
        // Then
        XCTAssertTrue(written.contains("nickname;=\r\n C3=91o"), written) // the fold this is about
        XCTAssertEqual(try readOne(written).extraProperties, [line])
    }

    func test_isQuotedPrintable_namesTheEncodingParameter_notTextThatMentionsIt() {
        func qp(_ line: String) -> Bool { VCardContentLines.isQuotedPrintable(Array(line.utf8)) }
        XCTAssertTrue(qp("NOTE;ENCODING=QUOTED-PRINTABLE:a="))
        XCTAssertTrue(qp("NOTE;encoding=quoted-printable;CHARSET=UTF-8:a="))
        XCTAssertTrue(qp("NOTE;CHARSET=UTF-8;QUOTED-PRINTABLE:a="))
        XCTAssertFalse(qp("X-A;CODING=QUOTED-PRINTABLE:a="))
        XCTAssertFalse(qp("X-A;X-P=\"x;QUOTED-PRINTABLE\":a="))
        XCTAssertFalse(qp("PHOTO;ENCODING=BASE64;QUOTED-PRINTABLE:a="))
        XCTAssertFalse(qp("NOTE:QUOTED-PRINTABLE="))
    }

    func test_export_aLineWithAnEmptyParameterOnceItsControlsAreGone_isWrittenValid() throws {
        // Given the shape fuzz-vcard found: `N;\0:` is `N;:` without its NUL, an empty parameter
        let contact = try readOne("BEGIN:VCARD\r\nVERSION:3.0\r\nN;\u{0}:Brown;Gwendolina;;;\r\nEND:VCARD\r\n")
        for version in [VCardWriter.Version.v3, .v4] {
            // When
            let written = VCardWriter(version: version).card(for: contact)
            // Then
            XCTAssertTrue(written.contains("\r\nN:Brown;Gwendolina;;;\r\n"), written)
            XCTAssertEqual(try readOne(written).withoutCard, contact.withoutCard)
        }
    }

    func test_save_aDisplayNameWithTwoSpaces_unchanged_keepsTheCardAsItCame() throws {
        // Given the shape fuzz-vcard found: FN with two spaces in a row, which every save tidied
        // (rewriting FN, a change nobody made)
        let contact = try readOne("BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lee;Ann;;;\r\nFN:Ann  Lee\r\nEND:VCARD\r\n")
        // When
        let saved = CardPatch.reconciled(contact)
        // Then
        XCTAssertEqual(contact.formattedName, "Ann  Lee")
        XCTAssertEqual(saved, contact)
    }

    func test_save_aDisplayNameWithTwoSpaces_renamed_isTidied() throws {
        // Given
        var contact = try readOne("BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lee;Ann;;;\r\nFN:Ann  Lee\r\nEND:VCARD\r\n")
        // When
        contact.givenName = "Anne"
        let saved = CardPatch.reconciled(contact)
        // Then: the rename's own display name, derived from the parts
        XCTAssertEqual(saved.formattedName, "")
        XCTAssertEqual(saved.card?.lines, ["VERSION:3.0", "N:Lee;Anne;;;", "FN:Anne Lee"])
    }

    func test_cardLines_aKeptLineEndingInACarriageReturn_isOneLine() throws {
        // Given the shape fuzz-vcard found: a line kept with a CR at its end (`FN:Tim\r\r\n` kept
        // one), which with the LF joining the record's lines made one Character ("\r\n") that
        // `lines` did not split at
        let record = VCardRecord(lines: ["VERSION:3.0", "FN:Tim\r", "ORG:Net\r", "NOTE:x"])
        var contact = try XCTUnwrap(VCardReader.view(of: record)).contact
        contact.card = record
        // When / Then
        XCTAssertEqual(record.lines, ["VERSION:3.0", "FN:Tim\r", "ORG:Net\r", "NOTE:x"])
        XCTAssertEqual(record.version, .v3)
        XCTAssertEqual(CardPatch.reconciled(contact), contact)
    }

    func test_export_aLineStartingWithASpaceOnceItsControlsAreGone_isNotWrittenAsAFold() throws {
        // Given a NUL before a space at a line's start: without the NUL, the line would continue the one before
        let contact = try readOne("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\n\u{0} item1.X-A:b\r\nEND:VCARD\r\n")
        for version in [VCardWriter.Version.v3, .v4] {
            // When
            let written = VCardWriter(version: version).card(for: contact)
            // Then
            XCTAssertTrue(written.contains("\r\nitem1.X-A:b\r\n"), written)
            XCTAssertEqual(try readOne(written).extraProperties, ["item1.X-A:b"])
        }
    }

    func test_exportAs30_aTelURIHoldingAnEscapedColon_readsBackTheSameNumber() throws {
        // Given the shape fuzz-vcard found: `\:` inside a tel: URI, escaped twice on its way to 3.0
        let contact = try readOne(
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nTEL;VALUE=uri:tel:+1-555-0100\\:AB;ext=7\r\nEND:VCARD\r\n")
        // When
        let written = VCardWriter(version: .v3).card(for: contact)
        // Then
        XCTAssertEqual(contact.phones.map(\.value), ["+1-555-0100:AB ext. 7"])
        XCTAssertEqual(try readOne(written).phones, contact.phones, written)
    }

    func test_exportAs30_aCardNamedNoName_readsBackAsTheSameName() throws {
        // Given the shape fuzz-vcard found: a card with nothing to name it by is named "(no name)",
        // which 3.0 writes as its FN; read back, that FN was split into "(no" and "name)"
        let contact = try readOne(
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:;;Münsterplatz 21;Ulm;;;\r\nBDAY:19781229\r\nEND:VCARD\r\n")
        // When
        let written = VCardWriter(version: .v3).card(for: contact)
        // Then
        XCTAssertEqual(contact.givenName, "(no name)")
        XCTAssertTrue(written.contains("FN:(no name)\r\n"), written)
        let back = try readOne(written)
        XCTAssertEqual(back.givenName, contact.givenName, written)
        XCTAssertEqual(back.familyName, contact.familyName, written)
    }

    func test_export_aValueQuotedPrintableOnlyOnceTheParametersControlsAreGone_writesNoControlCharacter() throws {
        // Given the shape fuzz-vcard found: NULs inside ENCODING (so the reader left the value
        // encoded), which the export removed, then decoded `=C2=91`, a C1 control
        let card =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Lee;Ann\r\n"
            + "FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABL\u{0}\u{0}\u{4}E:=C2=91=20=C3=91=20\r\nEND:VCARD\r\n"
        let contact = try readOne(card)
        for version in [VCardWriter.Version.v3, .v4] {
            // When
            let written = VCardWriter(version: version).card(for: contact)
            // Then
            XCTAssertFalse(
                written.unicodeScalars.contains {
                    VCardVersionConverter.ControlCharacters.isControl($0) && $0 != "\r" && $0 != "\n"
                }, written)
            // The reader keeps a value whose ENCODING it cannot name as it came (CHARSET read and
            // removed): written as that text, never as the control it would decode to
            XCTAssertTrue(written.contains("\r\nFN:=C2=91=20=C3=91=20\r\n"), written)
        }
    }

    func test_save_aBirthdayAndNoteAddedWhileTheLastEmailIsRemoved_areKept() throws {
        // Given the shape fuzz-vcard found: the new BDAY and NOTE went after the last email, and
        // removing that email took them with it
        // When
        let save = try savedAndReadBack(
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Chloé Martin\r\nN:Martin;Chloé;;;\r\n"
                + "EMAIL;TYPE=work:c@acme.example\r\nEMAIL;TYPE=home:c@mail.example\r\nEND:VCARD\r\n"
        ) {
            $0.emails.removeLast()
            $0.birthday = Birthday(year: 2000, month: 2, day: 29)
            $0.notes = "Met in Lyon"
        }
        // Then
        XCTAssertEqual(
            save.card.lines,
            [
                "VERSION:4.0", "FN:Chloé Martin", "N:Martin;Chloé;;;", "EMAIL;TYPE=work:c@acme.example",
                "BDAY:20000229", "NOTE:Met in Lyon",
            ])
        XCTAssertEqual(save.view.birthday, save.edited.birthday)
        XCTAssertEqual(save.view.notes, save.edited.notes)
        XCTAssertEqual(save.view.emails, save.edited.emails)
    }

    func test_exportAs30_aParameterNameHoldingAQuote_isDropped() throws {
        // Given the shape fuzz-vcard found: a quote in a parameter's name, which the reader takes,
        // written anew with its value's quote escaped (`^'`): a quoted value that never closed
        let contact = try readOne(
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nTEL;VALUE=uri;TYP\"w=Eork,voice\";PREF=1:tel:+33-1\r\nEND:VCARD\r\n")
        // When
        let written = VCardWriter(version: .v3).card(for: contact)
        // Then
        XCTAssertTrue(written.contains("\r\nTEL;TYPE=pref:+33-1\r\n"), written)
        XCTAssertEqual(try readOne(written).phones.map(\.value), ["+33-1"])
    }

    func test_exportAs30_aParameterNameThatIsNoName_isDropped_notMendedIntoAnother() throws {
        // Given the shape fuzz-vcard found: `C`HARSET=`, which mended to CHARSET= a second export removed
        let card =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Lee;Ann\r\nFN;C`HARSET=;TF-8;ENCODING=QUOTED-PRINTABLE:Ann=20Lee\r\nEND:VCARD\r\n"
        let contact = try readOne(card)
        // When
        let written = VCardWriter(version: .v3).card(for: contact)
        // Then
        XCTAssertTrue(written.contains("\r\nFN;TYPE=TF-8:Ann Lee\r\n"), written)
        XCTAssertEqual(VCardWriter(version: .v3).card(for: try readOne(written)), written)
    }

    func test_exportAs30_aTelURIsNumber_isWrittenAsTheReaderShowsIt() throws {
        // Given the shape fuzz-vcard found (a tab before `;ext=`, kept in 3.0, trimmed by the reader),
        // an empty extension, and two
        let lines = [
            "TEL;VALUE=uri:tel:+1-\t;ext=7", "TEL;VALUE=uri:tel:+1-555;ext=", "TEL;VALUE=uri:tel:+1-556;ext=1;ext=2",
        ]
        let contact = try readOne(
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VCARD\r\n")
        // When
        let written = VCardWriter(version: .v3).card(for: contact)
        // Then
        XCTAssertEqual(contact.phones.map(\.value), ["+1- ext. 7", "+1-555", "+1-556 ext. 2"])
        XCTAssertEqual(try readOne(written).phones, contact.phones, written)
    }

    func test_save_aCardWhoseNHoldsNoName_editedWithANewPhone_keepsTheNameItWasGiven() throws {
        // Given the shape fuzz-vcard found after the reader's merge: N without a family or given
        // name, so the card reads as "(no name)"; a phone added named it after the phone
        // When
        let save = try savedAndReadBack(
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:;;Münsterplatz 21;Ulm;;;\r\n"
                + "LABEL;HOME:Münsterplatz 21\r\nEND:VCARD\r\n"
        ) { $0.phones.append(LabeledValue(label: "work", value: "+1 555 0199")) }
        // Then
        XCTAssertEqual(save.view.givenName, save.contact.givenName)
        XCTAssertEqual(save.view.familyName, save.contact.familyName)
        XCTAssertEqual(save.view.phones, save.edited.phones)
    }

    func test_save_aCardWhoseNHoldsControlCharactersAlone_editedWithANewPhone_keepsTheNameItWasGiven() throws {
        // Given the shape fuzz-vcard found next: N's given name control characters alone, which
        // the reader drops, so the card reads as "(no name)"; a phone added named it after the phone
        // When
        let save = try savedAndReadBack(
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:;\u{1}\u{2};Münsterplatz 21;Ulm;;;\r\n"
                + "LABEL;HOME:Münsterplatz 21\r\nEND:VCARD\r\n"
        ) { $0.phones.append(LabeledValue(label: "work", value: "+1 555 0199")) }
        // Then
        XCTAssertEqual(save.contact.givenName, "(no name)")
        XCTAssertEqual(save.view.givenName, save.contact.givenName)
        XCTAssertEqual(save.view.familyName, save.contact.familyName)
        XCTAssertEqual(save.view.phones, save.edited.phones)
    }

    func test_read_namesWithoutControlCharacters_asTheExportWritesThem() throws {
        // Given the shapes fuzz-vcard found after the reader's merge: an N of control characters
        // alone (exported, it named nobody and did not read back), and a card named after an email holding a NUL
        let onlyControls = sut.read(Data("BEGIN:VCARD\r\nVERSION:3.0\r\nN:\u{5}\u{0}\u{0}\r\nEND:VCARD\r\n".utf8))
        let byEmail = try readOne("BEGIN:VCARD\r\nVERSION:3.0\r\nEMAIL:jane@example.com\u{0}\r\nEND:VCARD\r\n")
        let byFN = try readOne("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\u{1}\r\nEND:VCARD\r\n")
        // Then
        XCTAssertEqual(onlyControls.entries.count, 0)
        XCTAssertEqual(onlyControls.problems.count, 1)
        XCTAssertEqual(byEmail.givenName, "jane@example.com")
        XCTAssertEqual(byFN.givenName, "Ann")
        XCTAssertEqual(try readOne(VCardWriter(version: .v3).card(for: byEmail)).givenName, "jane@example.com")
    }

    func test_roundTrip_aValueStartingWithACombiningMark_keepsItsNameAndValue() throws {
        // Given the shape fuzz-vcard found in CI: `N:` then U+0618, which joins the colon into one Character
        let card =
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:\u{0618}x\r\nN:\u{0618}\u{0432}\u{0430}\u{043D}\u{043E}\u{0432};Bj\u{00F6}rn;;;\r\nUID:\u{0301}id\r\nIMPP:\u{0301}x\r\nEND:VCARD\r\n"
        let contacts = read(card)
        // When
        let written = contacts.map(VCardWriter().card(for:)).joined()
        let again = read(written)
        // Then
        XCTAssertEqual(contacts.first?.familyName, "\u{0618}\u{0432}\u{0430}\u{043D}\u{043E}\u{0432}")
        XCTAssertEqual(contacts.first?.givenName, "Bj\u{00F6}rn")
        let uidLines = written.splitting(onASCII: "\r\n").filter { $0.utf8.starts(with: "UID:".utf8) }
        XCTAssertEqual(uidLines, ["UID:\u{0301}id"], written) // the card's own UID, once
        XCTAssertEqual(again.map(\.withoutCard), contacts.map(\.withoutCard))
    }

    func test_splitAtFirst_findsTheColonBeforeACombiningMark() {
        // When / Then: by Characters, ":\u{0618}" is one grapheme and holds no ":"
        XCTAssertNil("N:\u{0618}x".firstIndex(of: ":"))
        XCTAssertEqual("N:\u{0618}x".splitAtFirst(":")?.head, "N")
        XCTAssertEqual("N:\u{0618}x".splitAtFirst(":")?.rest, "\u{0618}x")
        XCTAssertNil("N".splitAtFirst(":"))
    }

    func test_read21_aBackslashBeforeAControlCharacter_goesWithIt_asInTheCardWrittenFromIt() throws {
        // Given the shape fuzz-vcard found after the sixteenth session's merge: a 2.1 N whose
        // backslash precedes NULs (the reader kept it, `A\`, where the 3.0 export dropped it: `A`)
        let card = "BEGIN:VCARD\r\nVERSION:2.1\r\nN:;A\\\u{0}\u{0};B\\\\\r\nEND:VCARD\r\n"
        // When
        let contact = try readOne(card)
        let inThree = try readOne(VCardWriter(version: .v3).card(for: contact))
        let inFour = try readOne(VCardWriter(version: .v4).card(for: contact))
        // Then
        XCTAssertEqual(contact.givenName, "A")
        XCTAssertEqual(contact.fullName, "A")
        for written in [inThree, inFour] {
            XCTAssertEqual([written.givenName, written.fullName], ["A", "A"])
        }
    }

    func test_save_anEmailRemoved_whoseGroupHoldsAKeptProperty_takesItsLabelWithIt() throws {
        // Given the shape fuzz-vcard found in CI (seed 1): Apple's labelled email, its group also
        // holding a property with no field; the label stayed and read back as a property of its own
        // When
        let save = try savedAndReadBack(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A B\r\nN:B;A;;;\r\nEMAIL:a@example.com\r\n"
                + "item1.EMAIL;TYPE=INTERNET:custom@example.com\r\nitem1.X-ABLLAST-NAME:Phonetic\r\n"
                + "item1.X-ABLabel:CustomEmailCategory\r\nEND:VCARD\r\n"
        ) { edited in edited.emails.removeAll { $0.value == "custom@example.com" } }
        // Then
        XCTAssertEqual(save.contact.emails.map(\.label), ["other", "CustomEmailCategory"])
        XCTAssertEqual(save.view.emails, save.edited.emails)
        XCTAssertEqual(save.view.extraProperties, ["item1.X-ABLLAST-NAME:Phonetic"])
        XCTAssertEqual(save.view.extraProperties, save.contact.extraProperties)
    }

    func test_save_anEmailRemoved_whoseGroupHoldsAPhone_leavesTheLabelToThePhone() throws {
        // Given a group whose label two items read (Apple writes one item a group; others may not)
        // When
        let save = try savedAndReadBack(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A B\r\nitem1.EMAIL:custom@example.com\r\n"
                + "item1.TEL:+1 555 0100\r\nitem1.X-ABLabel:Cabin\r\nEND:VCARD\r\n"
        ) { $0.emails = [] }
        // Then
        XCTAssertEqual(save.contact.phones.map(\.label), ["Cabin"])
        XCTAssertEqual(save.view.phones, save.contact.phones)
        XCTAssertEqual(save.view.emails, [])
        XCTAssertEqual(save.view.extraProperties, [])
    }

    func test_save_aCardOfTwoN_theLastNamingNobody_editedWithANewPhone_keepsTheNameItWasGiven() throws {
        // Given the shape fuzz-vcard found (seed 2): two N, the first naming someone, the last
        // (the one the reader reads) naming nobody; the save looked at the first, so a phone named it
        // When
        let save = try savedAndReadBack(
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:bogus\r\nN:;;Münsterplatz 21;Ulm;;;\r\n"
                + "ADR;HOME:;;Grindelberg 999;Hamburg;;99999;Deutschland\r\nEND:VCARD\r\n"
        ) { $0.phones.append(LabeledValue(label: "work", value: "+1 555 0199")) }
        // Then
        XCTAssertEqual(save.contact.givenName, "(no name)")
        XCTAssertEqual([save.view.givenName, save.view.familyName], [save.contact.givenName, save.contact.familyName])
        XCTAssertEqual(save.view.phones, save.edited.phones)
    }

    func test_save_aCardOfTwoN_renamed_readsBackAsTheNewName() throws {
        // Given two N (the reader reads the last); the rename went into the first
        // When
        let save = try savedAndReadBack(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Old;First;;;\r\nN:Doe;Jane;;;\r\nEND:VCARD\r\n"
        ) { $0.givenName = "Janet" }
        // Then
        XCTAssertEqual([save.contact.givenName, save.contact.familyName], ["Jane", "Doe"])
        XCTAssertEqual([save.view.givenName, save.view.familyName], ["Janet", "Doe"])
    }

    func test_save_theFirstOfTwoEqualAddresses_edited_staysFirst_theOtherAsItCame() throws {
        // Given the shape fuzz-vcard found (seed 4) once its edits changed an address: the same
        // address twice; the edit was read as a new address after the last and the first removed
        // When
        let save = try savedAndReadBack(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nADR;TYPE=home:;;1 Main St;Ulm;;89073;\r\nNOTE:n\r\n"
                + "ADR;TYPE=home:;;1 Main St;Ulm;;89073;\r\nEND:VCARD\r\n"
        ) { $0.addresses[0].city = "Edited, City" }
        // Then
        XCTAssertEqual(save.view.addresses, save.edited.addresses)
        XCTAssertEqual(save.card.lines.last, "ADR;TYPE=home:;;1 Main St;Ulm;;89073;")
    }

    func test_save_theFirstOfTwoEqualPreferredEmails_relabelled_staysPreferredAndFirst() throws {
        // Given the shape fuzz-vcard found (seed 5): a 4.0 card's preferred email twice
        // When
        let save = try savedAndReadBack(
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nEMAIL;TYPE=work:z@example.com\r\n"
                + "EMAIL;PREF=1;TYPE=home:m@example.com\r\nEMAIL;PREF=1;TYPE=home:m@example.com\r\nEND:VCARD\r\n"
        ) { $0.emails[0].label = "work" }
        // Then
        XCTAssertEqual(save.contact.emails.map(\.value), ["m@example.com", "m@example.com", "z@example.com"])
        XCTAssertEqual(save.view.emails, save.edited.emails)
    }

    func test_save_aCompoundValueEndingInALoneBackslash_otherPartsChanged_keepsTheBackslash() throws {
        // Given the shape fuzz-vcard found (seed 4) once its edits changed an address: an ADR whose
        // street ends its value in a lone backslash, and an N whose additional name does
        // When
        let save = try savedAndReadBack(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jane;Q\\\r\nADR;TYPE=home:;;Brevern\\\r\nEND:VCARD\r\n"
        ) {
            $0.addresses[0].city = "Edited, City"
            $0.givenName = "Ann"
        }
        // Then: the city and given name after them, each backslash still one
        XCTAssertEqual(save.contact.addresses.map(\.street), ["Brevern\\"])
        XCTAssertEqual(save.view.addresses, save.edited.addresses)
        XCTAssertEqual([save.view.givenName, save.view.familyName], ["Ann", "Doe"])
        XCTAssertTrue(save.card.lines.contains("N:Doe;Ann;Q\\\\;;"), "\(save.card.lines)")
    }

    func test_save_textPropertiesSaidToBeBase64_edited_readBackWithTheirSpaces() throws {
        // Given the shape fuzz-vcard found (seed 5): a 2.1 ADR with a bare `b` among its parameters
        // (base64, whose spaces the reader takes out), and a NOTE said to be base64
        // When
        let save = try savedAndReadBack(
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:A;B;;;\r\nADR;HOME;b:;;1 Main St;Paris;;;\r\n"
                + "NOTE;ENCODING=BASE64:a note\r\nEND:VCARD\r\n"
        ) {
            $0.addresses[0].city = "Edited, City"
            $0.notes = "An edited note"
        }
        // Then
        XCTAssertEqual(save.contact.addresses.map(\.street), ["1MainSt"])
        XCTAssertEqual(save.view.addresses, save.edited.addresses)
        XCTAssertEqual(save.view.notes, "An edited note")
        XCTAssertTrue(save.card.lines.contains("ADR;HOME:;;1MainSt;Edited, City;;;"), "\(save.card.lines)")
    }

    func test_roundTrip_aCardNamedAfterAnEmailWithASpace_readsBackAsThatName() throws {
        // Given the shape fuzz-vcard found (seed 6): a card whose N names nobody, named after its
        // email, which holds a space; its export's FN was read back split into given and family names
        let contact = try readOne(
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:;;Post 9;Ulm;;;\r\nEMAIL:jane@\\nPost 9;Ulm\r\nEND:VCARD\r\n")
        // When
        let three = try readOne(VCardWriter(version: .v3).card(for: contact))
        let four = try readOne(VCardWriter(version: .v4).card(for: contact))
        // Then
        XCTAssertEqual(contact.givenName, "jane@\nPost 9;Ulm")
        for back in [three, four] {
            XCTAssertEqual([back.givenName, back.familyName], [contact.givenName, ""])
        }
    }

    func test_save_aCardWithoutN_whoseFNIsItsNickname_emailRemoved_keepsItsNames() throws {
        // Given Evolution's custom-1.vcf: no N, FN and NICKNAME the same; read as given and family
        // When
        let save = try savedAndReadBack(
            "BEGIN:VCARD\r\nUID:custom-1\r\nFN:Micheal Jackson\r\nNICKNAME:Micheal Jackson\r\n"
                + "EMAIL;TYPE=home,work:micheal@jackson.com\r\nEND:VCARD\r\n"
        ) { $0.emails = [] }
        // Then: a nickname is a name, not what a nameless card is named after
        XCTAssertEqual([save.contact.givenName, save.contact.familyName], ["Micheal", "Jackson"])
        XCTAssertEqual([save.view.givenName, save.view.familyName], ["Micheal", "Jackson"])
    }

    func test_save_aPhoneRelabelled_whoseGroupHasTwoLabels_readsBackRelabelled() throws {
        // Given the shape fuzz-vcard found (seed 5): a group with two X-ABLabel (the reader reads
        // the last); the relabel rewrote the first
        // When
        let save = try savedAndReadBack(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nitem1.TEL:+49 1234 56788\r\nitem1.X-ABLabel:Old\r\n"
                + "item1.X-ABLabel:Useless\r\nEND:VCARD\r\n"
        ) { $0.phones[0].label = "Lab bench" }
        // Then
        XCTAssertEqual(save.contact.phones.map(\.label), ["Useless"])
        XCTAssertEqual(save.view.phones, save.edited.phones)
    }

    func test_save_anEmailRelabelledToAType_whoseGroupHasTwoLabels_takesBothLabelsWithIt() throws {
        // Given the shape fuzz-vcard found (seed 11): a group with two X-ABLabel; relabelled "work",
        // the email is written anew as TYPE=work outside its group, and only the last label went
        // When
        let save = try savedAndReadBack(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nitem1.EMAIL:a@example.com\r\nitem1.X-ABLabel:Old\r\n"
                + "item1.X-ABLabel:Custom\r\nEND:VCARD\r\n"
        ) { $0.emails[0].label = "work" }
        // Then
        XCTAssertEqual(save.contact.emails.map(\.label), ["Custom"])
        XCTAssertEqual(save.view.emails, save.edited.emails)
        XCTAssertEqual(save.view.extraProperties, [])
        XCTAssertFalse(save.card.lines.contains { $0.contains("X-ABLabel") }, "\(save.card.lines)")
    }

    func test_exportAs40_aLabelStartingWithAColonAndACombiningMark_isQuotedInItsADR() throws {
        // Given the shape fuzz-vcard found (seed 16): a LABEL of `:` and U+0301 (one Character,
        // which is no `:`), kept in 4.0 as its ADR's LABEL parameter; unquoted, its colon ended the name
        let contact = try readOne(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nADR:;;t;;;;\r\nLABEL::\u{0301}\r\nEND:VCARD\r\n")
        // When
        let written = VCardWriter(version: .v4).card(for: contact)
        // Then
        XCTAssertTrue(written.contains("ADR;LABEL=\":\u{0301}\":;;t;;;;\r\n"), written)
        XCTAssertEqual(try readOne(written).addresses, contact.addresses)
    }

    func test_parameterValue_withCombiningMarks_readsBackAsWritten() throws {
        // Given values whose quote, caret, `n` or separator a combining mark follows (or starts)
        let values = [
            "\u{0301}a:b", "a\"\u{0301}b", "^\u{0301}", "x^\u{0301}n\u{0301}", ";\u{0301}", "\u{0301}", "a\nb",
        ]
        for value in values {
            // When
            let written = VCardVersionConverter.Property.parameterValue(value)
            let property = try VCardProperty(
                VCardContentLine(bytes: Array("ADR;LABEL=\(written):;;street".utf8), line: 1))
            // Then
            XCTAssertEqual(property.values(of: "LABEL"), [value], written)
            XCTAssertEqual(property.value, ";;street", written)
        }
    }

    func test_read_aCardWithTwoVersionLines_isReadByTheOneItIsWrittenBy() throws {
        // Given the shape fuzz-vcard found (a random run): a first VERSION line that names no
        // version, then `VERSION:2.1`, and a 2.1 name with a backslash that escapes nothing
        let card = "BEGIN:VCARD\r\nVERSION:GIN:VCARD\r\nVERSION:2.1\r\nN:;A\\Ux;;;\r\nEND:VCARD\r\n"
        // When
        let contact = try readOne(card)
        // Then: read as 2.1 (the backslash kept), as the writer converts it; the FN an export adds
        // reads back as the same name
        XCTAssertEqual(contact.card?.version, .v21)
        XCTAssertEqual(contact.givenName, "A\\Ux")
        XCTAssertEqual(contact.fullName, "A\\Ux")
        for version in [VCardWriter.Version.v3, .v4] {
            let written = VCardWriter(version: version).card(for: contact)
            XCTAssertTrue(written.contains("FN:A\\\\Ux\r\n"), written)
            XCTAssertEqual(try readOne(written).fullName, "A\\Ux", written)
        }
    }

    func test_read_aVersionLineTheWriterDoesNotCount_doesNotMakeTheCard21() throws {
        // Given VERSION lines a card's record does not take as its version (a parameter, a group):
        // the card is 3.0 to the writer, so its text is read as 3.0 (`\,` is a comma). These read
        // so before the one rule too; kept so the rule keeps holding for them.
        for head in ["VERSION;X-A=b:2.1", "item1.VERSION:2.1"] {
            let card = "BEGIN:VCARD\r\n\(head)\r\nFN:a\\,b\r\nEND:VCARD\r\n"
            // When
            let contact = try readOne(card)
            // Then
            XCTAssertEqual(contact.card?.version, .v3, head)
            XCTAssertEqual(contact.fullName, "a,b", head)
            XCTAssertEqual(try readOne(VCardWriter(version: .v3).card(for: contact)).fullName, "a,b", head)
        }
    }
}
