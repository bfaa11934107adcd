import Foundation
import XCTest

/// Which book a command may make: only the default one silently, another only with --create
/// in a folder that exists, and a read-only command none at all.
final class BookCreationEndToEndTests: XCTestCase {
    var home: URL!

    override func setUpWithError() throws { home = try makeTemporaryHome() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: home) }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    func testAMistypedDb_isRefused_andNothingIsCreated() throws {
        // Given a path whose folder is a typo
        let path = home.appendingPathComponent("typo/book.sqlite").path
        // When a session, the import subcommand or a query is pointed at it
        for arguments in [["--db", path], ["import", "--db", path, "-"]] {
            let result = try ContactsBookProcess.run(arguments, stdin: "list\n", home: home)
            // Then each is refused with status 2, naming the path and the way to make it
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertEqual(result.stderr, "error: there is no book at \(path); pass --create to make a new one there\n")
            XCTAssertEqual(result.stdout, "")
        }
        let query = try ContactsBookProcess.run(["query", "--db", path, "ann"], stdin: "", home: home)
        XCTAssertEqual(query.status, 2)
        XCTAssertEqual(query.stderr, "error: there is no book at \(path) (check --db)\n")
        // And neither the book nor its folder was made
        XCTAssertFalse(exists(home.appendingPathComponent("typo").path))
    }

    func testCreate_makesANewBook_onlyInAFolderThatExists() throws {
        // Given --create and a folder that does not exist
        let missing = home.appendingPathComponent("nope/book.sqlite").path
        let refused = try ContactsBookProcess.run(["--db", missing, "--create"], stdin: "list\n", home: home)
        // Then it is refused, and the folder is not made
        XCTAssertEqual(refused.status, 2)
        XCTAssertEqual(
            refused.stderr,
            "error: cannot create \(missing): there is no folder \(home.appendingPathComponent("nope").path)\n")
        XCTAssertFalse(exists(home.appendingPathComponent("nope").path))
        // When the folder exists
        let path = home.appendingPathComponent("book.sqlite").path
        let made = try ContactsBookProcess.run(["--create", "--db", path], stdin: "add\ngiven Ann\nsave\n", home: home)
        // Then the book is made, and opens later without --create
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(exists(path))
        let listed = try ContactsBookProcess.run(["--db", path], stdin: "list\n", home: home)
        XCTAssertTrue(listed.stdout.contains("Ann"), listed.stdout)
    }

    func testTheDefaultBook_isMadeSilentlyByASession_butNeverByAQuery() throws {
        let defaultBook = home.appendingPathComponent("data/contactsbook/contacts.sqlite").path
        // When a query runs first
        let query = try ContactsBookProcess.run(["query", "ann"], stdin: "", home: home)
        // Then nothing is made
        XCTAssertEqual(query.status, 2)
        XCTAssertFalse(exists(defaultBook))
        // When a session runs
        let session = try ContactsBookProcess.run([], stdin: "list\n", home: home)
        // Then the default book is made, folders and all, without a word on stderr
        XCTAssertEqual(session.status, 0, session.stderr)
        XCTAssertEqual(session.stderr, "")
        XCTAssertTrue(exists(defaultBook))
    }

    func testMemory_needsNoCreate() throws {
        let result = try ContactsBookProcess.run(
            ["--db", ":memory:"], stdin: "add\ngiven Ann\nsave\nlist\n", home: home)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("Ann"), result.stdout)
    }

    func testATildeInDb_isTheHOMEOfTheEnvironment() throws {
        // When --db=~/… is given (no shell expands ~ after =)
        let made = try ContactsBookProcess.run(
            ["--db=~/book.sqlite", "--create"], stdin: "add\ngiven Ann\nsave\n", home: home)
        // Then the book is made under $HOME, the test's own folder, not the passwd entry's home
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(exists(home.appendingPathComponent("book.sqlite").path))
    }
}
