import Foundation
import XCTest

@testable import ContactsApp

/// Issue 26, item 1: contacts linked outside the book (by a server, before such hrefs were
/// refused) are neither written nor deleted there; they are named, and the rest of the sync goes on.
final class SyncWorkerScopeTests: XCTestCase {
    var sut: SyncWorker!
    var store: SQLiteContactStore!
    var server: InMemoryCardDAVBook!

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try SQLiteContactStore(path: ":memory:")
        server = InMemoryCardDAVBook()
        try store.addAccount(
            SyncAccount(name: "home", serverURL: "http://h/", bookURL: "http://h/alice/book/", user: "ann"))
        sut = SyncWorker(store: store, now: { Date(timeIntervalSince1970: 1_700_000_000) })
    }

    /// The in-memory book behind the client's rule: hrefs on another host are refused.
    final class ScopedBook: CardDAVBookLogic {
        let inner: InMemoryCardDAVBook
        private(set) var refused: [String] = []
        init(_ inner: InMemoryCardDAVBook) { self.inner = inner }

        private func check(_ href: String) throws {
            guard href.hasPrefix("http://OTHER") else { return }
            if !refused.contains(href) { refused.append(href) }
            throw DAVError.outsideBook(href)
        }

        func changes(since token: String?) throws -> CollectionChanges {
            var changes = try inner.changes(since: token)
            for href in changes.changed.keys where href.hasPrefix("http://OTHER") {
                changes.changed[href] = nil
                if !refused.contains(href) { refused.append(href) }
            }
            return changes
        }
        func listMembers() throws -> CollectionChanges { try inner.listMembers() }
        func cards(hrefs: [String]) throws -> [RemoteCard] { try inner.cards(hrefs: hrefs) }
        func card(href: String) throws -> RemoteCard? { try check(href); return try inner.card(href: href) }
        func create(uid: String, vcard: String) throws -> (href: String, etag: String?) {
            try inner.create(uid: uid, vcard: vcard)
        }
        func update(href: String, vcard: String, etag: String) throws -> String? {
            try check(href); return try inner.update(href: href, vcard: vcard, etag: etag)
        }
        func delete(href: String, etag: String) throws { try check(href); try inner.delete(href: href, etag: etag) }
    }

    func account() throws -> SyncAccount { try XCTUnwrap(store.accounts().first) }

    func contact(_ uid: String) throws -> Contact { try XCTUnwrap(store.contacts(uids: [uid]).first) }

    func test_sync_contactsLinkedOutsideTheBook_areNotWrittenNorDeletedThere_theRestGoesUp() throws {
        // Given: an earlier sync, before the rule, linked two contacts to another host's hrefs
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        server.put("http://OTHER/steal/y.vcf", Seeds.CardDAV.card(uid: "y", given: "Yan", family: "Ng"))
        server.put("http://OTHER/steal/z.vcf", Seeds.CardDAV.card(uid: "z", given: "Zed", family: "Oh"))
        _ = try sut.sync(account(), book: server)
        for uid in ["ann", "y"] {
            var contact = try contact(uid)
            contact.title = "Edited"
            _ = try store.update(contact)
        }
        try store.delete(id: try XCTUnwrap(contact("z").id), expectedVersion: nil)
        let stolen = server.cards["http://OTHER/steal/y.vcf"]

        // When
        let summary = try sut.sync(account(), book: ScopedBook(server))

        // Then
        XCTAssertEqual(summary.pushed, 1)
        XCTAssertTrue(server.cards["/alice/book/ann.vcf"]?.vcard.contains("TITLE:Edited") == true)
        XCTAssertEqual(server.cards["http://OTHER/steal/y.vcf"], stolen)
        XCTAssertNotNil(server.cards["http://OTHER/steal/z.vcf"])
        XCTAssertEqual(summary.refused, ["http://OTHER/steal/z.vcf", "http://OTHER/steal/y.vcf"])
        // The deleted contact's link outside the book is dropped: not named again
        XCTAssertEqual(try sut.sync(account(), book: ScopedBook(server)).refused, ["http://OTHER/steal/y.vcf"])
        XCTAssertEqual(
            SyncPresenter().summary(summary),
            "home: pulled 0, pushed 1, merged 0, conflicts 0; refused 2 hrefs "
                + "outside the address book (nothing sent there): http://OTHER/steal/z.vcf, http://OTHER/steal/y.vcf")
    }
}
