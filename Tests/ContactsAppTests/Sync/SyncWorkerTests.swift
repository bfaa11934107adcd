import Foundation
import GRDB
import SceneCore
import XCTest

@testable import ContactsApp

final class SyncWorkerTests: XCTestCase {
    var sut: SyncWorker!
    var store: SQLiteContactStore!
    var server: InMemoryCardDAVBook!
    var account: SyncAccount!

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try SQLiteContactStore(path: ":memory:")
        server = InMemoryCardDAVBook()
        try store.addAccount(
            SyncAccount(name: "home", serverURL: "http://h/", bookURL: "http://h/alice/book/", user: "ann"))
        sut = SyncWorker(store: store, now: { Date(timeIntervalSince1970: 1_700_000_000) })
    }

    /// Syncs with the account as stored now (its token moves on each sync).
    @discardableResult
    func sync() throws -> SyncSummary {
        let account = try XCTUnwrap(store.accounts().first)
        return try sut.sync(account, book: server)
    }

    func contacts() throws -> [Contact] { try store.page(ContactQuery(limit: 100)).contacts }

    func contact(_ uid: String) throws -> Contact { try XCTUnwrap(store.contacts(uids: [uid]).first) }

    func insertLocal(_ given: String, _ family: String, uid: String) throws -> Contact {
        try store.insert(Contact(uid: uid, givenName: given, familyName: family))
    }

    func test_firstSync_pullsEveryCard_andPushesLocalOnlyContactsToTheDefaultAccount() throws {
        // Given
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "X-COLOR:teal"))
        _ = try insertLocal("Cy", "Dee", uid: "cy")

        // When
        let summary = try sync()

        // Then
        XCTAssertEqual([summary.pulled, summary.pushed, summary.merged, summary.conflicts], [1, 1, 0, 0])
        XCTAssertEqual(try contacts().map(\.givenName).sorted(), ["Ann", "Cy"])
        XCTAssertEqual(try contact("ann").extraProperties, ["X-COLOR:teal"])
        XCTAssertEqual(server.cards.keys.sorted(), ["/alice/book/ann.vcf", "/alice/book/cy.vcf"])
        XCTAssertTrue(server.cards["/alice/book/cy.vcf"]?.vcard.contains("VERSION:3.0") == true)
        XCTAssertEqual(server.calls.first, "changes(nil)")
    }

    func test_anAccountTakingVCard4_getsVCard4_withEveryUnknownPropertyKept() throws {
        // Given: a server that said it takes 4.0, and a card with properties we have no field for
        try store.addAccount(
            SyncAccount(
                name: "v4", serverURL: "http://h/", bookURL: "http://h/v4/", user: "ann",
                acceptsVCard4: true))
        let v4Server = InMemoryCardDAVBook()
        v4Server.put(
            "/alice/book/ann.vcf",
            Seeds.CardDAV.card(
                uid: "ann", given: "Ann", family: "Lee", "X-COLOR:teal",
                "IMPP:xmpp:ann@example.org"))
        let account = try XCTUnwrap(store.accounts().first { $0.name == "v4" })
        _ = try sut.sync(account, book: v4Server)
        var ann = try contact("ann")
        ann.title = "Engineer"
        _ = try store.update(ann)

        // When
        _ = try sut.sync(try XCTUnwrap(store.accounts().first { $0.name == "v4" }), book: v4Server)

        // Then
        let text = try XCTUnwrap(v4Server.cards["/alice/book/ann.vcf"]?.vcard)
        XCTAssertTrue(text.contains("VERSION:4.0"), text)
        XCTAssertTrue(
            text.contains("TITLE:Engineer") && text.contains("X-COLOR:teal")
                && text.contains("IMPP:xmpp:ann@example.org"), text)
    }

    func test_noOpSync_movesNothing_andAsksForTheChangesSinceTheToken() throws {
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        try sync()
        server.calls = []

        let summary = try sync()

        XCTAssertEqual([summary.pulled, summary.pushed, summary.merged], [0, 0, 0])
        // Nothing to download: only the changes are asked for
        XCTAssertEqual(server.calls, ["changes(1)"])
    }

    func test_withoutADefaultAccount_newContactsStayLocal() throws {
        // Given: a second account, made the default, then removed: none is the default
        try store.addAccount(
            SyncAccount(
                name: "work", serverURL: "http://w/", bookURL: "http://w/b/", user: "ann",
                isDefault: true))
        _ = try store.removeAccount(named: "work")
        _ = try insertLocal("Cy", "Dee", uid: "cy")

        let summary = try sync()

        XCTAssertEqual(summary.pushed, 0)
        XCTAssertTrue(server.cards.isEmpty)
    }

    func test_localEditAndDelete_goUpWithTheirETags() throws {
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "X-COLOR:teal"))
        server.put("/alice/book/bob.vcf", Seeds.CardDAV.card(uid: "bob", given: "Bob", family: "Ray"))
        try sync()
        var ann = try contact("ann")
        ann.title = "Engineer"
        _ = try store.update(ann)
        let bob = try contact("bob")
        try store.delete(id: try XCTUnwrap(bob.id), expectedVersion: nil)

        let summary = try sync()

        XCTAssertEqual(summary.pushed, 2)
        XCTAssertEqual(server.cards.keys.sorted(), ["/alice/book/ann.vcf"])
        let text = try XCTUnwrap(server.cards["/alice/book/ann.vcf"]?.vcard)
        XCTAssertTrue(text.contains("TITLE:Engineer") && text.contains("X-COLOR:teal"))
        XCTAssertEqual(try store.orphanedItems(account: "home"), [])
    }

    func test_remoteAddEditDelete_comeDown_inOneTransactionWithTheToken() throws {
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        server.put("/alice/book/bob.vcf", Seeds.CardDAV.card(uid: "bob", given: "Bob", family: "Ray"))
        try sync()
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "TITLE:Director"))
        server.remove("/alice/book/bob.vcf")
        server.put("/alice/book/dan.vcf", Seeds.CardDAV.card(uid: "dan", given: "Dan", family: "Fox"))

        let summary = try sync()

        XCTAssertEqual(summary.pulled, 3)
        XCTAssertEqual(try contacts().map(\.uid).sorted(), ["ann", "dan"])
        XCTAssertEqual(try contact("ann").title, "Director")
        XCTAssertEqual(try store.accounts().first?.syncToken, "5")
    }

    func test_sameFieldEditedOnBothSides_serverWins_localValueInTheNotes_counted() throws {
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "TITLE:Engineer"))
        try sync()
        var ann = try contact("ann")
        ann.title = "Local Boss"
        _ = try store.update(ann)
        server.put(
            "/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "TITLE:Remote Chief"))

        let summary = try sync()

        XCTAssertEqual([summary.merged, summary.conflicts, summary.pushed], [1, 1, 1])
        XCTAssertEqual(
            summary.conflicted,
            [
                .init(
                    name: "Ann Lee",
                    fields: [
                        .init(field: "title", winner: .server, kept: "Remote Chief", lost: "Local Boss")
                    ])
            ])
        XCTAssertEqual(try contact("ann").title, "Remote Chief")
        XCTAssertEqual(try contact("ann").notes, "sync conflict: title here was: Local Boss")
    }

    func test_sameFieldEditedOnBothSides_accountSetToLocal_localValueWinsAndGoesUp_serverValueInTheNotes() throws {
        // Given: an account whose conflicts go to the local side
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "TITLE:Engineer"))
        try sync()
        try store.updateAccount(named: "home", conflicts: .local, makeDefault: false)
        var ann = try contact("ann")
        ann.title = "Local Boss"
        _ = try store.update(ann)
        server.put(
            "/alice/book/ann.vcf",
            Seeds.CardDAV.card(
                uid: "ann", given: "Ann", family: "Lee", "TITLE:Remote Chief",
                "ORG:Acme"))

        // When
        let summary = try sync()

        // Then: the local title kept and sent, the server's other change taken, its title in the notes
        XCTAssertEqual([summary.merged, summary.conflicts, summary.pushed], [1, 1, 1])
        XCTAssertEqual(
            summary.conflicted,
            [
                .init(
                    name: "Ann Lee",
                    fields: [
                        .init(field: "title", winner: .local, kept: "Local Boss", lost: "Remote Chief")
                    ])
            ])
        let merged = try contact("ann")
        XCTAssertEqual(merged.title, "Local Boss")
        XCTAssertEqual(merged.organization, "Acme")
        XCTAssertEqual(merged.notes, "sync conflict: title on the server was: Remote Chief")
        let text = try XCTUnwrap(server.cards["/alice/book/ann.vcf"]?.vcard)
        XCTAssertTrue(text.contains("TITLE:Local Boss") && text.contains("ORG:Acme"))
        XCTAssertEqual(try sync().pushed, 0)
    }

    func test_a412Race_accountSetToLocal_theRetriedPutKeepsTheLocalValue() throws {
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "TITLE:Engineer"))
        try sync()
        try store.updateAccount(named: "home", conflicts: .local, makeDefault: false)
        var ann = try contact("ann")
        ann.title = "Local Boss"
        _ = try store.update(ann)
        server.beforeNextWrite = { [server] in
            server?.put(
                "/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "TITLE:Remote"))
        }

        let summary = try sync()

        XCTAssertEqual([summary.merged, summary.conflicts, summary.pushed], [1, 1, 1])
        XCTAssertEqual(try contact("ann").title, "Local Boss")
        XCTAssertTrue(try XCTUnwrap(server.cards["/alice/book/ann.vcf"]?.vcard).contains("TITLE:Local Boss"))
    }

    func test_pulledChanges_areAnnouncedToTheSession_byKind() throws {
        // Given: a sync that creates Dan, updates Ann and deletes Bob here
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        server.put("/alice/book/bob.vcf", Seeds.CardDAV.card(uid: "bob", given: "Bob", family: "Ray"))
        try sync()
        let (annID, bobID) = (try XCTUnwrap(contact("ann").id), try XCTUnwrap(contact("bob").id))
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "TITLE:Director"))
        server.remove("/alice/book/bob.vcf")
        server.put("/alice/book/dan.vcf", Seeds.CardDAV.card(uid: "dan", given: "Dan", family: "Fox"))
        let changesSpy = ImportExportWorkerTests.ChangeNotifierSpy()
        sut = SyncWorker(store: store, now: { Date(timeIntervalSince1970: 1_700_000_000) }, changes: changesSpy)

        // When
        try sync()

        // Then
        let danID = try XCTUnwrap(contact("dan").id)
        XCTAssertEqual(
            changesSpy.changes,
            [
                DataChange(topic: "contacts", kind: "created", ids: [String(danID)]),
                DataChange(topic: "contacts", kind: "updated", ids: [String(annID)]),
                DataChange(topic: "contacts", kind: "deleted", ids: [String(bobID)]),
            ])
    }

    func test_aSyncWithNothingToDo_writesNothing_theJournalClockStaysStill() throws {
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        try sync()
        let clock = try store.lastSequence()

        try sync()

        XCTAssertEqual(try store.lastSequence(), clock)
        XCTAssertEqual(try store.accounts().first?.syncToken, "1")
    }

    func test_aSyncWithNothingToDo_announcesNothing() throws {
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        try sync()
        let changesSpy = ImportExportWorkerTests.ChangeNotifierSpy()
        sut = SyncWorker(store: store, changes: changesSpy)

        try sync()

        XCTAssertEqual(changesSpy.changes, [])
    }

    func test_deletedOnTheServer_editedHere_theEditWins_andIsCreatedAgain() throws {
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        try sync()
        var ann = try contact("ann")
        ann.title = "Kept"
        _ = try store.update(ann)
        server.remove("/alice/book/ann.vcf")

        let summary = try sync()

        XCTAssertEqual(summary.resurrected, 1)
        XCTAssertEqual(summary.pushed, 1)
        XCTAssertEqual(try contact("ann").title, "Kept")
        XCTAssertEqual(server.cards.count, 1)
    }

    func test_deletedHere_editedOnTheServer_theEditWins_andComesBack() throws {
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        try sync()
        try store.delete(id: try XCTUnwrap(contact("ann").id), expectedVersion: nil)
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "TITLE:New"))

        let summary = try sync()

        XCTAssertEqual(summary.resurrected, 1)
        XCTAssertEqual(try contact("ann").title, "New")
        XCTAssertEqual(server.cards.count, 1)
    }

    func test_refusedToken_comparesEveryETag() throws {
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        try sync()
        server.put("/alice/book/bob.vcf", Seeds.CardDAV.card(uid: "bob", given: "Bob", family: "Ray"))
        server.refusesTokens = true
        server.calls = []

        let summary = try sync()

        XCTAssertTrue(summary.resynced)
        XCTAssertEqual(summary.pulled, 1)
        XCTAssertEqual(server.calls.prefix(3), ["changes(1)", "listMembers", "cards(1)"])
        XCTAssertEqual(try contacts().count, 2)
    }

    func test_a412Race_fetchesMergesAndTriesAgain() throws {
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        try sync()
        var ann = try contact("ann")
        ann.title = "Engineer"
        _ = try store.update(ann)
        // The server's change lands after our pull, just before our PUT
        server.beforeNextWrite = { [server] in
            server?.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "ORG:Acme"))
        }

        let summary = try sync()

        XCTAssertEqual([summary.merged, summary.conflicts, summary.pushed], [1, 0, 1])
        let text = try XCTUnwrap(server.cards["/alice/book/ann.vcf"]?.vcard)
        XCTAssertTrue(text.contains("TITLE:Engineer") && text.contains("ORG:Acme"))
        XCTAssertEqual(try contact("ann").organization, "Acme")
    }

    func test_aCutOffSync_resumes_withoutDuplicates() throws {
        // Given: the server took Cy, but the book never recorded it nor the pull's token
        _ = try insertLocal("Cy", "Dee", uid: "cy")
        try sync()
        let cy = try contact("cy")
        try store.forget(account: "home", href: "/alice/book/cy.vcf")
        try store.apply(SyncPull(account: "home", token: nil))

        let summary = try sync()

        XCTAssertEqual(summary.merged, 1)
        XCTAssertEqual(summary.pushed, 0)
        XCTAssertEqual(try contacts().map(\.uid), ["cy"])
        XCTAssertEqual(try contact("cy").id, cy.id)
        XCTAssertEqual(server.cards.count, 1)
    }

    func test_aCardTheServerRefuses_isNamedWithItsReason_theOthersGoOn_andItIsSentAgainNextSync() throws {
        // Given: three new contacts here; the server refuses the middle one (as SabreDAV's validator does)
        _ = try insertLocal("Ann", "Lee", uid: "ann")
        _ = try insertLocal("Cy", "Dee", uid: "cy")
        _ = try insertLocal("Dan", "Fox", uid: "dan")
        server.refusing["/alice/book/cy.vcf"] = InMemoryCardDAVBook.refusal("/alice/book/cy.vcf")

        // When
        let summary = try sync()

        // Then: the others went up, and the summary names the refused one with the server's words
        XCTAssertEqual(summary.pushed, 2)
        XCTAssertEqual(server.cards.keys.sorted(), ["/alice/book/ann.vcf", "/alice/book/dan.vcf"])
        XCTAssertEqual(
            summary.failed,
            [
                .init(
                    name: "Cy Dee", direction: .push, status: 415,
                    reason:
                        "Unsupported Media Type: This resource only supports valid vcard data. Parse error: Invalid VObject, "
                        + "line 7 did not follow the icalendar/vcard format")
            ])
        XCTAssertEqual(
            try store.itemsWithoutBase(account: "home").map(\.href).sorted(),
            ["/alice/book/ann.vcf", "/alice/book/dan.vcf"])

        // And the next sync sends it again (and only it); once the server takes it, it is synced
        server.calls = []
        XCTAssertEqual(try sync().failed.map(\.name), ["Cy Dee"])
        XCTAssertEqual(server.calls.filter { $0 == "create" }.count, 1)
        server.refusing = [:]
        let third = try sync()
        XCTAssertEqual([third.pushed, third.failed.count], [1, 0])
        XCTAssertEqual(server.cards.count, 3)
        XCTAssertEqual(try sync().pushed, 0)
    }

    func test_anEditTheServerRefuses_staysToBeSent_theDeletionOfAnotherGoesOn() throws {
        // Given: two synced contacts; one edited here, the other deleted here
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        server.put("/alice/book/bob.vcf", Seeds.CardDAV.card(uid: "bob", given: "Bob", family: "Ray"))
        try sync()
        var ann = try contact("ann")
        ann.title = "Engineer"
        ann = try store.update(ann)
        try store.delete(id: try XCTUnwrap(contact("bob").id), expectedVersion: nil)
        server.refusing["/alice/book/ann.vcf"] = .refused(
            500, method: "PUT", url: URL(string: "http://h/alice/book/ann.vcf")!, reason: "Internal Server Error")

        // When
        let summary = try sync()

        // Then
        XCTAssertEqual(summary.pushed, 1)
        XCTAssertEqual(server.cards.keys.sorted(), ["/alice/book/ann.vcf"])
        XCTAssertEqual(
            summary.failed, [.init(name: "Ann Lee", direction: .push, status: 500, reason: "Internal Server Error")])
        XCTAssertEqual(try store.changedContacts(account: "home").map(\.uid), ["ann"])
        server.refusing = [:]
        XCTAssertEqual(try sync().pushed, 1)
        XCTAssertTrue(server.cards["/alice/book/ann.vcf"]?.vcard.contains("TITLE:Engineer") == true)
    }

    func test_aDeletionTheServerRefuses_isNamed_andTriedAgainNextSync() throws {
        // Given
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        try sync()
        try store.delete(id: try XCTUnwrap(contact("ann").id), expectedVersion: nil)
        server.refusing["/alice/book/ann.vcf"] = .refused(
            403, method: "DELETE", url: URL(string: "http://h/alice/book/ann.vcf")!, reason: "Forbidden")

        // When
        let summary = try sync()

        // Then: named by the card it was, still linked, so the next sync deletes it
        XCTAssertEqual(summary.failed, [.init(name: "Ann Lee", direction: .push, status: 403, reason: "Forbidden")])
        XCTAssertEqual(try store.orphanedItems(account: "home").map(\.href), ["/alice/book/ann.vcf"])
        server.refusing = [:]
        XCTAssertEqual(try sync().pushed, 1)
        XCTAssertEqual(server.cards.count, 0)
    }

    func test_anOrphanedLink_isFoundThroughTheIdIndexes_andInABookWithoutThemToo() throws {
        // Given two synced contacts, one deleted here since
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        server.put("/alice/book/bob.vcf", Seeds.CardDAV.card(uid: "bob", given: "Bob", family: "Ray"))
        try sync()
        try store.delete(id: try XCTUnwrap(contact("ann").id), expectedVersion: nil)
        final class Statements: @unchecked Sendable { var sql: [String] = [] }
        let seen = Statements()
        try store.writer.writeWithoutTransaction { db in db.trace { seen.sql.append($0.description) } }
        let indexed = try store.orphanedItems(account: "home").map(\.href)
        XCTAssertFalse(seen.sql.isEmpty)
        XCTAssertFalse(seen.sql.contains { $0.contains("NOT IN (SELECT id FROM contact)") }, "the plain query ran")

        // When the (id, sort keys) index the quick query names is not there (an import drops it
        // inside its transaction)
        try store.writer.writeWithoutTransaction { try $0.execute(sql: "DROP INDEX contact_id_sorts") }

        // Then the same link is found, read the plain way
        XCTAssertEqual(indexed, ["/alice/book/ann.vcf"])
        XCTAssertEqual(try store.orphanedItems(account: "home").map(\.href), indexed)
    }

    func test_aDeletionRacingAnEditOnTheServer_a412_stillBringsTheContactBack_notAFailure() throws {
        // Given: deleted here; the server's edit lands between our pull and our DELETE
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        try sync()
        try store.delete(id: try XCTUnwrap(contact("ann").id), expectedVersion: nil)
        server.beforeNextWrite = { [server] in
            server?.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "TITLE:New"))
        }

        // When
        let summary = try sync()

        // Then
        XCTAssertEqual([summary.resurrected, summary.failed.count], [1, 0])
        XCTAssertEqual(try contact("ann").title, "New")
    }

    func test_aRefusedPasswordOrAServerGone_stillStopsTheSync_notOneCardAtATime() {
        let url = URL(string: "http://h/alice/book/a.vcf")!
        XCTAssertTrue(SyncWorker.refusesOneCard(.refused(415, method: "PUT", url: url, reason: "")))
        XCTAssertTrue(SyncWorker.refusesOneCard(.status(507, method: "PUT", url: url)))
        XCTAssertTrue(SyncWorker.refusesOneCard(.preconditionFailed(url: url)))
        XCTAssertFalse(SyncWorker.refusesOneCard(.unauthorized(url: url)))
        XCTAssertFalse(SyncWorker.refusesOneCard(.unsupportedAuthentication("Bearer", url: url)))
        XCTAssertFalse(SyncWorker.refusesOneCard(.network("connection refused")))
        XCTAssertFalse(SyncWorker.refusesOneCard(.status(500, method: "REPORT", url: url)))
        XCTAssertFalse(SyncWorker.refusesOneCard(.malformed("not XML")))
    }

    func test_aServerCardThatCannotBeReadHere_isNamed_theOthersSaved_andAskedForAgainNextSync() throws {
        // Given
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        server.put(
            "/alice/book/odd%20one.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nthis line is no property\r\nEND:VCARD\r\n")
        server.put("/alice/book/bob.vcf", Seeds.CardDAV.card(uid: "bob", given: "Bob", family: "Ray"))

        // When
        let summary = try sync()

        // Then
        XCTAssertEqual(summary.pulled, 2)
        XCTAssertEqual(try contacts().map(\.uid).sorted(), ["ann", "bob"])
        XCTAssertEqual(summary.failed.map(\.name), ["odd one.vcf"])
        XCTAssertEqual(summary.failed.first?.direction, .pull)
        XCTAssertFalse(summary.failed.first?.reason.isEmpty ?? true)
        // The token stays, so the card is asked for again (the two saved are not downloaded again)
        XCTAssertNil(try store.accounts().first?.syncToken)
        server.calls = []
        let second = try sync()
        XCTAssertEqual([second.pulled, second.failed.count], [0, 1])
        XCTAssertEqual(server.calls, ["changes(nil)", "cards(1)"])
        // Once the server's card is readable, it comes down and the token moves on
        server.put("/alice/book/odd%20one.vcf", Seeds.CardDAV.card(uid: "odd", given: "Odd", family: "One"))
        XCTAssertEqual(try sync().pulled, 1)
        XCTAssertNotNil(try store.accounts().first?.syncToken)
        XCTAssertEqual(try sync().failed, [])
    }

    func test_serverFailure_duringThePull_changesNothingLocally() throws {
        // Given: a transport that fails, behind the real client
        let transport = DAVTransportSpy()
        transport.failure = .network("connection refused")
        let client = CardDAVClient(book: URL(string: "http://h/alice/book/")!, transport: transport)
        _ = try insertLocal("Cy", "Dee", uid: "cy")

        XCTAssertThrowsError(try sut.sync(try XCTUnwrap(store.accounts().first), book: client)) { error in
            XCTAssertEqual(error as? DAVError, .network("connection refused"))
        }
        XCTAssertEqual(try store.itemsWithoutBase(account: "home"), [])
        XCTAssertNil(try store.accounts().first?.syncToken)
    }
}

/// The sync's store, watched: how many times a sync read every link of an account.
final class SyncStateStoreSpy: ForwardingContactStore, SyncStateStore {
    private let sync: SyncStateStore
    private(set) var linkReads = 0

    init(_ store: SQLiteContactStore) {
        sync = store
        super.init(inner: store)
    }

    func itemsWithoutBase(account: String) throws -> [SyncItem] {
        linkReads += 1
        return try sync.itemsWithoutBase(account: account)
    }

    func accounts() throws -> [SyncAccount] { try sync.accounts() }
    func addAccount(_ account: SyncAccount) throws { try sync.addAccount(account) }
    func updateAccount(named name: String, conflicts: ConflictWinner?, makeDefault: Bool) throws {
        try sync.updateAccount(named: name, conflicts: conflicts, makeDefault: makeDefault)
    }
    func removeAccount(named name: String) throws -> Int { try sync.removeAccount(named: name) }
    func base(account: String, href: String) throws -> String? { try sync.base(account: account, href: href) }
    func changedContacts(account: String) throws -> [Contact] { try sync.changedContacts(account: account) }
    func unlinkedContacts(book: String, isDefault: Bool) throws -> [Contact] {
        try sync.unlinkedContacts(book: book, isDefault: isDefault)
    }
    func holders(uids: [String]) throws -> [UIDHolder] { try sync.holders(uids: uids) }
    func orphanedItems(account: String) throws -> [SyncItem] { try sync.orphanedItems(account: account) }
    func apply(_ pull: SyncPull) throws -> SyncedChanges { try sync.apply(pull) }
    func link(_ item: SyncItem) throws { try sync.link(item) }
    func forget(account: String, href: String) throws { try sync.forget(account: account, href: href) }
}

final class SyncWorkerLinkReadsTests: XCTestCase {
    var sut: SyncWorker!
    var spy: SyncStateStoreSpy!
    var store: SQLiteContactStore!
    var server: InMemoryCardDAVBook!

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try SQLiteContactStore(path: ":memory:")
        server = InMemoryCardDAVBook()
        try store.addAccount(
            SyncAccount(name: "home", serverURL: "http://h/", bookURL: "http://h/alice/book/", user: "ann"))
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee"))
        _ = try SyncWorker(store: store).sync(try XCTUnwrap(store.accounts().first), book: server)
        spy = SyncStateStoreSpy(store)
        sut = SyncWorker(store: spy, now: { Date(timeIntervalSince1970: 1_700_000_000) })
    }

    func test_aSyncWithNothingToDo_readsNoLinks() throws {
        // When
        let summary = try sut.sync(try XCTUnwrap(store.accounts().first), book: server)

        // Then
        XCTAssertEqual([summary.pulled, summary.pushed, summary.merged, summary.conflicts], [0, 0, 0, 0])
        XCTAssertEqual(spy.linkReads, 0)
    }

    func test_aChangeOnTheServer_andAnEditHere_readTheLinks_andSyncBoth() throws {
        // Given
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "TITLE:Boss"))
        var cy = try store.insert(Contact(uid: "cy", givenName: "Cy", familyName: "Dee"))
        _ = try SyncWorker(store: store).sync(try XCTUnwrap(store.accounts().first), book: server)
        server.put("/alice/book/ann.vcf", Seeds.CardDAV.card(uid: "ann", given: "Ann", family: "Lee", "TITLE:Chief"))
        cy = try XCTUnwrap(store.contacts(uids: ["cy"]).first)
        cy.title = "Editor"
        _ = try store.update(cy)

        // When
        let summary = try sut.sync(try XCTUnwrap(store.accounts().first), book: server)

        // Then: the pull and the push each read them once
        XCTAssertEqual([summary.pulled, summary.pushed], [1, 1])
        XCTAssertEqual(spy.linkReads, 2)
        XCTAssertEqual(try store.contacts(uids: ["ann"]).first?.title, "Chief")
        XCTAssertTrue(server.cards["/alice/book/cy.vcf"]?.vcard.contains("TITLE:Editor") == true)
    }
}

/// A large pull into a book in a file: saved batch by batch as the cards come, on a thread of
/// its own, in one transaction all the same.
final class SyncWorkerPipelinedPullTests: XCTestCase {
    var sut: SyncWorker!
    var store: SQLiteContactStore!
    var server: InMemoryCardDAVBook!
    var progress: ImportExportWorkerTests.ProgressReporterSpy!
    var changes: ImportExportWorkerTests.ChangeNotifierSpy!
    var directory: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "SyncPipelineTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteContactStore(path: directory.appendingPathComponent("book.sqlite").path)
        try store.addAccount(
            SyncAccount(name: "home", serverURL: "http://h/", bookURL: "http://h/alice/book/", user: "ann"))
        server = InMemoryCardDAVBook()
        server.multigetBatch = 100
        for i in 0..<250 {
            server.put("/alice/book/c\(i).vcf", Seeds.CardDAV.card(uid: "c\(i)", given: "Given\(i)", family: "Pull"))
        }
        progress = ImportExportWorkerTests.ProgressReporterSpy()
        changes = ImportExportWorkerTests.ChangeNotifierSpy()
        sut = SyncWorker(
            store: store, now: { Date(timeIntervalSince1970: 1_700_000_000) }, progress: progress,
            changes: changes)
    }

    override func tearDown() {
        sut = nil
        store = nil
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    func sync() throws -> SyncSummary { try sut.sync(try XCTUnwrap(store.accounts().first), book: server) }

    func test_aLargeFirstSync_savesEveryCardOnce_inOneChangeSet_reportingEachBatch() throws {
        // Given: one of the cards is already here, unlinked (a sync cut off before)
        _ = try store.insert(Contact(uid: "c7", givenName: "Given7", familyName: "Pull"))
        XCTAssertTrue(store.readsDuringWrites)

        // When
        let summary = try sync()

        // Then
        XCTAssertEqual([summary.pulled, summary.merged], [249, 1])
        XCTAssertEqual(try store.page(ContactQuery(limit: 1000)).contacts.count, 250)
        XCTAssertEqual(try store.itemsWithoutBase(account: "home").count, 250)
        XCTAssertEqual(try store.accounts().first?.syncToken, "250")
        // Indexed as any other insert (rows prepared on the downloading thread)
        XCTAssertEqual(try store.page(ContactQuery(search: "Given142")).contacts.map(\.uid), ["c142"])
        XCTAssertEqual(
            try store.page(ContactQuery(sort: .first, limit: 2)).contacts.map(\.givenName), ["Given0", "Given1"])
        XCTAssertEqual(try store.history(contactID: nil, limit: 10).filter { $0.kind == .sync }.count, 1)
        let reports = progress.events.compactMap { event -> String? in
            guard case .report(let completed, _, let message) = event else { return nil }
            return "\(message ?? "") \(completed)"
        }
        XCTAssertEqual(
            reports,
            [
                "downloading 0", "downloading 100", "downloading 200", "downloading 250", "downloaded 250",
                "uploading 0",
            ])
        XCTAssertEqual(changes.changes.map(\.kind), ["created", "updated"])
        XCTAssertEqual(changes.changes.map(\.ids.count), [249, 1])
        XCTAssertEqual(try sync().pulled, 0)
    }

    func test_aLargeFirstSync_intoAnEmptyBook_leavesItsIndexesSound_forSearchSortPagesAndUndo() throws {
        // Given: the indexes of an empty book
        let file = directory.appendingPathComponent("book.sqlite").path
        func indexes() throws -> [String] {
            try DatabaseQueue(path: file).read { db in
                try String.fetchAll(
                    db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
            }
        }
        let before = try indexes()

        // When: 250 cards come down into it
        XCTAssertEqual(try sync().pulled, 250)

        // Then: the same indexes, a sound file, and search, sort, deep pages and undo as after any insert
        XCTAssertEqual(try indexes(), before)
        XCTAssertEqual(
            try DatabaseQueue(path: file).read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }, "ok")
        XCTAssertEqual(try store.page(ContactQuery(search: "Given142")).contacts.map(\.uid), ["c142"])
        let names = (0..<250).map { "Given\($0)" }.sorted()
        XCTAssertEqual(
            try store.page(ContactQuery(sort: .first, page: 41, limit: 5)).contacts.map(\.givenName),
            Array(names[200..<205]))
        _ = try store.undo()
        XCTAssertEqual(try store.page(ContactQuery(limit: 1000)).contacts.count, 0)
    }

    func test_aFirstSync_fromAServerSendingTheCardsInItsListing_savesThemAll_fetchingOnlyTheOthers() throws {
        // Given: a server that sends the cards in its listing, all but two
        server.listsCards = true
        server.listedWithoutCard = ["/alice/book/c3.vcf", "/alice/book/c201.vcf"]

        // When
        let summary = try sync()

        // Then: one listing, one multiget of the two, every card saved once in one change set
        XCTAssertEqual(server.calls, ["changesWithCards", "cards(2)"])
        XCTAssertEqual(summary.pulled, 250)
        XCTAssertEqual(try store.page(ContactQuery(limit: 1000)).contacts.count, 250)
        XCTAssertEqual(try store.itemsWithoutBase(account: "home").count, 250)
        XCTAssertEqual(try store.accounts().first?.syncToken, "250")
        XCTAssertEqual(try store.page(ContactQuery(search: "Given201")).contacts.map(\.uid), ["c201"])
        XCTAssertEqual(try store.history(contactID: nil, limit: 10).filter { $0.kind == .sync }.count, 1)
        // The next sync goes on from the token, with nothing to fetch
        server.calls = []
        XCTAssertEqual(try sync().pulled, 0)
        XCTAssertEqual(server.calls, ["changes(250)"])
    }

    func test_aFirstSync_cutOffHalfWayThroughItsListingOfCards_keepsNothing_andTheNextSyncTakesItAll() throws {
        // Given: the server goes away after the listing's second batch of cards
        server.listsCards = true
        server.failAfterBatches = (2, DAVError.network("connection reset"))

        // When
        XCTAssertThrowsError(try sync()) { error in
            XCTAssertEqual(error as? DAVError, .network("connection reset"))
        }

        // Then: the book as it was, no link, no token; the next sync takes it all
        XCTAssertEqual(try store.page(ContactQuery(limit: 1000)).contacts.count, 0)
        XCTAssertEqual(try store.itemsWithoutBase(account: "home").count, 0)
        XCTAssertNil(try store.accounts().first?.syncToken)
        server.failAfterBatches = nil
        XCTAssertEqual(try sync().pulled, 250)
        XCTAssertEqual(try store.page(ContactQuery(limit: 1000)).contacts.count, 250)
        XCTAssertEqual(try store.accounts().first?.syncToken, "250")
    }

    func test_aLargePull_withOneCardThatCannotBeReadHere_savesTheOthers_andKeepsTheToken() throws {
        // Given
        server.put("/alice/book/c100.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nnot a property\r\nEND:VCARD\r\n")

        // When
        let summary = try sync()

        // Then
        XCTAssertEqual(summary.pulled, 249)
        XCTAssertEqual(summary.failed.map(\.name), ["c100.vcf"])
        XCTAssertEqual(try store.page(ContactQuery(limit: 1000)).contacts.count, 249)
        XCTAssertNil(try store.accounts().first?.syncToken)
        XCTAssertEqual(try sync().pulled, 0)
    }

    func test_aLargePull_cutOffHalfWay_keepsNothing_andTheNextSyncTakesItAll() throws {
        // Given: the server goes away after the second batch
        server.failAfterBatches = (2, DAVError.network("connection reset"))

        // When
        XCTAssertThrowsError(try sync()) { error in
            // Then: the book as it was
            XCTAssertEqual(error as? DAVError, .network("connection reset"))
        }
        XCTAssertEqual(try store.page(ContactQuery(limit: 1000)).contacts.count, 0)
        XCTAssertEqual(try store.itemsWithoutBase(account: "home").count, 0)
        XCTAssertNil(try store.accounts().first?.syncToken)
        XCTAssertEqual(changes.changes, [])

        // And the next sync takes every card, once
        server.failAfterBatches = nil
        XCTAssertEqual(try sync().pulled, 250)
        XCTAssertEqual(try store.page(ContactQuery(limit: 1000)).contacts.count, 250)
    }
}
