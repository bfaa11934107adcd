import Foundation
import XCTest

@testable import ContactsApp

/// The normalised forms duplicates and merges compare: phones from several countries, emails, names.
final class MatchKeysTests: XCTestCase {
    // MARK: - Phones

    func test_phone_northAmerica_threeWritingsAgreeWithTheBooksCountry() {
        // Given: a book whose country is the US
        // When
        let forms = ["+1 555 000 1111", "(555) 000-1111", "555-000-1111", "1 555 000 1111", "011 1 555 000 1111"]
            .map { MatchKeys.phone($0, defaultCountry: "US") }
        // Then
        XCTAssertEqual(Set(forms), ["+15550001111"])
    }

    func test_phone_unitedKingdom_dropsTheTrunkZero() {
        XCTAssertEqual(MatchKeys.phone("020 7946 0000", defaultCountry: "gb"), "+442079460000")
        XCTAssertEqual(MatchKeys.phone("+44 20 7946 0000", defaultCountry: "gb"), "+442079460000")
        XCTAssertEqual(MatchKeys.phone("0044 20 7946 0000", defaultCountry: "gb"), "+442079460000")
    }

    func test_phone_germany_dropsTheTrunkZero() {
        XCTAssertEqual(MatchKeys.phone("030 1234567", defaultCountry: "DE"), "+49301234567")
        XCTAssertEqual(MatchKeys.phone("+49 (30) 1234567", defaultCountry: "DE"), "+49301234567")
    }

    func test_phone_italy_keepsItsLeadingZero() {
        XCTAssertEqual(MatchKeys.phone("06 1234 5678", defaultCountry: "IT"), "+390612345678")
        XCTAssertEqual(MatchKeys.phone("+39 06 1234 5678", defaultCountry: "IT"), "+390612345678")
    }

    func test_phone_japan_internationalPrefix010() {
        XCTAssertEqual(MatchKeys.phone("010 1 555 000 1111", defaultCountry: "JP"), "+15550001111")
        XCTAssertEqual(MatchKeys.phone("03-1234-5678", defaultCountry: "JP"), "+81312345678")
    }

    func test_phone_withoutACountry_aNationalNumberStaysItsDigits() {
        // Given: no country known, or one the table lacks
        // Then: a number with its code is international, one without cannot be compared with it
        XCTAssertEqual(MatchKeys.phone("+1 555 000 1111", defaultCountry: nil), "+15550001111")
        XCTAssertEqual(MatchKeys.phone("(555) 000-1111", defaultCountry: nil), "5550001111")
        XCTAssertEqual(MatchKeys.phone("(555) 000-1111", defaultCountry: "XX"), "5550001111")
    }

    func test_phoneDigits_theDigitsOfEachPhone_emptyOnesLeftOut() {
        let contact = Contact(phones: [
            LabeledValue(label: "a", value: "+48 (12) 345-67-89"), LabeledValue(label: "b", value: "no digits"),
            LabeledValue(label: "c", value: "٣٤٥ 12"), LabeledValue(label: "d", value: "1"),
            LabeledValue(label: "e", value: ""), LabeledValue(label: "f", value: "0123456789012345678"),
        ])
        XCTAssertEqual(contact.phoneDigits, ["48123456789", "12", "1", "0123456789012345678"])
    }

    func test_phoneDigits_theDigitsWithAPlusWhenWrittenWithOne_fiveOrMore() {
        XCTAssertEqual(MatchKeys.phoneDigits(" +1 (555) 000-1111 "), "+15550001111")
        XCTAssertEqual(MatchKeys.phoneDigits("555.000.1111 ext 9"), "55500011119")
        XCTAssertEqual(MatchKeys.phoneDigits("12345"), "12345")
        XCTAssertEqual(MatchKeys.phoneDigits("+12345"), "+12345")
        XCTAssertNil(MatchKeys.phoneDigits("+1234"), "four digits: no key, the plus not counted")
        XCTAssertEqual(MatchKeys.phoneDigits("٠١٢ 12345"), "12345", "digits are ASCII digits only")
        XCTAssertNil(MatchKeys.phoneDigits(""))
    }

    func test_phone_tooShortOrEmpty_isNoKey() {
        XCTAssertNil(MatchKeys.phone("", defaultCountry: "US"))
        XCTAssertNil(MatchKeys.phone("ext. 12", defaultCountry: "US"))
        XCTAssertNil(MatchKeys.phone("call me", defaultCountry: "US"))
    }

    // MARK: - Emails

    func test_email_isCaseInsensitiveAndTrimmed() {
        XCTAssertEqual(MatchKeys.email("  Ann.Lee@Example.COM "), "ann.lee@example.com")
        XCTAssertNil(MatchKeys.email("   "))
        XCTAssertEqual(MatchKeys.emailDomain("Ann@Mail.Example.org"), "mail.example.org")
        XCTAssertNil(MatchKeys.emailDomain("no-at-sign"))
        XCTAssertNil(MatchKeys.emailDomain("ann@"))
    }

    // MARK: - Names

    func test_name_foldedWithWordsSingleSpaced() {
        XCTAssertEqual(MatchKeys.name("  Van der\tBerg. "), "van der berg")
        XCTAssertEqual(MatchKeys.name("Ñúñez"), "nunez")
        XCTAssertEqual(MatchKeys.name("O'Brien"), "o'brien")
        XCTAssertEqual(MatchKeys.name("Smith, Jr"), "smith jr")
    }

    func test_name_andPhonePlus_readFromBytes_agreeWithTheCharacterAndFoundationRules() {
        // Given names and phones in ASCII, non-ASCII, with every ASCII separator, CRLF, marks
        let names = [
            "van der Berg", "  Van der\tBerg. ", "a\r\nb", "x\u{0B}y\u{0C}z", "Smith,Jr.", "..", " ", "",
            "Ñúñez Ann", "Ελένη  Παπαδοπούλου", "Anne\u{2003}Marie", "a\u{85}b", "e\u{301} x", "李 伟",
            // one word in another script (kept whole), and the Unicode spaces beside such words
            "Γιώργος", "Дмитрий", "さくら", "山田\u{3000}太郎", "Ελένη\u{A0}", "Ольга\u{2028}Анна", "伟.芳",
            "Зоя,\u{301}", "\u{1680}Søren", "Jürgen\u{205F}", "Łukasz\u{85}", "「山田」", "ñ\u{200A}",
        ]
        let phones = [
            "+1 555 0100", "  +44 20", "\t+33 1", "1 555 +0100", " \u{00A0}+1 555", "\u{200B}+1 555",
            "+\u{301}1 555", "\u{3000}+81 3", "＋81 3", "", "   ", "+", "(+1) 555",
        ]
        // Then the byte paths answer as splitting Characters and Foundation's trimming do
        for name in names {
            let folded = ContactKeys.fold(name)
            let expected = folded.split(whereSeparator: { $0.isWhitespace || $0 == "." || $0 == "," }).joined(
                separator: " ")
            XCTAssertEqual(MatchKeys.name(name), expected, name.debugDescription)
        }
        for phone in phones {
            XCTAssertEqual(
                MatchKeys.startsWithPlus(phone), phone.trimmingCharacters(in: .whitespaces).hasPrefix("+"),
                phone.debugDescription)
        }
    }

    func test_nearlySameGivenName() {
        XCTAssertTrue(MatchKeys.nearlySameGivenName("Ann", "ANN"))
        XCTAssertTrue(MatchKeys.nearlySameGivenName("Rob", "Robert"))
        XCTAssertTrue(MatchKeys.nearlySameGivenName("Jon", "John"))
        XCTAssertTrue(MatchKeys.nearlySameGivenName("José", "Jose"))
        XCTAssertFalse(MatchKeys.nearlySameGivenName("Al", "Alice"))
        XCTAssertFalse(MatchKeys.nearlySameGivenName("Anna", "Anne-Marie"))
        XCTAssertFalse(MatchKeys.nearlySameGivenName("Mark", "Mary"), "a letter changed in a short name: two people")
        XCTAssertTrue(MatchKeys.nearlySameGivenName("Kristina", "Kristine"))
    }

    func test_storedKeys_emailsPhonesAndNameKeysWithoutRepeats() {
        // Given
        let contact = Contact(
            givenName: "Ann", familyName: "Lée", organization: "Acme",
            phones: [
                LabeledValue(label: "mobile", value: "+1 555 000 1111"),
                LabeledValue(label: "work", value: "+1 (555) 000-1111"),
            ],
            emails: [
                LabeledValue(label: "work", value: "Ann@Acme.example"),
                LabeledValue(label: "home", value: "ann@acme.example"),
            ])
        // When
        let keys = MatchKeys.storedKeys(contact).map { "\($0.kind.rawValue) \($0.key)" }
        // Then
        XCTAssertEqual(
            keys,
            [
                "email ann@acme.example", "phone +15550001111",
                "name lee\u{1}a\u{1}acme\u{1}ann", "name lee\u{1}a\u{1}@acme.example\u{1}ann",
            ])
    }

    func test_nameKeys_onePerPlace_readBackAsTheirParts() {
        // Given: a name in another script, an organisation and two email domains
        let contact = Contact(
            givenName: "Ελένη", familyName: "Παπαδοπούλου", organization: "Acme Ltd.",
            emails: [
                LabeledValue(label: "work", value: "eleni@acme.example"),
                LabeledValue(label: "home", value: "E@Mail.Example"),
            ])
        // When
        let keys = MatchKeys.nameKeys(contact).compactMap(NameKey.init(stored:))
        // Then
        XCTAssertEqual(keys.map(\.place), ["acme ltd", "@acme.example", "@mail.example"])
        XCTAssertEqual(Set(keys.map(\.family)), ["παπαδοπουλου"])
        XCTAssertEqual(Set(keys.map(\.given)), ["ελενη"])
        XCTAssertEqual(Set(keys.map(\.initial)), ["ε"])
        XCTAssertEqual(keys.map(\.stored), MatchKeys.nameKeys(contact))
    }
}
