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
        XCTAssertEqual(
            try sut.matches(for: "lee"),
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
        ann.emails = [
            LabeledValue(label: "work", value: "not-an-email"), LabeledValue(label: "home", value: "ann@home.example"),
        ]
        sut = MailQueryWorker(store: InMemoryContactStore([ann]))
        // When a mail client queries
        let matches = try sut.matches(for: "ann")
        // Then only the address is offered
        XCTAssertEqual(matches, [MailQueryMatch(address: "ann@home.example", name: "Ann Lee", info: "home")])
    }

    func test_matches_readOnePageByLastName_withoutLocatingMatches() throws {
        // Given
        let store = PageQuerySpy(inner: Seeds.book())
        sut = MailQueryWorker(store: store)
        // When
        _ = try sut.matches(for: " lee ", limit: 7)
        // Then one page is read, and where each contact matched is not worked out: nothing prints it
        XCTAssertEqual(
            store.queries, [ContactQuery(search: "lee", sort: .last, page: 1, limit: 7, locatesMatches: false)])
    }
}

/// Records the queries a page is read with.
final class PageQuerySpy: ForwardingContactStore {
    private(set) var queries: [ContactQuery] = []
    override func page(_ query: ContactQuery) throws -> ContactPage {
        queries.append(query)
        return try inner.page(query)
    }
}
