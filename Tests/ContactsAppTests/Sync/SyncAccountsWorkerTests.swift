import Foundation
import XCTest
@testable import ContactsApp

final class SyncAccountsWorkerTests: XCTestCase {
    var sut: SyncAccountsWorker!
    var store: SQLiteContactStore!

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try SQLiteContactStore(path: ":memory:")
        try store.addAccount(SyncAccount(name: "home", serverURL: "http://h/", bookURL: "http://h/alice/book/", user: "ann"))
        try store.addAccount(SyncAccount(name: "work", serverURL: "http://w/", bookURL: "http://w/ann/book/", user: "ann"))
        sut = SyncAccountsWorker(store: store, passwords: PasswordSourceSpy(), makeTransport: { _ in DAVTransportSpy() })
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
            XCTAssertEqual((error as? SyncAccountsWorker.Failure)?.description,
                           "say what to change: --conflicts server|local, --default")
        }
        XCTAssertEqual(try sut.accounts().map(\.conflicts), [.server, .server])
        XCTAssertEqual(try sut.accounts().map(\.isDefault), [true, false])
    }
}
