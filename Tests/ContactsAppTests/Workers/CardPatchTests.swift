import XCTest

@testable import ContactsApp

/// An edit touches only the properties of the fields it changes; the rest of a real card stays
/// as the phone or server wrote it (issue 25).
final class CardPatchTests: XCTestCase {
    /// An iPhone-style 3.0 card with what the issue found lost: FN unlike N, N's five parts, two
    /// nicknames, ORG units, two TITLEs and NOTEs, a tel: URI with an extension, Apple's item
    /// groups and built-in labels, ADR's extended address, a BDAY with a time, and a photo.
    static let card = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        PRODID:-//Apple Inc.//iPhone OS 17.0//EN\r
        N:Doe;John;Q;Mr.;III\r
        FN:John Doe III\r
        NICKNAME:Nick1,Nick2\r
        ORG:TheCompany;TheDepartment\r
        TITLE:First title\r
        TITLE:Second title\r
        item1.TEL;TYPE=VOICE,MSG,WORK:tel:+1-418-656-9254;ext=102\r
        item2.TEL:+44 20 7946 0000\r
        item2.X-ABLabel:_$!<AssistantPhone>!$_\r
        item3.EMAIL;type=INTERNET;type=pref:john@work.example\r
        item3.X-ABLabel:_$!<Other>!$_\r
        EMAIL;type=INTERNET;type=HOME:john@home.example\r
        ADR;TYPE=WORK:;TheOffice;123 Main St;Springfield;IL;62701;USA\r
        BDAY:1996-04-15T201243+04:00\r
        NOTE:first note\r
        NOTE:second note\r
        X-SOCIALPROFILE;type=twitter:https://x.example/john\r
        PHOTO;ENCODING=b;TYPE=JPEG:AAECAwQ=\r
        UID:john-1\r
        END:VCARD\r

        """

    private var contact: Contact!
    private var lines: [String] { contact.card?.lines ?? [] }

    override func setUp() {
        super.setUp()
        contact = VCardReader().read(Data(Self.card.utf8)).entries.first?.contact
    }

    private func patched(_ edit: (inout Contact) -> Void) -> [String] {
        var edited = contact!
        edit(&edited)
        return CardPatch.reconciled(edited).card?.lines ?? []
    }

    /// The card's lines but the ones named, as a changed card should have kept them.
    private func linesExcept(_ changed: [String: String?]) -> [String] {
        lines.compactMap { line in changed.keys.contains(line) ? changed[line]! : line }
    }

    // MARK: - Read

    func test_read_keepsTheWholeCard_andShowsWhatItHolds() throws {
        // Then: every line kept, VERSION among them, in order
        XCTAssertEqual(
            lines,
            Self.card.components(separatedBy: "\r\n").filter {
                !$0.isEmpty && $0 != "BEGIN:VCARD" && $0 != "END:VCARD"
            })
        XCTAssertEqual(contact.fullName, "John Doe III")
        XCTAssertEqual(contact.givenName, "John")
        XCTAssertEqual(contact.familyName, "Doe")
        XCTAssertEqual(contact.nickname, "Nick1, Nick2")
        XCTAssertEqual(contact.title, "First title")
        XCTAssertEqual(contact.emails.first?.value, "john@work.example") // preferred first
    }

    func test_anUnchangedContact_keepsItsCardByteForByte() {
        XCTAssertEqual(patched { _ in }, lines)
        XCTAssertEqual(patched { $0.updatedAt = Date(timeIntervalSince1970: 1_700_000_000) }, lines)
    }

    // MARK: - Names

    func test_renamingTheGivenName_touchesOnlyNAndFN_keepingAdditionalNamesPrefixAndSuffix() {
        let result = patched { $0.givenName = "Jon" }
        XCTAssertEqual(
            result, linesExcept(["N:Doe;John;Q;Mr.;III": "N:Doe;Jon;Q;Mr.;III", "FN:John Doe III": "FN:Jon Doe III"]))
    }

    func test_aCompanysDisplayName_staysWhenTheNameChangesAroundIt() throws {
        // Given: FN:Acme Support with ORG:Acme and no N
        let card =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Acme Support\r\nORG:Acme\r\nEMAIL:help@acme.example\r\nEND:VCARD\r\n"
        var acme = try XCTUnwrap(VCardReader().read(Data(card.utf8)).entries.first?.contact)
        XCTAssertEqual(acme.fullName, "Acme Support")
        // When: only the email changes
        acme.emails[0].value = "support@acme.example"
        let saved = CardPatch.reconciled(acme)
        // Then
        XCTAssertEqual(saved.fullName, "Acme Support")
        XCTAssertEqual(saved.card?.lines, ["VERSION:3.0", "FN:Acme Support", "ORG:Acme", "EMAIL:support@acme.example"])
    }

    func test_nicknames_stayAList_andAnEditedTitleChangesTheFirstOnly() {
        let result = patched {
            $0.title = "Boss"; $0.nickname = "Nick1, Nick3"
        }
        XCTAssertEqual(
            result, linesExcept(["TITLE:First title": "TITLE:Boss", "NICKNAME:Nick1,Nick2": "NICKNAME:Nick1,Nick3"]))
    }

    func test_aNamelessCard_namedAfterItsEmail_getsNAndFNWhenNamed() throws {
        // Given: a card with only an email, named after it on import
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nEMAIL:bo@example.org\r\nEND:VCARD\r\n"
        var bo = try XCTUnwrap(VCardReader().read(Data(card.utf8)).entries.first?.contact)
        XCTAssertEqual(CardPatch.reconciled(bo).card, bo.card) // unchanged: nothing to patch
        // When
        bo.givenName = "Bo"
        bo.familyName = "Ek"
        let saved = CardPatch.reconciled(bo)
        // Then
        XCTAssertEqual(saved.card?.lines, ["VERSION:3.0", "N:Ek;Bo;;;", "FN:Bo Ek", "EMAIL:bo@example.org"])
    }

    func test_aNamelessCard_editedElsewhere_statesTheNameItWasGiven() throws {
        // Given: named after its email on import; then the email is replaced (the shape fuzz-vcard found)
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nEMAIL:nobody@example.org\r\nTEL:+1 555 0199\r\nEND:VCARD\r\n"
        var contact = try XCTUnwrap(VCardReader().read(Data(card.utf8)).entries.first?.contact)
        contact.emails = []
        // When
        let saved = CardPatch.reconciled(contact)
        // Then: read again, it is still the contact that was saved
        XCTAssertEqual(
            saved.card?.lines, ["VERSION:3.0", "N:;nobody@example.org;;;", "FN:nobody@example.org", "TEL:+1 555 0199"])
        let back = try XCTUnwrap(VCardReader.view(of: try XCTUnwrap(saved.card))?.contact)
        XCTAssertEqual(back.givenName, "nobody@example.org")
    }

    func test_aCardThatNoLongerReads_isDropped_ratherThanSentStale() {
        var contact = Contact(uid: "x", givenName: "Ann", card: VCardRecord(lines: ["VERSION:3.0", "no colon here"]))
        contact = CardPatch.reconciled(contact)
        XCTAssertNil(contact.card)
    }

    // MARK: - Phones, emails, addresses

    func test_aPhoneChangedInPlace_keepsItsGroupParametersAndURIForm() {
        XCTAssertEqual(contact.phones[0].value, "+1-418-656-9254 ext. 102")
        let result = patched { $0.phones[0].value = "+1-418-656-0000 ext. 7" }
        XCTAssertEqual(
            result,
            linesExcept([
                "item1.TEL;TYPE=VOICE,MSG,WORK:tel:+1-418-656-9254;ext=102":
                    "item1.TEL;TYPE=VOICE,MSG,WORK:tel:+1-418-656-0000;ext=7"
            ]))
    }

    func test_anAppleBuiltInLabel_isShownAsWords_andKeptVerbatimWhenTheValueChanges() {
        XCTAssertEqual(contact.phones[1].label, "assistantphone")
        let result = patched { $0.phones[1].value = "+44 20 7946 1111" }
        XCTAssertEqual(result, linesExcept(["item2.TEL:+44 20 7946 0000": "item2.TEL:+44 20 7946 1111"]))
    }

    func test_removingAnEmail_removesItsLabelToo_andAddingOneGoesAfterTheOthers() {
        let removed = patched { $0.emails.removeFirst() }
        XCTAssertEqual(
            removed,
            linesExcept([
                "item3.EMAIL;type=INTERNET;type=pref:john@work.example": nil, "item3.X-ABLabel:_$!<Other>!$_": nil,
            ]))
        let added = patched { $0.emails.append(LabeledValue(label: "work", value: "j@new.example")) }
        let home = lines.firstIndex(of: "EMAIL;type=INTERNET;type=HOME:john@home.example")!
        var expected = lines
        expected.insert("EMAIL;TYPE=work:j@new.example", at: home + 1)
        XCTAssertEqual(added, expected)
    }

    func test_aPreferredItemRelabelled_staysPreferred() {
        // The work email is preferred (type=pref) and labelled by its group's X-ABLabel; relabelled "home"
        let result = patched { $0.emails[0].label = "home" }
        XCTAssertEqual(
            result,
            linesExcept([
                "item3.EMAIL;type=INTERNET;type=pref:john@work.example": "EMAIL;TYPE=home;TYPE=pref:john@work.example",
                "item3.X-ABLabel:_$!<Other>!$_": nil,
            ]))
    }

    func test_oneOfTwoItemsSharingAGroupLabel_relabelled_movesOut_andTheOtherKeepsTheLabel() throws {
        // Given a group whose X-ABLabel both a phone and an email read (not Apple's habit; others write it)
        let shared = try sharedGroupCard()
        for newLabel in ["work", "Lab bench"] {
            var edited = shared
            edited.phones[0].label = newLabel
            // When
            let view = try XCTUnwrap(VCardReader.view(of: try XCTUnwrap(CardPatch.reconciled(edited).card))).contact
            // Then
            XCTAssertEqual(view.phones, edited.phones, newLabel)
            XCTAssertEqual(view.emails, shared.emails, newLabel)
            XCTAssertEqual(view.extraProperties, [], newLabel)
        }
    }

    func test_bothItemsSharingAGroupLabel_relabelledOrRemoved_leaveNoLabelBehind() throws {
        // Given the same group
        let shared = try sharedGroupCard()
        var relabelled = shared, removed = shared
        relabelled.phones[0].label = "work"
        relabelled.emails[0].label = "home"
        removed.phones = []
        removed.emails = []
        for edited in [relabelled, removed] {
            // When
            let card = try XCTUnwrap(CardPatch.reconciled(edited).card)
            let view = try XCTUnwrap(VCardReader.view(of: card)).contact
            // Then
            XCTAssertEqual(view.phones, edited.phones)
            XCTAssertEqual(view.emails, edited.emails)
            XCTAssertEqual(view.extraProperties, [])
            XCTAssertFalse(card.lines.contains { $0.hasPrefix("item1.") }, "\(card.lines)")
        }
    }

    private func sharedGroupCard() throws -> Contact {
        let contact = try XCTUnwrap(
            VCardReader().read(
                Data(
                    ("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A B\r\nitem1.TEL:+1 555 0100\r\n"
                        + "item1.EMAIL:a@example.com\r\nitem1.X-ABLabel:Cabin\r\nEND:VCARD\r\n").utf8)
            ).entries.first?.contact)
        XCTAssertEqual(contact.phones.map(\.label) + contact.emails.map(\.label), ["Cabin", "Cabin"])
        return contact
    }

    func test_aCustomLabel_isWrittenAsAnItemGroupNoOtherPropertyUses() {
        let result = patched { $0.phones.append(LabeledValue(label: "Lab bench", value: "+44 1")) }
        XCTAssertTrue(result.contains("item4.TEL:+44 1"), "\(result)")
        XCTAssertTrue(result.contains("item4.X-ABLabel:Lab bench"), "\(result)")
    }

    func test_anAddressesCityChanged_keepsItsExtendedAddressAndType() {
        let result = patched { $0.addresses[0].city = "Shelbyville" }
        XCTAssertEqual(
            result,
            linesExcept([
                "ADR;TYPE=WORK:;TheOffice;123 Main St;Springfield;IL;62701;USA":
                    "ADR;TYPE=WORK:;TheOffice;123 Main St;Shelbyville;IL;62701;USA"
            ]))
    }

    // MARK: - Other fields

    func test_notesJoinedByAnEarlierImport_areKeptApartAgain_whenTheCardStillHoldsEachNOTE() throws {
        // Given: the contact as an import between 13f2dd7 and c07495e stored it: both NOTEs joined
        // into the notes, the second not kept apart, the card holding each NOTE
        var stored = contact!
        stored.notes = "first note\nsecond note"
        stored.extraProperties.removeAll { $0 == "NOTE:second note" }
        // When: saved (every update reconciles the card), untouched or with another field edited
        let untouched = CardPatch.reconciled(stored)
        var retitled = stored
        retitled.title = "Boss"
        let edited = CardPatch.reconciled(retitled)
        // Then: the notes are the first NOTE, the second is kept and shown after it, the card as it was
        XCTAssertEqual(untouched.notes, "first note")
        XCTAssertEqual(untouched.laterValues(of: .notes), ["second note"])
        XCTAssertEqual(untouched.allNotes, "first note\nsecond note")
        XCTAssertEqual(untouched.card?.lines, lines)
        XCTAssertEqual(edited.notes, "first note")
        XCTAssertEqual(edited.card?.lines, linesExcept(["TITLE:First title": "TITLE:Boss"]))
    }

    func test_an21CardEdited_getsItsValuesIn21sEscaping_andReadsAsTheEdit() throws {
        // Given: Android's 2.1 card with backslashes (v21_backslash.vcf), as fuzz-vcard edits it
        let card =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:;A\\;B\\\\;C\\\\\\;;D;\\:E;\\\\\\\\;\r\nFN:A;B\\C\\;D:E\\\\\r\nEND:VCARD\r\n"
        var edited = try XCTUnwrap(VCardReader().read(Data(card.utf8)).entries.first?.contact)
        edited.notes = "Edited note; with, punctuation\nand a line"
        edited.title = "Edited, title"
        edited.familyName = "Semi;colon"
        // When
        let saved = CardPatch.reconciled(edited)
        // Then: 2.1 has no escapes in text but a component's `\;`, and reads back as the edit
        let lines = try XCTUnwrap(saved.card?.lines)
        XCTAssertTrue(lines.contains("NOTE:Edited note; with, punctuation\\nand a line"), "\(lines)")
        XCTAssertTrue(lines.contains("TITLE:Edited, title"), "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("N:Semi\\;colon;A\\;B\\\\;") }, "\(lines)")
        let view = try XCTUnwrap(VCardReader.view(of: try XCTUnwrap(saved.card))?.contact)
        XCTAssertEqual([view.notes, view.title, view.familyName], [edited.notes, edited.title, edited.familyName])
    }

    func test_notesEditedAfterAnEarlierJoin_areAnEditLikeAnyOther() {
        // Given: the joined notes of an earlier import, then edited by the person
        var stored = contact!
        stored.extraProperties.removeAll { $0 == "NOTE:second note" }
        stored.notes = "first note\nsecond note\nthird"
        // When
        let saved = CardPatch.reconciled(stored)
        // Then: what they wrote is the notes; nothing of it is lost
        XCTAssertEqual(saved.notes, "first note\nsecond note\nthird")
        XCTAssertTrue(saved.card?.lines.contains("NOTE:first note\\nsecond note\\nthird") == true)
    }

    func test_notesBirthdayAndTags_rewriteTheirOwnPropertiesOnly() {
        let result = patched {
            $0.notes = "one note"
            $0.birthday = Birthday(year: 1996, month: 4, day: 16)
            $0.tags = ["friends"]
        }
        // The second NOTE is a property of its own, kept as it came (it was dropped, the notes once joined)
        var expected = linesExcept([
            "NOTE:first note": "NOTE:one note", "BDAY:1996-04-15T201243+04:00": "BDAY:1996-04-16",
        ])
        expected.insert("CATEGORIES:friends", at: expected.firstIndex(of: "NOTE:one note")! + 1)
        XCTAssertEqual(result, expected)
    }

    func test_keptProperties_removedAndAddedAsTheContactSays() {
        let result = patched {
            $0.extraProperties.removeAll { $0.hasPrefix("X-SOCIALPROFILE") }
            $0.extraProperties.append("URL:https://john.example")
        }
        // The new property takes the removed one's place
        XCTAssertEqual(
            result, linesExcept(["X-SOCIALPROFILE;type=twitter:https://x.example/john": "URL:https://john.example"]))
        let added = patched { $0.extraProperties.append("URL:https://john.example") }
        XCTAssertEqual(added, lines + ["URL:https://john.example"])
    }

    func test_aChangedCard_getsAFreshREV_whenItHadOne() {
        // Given: a card with a REV
        contact.card = VCardRecord(lines: lines + ["REV:20200101T000000Z"])
        // When
        let result = patched {
            $0.title = "Boss"; $0.updatedAt = Date(timeIntervalSince1970: 1_700_000_000)
        }
        // Then
        XCTAssertEqual(result.last, "REV:20231114T221320Z")
    }

    // MARK: - Through the store and the writer

    func test_anEditSavedInTheStore_isExportedWithEverythingElseAsItCame() throws {
        // Given
        let store = InMemoryContactStore()
        var saved = try store.insert(contact)
        // When
        saved.familyName = "Dough"
        saved = try store.update(saved)
        let exported = VCardWriter(version: .v3).card(for: saved)
        // Then
        XCTAssertEqual(
            exported,
            (["BEGIN:VCARD"]
                + linesExcept([
                    "N:Doe;John;Q;Mr.;III": "N:Dough;John;Q;Mr.;III", "FN:John Doe III": "FN:John Dough III",
                ]) + ["END:VCARD"]).map { VCardWriter.fold($0) }.joined())
    }

    func test_syncMerge_patchesTheServersCard_withWhatChangedHere() throws {
        // Given: the server added a property; here the title changed
        let base = contact!
        var local = base
        local.title = "Boss"
        var remote = base
        remote.card = VCardRecord(lines: lines + ["X-SERVER:kept"])
        remote.extraProperties.append("X-SERVER:kept")
        // When
        let merged = CardPatch.reconciled(SyncMerge.merge(base: base, local: local, remote: remote).contact)
        // Then
        XCTAssertEqual(merged.card?.lines, linesExcept(["TITLE:First title": "TITLE:Boss"]) + ["X-SERVER:kept"])
    }
}
