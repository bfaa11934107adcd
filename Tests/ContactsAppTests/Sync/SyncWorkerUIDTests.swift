import Foundation
import XCTest

@testable import ContactsApp

/// Issue 26, items 3 and 4: a UID is scoped to its account and address book. A card matches by
/// its UID only a contact linked to no account; one UID on two servers is two contacts; two
/// cards with one UID in one book are both kept, the second named, and the sync goes on.
final class SyncWorkerUIDTests: XCTestCase {
    var sut: SyncWorker!
    var store: SQLiteContactStore!
    var home: InMemoryCardDAVBook!
    var work: InMemoryCardDAVBook!

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try SQLiteContactStore(path: ":memory:")
        home = InMemoryCardDAVBook()
        work = InMemoryCardDAVBook()
        try store.addAccount(
            SyncAccount(name: "home", serverURL: "http://h/", bookURL: "http://h/alice/book/", user: "ann"))
        try store.addAccount(SyncAccount(name: "work", serverURL: "http://w/", bookURL: "http://w/book/", user: "ann"))
        sut = SyncWorker(store: store, now: { Date(timeIntervalSince1970: 1_700_000_000) })
    }

    @discardableResult
    func sync(_ name: String) throws -> SyncSummary {
        let account = try XCTUnwrap(store.accounts().first { $0.name == name })
        return try sut.sync(account, book: name == "home" ? home : work)
    }

    /// (full name, account) of every contact holding `uid`, oldest first.
    func holders(_ uid: String) throws -> [[String]] {
        try store.holders(uids: [uid]).map { [$0.contact.fullName, $0.account ?? "-"] }
    }

    func test_aCardOfAnotherAccount_withALinkedContactsUID_isAContactOfItsOwn_theFirstUntouched() throws {
        // Given: Ann, home's
        home.put(
            "/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "EMAIL:ann@home.example")
        )
        try sync("home")
        let ann = try XCTUnwrap(store.contacts(uids: ["ann"]).first)
        work.put(
            "/book/x.vcf", Seeds.CardDAV.card(uid: "ann", given: "Mallory", family: "Evil", "EMAIL:m@evil.example"))

        // When
        let summary = try sync("work")

        // Then
        XCTAssertEqual([summary.pulled, summary.merged, summary.conflicts, summary.pushed], [1, 0, 0, 0])
        XCTAssertEqual(try holders("ann"), [["Ann Lee", "home"], ["Mallory Evil", "work"]])
        XCTAssertEqual(try store.contact(id: XCTUnwrap(ann.id)), ann)
        XCTAssertEqual(try sync("home").pushed, 0)
        XCTAssertFalse(home.cards["/alice/book/ann.vcf"]?.vcard.contains("evil") ?? true)
        XCTAssertEqual(try store.sharedUIDs(), ["ann": [try XCTUnwrap(ann.id), try XCTUnwrap(ann.id) + 1]])
    }

    func test_oneUIDOnTwoServers_editedApart_staysTwoContacts_roundAfterRound_notesUnchanged() throws {
        // Given
        home.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "TITLE:Chief"))
        work.put("/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "TITLE:Boss"))
        try sync("home")
        try sync("work")
        let before = try store.contacts(uids: ["ann"])

        // When
        for _ in 0..<3 {
            for name in ["home", "work"] {
                let summary = try sync(name)
                XCTAssertEqual(
                    [summary.pulled, summary.pushed, summary.merged, summary.conflicts], [0, 0, 0, 0], name)
            }
        }

        // Then
        XCTAssertEqual(try store.contacts(uids: ["ann"]), before)
        XCTAssertEqual(before.map(\.title), ["Chief", "Boss"])
        XCTAssertEqual(before.map(\.notes), ["", ""])
    }

    func test_aContactLinkedNowhere_isStillMatchedByItsUID_byOneCardOnly() throws {
        // Given: a local contact, and its card twice on the server
        _ = try store.insert(Contact(uid: "ann", givenName: "Ann", familyName: "Lee"))
        home.put("/alice/book/a.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        home.put("/alice/book/b.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "TITLE:Twin"))

        // When
        let summary = try sync("home")

        // Then: the first card is the local contact; the second, a contact beside it, named
        XCTAssertEqual([summary.pulled, summary.merged], [1, 1])
        XCTAssertEqual(summary.sharedUIDs, [.init(uid: "ann", first: "/alice/book/a.vcf", second: "/alice/book/b.vcf")])
        XCTAssertEqual(try holders("ann"), [["Ann Lee", "home"], ["Ann Lee", "home"]])
        XCTAssertEqual(
            try store.itemsWithoutBase(account: "home").map(\.href).sorted(),
            ["/alice/book/a.vcf", "/alice/book/b.vcf"])
    }

    func test_twoCardsWithOneUID_inOneBook_bothKept_eachEditGoesToItsOwnHref() throws {
        // Given
        home.put("/alice/book/a.vcf", Seeds.CardDAV.card(uid: "twin", given: "Ann", family: "One"))
        home.put("/alice/book/b.vcf", Seeds.CardDAV.card(uid: "twin", given: "Ann", family: "Two"))
        home.put("/alice/book/c.vcf", Seeds.CardDAV.card(uid: "cy", given: "Cy", family: "Dee"))

        // When
        let summary = try sync("home")

        // Then
        XCTAssertEqual(summary.pulled, 3)
        XCTAssertEqual(
            summary.sharedUIDs, [.init(uid: "twin", first: "/alice/book/a.vcf", second: "/alice/book/b.vcf")])
        XCTAssertEqual(
            SyncPresenter().summary(summary),
            "home: pulled 3, pushed 0, merged 0, conflicts 0; 2 cards with the "
                + "UID twin, kept as two contacts: /alice/book/a.vcf and /alice/book/b.vcf")
        for var twin in try store.contacts(uids: ["twin"]) {
            twin.title = "Edited " + twin.familyName
            _ = try store.update(twin)
        }
        XCTAssertEqual(try sync("home").pushed, 2)
        XCTAssertTrue(home.cards["/alice/book/a.vcf"]?.vcard.contains("TITLE:Edited One") == true)
        XCTAssertTrue(home.cards["/alice/book/b.vcf"]?.vcard.contains("TITLE:Edited Two") == true)
        XCTAssertEqual(try sync("home").sharedUIDs, [])
    }

    func test_aCardArrivingLater_withALinkedCardsUID_isAddedBesideIt_named() throws {
        // Given
        home.put("/alice/book/c.vcf", Seeds.CardDAV.card(uid: "cy", given: "Cy", family: "Dee"))
        try sync("home")
        home.put("/alice/book/d.vcf", Seeds.CardDAV.card(uid: "cy", given: "Cy", family: "Again"))

        // When
        let summary = try sync("home")

        // Then
        XCTAssertEqual(summary.sharedUIDs, [.init(uid: "cy", first: "/alice/book/c.vcf", second: "/alice/book/d.vcf")])
        XCTAssertEqual(try holders("cy"), [["Cy Dee", "home"], ["Cy Again", "home"]])
    }

    func test_uidsWhoseHashesAllMatch_areStillToldApart_localContactMerged_onlyTrueTwinsNamed() throws {
        // Given: every UID hashing alike (the pull keeps hashes, not UIDs); a local Bob
        sut.uidHash = { _ in 7 }
        _ = try store.insert(Contact(uid: "bob", givenName: "Bob", familyName: "Local"))
        home.put("/alice/book/a.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        home.put("/alice/book/b.vcf", Seeds.CardDAV.card(uid: "bob", given: "Bob", family: "Local", "TITLE:Chief"))
        home.put("/alice/book/c.vcf", Seeds.CardDAV.card(uid: "cy", given: "Cy", family: "Dee"))
        home.put("/alice/book/d.vcf", Seeds.CardDAV.card(uid: "twin", given: "Di", family: "One"))
        home.put("/alice/book/e.vcf", Seeds.CardDAV.card(uid: "twin", given: "Di", family: "Two"))
        home.put("/alice/book/f.vcf", Seeds.CardDAV.card(uid: "bob", given: "Bob", family: "Again"))

        // When
        let summary = try sync("home")

        // Then: Bob's first card merged into the local Bob, the second beside it; Cy and Ann new
        XCTAssertEqual([summary.pulled, summary.merged], [5, 1])
        XCTAssertEqual(
            summary.sharedUIDs,
            [
                .init(uid: "twin", first: "/alice/book/d.vcf", second: "/alice/book/e.vcf"),
                .init(uid: "bob", first: "/alice/book/b.vcf", second: "/alice/book/f.vcf"),
            ])
        XCTAssertEqual(try holders("bob"), [["Bob Local", "home"], ["Bob Again", "home"]])
        XCTAssertEqual(try store.contacts(uids: ["bob"]).first?.title, "Chief")
        XCTAssertEqual(try holders("cy"), [["Cy Dee", "home"]])
        XCTAssertEqual(try store.itemsWithoutBase(account: "home").count, 6)
    }
}

/// The same rules in a large pull, worked out batch by batch on threads of their own.
final class SyncWorkerUIDPipelineTests: XCTestCase {
    var directory: URL!

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    func test_aLargePull_withOneUIDInTwoBatches_andALocalContact_keepsBoth_matchesTheLocalOnce() throws {
        try pullRepeatingTheFirstUID(hashingEveryUIDAlike: false)
    }

    func test_aLargePull_whereEveryUIDHashesAlike_decidesTheSame() throws {
        try pullRepeatingTheFirstUID(hashingEveryUIDAlike: true)
    }

    func pullRepeatingTheFirstUID(hashingEveryUIDAlike: Bool) throws {
        // Given: 250 cards in batches of 100, the last repeating the first's UID; a local contact with it
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "SyncWorkerUIDPipelineTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try SQLiteContactStore(path: directory.appendingPathComponent("book.sqlite").path)
        try store.addAccount(
            SyncAccount(name: "home", serverURL: "http://h/", bookURL: "http://h/alice/book/", user: "ann"))
        let server = InMemoryCardDAVBook()
        server.multigetBatch = 100
        for i in 0..<249 {
            server.put(
                String(format: "/alice/book/c%03d.vcf", i),
                Seeds.CardDAV.card(uid: "c\(i)", given: "Given\(i)", family: "Pull"))
        }
        server.put("/alice/book/z.vcf", Seeds.CardDAV.card(uid: "c0", given: "Given0", family: "Again"))
        _ = try store.insert(Contact(uid: "c0", givenName: "Given0", familyName: "Pull"))

        let sut = SyncWorker(store: store)
        if hashingEveryUIDAlike { sut.uidHash = { _ in 7 } }

        // When
        let summary = try sut.sync(try XCTUnwrap(store.accounts().first), book: server)

        // Then
        XCTAssertEqual([summary.pulled, summary.merged], [249, 1])
        XCTAssertEqual(
            summary.sharedUIDs, [.init(uid: "c0", first: "/alice/book/c000.vcf", second: "/alice/book/z.vcf")])
        XCTAssertEqual(try store.contacts(uids: ["c0"]).map(\.familyName), ["Pull", "Again"])
        XCTAssertEqual(try store.itemsWithoutBase(account: "home").count, 250)
    }
}
