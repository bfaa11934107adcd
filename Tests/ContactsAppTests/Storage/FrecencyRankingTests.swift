import Foundation
import XCTest

@testable import ContactsApp

/// A search puts the contacts whose addresses `add-email` saw first (highest frecency first),
/// then the other matches in their usual order; every page of it, in both stores.
final class FrecencyRankingTests: XCTestCase {
    private static let day: TimeInterval = 86_400

    /// Twelve Lees, "Lee 01"… by family then given name; each with one address.
    private static func book() -> [Contact] {
        (1...12).map { n in
            Contact(
                uid: "uid-\(n)", givenName: String(format: "Lee%02d", n), familyName: "Lee",
                emails: [LabeledValue(label: "work", value: "lee\(n)@example.org")])
        }
    }

    private func stores() throws -> [(String, ContactStore & SeenAddressStore)] {
        let sqlite = try SQLiteContactStore(path: ":memory:")
        for contact in Self.book() { _ = try sqlite.insert(contact) }
        return [("memory", InMemoryContactStore(Self.book())), ("sqlite", sqlite)]
    }

    private func names(_ store: ContactStore, _ search: String, page: Int, limit: Int) throws -> [String] {
        try store.page(ContactQuery(search: search, sort: .last, page: page, limit: limit)).contacts.map(\.givenName)
    }

    func test_search_ranksAddressesSeen_byCountAndRecency_thenTheUsualOrder_onEveryPage() throws {
        for (name, store) in try stores() {
            // Given: lee9 seen 3 times long ago, lee5 twice today, lee11 once today; one address no contact holds
            let now = Seeds.now
            for _ in 1...3 {
                try store.recordSeen(addresses: ["LEE9@example.org "], at: now.addingTimeInterval(-90 * Self.day))
            }
            try store.recordSeen(addresses: ["lee5@example.org", "lee11@example.org", "stranger@example.org"], at: now)
            try store.recordSeen(addresses: ["lee5@example.org"], at: now)

            // When: the search read a page at a time
            let pages = try (1...4).map { try names(store, "lee", page: $0, limit: 4) }

            // Then: 2 today beats 3 three half-lives ago (3/8); 1 today beats it too
            XCTAssertEqual(
                pages.flatMap { $0 },
                [
                    "Lee05", "Lee11", "Lee09", "Lee01", "Lee02", "Lee03", "Lee04", "Lee06",
                    "Lee07", "Lee08", "Lee10", "Lee12",
                ], name)
            XCTAssertEqual(pages.last, [], name)
            XCTAssertEqual(try store.page(ContactQuery(search: "lee", page: 1, limit: 2)).total, 12, name)
            // A page of ranked ones alone still counts every match
            XCTAssertEqual(try store.page(ContactQuery(search: "lee", page: 1, limit: 1)).total, 12, name)
            // A search only some seen ones match, and one inside words
            XCTAssertEqual(try names(store, "lee1", page: 1, limit: 10), ["Lee11", "Lee01", "Lee10", "Lee12"], name)
            XCTAssertEqual(try names(store, "xampl", page: 1, limit: 4), ["Lee05", "Lee11", "Lee09", "Lee01"], name)
            // The whole book, without a search, stays in name order
            XCTAssertEqual(try names(store, "", page: 1, limit: 3), ["Lee01", "Lee02", "Lee03"], name)
        }
    }

    func test_aBookThatHasSeenNothing_searchesAsBefore() throws {
        for (name, store) in try stores() {
            XCTAssertEqual(
                try names(store, "lee", page: 2, limit: 5), ["Lee06", "Lee07", "Lee08", "Lee09", "Lee10"], name)
            XCTAssertEqual(try store.seenAddresses(), [], name)
        }
    }
}
