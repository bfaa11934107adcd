import Foundation
import SceneCore
import XCTest

@testable import ContactsApp

final class ContactFormatterTests: XCTestCase {
    var sut: ContactFormatter!

    override func setUp() {
        super.setUp()
        sut = Seeds.formatter
    }

    // MARK: names

    func test_displayName_isTheNameAsTyped_inItsOrder_orTheOrganisation() {
        XCTAssertEqual(sut.displayName(Contact(givenName: "danah", familyName: "boyd")), "danah boyd")
        XCTAssertEqual(
            sut.displayName(Contact(givenName: "Ludwig", familyName: "van Beethoven")), "Ludwig van Beethoven")
        XCTAssertEqual(sut.displayName(Contact(givenName: "太郎", familyName: "山田", nameOrder: .familyFirst)), "山田 太郎")
        XCTAssertEqual(sut.displayName(Contact(familyName: "lee", organization: "Acme")), "lee")
        XCTAssertEqual(sut.displayName(Seeds.Contacts.taro), "太郎 山田")
        XCTAssertEqual(sut.displayName(Seeds.Contacts.acme), "Acme Inc.")
    }

    // MARK: phones

    func test_phone_ofASCIIText_answersAsCharacterByCharacter() {
        // Given: every text of up to three characters from phone characters and a few others
        // (tab, letters, CR LF, which is one character), and whole numbers of every shape
        let alphabet = [" ", "+", "-", "(", ")", ".", "0", "2", "5", "\t", "x", "/", "\r\n", "#"]
        var texts = [""]
        for _ in 1...3 { texts += texts.flatMap { text in alphabet.map { text + $0 } } }
        texts += [
            "+1 555 123 4567", " +1 (555) 123-4567 ", "\t+15551234567", "5551234567", "555.123.4567",
            "+1 155 123 4567", "+49 30 1234567", "+49  30   123", "03-1234-5678", "+1 555 123 4567 ext 9",
            "(555) 123-4567", "++15551234567", "1-555-123-4567", "+1\r\n5551234567",
        ]
        for formatter in [
            sut!, ContactFormatter(timeZone: nil, defaultCountry: "US"),
        ] {
            for text in Set(texts) {
                // Then: the bytes' way and the characters' way agree
                XCTAssertEqual(formatter.phone(text), formatter.phoneByCharacters(text), text.debugDescription)
            }
        }
        // And text beyond ASCII goes the characters' way
        XCTAssertEqual(sut.phone("\u{00A0}+49 30 １２"), sut.phoneByCharacters("\u{00A0}+49 30 １２"))
    }

    func test_phone_masksNorthAmericanNumbers() {
        XCTAssertEqual(sut.phone("+15551234567"), "+1 (555) 123-4567")
        XCTAssertEqual(sut.phone("+1 555 123 4567"), "+1 (555) 123-4567")
        XCTAssertEqual(sut.phone("(555) 123-4567"), "(555) 123-4567")
    }

    func test_phone_withoutACountryCode_isShownAsTyped_unlessTheBooksCountrySaysNorthAmerican() {
        // Given: no default country
        XCTAssertEqual(sut.phone("4930123456"), "4930123456")
        XCTAssertEqual(sut.phone("555.123.4567"), "555.123.4567")
        // Given: a North American book
        let american = ContactFormatter(timeZone: Seeds.timeZone, defaultCountry: "us")
        XCTAssertEqual(american.phone("555.123.4567"), "(555) 123-4567")
        XCTAssertEqual(american.phone("+34 612 345 678"), "+34 612 345 678")
        // Given: a German book
        let german = ContactFormatter(timeZone: Seeds.timeZone, defaultCountry: "DE")
        XCTAssertEqual(german.phone("4930123456"), "4930123456")
        XCTAssertEqual(german.phone("+1 555 123 4567"), "+1 (555) 123-4567")
    }

    func test_phone_leavesOtherNumbersAsTyped_withSpacesCollapsed() {
        XCTAssertEqual(sut.phone("+34 612  345 678"), "+34 612 345 678")
        XCTAssertEqual(sut.phone("020 7946 0958"), "020 7946 0958")
        XCTAssertEqual(sut.phone("15551234567"), "15551234567")
        XCTAssertEqual(sut.phone("555 1234 ext 9"), "555 1234 ext 9")
        XCTAssertEqual(sut.phone("12"), "12")
    }

    func test_phone_collapsesSpacesAsSplittingAtThemAndJoiningWithOneDoes() {
        // Given: every text of up to four characters from spaces, letters, a combining mark (a
        // space before it is no longer a space character), CR LF, a no-break space and digits
        let alphabet = [" ", "a", "\u{301}", "é", "\r\n", "\u{A0}", "5", "\t"]
        var texts = [""]
        for _ in 1...4 { texts += texts.flatMap { text in alphabet.map { text + $0 } } }
        for text in Set(texts) {
            // Then: too short to be masked, each is shown with its runs of spaces collapsed
            let collapsed = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            XCTAssertEqual(sut.phone(text), collapsed, text.debugDescription)
            XCTAssertEqual(sut.phoneByCharacters(text), collapsed, text.debugDescription)
        }
    }

    func test_phone_doesNotMaskTenDigitsThatCannotBeNorthAmerican() {
        // A Japanese or British number of ten digits: NANP area codes never start with 0 or 1.
        XCTAssertEqual(sut.phone("03-1234-5678"), "03-1234-5678")
        XCTAssertEqual(sut.phone("1234567890"), "1234567890")
        XCTAssertEqual(sut.phone("+1 055 123 4567"), "+1 055 123 4567")
    }

    // MARK: addresses, birthdays, times

    func test_address_joinsTheNonEmptyParts() {
        let address = PostalAddress(label: "home", street: "1 Main St", city: "Springfield", postalCode: "62701")
        XCTAssertEqual(sut.address(address), "1 Main St, Springfield, 62701")
    }

    func test_birthday_isISOWithTheYear_andTheMonthsNameWithout() {
        XCTAssertEqual(sut.birthday(Birthday(year: 1990, month: 5, day: 7)), "1990-05-07")
        XCTAssertEqual(sut.birthday(Birthday(year: nil, month: 2, day: 29)), "29 Feb")
        XCTAssertEqual(sut.birthday(Birthday(year: nil, month: 2, day: 3)), "3 Feb", "not 02-03: February or March?")
        XCTAssertEqual(sut.birthday(Birthday(year: nil, month: 12, day: 24)), "24 Dec")
        XCTAssertEqual(sut.birthday(Birthday(year: nil, month: 1, day: 1)), "1 Jan")
    }

    func test_timestamp_isInTheInjectedTimeZone() {
        XCTAssertEqual(sut.timestamp(Seeds.created), "2023-11-14 22:13")
        let tokyo = ContactFormatter(
            timeZone: TimeZone(identifier: "Asia/Tokyo") ?? Seeds.timeZone)
        XCTAssertEqual(tokyo.timestamp(Seeds.created), "2023-11-15 07:13")
    }

    // MARK: failure messages

    func test_message_notFound() {
        XCTAssertEqual(
            sut.message(for: .notFound(reference: "zed")),
            .error("no contact matches 'zed'", code: .notFound))
    }

    func test_message_ambiguous_listsIdsAndNames() {
        let matches = [Seeds.stored(Seeds.Contacts.acme, id: 4), Seeds.stored(Seeds.Contacts.ann, id: 1)]
        XCTAssertEqual(
            sut.message(for: .ambiguous(reference: "a", matches: matches)),
            .error("'a' matches 2 contacts: #4 Acme Inc., #1 Ann Lee; name one by its number", code: .badInput))
    }

    func test_message_stale_namesBothVersions() {
        var current = Seeds.stored(Seeds.Contacts.ann, id: 1)
        current.version = 3
        XCTAssertEqual(
            sut.message(for: .stale(current: current, yourVersion: 1)),
            .error(
                "#1 Ann Lee was changed elsewhere since you opened it (your version 1, now 3); nothing was changed. "
                    + "Look at it again before retrying.", code: .conflict))
    }

    func test_message_invalid_countsFieldsAndDetailsEach() {
        XCTAssertEqual(
            sut.message(for: .invalid([FieldError("email 1", "bad")])),
            .error("not saved: 1 field is not valid", code: .validationFailed, details: ["email 1": "bad"]))
        XCTAssertEqual(
            sut.message(for: .invalid([FieldError("name", "needed"), FieldError("birthday", "bad")])),
            .error(
                "not saved: 2 fields are not valid", code: .validationFailed,
                details: ["name": "needed", "birthday": "bad"]))
    }

    func test_message_badInputAndStorage() {
        XCTAssertEqual(
            sut.message(for: .badInput("there is no tag to remove")),
            .error("there is no tag to remove", code: .badInput))
        XCTAssertEqual(sut.message(for: .storage("disk full")), .error("storage failed: disk full", code: .storage))
    }
}
