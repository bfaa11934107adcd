import Foundation
import XCTest
@testable import ContactsApp

final class MailQueryWorkerTests: XCTestCase {
    var sut: MailQueryWorker!

    override func setUp() {
        super.setUp()
        sut = MailQueryWorker(store: Seeds.book())
    }

    func test_matches_oneLinePerAddress_withNameAndLabel() throws {
        XCTAssertEqual(try sut.matches(for: "lee"),
                       [MailQueryMatch(address: "ann@example.org", name: "Ann Lee", info: "work")])
    }

    func test_matches_textIsTrimmedAsFoundationTrimsWhitespace() throws {
        // Spaces, tabs and U+200B ZERO WIDTH SPACE around the text are not part of it
        XCTAssertEqual(try sut.matches(for: " \t\u{200B}lee\u{200B}\u{3000}").map(\.address), ["ann@example.org"])
        // And text of nothing but those finds nothing, rather than listing the book
        XCTAssertEqual(try sut.matches(for: " \u{200B}\t"), [])
        XCTAssertEqual(try sut.matches(for: ""), [])
    }

    func test_matches_leaveOutValuesThatAreNotAddresses() throws {
        // Given a contact an import kept with one invalid and one valid email
        var ann = Seeds.Contacts.ann
        ann.emails = [LabeledValue(label: "work", value: "not-an-email"), LabeledValue(label: "home", value: "ann@home.example")]
        sut = MailQueryWorker(store: InMemoryContactStore([ann]))
        // When a mail client queries
        let matches = try sut.matches(for: "ann")
        // Then only the address is offered
        XCTAssertEqual(matches, [MailQueryMatch(address: "ann@home.example", name: "Ann Lee", info: "home")])
    }
}
