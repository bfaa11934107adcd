import Foundation
import XCTest

@testable import ContactsApp

final class SyncAccountsWorkerTests: XCTestCase {
    var sut: SyncAccountsWorker!
    var store: SQLiteContactStore!

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try SQLiteContactStore(path: ":memory:")
        try store.addAccount(
            SyncAccount(name: "home", serverURL: "http://h/", bookURL: "http://h/alice/book/", user: "ann"))
        try store.addAccount(
            SyncAccount(name: "work", serverURL: "http://w/", bookURL: "http://w/ann/book/", user: "ann"))
        sut = SyncAccountsWorker(
            store: store, passwords: PasswordSourceSpy(), makeTransport: { _ in DAVTransportSpy() })
    }

    final class PasswordSourceSpy: PasswordSource {
        var asked: [String] = []
        func password(for account: SyncAccount) throws -> String? { asked.append(account.name); return "secret" }
    }

    func test_accounts_startWithTheServerWinningConflicts_theFirstIsTheDefault() throws {
        let accounts = try sut.accounts()

        XCTAssertEqual(accounts.map(\.conflicts), [.server, .server])
        XCTAssertEqual(accounts.map(\.isDefault), [true, false])
    }

    func test_update_setsTheConflictWinner_andMovesTheDefault() throws {
        // When
        let updated = try sut.update(name: "work", conflicts: .local, makeDefault: true)

        // Then
        XCTAssertEqual(updated.conflicts, .local)
        XCTAssertTrue(updated.isDefault)
        let accounts = try sut.accounts()
        XCTAssertEqual(accounts.map(\.name), ["home", "work"])
        XCTAssertEqual(accounts.map(\.conflicts), [.server, .local])
        XCTAssertEqual(accounts.map(\.isDefault), [false, true])
    }

    func test_update_conflictsOnly_leavesTheDefaultWhereItWas() throws {
        _ = try sut.update(name: "work", conflicts: .local, makeDefault: false)
        _ = try sut.update(name: "work", conflicts: .server, makeDefault: false)

        XCTAssertEqual(try sut.accounts().map(\.isDefault), [true, false])
        XCTAssertEqual(try sut.accounts().map(\.conflicts), [.server, .server])
    }

    func test_update_unknownAccount_orNothingToChange_isRefused_andChangesNothing() throws {
        XCTAssertThrowsError(try sut.update(name: "nope", conflicts: .local, makeDefault: true)) { error in
            XCTAssertEqual(error as? SyncAccountsWorker.Failure, .unknownAccount("nope"))
        }
        XCTAssertThrowsError(try sut.update(name: "home", conflicts: nil, makeDefault: false)) { error in
            XCTAssertEqual(
                (error as? SyncAccountsWorker.Failure)?.description,
                "say what to change: --conflicts server|local, --default")
        }
        XCTAssertEqual(try sut.accounts().map(\.conflicts), [.server, .server])
        XCTAssertEqual(try sut.accounts().map(\.isDefault), [true, false])
    }
}

/// Issue 26, item 2: `account add` does not store a book on another host unless the person says so.
final class SyncAccountsWorkerOriginTests: XCTestCase {
    var sut: SyncAccountsWorker!
    var store: SQLiteContactStore!
    var transport: DAVTransportSpy!

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try SQLiteContactStore(path: ":memory:")
        transport = DAVTransportSpy()
        sut = SyncAccountsWorker(
            store: store, passwords: SyncAccountsWorkerTests.PasswordSourceSpy(),
            makeTransport: { [unowned self] _ in transport })
    }

    /// The address book itself, answering a PROPFIND at `href`.
    func book(_ href: String, at url: String? = nil) -> DAVResponse {
        DAVResponse(
            status: 207,
            body: Seeds.CardDAV.multistatus(
                """
                <response><href>\(href)</href><propstat><prop><resourcetype><collection/><C:addressbook/></resourcetype>\
                <displayname>Book</displayname></prop><status>HTTP/1.1 200 OK</status></propstat></response>
                """), url: url.flatMap(URL.init(string:)))
    }

    func redirect(to location: String) -> DAVResponse {
        DAVResponse(status: 307, headers: ["Location": location])
    }

    func test_add_aRedirectToAnotherHost_unconfirmed_isRefused_nothingSentThere_nothingStored() throws {
        // Given
        transport.responses = [redirect(to: "http://other.example/book/")]
        var asked: [URL] = []

        // When
        XCTAssertThrowsError(
            try sut.add(
                name: "home", url: "http://dav.example/", user: "ann", passwordCommand: nil,
                book: nil,
                confirm: {
                    asked.append($0); return false
                })
        ) { error in
            // Then
            XCTAssertEqual(
                error as? SyncAccountsWorker.Failure,
                .otherOrigin(
                    account: "home", given: DAVOrigin(URL(string: "http://dav.example/")!)!,
                    found: URL(string: "http://other.example/book/")!))
            XCTAssertEqual(
                "\(error)",
                "account home: the server sends the account to http://other.example/book/, "
                    + "another host than dav.example; nothing stored and no password sent there. If you trust it, "
                    + "confirm on a terminal or pass --allow-host other.example")
        }
        XCTAssertEqual(asked, [URL(string: "http://other.example/book/")!])
        XCTAssertEqual(transport.requests.map(\.url.host), ["dav.example"])
        XCTAssertEqual(try sut.accounts(), [])
    }

    func test_add_aRedirectToAnotherHost_allowedByName_orConfirmed_storesTheBookThere() throws {
        for (allowHosts, answer) in [(["OTHER.example"], false), ([], true)] {
            // Given
            store = try SQLiteContactStore(path: ":memory:")
            transport = DAVTransportSpy()
            sut = SyncAccountsWorker(
                store: store, passwords: SyncAccountsWorkerTests.PasswordSourceSpy(),
                makeTransport: { [unowned self] _ in transport })
            transport.responses = [
                redirect(to: "http://other.example/book/"), book("/book/", at: "http://other.example/book/"),
            ]

            // When
            let account = try sut.add(
                name: "home", url: "http://dav.example/", user: "ann", passwordCommand: nil,
                book: nil, allowHosts: allowHosts, confirm: { _ in answer })

            // Then
            XCTAssertEqual(account.bookURL, "http://other.example/book/")
            XCTAssertEqual(
                transport.requests.map(\.url.absoluteString), ["http://dav.example/", "http://other.example/book/"])
        }
    }

    func test_add_aHomeSetOnAnotherHost_isRefusedBeforeAskingIt() throws {
        // Given: the principal's answer names a home on another host
        transport.responses = [
            DAVResponse(
                status: 207,
                body: Seeds.CardDAV.multistatus(
                    """
                    <response><href>/</href><propstat><prop><C:addressbook-home-set><href>http://other.example:8443/home/</href>\
                    </C:addressbook-home-set></prop><status>HTTP/1.1 200 OK</status></propstat></response>
                    """))
        ]

        // When / Then
        XCTAssertThrowsError(
            try sut.add(
                name: "home", url: "http://dav.example/", user: "ann", passwordCommand: nil,
                book: nil, allowHosts: ["other.example:9999"])
        ) { error in
            guard case .otherOrigin(_, _, let found) = error as? SyncAccountsWorker.Failure else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(found.absoluteString, "http://other.example:8443/home/")
        }
        XCTAssertEqual(transport.requests.map(\.url.host), ["dav.example"])
        XCTAssertEqual(try sut.accounts(), [])
    }

    func test_add_aBookListedOnAnotherHost_isRefused() throws {
        transport.responses = [book("http://other.example/book/")]

        XCTAssertThrowsError(
            try sut.add(
                name: "home", url: "http://dav.example/book/", user: "ann", passwordCommand: nil,
                book: nil)
        ) { error in
            guard case .otherOrigin = error as? SyncAccountsWorker.Failure else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try sut.accounts(), [])
    }

    func test_add_httpsToPlainHttp_isRefusedEvenWhenTheHostIsAllowed() throws {
        transport.responses = [redirect(to: "http://dav.example/book/")]

        XCTAssertThrowsError(
            try sut.add(
                name: "home", url: "https://dav.example/", user: "ann", passwordCommand: nil,
                book: nil, allowHosts: ["dav.example"], confirm: { _ in true })
        ) { error in
            XCTAssertEqual(
                "\(error)",
                "account home: the server sends the account from https to plain http "
                    + "(http://dav.example/book/); refused, nothing stored")
        }
        XCTAssertEqual(transport.requests.count, 1)
        XCTAssertEqual(try sut.accounts(), [])
    }

    /// A home listing `book` on the account's host and `stolen` on another one.
    func homeWithABookElsewhere() -> [DAVResponse] {
        [
            DAVResponse(
                status: 207,
                body: Seeds.CardDAV.multistatus(
                    """
                    <response><href>/</href><propstat><prop><C:addressbook-home-set><href>/home/</href>\
                    </C:addressbook-home-set></prop><status>HTTP/1.1 200 OK</status></propstat></response>
                    """)),
            DAVResponse(
                status: 207,
                body: Seeds.CardDAV.multistatus(
                    """
                    <response><href>/home/book/</href><propstat><prop><resourcetype><collection/><C:addressbook/></resourcetype>\
                    </prop><status>HTTP/1.1 200 OK</status></propstat></response>\
                    <response><href>http://other.example/stolen/</href><propstat><prop><resourcetype><collection/><C:addressbook/>\
                    </resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat></response>
                    """)),
        ]
    }

    func test_add_everyBook_oneOnAnotherHost_isRefused_nothingStored() throws {
        // Given
        transport.responses = homeWithABookElsewhere()

        // When
        XCTAssertThrowsError(
            try sut.add(
                name: "home", url: "http://dav.example/", user: "ann", passwordCommand: nil,
                books: [], allBooks: true)
        ) { error in
            // Then
            XCTAssertEqual(
                error as? SyncAccountsWorker.Failure,
                .otherOrigin(
                    account: "home", given: DAVOrigin(URL(string: "http://dav.example/")!)!,
                    found: URL(string: "http://other.example/stolen/")!))
        }
        XCTAssertEqual(try sut.accounts(), [])
        XCTAssertEqual(transport.requests.map(\.url.host), ["dav.example", "dav.example"])
    }

    func test_add_theBooksNamed_eachABookOfItsOwn_theFirstTheDefault() throws {
        // Given
        transport.responses = homeWithABookElsewhere()

        // When: only the book on the account's host is named
        let account = try sut.add(
            name: "home", url: "http://dav.example/", user: "ann", passwordCommand: nil,
            books: ["book"], allBooks: false)

        // Then: one book alone is named as the account
        XCTAssertEqual(account.bookURL, "http://dav.example/home/book/")
        XCTAssertEqual(try sut.books(of: "home").map(\.name), ["home"])
        XCTAssertEqual(try sut.books(of: "home").map(\.isDefault), [true])
    }

    func test_named_severalBooks_byTheirLastPathComponent_theAccountFirstWhenTaken() {
        let books = [
            RemoteAddressBook(url: URL(string: "http://h/a/contacts/")!, displayName: "Contacts"),
            RemoteAddressBook(url: URL(string: "http://h/a/team%20book/")!, displayName: "Team", readOnly: true),
            RemoteAddressBook(url: URL(string: "http://h/a/local/")!, displayName: "L"),
        ]
        let named = SyncAccountsWorker.named(books, account: "work", taken: ["local", "contacts"])
        XCTAssertEqual(named.map(\.name), ["work-contacts", "team-book", "work-local"])
        XCTAssertEqual(named.map(\.serverReadOnly), [false, true, false])
        XCTAssertEqual(SyncAccountsWorker.named([books[0]], account: "work", taken: []).map(\.name), ["work"])
    }

    func test_sync_anAccountsRequestsGoOnlyToItsBooksOrigin() throws {
        // Given: an account whose server answers with a redirect elsewhere
        try store.addAccount(
            SyncAccount(
                name: "home", serverURL: "http://dav.example/", bookURL: "http://dav.example/book/",
                user: "ann"))
        transport.responses = [
            DAVResponse(
                status: 302, headers: ["Location": "http://other.example/book/"],
                url: URL(string: "http://dav.example/book/"))
        ]

        // When
        let results = try sut.sync(name: "home")

        // Then
        guard case .failure(.server(_, .otherOrigin(let url))) = results.first else { return XCTFail("\(results)") }
        XCTAssertEqual(url.absoluteString, "http://other.example/book/")
        XCTAssertEqual(transport.requests.map(\.url.host), ["dav.example"])
    }
}
