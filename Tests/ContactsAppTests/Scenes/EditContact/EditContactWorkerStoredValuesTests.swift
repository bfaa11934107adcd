import Foundation
import XCTest

@testable import ContactsApp

/// An import keeps values it cannot validate; an edit is refused only for what it changes.
final class EditContactWorkerStoredValuesTests: XCTestCase {
    var sut: EditContactWorker!

    override func setUp() {
        super.setUp()
        sut = EditContactWorker()
    }

    /// Ann as an import kept her: one email that is not an address, one phone with letters.
    private var imported: Contact {
        var contact = Seeds.Contacts.ann
        contact.emails = [
            LabeledValue(label: "work", value: "not-an-email"), LabeledValue(label: "home", value: "ann@home.example"),
        ]
        contact.tags = ["bad,tag"]
        return contact
    }

    func test_editingAnotherField_isSaved_withTheInvalidStoredValuesKept() throws {
        // Given the draft of the imported contact
        var draft = sut.draft(from: imported)
        // When only the nickname changes
        draft[.nickname] = "Nan"
        let saved = try sut.contact(from: draft, base: imported)
        // Then it is saved, the stored values as they were
        XCTAssertEqual(saved.nickname, "Nan")
        XCTAssertEqual(saved.emails, imported.emails)
        XCTAssertEqual(saved.tags, ["bad,tag"])
        XCTAssertEqual(saved.birthday, imported.birthday)
    }

    func test_changingAValueToAnInvalidOne_isStillRefused_forThatFieldOnly() {
        // Given the imported contact, whose first email is already invalid
        var draft = sut.draft(from: imported)
        // When the second email is changed to another invalid value
        draft.emails[1].value = "still-not-an-email"
        // Then only the changed email is refused
        XCTAssertThrowsError(try sut.contact(from: draft, base: imported)) { error in
            XCTAssertEqual(
                error as? ContactsFailure,
                .invalid([FieldError("email 2", "is not an email address like name@example.org")]))
        }
    }

    func test_aNewContact_isCheckedInFull() {
        // Given a new contact (an empty base) with an invalid email
        var draft = EditContact.Draft()
        draft[.given] = "Ann"
        draft.emails = [LabeledValue(label: "work", value: "not-an-email")]
        // Then it is refused
        XCTAssertThrowsError(try sut.contact(from: draft, base: Contact())) { error in
            XCTAssertEqual(
                error as? ContactsFailure,
                .invalid([FieldError("email 1", "is not an email address like name@example.org")]))
        }
    }
}
