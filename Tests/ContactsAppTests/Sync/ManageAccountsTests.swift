import Foundation
import SceneCore
import XCTest

@testable import ContactsApp

/// `contactsbook account`'s use cases through their whole VIP cycle (ViewController, Interactor,
/// the real `SyncAccountsWorker` on a transport spy, Presenter): what the front end is handed.
final class ManageAccountsTests: XCTestCase {
    var sut: ManageAccountsViewController!
    var store: SQLiteContactStore!
    var transport: DAVTransportSpy!

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try SQLiteContactStore(path: ":memory:")
        transport = DAVTransportSpy()
        let worker = SyncAccountsWorker(
            store: store, passwords: SyncAccountsWorkerTests.PasswordSourceSpy(),
            makeTransport: { [unowned self] _ in transport })
        sut = ManageAccountsConfigurator.configure(worker: worker)
    }

    private func redirect(to location: String) -> DAVResponse {
        DAVResponse(status: 307, headers: ["Location": location])
    }

    /// The address book itself, answering a PROPFIND at `href` (as `SyncAccountsWorkerOriginTests` has it).
    private func book(_ href: String, at url: String) -> DAVResponse {
        DAVResponse(
            status: 207,
            body: Seeds.CardDAV.multistatus(
                """
                <response><href>\(href)</href><propstat><prop><resourcetype><collection/><C:addressbook/></resourcetype>\
                <displayname>Book</displayname></prop><status>HTTP/1.1 200 OK</status></propstat></response>
                """), url: URL(string: url))
    }

    private func add(allowing hosts: [String] = [], url: String = "http://dav.example/") -> ManageAccounts.Displayed? {
        sut.addAccount(request: .init(name: "home", url: url, user: "ann", passwordCommand: nil, allowHosts: hosts))
    }

    func test_add_sentToAnotherHost_asksFirst_andWhereNobodyCanBeAsked_refusesInTheWorkersWords() throws {
        // Given
        transport.responses = [redirect(to: "http://other.example/book/")]
        // When
        let displayed = add()
        // Then
        let refusal =
            "account home: the server sends the account to http://other.example/book/, another host than "
            + "dav.example; nothing stored and no password sent there. If you trust it, confirm on a terminal or pass "
            + "--allow-host other.example"
        XCTAssertEqual(
            displayed,
            .confirmation(
                .init(
                    question:
                        "The server sends account home to http://other.example/book/, another host than dav.example. "
                        + "Send the password there?",
                    declined: .error(refusal, code: .invalidState), refusal: refusal, allowHost: "other.example")))
        XCTAssertEqual(transport.requests.map(\.url.host), ["dav.example"])
        XCTAssertEqual(try store.accounts(), [])
    }

    func test_add_confirmed_allowsThatHost_andSaysWhatWasAdded() throws {
        // Given: the question was asked, and answered yes
        transport.responses = [
            redirect(to: "http://other.example/book/"),
            book("/book/", at: "http://other.example/book/"),
        ]
        // When
        let displayed = add(allowing: ["other.example"])
        // Then
        XCTAssertEqual(displayed, .added(.init(text: "Added account home: http://other.example/book/ (default)\n")))
        XCTAssertEqual(try store.accounts().map(\.name), ["home"])
    }

    func test_add_httpsSentToPlainHttp_isRefused_neverAsked() {
        // Given
        transport.responses = [redirect(to: "http://dav.example/book/")]
        // When
        let displayed = add(url: "https://dav.example/")
        // Then
        XCTAssertEqual(
            displayed,
            .failure(
                "account home: the server sends the account from https to plain http "
                    + "(http://dav.example/book/); refused, nothing stored"))
    }

    func test_add_anotherHostStillRefusedOnceAllowed_isAFailure_notTheSameQuestionAgain() {
        // Given: allowed, and the server still leads there (as a yes could meet)
        let worker = SyncAccountsLogicSpy(
            failure: .otherOrigin(
                account: "home", given: DAVOrigin(URL(string: "http://dav.example/")!)!,
                found: URL(string: "http://other.example/b/")!))
        sut = ManageAccountsConfigurator.configure(worker: worker)
        // When
        let displayed = add(allowing: ["other.example"])
        // Then
        guard case .failure(let text)? = displayed else { return XCTFail("\(String(describing: displayed))") }
        XCTAssertTrue(text.hasPrefix("account home: the server sends the account to http://other.example/b/"), text)
        XCTAssertEqual(worker.allowed, [["other.example"]])
    }

    func test_list_saysHowToAddOne_thenALinePerAccount() throws {
        // When / Then
        XCTAssertEqual(
            sut.listAccounts(request: .init()),
            .accounts(.init(text: "No accounts. Add one with: contactsbook account add NAME URL --user USER\n")))
        // Given
        try store.addAccount(
            SyncAccount(name: "home", serverURL: "http://h/", bookURL: "http://h/alice/book/", user: "ann"))
        // When / Then
        XCTAssertEqual(
            sut.listAccounts(request: .init()),
            .accounts(.init(text: "home\tann\thttp://h/alice/book/\tconflicts: server\t(default)\n")))
    }

    func test_change_unknownAccount_isAFailure() {
        XCTAssertEqual(
            sut.changeAccount(request: .init(name: "nope", conflicts: .local, makeDefault: false)),
            .failure("there is no account named nope"))
    }

    func test_change_setsWhoWinsConflicts() throws {
        // Given
        try store.addAccount(
            SyncAccount(name: "home", serverURL: "http://h/", bookURL: "http://h/alice/book/", user: "ann"))
        // When / Then
        XCTAssertEqual(
            sut.changeAccount(request: .init(name: "home", conflicts: .local, makeDefault: false)),
            .changed(.init(text: "Account home: conflicts: local (default).\n")))
    }

    func test_remove_unconfirmed_asksAndRemovesNothing_confirmed_removes() throws {
        // Given
        try store.addAccount(
            SyncAccount(name: "home", serverURL: "http://h/", bookURL: "http://h/alice/book/", user: "ann"))
        // When
        let asked = sut.removeAccount(request: .init(name: "home"))
        // Then
        XCTAssertEqual(
            asked,
            .confirmation(
                .init(
                    question: "Remove account home? Its contacts stay in the book, local-only.",
                    declined: .info("Kept account home."),
                    refusal: "removing account home needs --yes (stdin is not a terminal)")))
        XCTAssertEqual(try store.accounts().map(\.name), ["home"])
        // When
        let removed = sut.removeAccount(request: .init(name: "home", confirmed: true))
        // Then
        XCTAssertEqual(
            removed,
            .removed(
                .init(
                    text: "Removed account home. Its 0 contacts stay in the book, local-only "
                        + "(nothing is deleted, here or on the server).\n")))
        XCTAssertEqual(try store.accounts(), [])
    }

    func test_remove_unknownAccount_confirmed_isAFailure() {
        XCTAssertEqual(
            sut.removeAccount(request: .init(name: "nope", confirmed: true)), .failure("there is no account named nope")
        )
    }

    /// A worker that refuses every add with one failure.
    final class SyncAccountsLogicSpy: SyncAccountsLogic {
        let failure: SyncAccountsWorker.Failure
        private(set) var allowed: [[String]] = []
        init(failure: SyncAccountsWorker.Failure) { self.failure = failure }

        func add(
            name: String, url: String, user: String, passwordCommand: String?, books: [String], allBooks: Bool,
            isDefault: Bool, conflicts: ConflictWinner, allowHosts: [String],
            confirm: @escaping (URL) -> Bool
        ) throws -> SyncAccount {
            allowed.append(allowHosts)
            throw failure
        }
        func books(of name: String) throws -> [AddressBook] { [] }
        func accounts() throws -> [SyncAccount] { [] }
        func update(name: String, conflicts: ConflictWinner?, makeDefault: Bool) throws -> SyncAccount { throw failure }
        func remove(name: String) throws -> Int { throw failure }
    }
}
