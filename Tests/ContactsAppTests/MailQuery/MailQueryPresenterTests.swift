import XCTest

@testable import ContactsApp

final class MailQueryPresenterTests: XCTestCase {
    var sut: MailQueryPresenter!

    override func setUp() {
        super.setUp()
        sut = MailQueryPresenter()
    }

    func test_present_aMessageLineThenOneLinePerAddress() {
        // Given
        let matches = [
            MailQueryMatch(address: "ann@example.org", name: "Ann Lee", info: "work · Acme"),
            MailQueryMatch(address: "ann@home.example", name: "Ann Lee", info: ""),
        ]
        // When
        let answer = sut.present(matches)
        // Then
        XCTAssertEqual(
            answer,
            MailQueryAnswer(
                text: "contactsbook: 2 addresses\nann@example.org\tAnn Lee\twork · Acme\nann@home.example\tAnn Lee\t\n",
                found: true))
    }

    func test_present_oneAddress_isSingular() {
        let answer = sut.present([MailQueryMatch(address: "bo@example.org", name: "Bo", info: "")])
        XCTAssertEqual(answer.text, "contactsbook: 1 address\nbo@example.org\tBo\t\n")
    }

    func test_present_controlCharactersInAField_becomeSpaces_plainASCIIStaysAsItIs() {
        // Given: a tab and a line break in a name, a zero-width space (a format character) in a label
        let matches = [
            MailQueryMatch(address: "ann@example.org", name: "Ann\tLee\nJr", info: "work\u{200B}x"),
            MailQueryMatch(address: "bo@example.org", name: "Bo ~ {Ray}", info: ""),
        ]
        // When
        let answer = sut.present(matches)
        // Then: mutt's columns stay three
        XCTAssertEqual(
            answer.text,
            "contactsbook: 2 addresses\nann@example.org\tAnn Lee Jr\twork x\nbo@example.org\tBo ~ {Ray}\t\n")
    }

    func test_present_aGroupOfOneMember_namesTheMemberInItsAddress_asMuttWouldOtherwiseNameTheGroup() {
        // Given: groups of one member (a name with RFC 5322 specials, a plain one) and of two
        func group(_ name: String, _ members: [MailQueryMatch]) -> MailQueryMatch {
            var match = MailQueryMatch(
                address: members.map(\.address).joined(separator: ", "), name: name, info: "group")
            match.members = members
            return match
        }
        let lee = MailQueryMatch(address: "ann@example.org", name: #"Lee, Ann "A\B""#, info: "")
        let bo = MailQueryMatch(address: "bo@example.org", name: "Bö Ñ", info: "")
        // When
        let answer = sut.present([group("Solo", [lee]), group("Duo", [bo]), group("Both", [lee, bo])], format: .plain)
        let aerc = sut.present([group("Solo", [lee])], format: .aerc)
        // Then: the one address is a mailbox of the member's name; two or more are as they are; aerc unchanged
        XCTAssertEqual(
            answer.text,
            #""Lee, Ann \"A\\B\"" <ann@example.org>"# + "\tSolo\tgroup\n"
                + "Bö Ñ <bo@example.org>\tDuo\tgroup\nann@example.org, bo@example.org\tBoth\tgroup\n")
        XCTAssertEqual(aerc.text, "ann@example.org\tSolo\n")
    }

    func test_present_noMatches_saysSoAndIsNotFound() {
        XCTAssertEqual(sut.present([]), MailQueryAnswer(text: "No matches\n", found: false))
    }

    func test_present_controlCharactersInAField_becomeSpaces() {
        // Given a name with a tab, a line break and an escape, which would break mutt's columns
        let matches = [MailQueryMatch(address: "x@example.org", name: "Ann\tLee\nJr\u{1B}[31m", info: "a\rb")]
        // When
        let answer = sut.present(matches)
        // Then each field stays one column of one line
        XCTAssertEqual(answer.text, "contactsbook: 1 address\nx@example.org\tAnn Lee Jr [31m\ta b\n")
    }

    func test_present_formatCharactersAndC1Controls_becomeSpaces_otherTextStaysAsItIs() {
        // Given names in other scripts (combining marks kept) and a right-to-left override, a C1
        // control and DEL, which a terminal would act on
        let matches = [
            MailQueryMatch(address: "p1@corp.test", name: "Zoë Nguyễn", info: "corp directory · Example Corp"),
            MailQueryMatch(address: "p2@corp.test", name: "e\u{0301}\u{202E}kcaH", info: "a\u{85}b\u{7F}c"),
        ]
        // When
        let answer = sut.present(matches, format: .plain)
        // Then
        XCTAssertEqual(
            answer.text,
            "p1@corp.test\tZoë Nguyễn\tcorp directory · Example Corp\np2@corp.test\te\u{0301} kcaH\ta b c\n")
    }

    func test_present_belowU0600_replacesExactlyWhatFoundationsControlSetHolds() {
        // The check below U+0600 answers without the set: it must agree with it on every scalar there.
        let controls = CharacterSet.controlCharacters
        for value in UInt32(0)..<0x600 {
            let scalar = Unicode.Scalar(value)!
            let name = "é" + String(Character(scalar)) + "ë"
            // When
            let line = sut.present([MailQueryMatch(address: "a@b.test", name: name, info: "")], format: .aerc).text
            // Then: one space for a control (or format) character, the name as it is otherwise
            let expected = controls.contains(scalar) ? "é ë" : name
            XCTAssertEqual(line, "a@b.test\t\(expected)\n", String(format: "U+%04X", value))
        }
    }

    func test_present_plain_isMuttsLinesWithoutTheFirst_andNothingWhenNoneMatch() {
        // Given
        let matches = [MailQueryMatch(address: "ann@example.org", name: "Ann Lee", info: "work · Acme")]
        // Then
        XCTAssertEqual(
            sut.present(matches, format: .plain),
            MailQueryAnswer(text: "ann@example.org\tAnn Lee\twork · Acme\n", found: true))
        XCTAssertEqual(sut.present([], format: .plain), MailQueryAnswer(text: "", found: false))
    }

    func test_present_aerc_isAddressTabName_andNothingWhenNoneMatch() {
        // Given a name that would break aerc's two columns
        let matches = [
            MailQueryMatch(address: "ann@example.org", name: "Ann\tLee", info: "work"),
            MailQueryMatch(address: "bo@example.org", name: "", info: ""),
        ]
        // Then
        XCTAssertEqual(
            sut.present(matches, format: .aerc),
            MailQueryAnswer(text: "ann@example.org\tAnn Lee\nbo@example.org\t\n", found: true))
        XCTAssertEqual(sut.present([], format: .aerc), MailQueryAnswer(text: "", found: false))
    }
}
