import XCTest

@testable import ContactsApp

final class ContactRulesTests: XCTestCase {
    func test_nameProblem_needsAGivenOrFamilyNameOrAnOrganization() {
        XCTAssertNotNil(ContactRules.nameProblem(given: "", family: "", organization: ""))
        XCTAssertNil(ContactRules.nameProblem(given: "", family: "", organization: "Acme"))
        XCTAssertNil(ContactRules.nameProblem(given: "Ann", family: "", organization: ""))
    }

    func test_lineProblem_refusesControlAndBidiOverrides_butKeepsJoiners() {
        XCTAssertEqual(ContactRules.lineProblem("Ann\u{1B}[31m"), "must be one line without control characters")
        XCTAssertEqual(ContactRules.lineProblem("Ann\u{202E}eeL"), "must be one line without control characters")
        XCTAssertEqual(ContactRules.lineProblem("Ann\u{2066}"), "must be one line without control characters")
        XCTAssertNil(ContactRules.lineProblem("می\u{200C}خواهم"))
        XCTAssertEqual(ContactRules.lineProblem(String(repeating: "a", count: 201)), "is longer than 200 characters")
    }

    func test_phoneProblem() {
        XCTAssertNil(ContactRules.phoneProblem("+1 (555) 123-4567"))
        XCTAssertEqual(ContactRules.phoneProblem("555-CALL"), "may hold only digits, spaces and + - ( ) .")
        XCTAssertEqual(ContactRules.phoneProblem("1+2345"), "may have + only at the start")
        XCTAssertEqual(ContactRules.phoneProblem("12"), "must have 3 to 20 digits")
    }

    func test_emailProblem() {
        XCTAssertNil(ContactRules.emailProblem("ann@example.org"))
        for bad in [
            "not-an-email", "@example.org", "ann@example", "ann@@example.org", "ann lee@example.org",
            "ann@example..org",
        ] {
            XCTAssertEqual(ContactRules.emailProblem(bad), "is not an email address like name@example.org", bad)
        }
    }

    func test_isEmail_readsASCIIAndOtherTextByTheSameRules() {
        let longest = String(repeating: "a", count: ContactRules.maxEmailLength - 12) + "@example.org"
        XCTAssertTrue(ContactRules.isEmail(longest))
        XCTAssertFalse(ContactRules.isEmail("a" + longest), "one too long")
        XCTAssertTrue(ContactRules.isEmail("józef@example.org"))
        let longestOther = String(repeating: "ó", count: ContactRules.maxEmailLength - 12) + "@example.org"
        XCTAssertTrue(ContactRules.isEmail(longestOther), "counted in characters, not bytes")
        XCTAssertFalse(ContactRules.isEmail("j" + longestOther), "one too long")
        for bad in [
            "ann\t@example.org", "ann@example.org\n", "ann\u{7F}@example.org", "ann\u{1}@example.org",
            "ann\u{A0}lee@example.org", "józef\u{202E}@example.org", "józef lee@example.org",
        ] {
            XCTAssertFalse(ContactRules.isEmail(bad), bad.debugDescription)
        }
        // The shapes of an address, read from ASCII bytes and, with a non-ASCII local part, by Characters alike
        let shapes = [
            "ann@example.org": true, "a.b@c.d": true, "a@b.c.d": true, "ann@example": false,
            "@example.org": false, "ann@@example.org": false, "ann@ex@ample.org": false, "ann@.example.org": false,
            "ann@example.org.": false, "ann@example..org": false, "ann@.": false, "ann@": false, "": false,
            "ann.example.org": false, "a@b.c": true,
        ]
        for (address, expected) in shapes {
            XCTAssertEqual(ContactRules.isEmail(address), expected, address.debugDescription)
            // "ó" gives "@example.org" the local part it lacked
            XCTAssertEqual(
                ContactRules.isEmail("ó" + address), expected || address == "@example.org",
                ("ó" + address).debugDescription)
        }
        // A combining mark after the ASCII makes ".\u{301}" one Character, not a dot: the rules of
        // Characters decide, though the bytes before it looked like an empty domain part.
        XCTAssertTrue(ContactRules.isEmail("ann@example..\u{301}org"))
        XCTAssertTrue(ContactRules.isEmail("ann@@\u{301}example.org"), "\"@\u{301}\" is not an at sign")
    }

    func test_labelAndTagProblems() {
        XCTAssertNil(ContactRules.labelProblem("work phone_2"))
        XCTAssertNotNil(ContactRules.labelProblem(""))
        XCTAssertNotNil(ContactRules.labelProblem("a/b"))
        XCTAssertNil(ContactRules.tagProblem("friends"))
        XCTAssertNotNil(ContactRules.tagProblem("a,b"))
        XCTAssertNotNil(ContactRules.tagProblem(String(repeating: "t", count: 51)))
    }
}
