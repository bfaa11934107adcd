import XCTest

@testable import ContactsLSP

/// The draft parser: which lines are headers, folded fields, the addresses and their places,
/// and what completion replaces. Drafts are written as mutt (`edit_headers`) and Emacs's
/// message-mode write them.
final class MailDraftTests: XCTestCase {
    typealias Location = MailDraft.Location

    // MARK: Header detection

    func test_headersEndAtTheFirstBlankLine() {
        // Given a draft as mutt writes it with edit_headers
        let sut = MailDraft(text: "From: Me <me@example.net>\nTo: ann@acme.test\nSubject: Lunch\n\nTo: not@a.header\n")
        // Then the three fields are headers, and the body's "To:" is not one
        XCTAssertEqual(sut.headerLineCount, 3)
        XCTAssertEqual(sut.fields.map(\.name), ["From", "To", "Subject"])
        XCTAssertEqual(sut.addresses.map(\.email), ["me@example.net", "ann@acme.test"])
    }

    func test_messageModeSeparatorEndsTheHeaders() {
        let sut = MailDraft(text: "To: ann@acme.test\n--text follows this line--\nCc: bo@x.org\n")
        XCTAssertEqual(sut.headerLineCount, 1)
        XCTAssertEqual(sut.addresses.map(\.email), ["ann@acme.test"])
    }

    func test_textThatDoesNotStartWithAFieldIsAllBody() {
        let sut = MailDraft(text: "Dear Ann,\nTo: ann@acme.test\n")
        XCTAssertEqual(sut.headerLineCount, 0)
        XCTAssertEqual(sut.addresses, [])
        XCTAssertNil(sut.completionSite(at: Location(line: 1, column: 8)))
    }

    func test_crlfAndCRLineBreaksAreLineBreaks() {
        let sut = MailDraft(text: "To: ann@acme.test\r\nCc: bo@x.org\rBcc: cy@x.org\r\n\r\nbody")
        XCTAssertEqual(sut.fields.map(\.name), ["To", "Cc", "Bcc"])
        XCTAssertEqual(sut.addresses.map(\.start.line), [0, 1, 2])
    }

    func test_onlyAddressFieldsHoldAddresses_namesCompareWithoutCase() {
        let sut = MailDraft(text: "SUBJECT: ann@acme.test\nreply-to: bo@x.org\nX-Mailer: cy@x.org\nFROM: me@x.org\n")
        XCTAssertEqual(sut.addresses.map(\.field), ["reply-to", "FROM"])
    }

    // MARK: Folding

    func test_foldedContinuationLinesBelongToTheirField() {
        // Given a To field folded over three lines
        let sut = MailDraft(text: "To: Ann Lee <ann@acme.test>,\n  \"Bo, Jr\" <bo@x.org>,\n\tcy@x.org\nSubject: x\n\n")
        // Then its addresses are read across the lines, each where it is written
        XCTAssertEqual(sut.fields.first?.lines, 0...2)
        XCTAssertEqual(sut.addresses.map(\.email), ["ann@acme.test", "bo@x.org", "cy@x.org"])
        XCTAssertEqual(sut.addresses.map(\.displayName), ["Ann Lee", "Bo, Jr", ""])
        XCTAssertEqual(sut.addresses[1].start, Location(line: 1, column: 2))
        XCTAssertEqual(sut.addresses[1].end, Location(line: 1, column: 21))
        XCTAssertEqual(sut.addresses[2].start, Location(line: 2, column: 1))
    }

    func test_anAddressFoldedInsideItselfSpansItsLines() {
        let sut = MailDraft(text: "To: Ann Lee\n <ann@acme.test>\n")
        XCTAssertEqual(sut.addresses.count, 1)
        XCTAssertEqual(sut.addresses[0].displayName, "Ann Lee")
        XCTAssertEqual(sut.addresses[0].start, Location(line: 0, column: 4))
        XCTAssertEqual(sut.addresses[0].end, Location(line: 1, column: 16))
        XCTAssertNil(sut.addresses[0].problem)
    }

    // MARK: Addresses

    func test_addressFormsOfRFC5322() {
        let sut = MailDraft(
            text:
                #"To: "Lee, Ann \"A\"" <ann@acme.test>, bo@x.org (Bo Smith), José Ñúñez <jose@example.org>, Team: cy@x.org, dee@x.org;"#
        )
        XCTAssertEqual(
            sut.addresses.map(\.email), ["ann@acme.test", "bo@x.org", "jose@example.org", "cy@x.org", "dee@x.org"])
        XCTAssertEqual(sut.addresses.map(\.displayName), [#"Lee, Ann "A""#, "", "José Ñúñez", "", ""])
        XCTAssertEqual(sut.addresses.map(\.problem), [nil, nil, nil, nil, nil])
    }

    func test_columnsAreUTF8Bytes() {
        let sut = MailDraft(text: "To: Ñúñez <n@x.org>, 😀 <e@x.org>")
        // "Ñúñez <n@x.org>" is 18 bytes (Ñ, ú, ñ take two each)
        XCTAssertEqual(sut.addresses[0].end, Location(line: 0, column: 4 + 18))
        XCTAssertEqual(sut.addresses[1].start, Location(line: 0, column: 4 + 18 + 2))
    }

    func test_invalidAddressesSayWhatIsWrong() {
        let cases: [(String, String)] = [
            ("jos", "is not an email address (no @)"),
            ("Ann Lee ann@acme.test", "needs <…> around the address after a name"),
            ("Ann <ann@acme.test", "has no closing >"),
            ("\"Ann <ann@acme.test>", "has an unclosed quote (\")"),
            ("<ann@acme.test> Lee", "has text after >"),
            ("ann@acme", "has a domain that is not a full name (like example.org)"),
            ("@acme.test", "has nothing before the @"),
            ("ann..lee@acme.test", "has a character not allowed before the @"),
            ("ann@acme_x.test", "has a character not allowed in its domain"),
            ("<>", "has no email address"),
        ]
        for (text, problem) in cases {
            let sut = MailDraft(text: "To: " + text)
            XCTAssertEqual(sut.addresses.map(\.problem), [problem], text)
        }
    }

    func test_emptyAddressesBetweenSeparatorsAreNotAddresses() {
        let sut = MailDraft(text: "To: ann@acme.test, , bo@x.org,\nCc:\n")
        XCTAssertEqual(sut.addresses.map(\.email), ["ann@acme.test", "bo@x.org"])
    }

    // MARK: Address under the cursor

    func test_addressAtAPlace_includingJustAfterIt() {
        let sut = MailDraft(text: "To: Ann Lee <ann@acme.test>, bo@x.org\n")
        XCTAssertEqual(sut.address(at: Location(line: 0, column: 4))?.email, "ann@acme.test")
        XCTAssertEqual(sut.address(at: Location(line: 0, column: 27))?.email, "ann@acme.test")
        XCTAssertNil(sut.address(at: Location(line: 0, column: 28)))
        XCTAssertEqual(sut.address(at: Location(line: 0, column: 33))?.email, "bo@x.org")
        XCTAssertNil(sut.address(at: Location(line: 0, column: 1)), "the field name")
    }

    // MARK: Completion sites

    func test_completionSite_isTheAddressBeingTyped() {
        let sut = MailDraft(text: "To: jos\n\n")
        XCTAssertEqual(
            sut.completionSite(at: Location(line: 0, column: 7)),
            MailDraft.CompletionSite(search: "jos", line: 0, startColumn: 4, endColumn: 7))
    }

    func test_completionSite_afterACommaLeavesTheSeparator() {
        let sut = MailDraft(text: "To: Ann Lee <ann@acme.test>, jos")
        XCTAssertEqual(
            sut.completionSite(at: Location(line: 0, column: 32)),
            MailDraft.CompletionSite(search: "jos", line: 0, startColumn: 29, endColumn: 32))
    }

    func test_completionSite_inTheMiddleOfAnAddressReplacesItWhole_searchingWhatIsBeforeTheCursor() {
        let sut = MailDraft(text: "Cc: a@x.org, \"José Ñ\" <jose@x")
        let site = sut.completionSite(at: Location(line: 0, column: 22))
        XCTAssertEqual(site?.search, "José Ñ")
        XCTAssertEqual(site?.startColumn, 13)
        XCTAssertEqual(site?.endColumn, Array("Cc: a@x.org, \"José Ñ\" <jose@x".utf8).count)
    }

    func test_completionSite_onAFoldedLineStaysOnThatLine() {
        let sut = MailDraft(text: "To: ann@acme.test,\n  lee\nSubject: x\n")
        XCTAssertEqual(
            sut.completionSite(at: Location(line: 1, column: 5)),
            MailDraft.CompletionSite(search: "lee", line: 1, startColumn: 2, endColumn: 5))
    }

    func test_completionSite_nothingTypedYetSearchesNothing() {
        let sut = MailDraft(text: "To: ann@acme.test, ")
        XCTAssertEqual(sut.completionSite(at: Location(line: 0, column: 19))?.search, "")
    }

    func test_noCompletionSiteOutsideAddressFields() {
        let sut = MailDraft(text: "To: jos\nSubject: jos\n\njos")
        XCTAssertNil(sut.completionSite(at: Location(line: 1, column: 12)), "another field")
        XCTAssertNil(sut.completionSite(at: Location(line: 3, column: 3)), "the body")
        XCTAssertNil(sut.completionSite(at: Location(line: 0, column: 2)), "the field name")
        XCTAssertNil(sut.completionSite(at: Location(line: 9, column: 0)), "past the end")
    }

    // MARK: Writing addresses

    func test_addressText_quotesNamesOnlyWhereRFC5322NeedsIt() {
        XCTAssertEqual(
            MailAddressText.address(name: "José Ñúñez", email: "jose@example.org"), "José Ñúñez <jose@example.org>")
        XCTAssertEqual(MailAddressText.address(name: "Ann B. Lee", email: "a@x.org"), "\"Ann B. Lee\" <a@x.org>")
        XCTAssertEqual(MailAddressText.address(name: "Lee, \"Bo\"\\", email: "b@x.org"), #""Lee, \"Bo\"\\" <b@x.org>"#)
        XCTAssertEqual(MailAddressText.address(name: "", email: "c@x.org"), "c@x.org")
        XCTAssertEqual(MailAddressText.address(name: "  O'Brien\n Pat ", email: "p@x.org"), "O'Brien Pat <p@x.org>")
    }

    func test_addressText_readsBackAsTheSameAddress() {
        for name in ["Ann B. Lee", "Lee, \"Bo\"\\", "José (Pepe) Ñúñez", "a@b"] {
            let sut = MailDraft(text: "To: " + MailAddressText.address(name: name, email: "x@example.org"))
            XCTAssertEqual(sut.addresses.map(\.displayName), [name], name)
            XCTAssertEqual(sut.addresses.map(\.problem), [nil], name)
        }
    }
}
