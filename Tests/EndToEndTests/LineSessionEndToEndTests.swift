import Foundation
import XCTest

/// Pipes commands into the built executable and checks its output, exit codes and the file.
final class LineSessionEndToEndTests: XCTestCase {
    var home: URL!

    override func setUpWithError() throws { home = try makeTemporaryHome() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: home) }

    var defaultDatabase: URL { home.appendingPathComponent("data/contactsbook/contacts.sqlite") }

    func run(_ stdin: String, _ arguments: [String] = []) throws -> ContactsBookProcess.Result {
        try ContactsBookProcess.run(arguments, stdin: stdin, home: home)
    }

    func testIssueExampleFlowPersistsInTheDefaultDatabase() throws {
        // Given a fresh home
        // When the example script runs
        let result = try run(
            "add\ngiven Ann\nfamily Lee\nemail work ann@example.org\nphone mobile +15551234567\nsave\n"
                + "list\nsearch lee\nshow 1\nedit\norganization Acme\nsave\nback\nstack\n")
        // Then every command succeeded and the answers are on stdout
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(result.stdout.contains("Added Ann Lee as #1\n"), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("1  Ann Lee                ann@example.org  +1 (555) 123-4567\n"), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("Page 1 of 1 · 1 contact · matching \"lee\" · by last name\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Saved Ann Lee\n"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("contacts: contacts\n"), result.stdout)
        XCTAssertFalse(result.stdout.contains("\u{1B}"), "no colours on a pipe")

        // When a later run lists the book
        let later = try run("list\n")
        // Then the edited contact is still there, in the default file, readable only by its owner
        XCTAssertEqual(later.status, 0)
        XCTAssertTrue(
            later.stdout.contains("1  Ann Lee  Acme          ann@example.org  +1 (555) 123-4567\n"), later.stdout)
        let mode = try FileManager.default.attributesOfItem(atPath: defaultDatabase.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)

        // When the contact is deleted
        let deleted = try run("delete 1\nlist\n")
        // Then it is gone for good
        XCTAssertEqual(deleted.status, 0, deleted.stderr)
        XCTAssertTrue(deleted.stdout.contains("Deleted Ann Lee\n"))
        XCTAssertTrue(try run("list\n").stdout.contains("No contacts yet"))
    }

    func testDeleteByPartOfANameIsRefusedInAScript_untilConfirmedWithYes() throws {
        // Given
        XCTAssertEqual(try run("add\ngiven Bob\nfamily Smith\nsave\n").status, 0)
        // When a script names him by a prefix
        let refused = try run("delete bo\n")
        // Then nothing is deleted, and the refusal says how to confirm
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(
            refused.stderr,
            "error: not deleted: 'bo' is only part of Bob Smith's name; name the contact exactly "
                + "(delete 1) or confirm (delete bo yes)\n")
        XCTAssertTrue(try run("list\n").stdout.contains("Bob Smith"))
        // When confirmed
        let confirmed = try run("delete bo yes\n")
        // Then
        XCTAssertEqual(confirmed.status, 0, confirmed.stderr)
        XCTAssertEqual(confirmed.stdout, "Deleted Bob Smith\n")
    }

    func testErrorsGoToStderrTheSessionGoesOnAndTheExitStatusIsOne() throws {
        // When a script has a bad command in the middle
        let result = try run("frobnicate\nshow 42\nlist 0\nadd\nsave\ncancel\nlist\n")
        // Then each error is reported and the later commands still run
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.stderr,
            """
            error: unknown command 'frobnicate'; here you can use: list, next, previous, page, sort, search, show, edit, add, delete, import, export, undo, redo, history, trash, restore, purge, sync, duplicates, merge, birthdays, groups, group, books, move, copy, help, back, stack, quit
            error: no contact matches '#42'
            error: PAGE must be an integer of at least 1, not '0'
            error: not saved: 1 field is not valid
              name: a contact needs a given name, a family name or an organization

            """)
        XCTAssertTrue(result.stdout.contains("Cancelled: no contact was added\n"))
        XCTAssertTrue(result.stdout.contains("No contacts yet"))
    }

    func testBailStopsAtTheFirstError() throws {
        let result = try run("nope\nadd\n", ["--bail"])
        XCTAssertEqual(result.status, 1)
        XCTAssertFalse(result.stdout.contains("New contact"), "nothing after the error runs")
    }

    func testAnInvalidSaveStoresNothing() throws {
        // When a form with a bad email is saved and the input ends
        let result = try run("add\ngiven Bo\nemail not-an-email\nbirthday 2023-02-29\nsave\n")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stderr.contains("  birthday: must be a date as YYYY-MM-DD, or --MM-DD without a year\n"),
            result.stderr)
        XCTAssertTrue(
            result.stderr.contains("  email 1: is not an email address like name@example.org\n"), result.stderr)
        // Then the book is still empty
        XCTAssertTrue(try run("list\n").stdout.contains("No contacts yet"))
    }

    func testMemoryDatabaseWritesNoFile() throws {
        let result = try run("add\ngiven Ann\nsave\nlist\n", ["--db", ":memory:"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: defaultDatabase.path))
    }

    func testDbFlagPicksTheFile() throws {
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("other"), withIntermediateDirectories: true)
        let path = home.appendingPathComponent("other/book.sqlite").path
        XCTAssertEqual(try run("add\norganization Acme\nsave\n", ["--db", path, "--create"]).status, 0)
        XCTAssertTrue(try run("list\n", ["--db", path]).stdout.contains("Acme"))
        XCTAssertTrue(try run("list\n").stdout.contains("No contacts yet"), "the default book is another file")
    }

    func testSessionsCloseTheBookAndLeaveNoWalOrShmFileBehind() throws {
        // Given: a book made by a piped session that saved a contact
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("other"), withIntermediateDirectories: true)
        let path = home.appendingPathComponent("other/book.sqlite").path
        XCTAssertEqual(try run("add\norganization Acme\nsave\n", ["--db", path, "--create"]).status, 0)
        // When: a JSON-RPC session starts and ends on it
        let rpc = try run(
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"# + "\n", ["--rpc", "--db", path])
        // Then: each session closed the book (SQLite removes its -wal and -shm files then), and the save is in it
        XCTAssertEqual(rpc.status, 0, rpc.stderr)
        XCTAssertTrue(rpc.stdout.contains(#""id":1"#), rpc.stdout)
        for suffix in ["-wal", "-shm"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + suffix), suffix)
        }
        XCTAssertTrue(try run("list\n", ["--db", path]).stdout.contains("Acme"))
    }

    func testAPipedSessionThatOnlyReads_leavesTheBookByteForByte_andOneThatWritesThenJournalsIt() throws {
        // Given: a book with a contact, made and closed by an earlier session
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("other"), withIntermediateDirectories: true)
        let path = home.appendingPathComponent("other/book.sqlite").path
        XCTAssertEqual(try run("add\ngiven Ann\nfamily Kowalska\nsave\n", ["--db", path, "--create"]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        // When: a script searches, shows and lists (and asks the history), writing nothing
        let reading = try run("search kowal\nshow 1\nback\nlist\nhistory\n", ["--db", path])
        // Then: it answered, and the book is as it was, nothing beside it (no WAL set-up written)
        XCTAssertEqual(reading.status, 0, reading.stderr)
        XCTAssertTrue(reading.stdout.contains("Ann Kowalska"), reading.stdout)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        for suffix in ["-wal", "-shm"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + suffix), suffix)
        }
        // When: a script reads, then edits
        let writing = try run("search kowal\nshow 1\nedit\norganization Acme\nsave\nback\nlist\n", ["--db", path])
        // Then: the edit is saved, seen by the list after it, journalled as the line session's
        XCTAssertEqual(writing.status, 0, writing.stderr)
        XCTAssertTrue(writing.stdout.contains("Saved Ann Kowalska\n"), writing.stdout)
        XCTAssertTrue(writing.stdout.contains("Acme"), writing.stdout)
        XCTAssertTrue(try run("history\n", ["--db", path]).stdout.contains("line"))
        for suffix in ["-wal", "-shm"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + suffix), suffix)
        }
    }

    func testBadFlagsAreRefusedWithUsage() throws {
        let unknown = try run("", ["--frob"])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.stderr.contains("Unknown option '--frob'"), unknown.stderr)
        let badPage = try run("", ["--page-size", "0"])
        XCTAssertNotEqual(badPage.status, 0)
        XCTAssertTrue(badPage.stderr.contains("--page-size must be from 1 to 500"), badPage.stderr)
        let badLevel = try run("", ["--log-level", "loud"])
        XCTAssertEqual(badLevel.status, 64)
        XCTAssertTrue(
            badLevel.stderr.contains("--log-level must be one of trace, debug, info, notice, warning, error, critical"),
            badLevel.stderr)
    }

    func testReplOnAPipeIsRefusedOnceAndClearly() throws {
        // When the REPL is forced while stdin is a pipe
        let result = try run("list\n", ["--repl", "--db", ":memory:"])
        // Then libedit never reads the pipe: one clear error, status 2, nothing run
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "error: the interactive mode needs a terminal on stdin\n")
        XCTAssertEqual(result.stdout, "")
    }

    func testRpcAndReplExcludeEachOther() throws {
        let result = try run("", ["--rpc", "--repl"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("--rpc and --repl exclude each other"), result.stderr)
        XCTAssertEqual(result.stdout, "")
    }

    func testANonDatabaseFileIsReportedAndLeftAlone() throws {
        let path = home.appendingPathComponent("notes.txt")
        try Data("not a database\n".utf8).write(to: path)
        let result = try run("list\n", ["--db", path.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("error: cannot open"), result.stderr)
        XCTAssertEqual(try String(contentsOf: path, encoding: .utf8), "not a database\n")
    }

    func testJsonRpcFrontEndsAnswerInitializeWhileTheBookOpensAndReportABadBookWhenItIsNeeded() throws {
        // Given: a file that is not a book
        let path = home.appendingPathComponent("notes.txt")
        try Data("not a database\n".utf8).write(to: path)
        let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"# + "\n"
        let list = #"{"jsonrpc":"2.0","id":2,"method":"contacts/list","params":{}}"# + "\n"
        let mcpInitialize =
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","#
            + #""capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"# + "\n"
        for (mode, line) in [("--rpc", initialize), ("--mcp", mcpInitialize)] {
            // When: a JSON-RPC front end gets initialize, then the end of its input
            let ended = try run(line, [mode, "--db", path.path])
            // Then: initialize is answered (it needs no book), and the process says why the book
            // cannot be opened and ends with status 2, as a session on that file always did
            XCTAssertEqual(ended.status, 2, mode)
            XCTAssertTrue(ended.stderr.hasPrefix("error: cannot open \(path.path): "), ended.stderr)
            XCTAssertTrue(ended.stdout.contains(#""id":1"#), ended.stdout)
        }
        // And: a request that needs the book is never answered: the same error, status 2, at once
        let result = try run(initialize + list, ["--rpc", "--db", path.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("error: cannot open \(path.path): "), result.stderr)
        XCTAssertFalse(result.stdout.contains(#""id":2"#), result.stdout)
        XCTAssertEqual(try String(contentsOf: path, encoding: .utf8), "not a database\n")
        // And: a --db naming no file is refused at once, before anything is read or answered
        let missing = try run(initialize, ["--rpc", "--db", home.appendingPathComponent("nobook.sqlite").path])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stdout, "")
        XCTAssertTrue(missing.stderr.contains("pass --create to make a new one there"), missing.stderr)
    }

    func testAStaleEditFromAnotherProcessIsRefusedAndNothingIsOverwritten() throws {
        // Given a contact, and a first process with its edit form open
        XCTAssertEqual(try run("add\ngiven Ann\nfamily Lee\nsave\n").status, 0)
        let first = ContactsBookProcess([], home: home)
        try first.process.run()
        first.send("show 1\nedit\n")
        _ = first.readOutput(until: "Editing #1 Ann Lee")

        // When a second process saves a change first
        let second = try run("show 1\nedit\ngiven Anna\nsave\n")
        XCTAssertEqual(second.status, 0, second.stderr)

        // Then the first process's save is refused
        first.send("family Smith\nsave\n")
        let result = first.finish()
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stderr.contains(
                "#1 Anna Lee was changed elsewhere since you opened it (your version 1, now 2); nothing was changed."),
            result.stderr)
        // And the second process's edit survives
        let stored = try run("show 1\n").stdout
        XCTAssertTrue(stored.contains("  Given name   Anna\n"), stored)
        XCTAssertTrue(stored.contains("  Family name  Lee\n"), stored)
    }
}
