import XCTest

@testable import ContactsApp

/// `contactsbook query` and groups: a group matching the text is one line of its members' addresses.
final class MailQueryGroupsTests: XCTestCase {
    func test_aGroupMatchingEveryWord_comesFirst_asItsMembersAddresses() throws {
        // Given: Ann, José (two emails), Acme; a group of José, Acme and one elsewhere; one with nobody addressable
        let store = Seeds.book()
        _ = try store.saveGroup(
            GroupCard.new(uid: "g1", name: "Book club", members: ["uid-jose", "uid-acme", "x"], convention: .kind),
            kind: .add, summary: "")
        _ = try store.saveGroup(
            GroupCard.new(uid: "g2", name: "Bookkeepers", members: ["uid-taro"], convention: .apple),
            kind: .add, summary: "")
        let sut = MailQueryWorker(store: store, groups: store)
        // When
        let matches = try sut.matches(for: "boo clu")
        let none = try sut.matches(for: "club nobody")
        let answer = MailQueryPresenter().present(matches)
        // Then: first address of each member, in the list's order; the group with no address left out
        XCTAssertEqual(matches.map(\.address), ["info@acme.example, jose@correo.es"])
        XCTAssertEqual(matches.first?.members?.map(\.name), ["Acme Inc.", "José Ñúñez"])
        XCTAssertEqual(none, [])
        XCTAssertEqual(
            answer.text, "contactsbook: 1 group\ninfo@acme.example, jose@correo.es\tBook club\tgroup · 2 addresses\n")
        XCTAssertEqual(try sut.matches(for: "bookk"), [])
    }
}
