import Foundation
import XCTest

@testable import ContactsApp

final class EditContactWorkerTests: XCTestCase {
    var sut: EditContactWorker!

    override func setUp() {
        super.setUp()
        sut = EditContactWorker()
    }

    /// A draft that is valid until a test spoils it.
    private func draft(_ change: (inout EditContact.Draft) -> Void = { _ in }) -> EditContact.Draft {
        var draft = EditContact.Draft()
        draft[.given] = "Ann"
        change(&draft)
        return draft
    }

    /// The field errors of a draft, or [] when it is valid.
    private func errors(_ draft: EditContact.Draft) -> [FieldError] {
        do {
            _ = try sut.contact(from: draft, base: Contact())
            return []
        } catch ContactsFailure.invalid(let errors) {
            return errors
        } catch {
            XCTFail("unexpected \(error)")
            return []
        }
    }

    private func phoneErrors(_ number: String) -> [FieldError] {
        errors(draft { $0.phones = [LabeledValue(label: "mobile", value: number)] })
    }

    private func emailErrors(_ address: String) -> [FieldError] {
        errors(draft { $0.emails = [LabeledValue(label: "home", value: address)] })
    }

    private func birthdayErrors(_ text: String) -> [FieldError] {
        errors(draft { $0[.birthday] = text })
    }

    private let badBirthday = [FieldError("birthday", "must be a date as YYYY-MM-DD, or --MM-DD without a year")]

    // MARK: a valid draft

    func test_validDraft_buildsTheContact_onTopOfTheBase() throws {
        // Given
        let base = Seeds.stored(Seeds.Contacts.ann, id: 1)
        var draft = EditContact.Draft()
        draft[.given] = "Ann"
        draft[.family] = "Lee"
        draft[.nickname] = "Annie"
        draft[.organization] = "Acme"
        draft[.title] = "Engineer"
        draft[.birthday] = "--05-17"
        draft[.notes] = "line one\nline two"
        draft.phones = [LabeledValue(label: "work", value: "+44 20 7946 0000")]
        draft.emails = [LabeledValue(label: "work", value: "ann@acme.example")]
        draft.addresses = [
            LabeledValue(label: "home", value: "1 Main St; Springfield; IL; 62701; USA"),
            LabeledValue(label: "po box", value: "; Shelbyville"),
        ]
        draft.tags = ["friends"]

        // When
        let contact = try sut.contact(from: draft, base: base)

        // Then: identity, times and version kept from the base
        XCTAssertEqual(
            contact,
            Contact(
                id: 1, uid: "uid-ann", givenName: "Ann", familyName: "Lee", nickname: "Annie", organization: "Acme",
                title: "Engineer", phones: draft.phones, emails: draft.emails,
                addresses: [
                    PostalAddress(
                        label: "home", street: "1 Main St", city: "Springfield", region: "IL",
                        postalCode: "62701", country: "USA"),
                    PostalAddress(label: "po box", city: "Shelbyville"),
                ],
                birthday: Birthday(year: nil, month: 5, day: 17), notes: "line one\nline two", tags: ["friends"],
                createdAt: Seeds.created, updatedAt: Seeds.created, version: 1))
    }

    func test_draftOfAStoredContact_roundTripsUnchanged() throws {
        // Given: an address with empty leading and middle parts
        var stored = Seeds.stored(Seeds.Contacts.ann, id: 1)
        stored.addresses = [
            PostalAddress(label: "home", city: "Springfield", country: "USA"),
            PostalAddress(label: "work", street: "1 Main St", postalCode: "62701"),
        ]
        stored.tags = ["a", "b"]
        stored.notes = "n"
        // When
        let contact = try sut.contact(from: sut.draft(from: stored), base: stored)
        // Then
        XCTAssertEqual(contact, stored)
    }

    // MARK: names

    func test_name_needsAGivenOrFamilyNameOrAnOrganisation() {
        let needed = [FieldError("name", "a contact needs a given name, a family name or an organization")]
        XCTAssertEqual(errors(EditContact.Draft()), needed)
        XCTAssertEqual(
            errors(
                draft {
                    $0[.given] = ""; $0[.nickname] = "Nan"
                }), needed)
        XCTAssertEqual(
            errors(
                draft {
                    $0[.given] = ""; $0[.family] = "Lee"
                }), [])
        XCTAssertEqual(
            errors(
                draft {
                    $0[.given] = ""; $0[.organization] = "Acme"
                }), [])
    }

    func test_lines_areAtMost200Characters() {
        XCTAssertEqual(errors(draft { $0[.title] = String(repeating: "x", count: 200) }), [])
        XCTAssertEqual(
            errors(draft { $0[.title] = String(repeating: "x", count: 201) }),
            [FieldError("title", "is longer than 200 characters")])
        XCTAssertEqual(
            errors(draft { $0[.family] = String(repeating: "山", count: 201) }),
            [FieldError("family", "is longer than 200 characters")])
    }

    func test_lines_refuseControlCharacters() {
        let oneLine = "must be one line without control characters"
        XCTAssertEqual(errors(draft { $0[.given] = "Ann\nLee" }), [FieldError("given", oneLine)])
        XCTAssertEqual(errors(draft { $0[.nickname] = "\u{1B}[31mred" }), [FieldError("nickname", oneLine)])
        XCTAssertEqual(errors(draft { $0[.organization] = "Acme\u{7F}" }), [FieldError("organization", oneLine)])
        XCTAssertEqual(errors(draft { $0[.title] = "evil\u{202E}txt" }), [FieldError("title", oneLine)])
    }

    func test_lines_acceptZeroWidthJoiners_whichNamesInManyScriptsNeed() {
        // Given a Persian name with a zero-width non-joiner and an emoji sequence with a joiner
        XCTAssertEqual(errors(draft { $0[.given] = "می\u{200C}خواهم" }), [])
        XCTAssertEqual(errors(draft { $0[.nickname] = "👩\u{200D}💻" }), [])
    }

    func test_notes_mayHaveSeveralLines_upTo10000Characters() {
        XCTAssertEqual(errors(draft { $0[.notes] = "a\nb\tc" }), [])
        XCTAssertEqual(errors(draft { $0[.notes] = String(repeating: "x", count: 10_000) }), [])
        XCTAssertEqual(
            errors(draft { $0[.notes] = String(repeating: "x", count: 10_001) }),
            [FieldError("notes", "is longer than 10000 characters")])
    }

    // MARK: birthdays

    func test_birthday_acceptsFullDatesAndDatesWithoutAYear() {
        XCTAssertEqual(birthdayErrors("1990-05-17"), [])
        XCTAssertEqual(birthdayErrors("--05-17"), [])
        XCTAssertEqual(birthdayErrors("05-17"), [])
        XCTAssertEqual(birthdayErrors("1990-12-31"), [])
        XCTAssertEqual(
            try sut.contact(from: draft { $0[.birthday] = "--12-01" }, base: Contact()).birthday,
            Birthday(year: nil, month: 12, day: 1))
    }

    func test_birthday_29February_onlyInLeapYearsOrWithoutAYear() {
        XCTAssertEqual(birthdayErrors("2024-02-29"), [])
        XCTAssertEqual(birthdayErrors("2000-02-29"), [])
        XCTAssertEqual(birthdayErrors("--02-29"), [])
        XCTAssertEqual(birthdayErrors("2023-02-29"), badBirthday)
        XCTAssertEqual(birthdayErrors("1900-02-29"), badBirthday)
        XCTAssertEqual(birthdayErrors("2024-02-30"), badBirthday)
    }

    func test_birthday_refusesOtherFormatsAndImpossibleDates() {
        for text in [
            "17/05/1990", "1990-05", "1990-5-17-1", "--1990-05-17", "1990-13-01", "1990-00-10", "1990-04-31",
            "0000-01-01", "1990-05-xx", "May 17", "-05-17", "1990--05", "+1990-05-17", "1990-+5-17",
        ] {
            XCTAssertEqual(birthdayErrors(text), badBirthday, text)
        }
    }

    // MARK: phones

    func test_phone_acceptsDigitsAndPhonePunctuation() {
        XCTAssertEqual(phoneErrors("+1 (555) 123-4567"), [])
        XCTAssertEqual(phoneErrors("555.123.4567"), [])
        XCTAssertEqual(phoneErrors("112"), [])
        XCTAssertEqual(phoneErrors(String(repeating: "9", count: 20)), [])
    }

    func test_phone_refusesOtherCharacters() {
        let only = [FieldError("phone 1", "may hold only digits, spaces and + - ( ) .")]
        XCTAssertEqual(phoneErrors("555-CALL-NOW"), only)
        XCTAssertEqual(phoneErrors("555 1234 ext 9"), only)
        XCTAssertEqual(phoneErrors("٥٥٥١٢٣٤"), only)
        XCTAssertEqual(phoneErrors("555\u{1B}1234"), only)
    }

    func test_phone_plusOnlyAtTheStart() {
        XCTAssertEqual(phoneErrors("555+1234"), [FieldError("phone 1", "may have + only at the start")])
    }

    func test_phone_needs3To20Digits() {
        let count = [FieldError("phone 1", "must have 3 to 20 digits")]
        XCTAssertEqual(phoneErrors("12"), count)
        XCTAssertEqual(phoneErrors("+()-"), count)
        XCTAssertEqual(phoneErrors(""), count)
        XCTAssertEqual(phoneErrors(String(repeating: "9", count: 21)), count)
    }

    func test_phone_errorsAreNumberedByPosition() {
        XCTAssertEqual(
            errors(
                draft {
                    $0.phones = [
                        LabeledValue(label: "home", value: "5551234"),
                        LabeledValue(label: "work", value: "1"),
                    ]
                }),
            [FieldError("phone 2", "must have 3 to 20 digits")])
    }

    // MARK: emails

    func test_email_acceptsOrdinaryAddresses() {
        XCTAssertEqual(emailErrors("ann@example.org"), [])
        XCTAssertEqual(emailErrors("ann.lee+tag@mail.example.co.uk"), [])
        XCTAssertEqual(emailErrors("josé@correo.es"), [])
    }

    func test_email_refusesWhatIsNotAnAddress() {
        let bad = [FieldError("email 1", "is not an email address like name@example.org")]
        for address in [
            "", "ann", "ann@", "@example.org", "ann@example", "ann@@example.org", "ann@example..org",
            "ann@.org", "ann lee@example.org", "ann@example.org\n", "a@b@example.org",
            String(repeating: "a", count: 250) + "@x.org",
        ] {
            XCTAssertEqual(emailErrors(address), bad, address)
        }
    }

    func test_email_refusesControlCharacters() {
        XCTAssertEqual(
            emailErrors("ann\u{1B}[2J@example.org"),
            [FieldError("email 1", "is not an email address like name@example.org")])
    }

    // MARK: labels

    func test_labels_are1To30LettersDigitsSpacesDashesOrUnderscores() {
        let problem = "must be 1 to 30 letters, digits, spaces, - or _"
        func labelErrors(_ label: String) -> [FieldError] {
            errors(
                draft {
                    $0.phones = [LabeledValue(label: label, value: "5551234")]
                    $0.emails = [LabeledValue(label: label, value: "ann@example.org")]
                    $0.addresses = [LabeledValue(label: label, value: "1 Main St")]
                })
        }
        XCTAssertEqual(labelErrors("work"), [])
        XCTAssertEqual(labelErrors("home 2_old-ish"), [])
        XCTAssertEqual(labelErrors("bureau-été"), [])
        XCTAssertEqual(labelErrors(String(repeating: "l", count: 30)), [])
        for label in ["", String(repeating: "l", count: 31), "work!", "a/b", "tab\there"] {
            XCTAssertEqual(
                labelErrors(label),
                [
                    FieldError("phone 1 label", problem), FieldError("email 1 label", problem),
                    FieldError("address 1 label", problem),
                ], label)
        }
    }

    // MARK: addresses

    func test_address_hasAtMostFivePartsAndNotAllEmpty() {
        let shape = [FieldError("address 1", "must be: street; city; region; postal code; country")]
        func addressErrors(_ typed: String) -> [FieldError] {
            errors(draft { $0.addresses = [LabeledValue(label: "home", value: typed)] })
        }
        XCTAssertEqual(addressErrors("1 Main St"), [])
        XCTAssertEqual(addressErrors("a; b; c; d; e"), [])
        XCTAssertEqual(addressErrors("a; b; c; d; e; f"), shape)
        XCTAssertEqual(addressErrors(""), shape)
        XCTAssertEqual(addressErrors(" ; ;  "), shape)
    }

    func test_address_partsAreTrimmedAndPlacedInOrder() throws {
        let contact = try sut.contact(
            from: draft { $0.addresses = [LabeledValue(label: "home", value: " 1 Main St ;Springfield;;62701")] },
            base: Contact())
        XCTAssertEqual(
            contact.addresses,
            [
                PostalAddress(
                    label: "home", street: "1 Main St", city: "Springfield",
                    postalCode: "62701")
            ])
    }

    func test_address_partsRefuseControlCharactersAndOverlongText() {
        func addressErrors(_ typed: String) -> [FieldError] {
            errors(draft { $0.addresses = [LabeledValue(label: "home", value: typed)] })
        }
        XCTAssertEqual(
            addressErrors("1 Main St\u{1B}[2J; Springfield"),
            [FieldError("address 1", "must be one line without control characters")])
        XCTAssertEqual(
            addressErrors(String(repeating: "x", count: 201)),
            [FieldError("address 1", "is longer than 200 characters")])
    }

    // MARK: tags

    func test_tags_areAtMost50CharactersWithoutCommas() {
        let problem = "must be 1 to 50 characters without commas or control characters"
        XCTAssertEqual(errors(draft { $0.tags = ["friends", String(repeating: "t", count: 50)] }), [])
        XCTAssertEqual(errors(draft { $0.tags = ["a,b"] }), [FieldError("tag 1", problem)])
        XCTAssertEqual(
            errors(draft { $0.tags = ["ok", String(repeating: "t", count: 51)] }), [FieldError("tag 2", problem)])
        XCTAssertEqual(errors(draft { $0.tags = [""] }), [FieldError("tag 1", problem)])
        XCTAssertEqual(errors(draft { $0.tags = ["a\u{1B}[2J"] }), [FieldError("tag 1", problem)])
    }

    // MARK: every error at once

    func test_everyProblemIsReported_inFormOrder() {
        // Given
        var draft = EditContact.Draft()
        draft[.title] = "a\u{0}b"
        draft[.birthday] = "1990-02-30"
        draft.phones = [LabeledValue(label: "", value: "x")]
        draft.emails = [LabeledValue(label: "home", value: "nope")]
        draft.addresses = [LabeledValue(label: "home", value: ";;;;;")]
        draft.tags = ["a,b"]
        // Then
        XCTAssertEqual(
            errors(draft),
            [
                FieldError("title", "must be one line without control characters"),
                FieldError("name", "a contact needs a given name, a family name or an organization"),
                FieldError("birthday", "must be a date as YYYY-MM-DD, or --MM-DD without a year"),
                FieldError("phone 1", "may hold only digits, spaces and + - ( ) ."),
                FieldError("phone 1 label", "must be 1 to 30 letters, digits, spaces, - or _"),
                FieldError("email 1", "is not an email address like name@example.org"),
                FieldError("address 1", "must be: street; city; region; postal code; country"),
                FieldError("tag 1", "must be 1 to 50 characters without commas or control characters"),
            ])
    }
}
