import Foundation
import XCTest

/// `contactsbook import FILE|-` and `contactsbook query TEXT`, as scripts and mail clients run them.
final class OneShotCommandsEndToEndTests: XCTestCase {
    var home: URL!
    var database: String { home.appendingPathComponent("book.sqlite").path }

    override func setUpWithError() throws { home = try makeTemporaryHome() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: home) }

    static let card =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ann-1\r\nN:Lee;Ann;;;\r\nFN:Ann Lee\r\nEMAIL;TYPE=work:ann@example.org\r\nEND:VCARD\r\n"

    func testImportFromStandardInput_thenQueryFindsTheAddress() throws {
        // When a card is piped into `import -`
        let imported = try ContactsBookProcess.run(
            ["import", "--db", database, "--create", "-"], stdin: Self.card, home: home)
        // Then it is added
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(imported.stdout, "Imported /dev/stdin: 1 added, 0 updated, 0 unchanged\n")

        // And mutt's query finds it: a message line, then address, name and label
        let query = try ContactsBookProcess.run(["query", "--db", database, "lee"], stdin: "", home: home)
        XCTAssertEqual(query.status, 0, query.stderr)
        XCTAssertEqual(query.stdout, "contactsbook: 1 address\nann@example.org\tAnn Lee\twork\n")

        // And importing the same card again adds nothing
        let again = try ContactsBookProcess.run(["import", "--db", database, "-"], stdin: Self.card, home: home)
        XCTAssertEqual(again.stdout, "Imported /dev/stdin: 0 added, 0 updated, 1 unchanged\n")
    }

    func testQueryWithoutMatches_saysSoAndExitsOne() throws {
        XCTAssertEqual(
            try ContactsBookProcess.run(["import", "--db", database, "--create", "-"], stdin: Self.card, home: home)
                .status, 0)
        let query = try ContactsBookProcess.run(["query", "--db", database, "nobody"], stdin: "", home: home)
        XCTAssertEqual(query.status, 1)
        XCTAssertEqual(query.stdout, "No matches\n")
    }

    func testImportOfAMissingFile_isAClearErrorAndChangesNothing() throws {
        let result = try ContactsBookProcess.run(
            ["import", "--db", database, "--create", home.appendingPathComponent("nope.vcf").path],
            stdin: "", home: home)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("error: cannot read "), result.stderr)
        XCTAssertTrue(result.stderr.contains("No such file or directory"), result.stderr)
        let bad = try ContactsBookProcess.run(["import", "--format", "xml", "-"], stdin: "", home: home)
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(
            bad.stderr.contains(
                "The value 'xml' is invalid for '--format <format>'. Please provide one of 'auto', 'vcard' or 'csv'."),
            bad.stderr)
    }

    func testQuery_acceptsEveryShapeOfItsArguments() throws {
        // Given
        let imported = try ContactsBookProcess.run(
            ["import", "--db", database, "--create", "-"], stdin: Self.card, home: home)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let expected = "contactsbook: 1 address\nann@example.org\tAnn Lee\twork\n"
        // Then: --db before or after the words or the subcommand, --db=PATH, words after --, several words
        for arguments in [
            ["query", "--db", database, "lee"], ["query", "lee", "--db", database],
            ["query", "--db=" + database, "lee"],
            ["query", "--db", database, "--", "ann", "lee"], ["--db", database, "query", "lee"],
            ["--log-level", "error", "--db", database, "query", "ann", "lee"],
        ] {
            let query = try ContactsBookProcess.run(arguments, stdin: "", home: home)
            XCTAssertEqual(query.status, 0, "\(arguments): \(query.stderr)")
            XCTAssertEqual(query.stdout, expected, "\(arguments)")
        }
        // And without --db it searches the default book under HOME, which a query never makes
        let fallback = try ContactsBookProcess.run(["query", "lee"], stdin: "", home: home)
        let defaultBook = home.appendingPathComponent("data/contactsbook/contacts.sqlite").path
        XCTAssertEqual(fallback.status, 2)
        XCTAssertEqual(fallback.stdout, "")
        XCTAssertEqual(
            fallback.stderr, "error: there is no book at \(defaultBook) yet (import or add a contact to make it)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: defaultBook))
    }

    func testQuery_parsedOnItsOwn_answersAsTheWholeCommandTreeDoes() throws {
        // Given a book. `contactsbook query ...` is parsed by the query command alone (mutt's
        // start-up); a global option before `query` sends the same command through the whole tree.
        let imported = try ContactsBookProcess.run(
            ["import", "--db", database, "--create", "-"], stdin: Self.card, home: home)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let missing = home.appendingPathComponent("missing.sqlite").path
        let shapes: [[String]] = [
            ["lee"], ["--db", database, "lee"], ["lee", "--db", database], ["--db=" + database, "--", "--db", "lee"],
            ["--db", database, "nobody"], ["--db", missing, "lee"], ["--db", database, "--create", "lee"],
            ["--help"], ["-h"], ["--version"], ["--nope", "lee"], [], ["--db"], ["--db", database],
            ["--db", "", "lee"],
            ["--db", database, "lee", "--log-level", "error"], ["--generate-completion-script", "bash"],
            // The shapes the hand-read fast path takes or leaves (CommandLineEntry.swift)
            ["--format", "plain", "--db", database, "lee"], ["--format=aerc", "--db=" + database, "ann", "lee"],
            ["--db", database, "--format", "pine", "lee"], ["--db", database, "--format"],
            ["--db", database, "--format=", "lee"],
            ["--db", database, "--db", database, "lee"], ["--create", "--create", "--db", database, "lee"],
            ["--db", database, ""], ["--db", database, "--", "-lee"], ["--db", database, "--", "--", "lee"],
            ["--db", "-", "lee"], ["--db=", "lee"], ["--db", database, "--log-level", "nope", "lee"],
            ["--db", database, "--log-level=debug", "lee"], ["--db", database, "--create=yes", "lee"],
            ["--db", database, "-x", "lee"],
            ["--db", database, "lee", "-h"], ["--db", database, "nobody", "--format", "aerc"],
        ]
        for shape in shapes {
            // When
            let alone = try ContactsBookProcess.run(["query"] + shape, stdin: "", home: home)
            let tree = try ContactsBookProcess.run(["--log-level", "warning", "query"] + shape, stdin: "", home: home)
            // Then stdout, stderr and the exit status are the same
            XCTAssertEqual(alone.stdout, tree.stdout, "\(shape)")
            XCTAssertEqual(alone.stderr, tree.stderr, "\(shape)")
            XCTAssertEqual(alone.status, tree.status, "\(shape)")
        }
        // And the answers are the ones a mail client and a person expect
        let found = try ContactsBookProcess.run(["query", "lee", "--db", database], stdin: "", home: home)
        XCTAssertEqual(found.status, 0, found.stderr)
        XCTAssertEqual(found.stdout, "contactsbook: 1 address\nann@example.org\tAnn Lee\twork\n")
        let help = try ContactsBookProcess.run(["query", "-h"], stdin: "", home: home)
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(
            help.stdout.hasPrefix(
                "OVERVIEW: Print email addresses matching TEXT for mutt, neomutt or aerc.\n\nUSAGE: contactsbook query "
            ),
            help.stdout)
        let bad = try ContactsBookProcess.run(["query", "--nope", "lee"], stdin: "", home: home)
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.hasPrefix("Error: Unknown option '--nope'\nUsage: contactsbook query "), bad.stderr)
        XCTAssertEqual(try ContactsBookProcess.run(["query", "--version"], stdin: "", home: home).stdout, "0.1.0\n")
        let noBook = try ContactsBookProcess.run(["query", "--db", missing, "lee"], stdin: "", home: home)
        XCTAssertEqual(noBook.status, 2)
        XCTAssertEqual(noBook.stderr, "error: there is no book at \(missing) (check --db)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "a query never makes a book")
    }

    func testSessions_readByHand_answerAsTheWholeCommandTreeDoes() throws {
        // Given a book. `--rpc`, `--mcp`, `--lsp` and a piped session are read without ArgumentParser
        // (CommandLineEntry.swift); `--page-size 20` (the default) is an option that path leaves to
        // the whole tree, so each shape runs both ways. (A subcommand or `--` would give the
        // appended option another meaning; those shapes are not read by hand. Log lines carry the
        // time to the second, so the shapes log at `error`, where a session says nothing.)
        let imported = try ContactsBookProcess.run(
            ["import", "--db", database, "--create", "-"], stdin: Self.card, home: home)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let missing = home.appendingPathComponent("missing.sqlite").path
        let rpc =
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"# + "\n"
            + #"{"jsonrpc":"2.0","id":2,"method":"contacts/search","params":{"text":"lee"}}"# + "\n"
        let mcp =
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
            + "\n"
        let lspBody = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#
        let lsp = "Content-Length: \(lspBody.utf8.count)\r\n\r\n" + lspBody
        let lines = "search lee\nshow 1\nstack\n"
        let shapes: [([String], String)] = [
            (["--db", database, "--rpc"], rpc), (["--rpc", "--db=" + database], rpc),
            (["session", "--db", database, "--rpc"], rpc),
            (["--db", database, "--mcp"], mcp), (["--db", database, "--lsp"], lsp), (["--db", database], lines),
            (["--db", database, "--bail"], "nope\nsearch lee\n"), (["--db", database, "--log-level", "error"], lines),
            (["--db", database, "--create", "--log-level=error"], lines), (["session", "--db", database], lines),
            (["--db", database, "--repl"], lines), (["--db", missing, "--rpc"], rpc),
            (["--db", database, "--rpc", "--mcp"], rpc), (["--db", database, "--rpc", "--rpc"], rpc),
            (["--db", database, "--lsp", "--repl"], ""),
            (["--db", "", "--rpc"], rpc), (["--db", "-", "--rpc"], rpc),
            (["--db", database, "--log-level", "loud"], lines),
            (["--db", database, "--rpc=yes"], rpc), (["--db", database, "-r"], rpc), (["--db"], ""),
            (["--db", database, "--rpc", "session"], rpc),
        ]
        for (shape, input) in shapes {
            // When
            let byHand = try ContactsBookProcess.run(shape, stdin: input, home: home)
            let tree = try ContactsBookProcess.run(shape + ["--page-size", "20"], stdin: input, home: home)
            // Then stdout, stderr and the exit status are the same
            XCTAssertEqual(byHand.stdout, tree.stdout, "\(shape)")
            XCTAssertEqual(byHand.stderr, tree.stderr, "\(shape)")
            XCTAssertEqual(byHand.status, tree.status, "\(shape)")
        }
        // And the sessions answered (the comparison above is not between two failures)
        let answered = try ContactsBookProcess.run(["--db", database, "--rpc"], stdin: rpc, home: home)
        XCTAssertEqual(answered.status, 0, answered.stderr)
        XCTAssertTrue(answered.stdout.contains(#""id":2"#) && answered.stdout.contains("Ann Lee"), answered.stdout)
        let piped = try ContactsBookProcess.run(["--db", database], stdin: lines, home: home)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertTrue(piped.stdout.contains("ann@example.org"), piped.stdout)
    }

    func testHelp_printedWithoutParsing_isTheWholeTreesHelp() throws {
        // `contactsbook --help` and `-h` print the root's help without parsing the command line
        // (at 80 columns the text kept by scripts/regenerate-help; if this fails there, run it);
        // after a global option they go through ArgumentParser's parse, at every width: given,
        // none (a pipe: 80), 80 itself, and COLUMNS that is no number (ignored: 80)
        for columns in ["50", nil, "80", "+80", "80x", "200"] {
            let environment = columns.map { ["COLUMNS": $0] } ?? [:]
            let tree = try ContactsBookProcess.run(
                ["--log-level", "warning", "--help"], stdin: "", home: home, environment: environment)
            XCTAssertEqual(tree.status, 0)
            XCTAssertTrue(tree.stdout.hasPrefix("OVERVIEW: A contacts book"), tree.stdout)
            for flag in ["--help", "-h"] {
                let fast = try ContactsBookProcess.run([flag], stdin: "", home: home, environment: environment)
                XCTAssertEqual(fast.stdout, tree.stdout, "\(flag) at \(columns ?? "no COLUMNS")")
                XCTAssertEqual(fast.stderr, tree.stderr, "\(flag) at \(columns ?? "no COLUMNS")")
                XCTAssertEqual(fast.status, tree.status, "\(flag) at \(columns ?? "no COLUMNS")")
            }
        }
        // The help's lines are whole: no run of blanks inside a sentence, none at a line's end
        let help = try ContactsBookProcess.run(["--help"], stdin: "", home: home).stdout
        XCTAssertFalse(help.contains("  and fish"), help)
        XCTAssertFalse(help.split(separator: "\n").contains { $0.hasSuffix(" ") }, help)
    }

    func testImport_takesTheGlobalOptionsBeforeTheSubcommandToo() throws {
        // When --db comes before `import`
        let imported = try ContactsBookProcess.run(
            ["--db", database, "--create", "import", "--format", "vcard", "-"], stdin: Self.card, home: home)
        // Then the card lands in that book
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let listed = try ContactsBookProcess.run(["--db", database], stdin: "list\n", home: home)
        XCTAssertTrue(listed.stdout.contains("Ann Lee"), listed.stdout)
    }

    func testVersion_printsTheVersionJSONRPCReports() throws {
        for arguments in [["--version"], ["query", "--version"]] {
            let version = try ContactsBookProcess.run(arguments, stdin: "", home: home)
            XCTAssertEqual(version.status, 0, "\(arguments): \(version.stderr)")
            XCTAssertEqual(version.stdout, "0.1.0\n", "\(arguments)")
        }
        let rpc = try ContactsBookProcess.run(
            ["--rpc", "--db", ":memory:"],
            stdin:
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"# + "\n", home: home)
        XCTAssertTrue(rpc.stdout.contains(#""version":"0.1.0""#), rpc.stdout)
    }

    func testImportOfAFolder_readsEveryVCardFileInIt() throws {
        // Given a khard vdir: one card per .vcf file
        let vdir = home.appendingPathComponent("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        try Data(Self.card.utf8).write(to: vdir.appendingPathComponent("ann-1.vcf"))
        try Data(Self.card.replacingOccurrences(of: "ann", with: "bo").replacingOccurrences(of: "Ann", with: "Bo").utf8)
            .write(to: vdir.appendingPathComponent("bo-1.vcf"))
        // When the folder is imported
        let imported = try ContactsBookProcess.run(["import", vdir.path], stdin: "", home: home)
        // Then both cards are in the (default) book
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(imported.stdout, "Imported \(vdir.path) (2 .vcf files): 2 added, 0 updated, 0 unchanged\n")
        let query = try ContactsBookProcess.run(["query", "lee"], stdin: "", home: home)
        XCTAssertEqual(
            query.stdout, "contactsbook: 2 addresses\nann@example.org\tAnn Lee\twork\nbo@example.org\tBo Lee\twork\n")
    }

    func testQuery_doesNotOfferAnImportedValueThatIsNotAnAddress() throws {
        // Given a card whose EMAIL is not an address, imported with a warning by line
        let card = Self.card.replacingOccurrences(of: "ann@example.org", with: "not-an-email")
        let imported = try ContactsBookProcess.run(["import", "-"], stdin: card, home: home)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(
            imported.stdout,
            """
            Imported /dev/stdin: 1 added, 0 updated, 0 unchanged; 1 value kept but not valid
              line 6: EMAIL "not-an-email" is not an email address (kept)

            """)
        // When mutt queries, Then the value is not offered
        let query = try ContactsBookProcess.run(["query", "lee"], stdin: "", home: home)
        XCTAssertEqual(query.status, 1)
        XCTAssertEqual(query.stdout, "No matches\n")
    }

    func testImport_ofAnIPhoneFile_readsEveryCard_andNamesEachChangeByLine() throws {
        // Given: iOS's CR CR LF line ends, a card with only an email, a stray QP byte
        let file = [
            "BEGIN:VCARD", "VERSION:3.0", "N:Lee;Ann;;;", "FN:Ann Lee", "NOTE;ENCODING=QUOTED-PRINTABLE:caf=C3=A9 =80",
            "END:VCARD", "BEGIN:VCARD", "VERSION:3.0", "EMAIL;type=INTERNET:bo@example.org", "END:VCARD",
        ]
        .map { $0 + "\r\r\n" }.joined()
        // When
        let imported = try ContactsBookProcess.run(
            ["import", "--db", database, "--create", "-"], stdin: file, home: home)
        // Then: both imported, exit 0, each change named by the line of its value (the FN and N an
        // export will add by the card's first line)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(
            imported.stdout,
            """
            Imported /dev/stdin: 2 added, 0 updated, 0 unchanged; 2 cards without a UID of its own given a new one; 4 changes made in reading
              line 5: NOTE: 1 byte not valid in UTF-8 replaced by U+FFFD
              line 7: no FN (display name): an export writes FN:bo@example.org (vCard 3.0 and 4.0 require FN); no N (name parts): an export writes N:;bo@example.org;;; beside the FN (3.0 requires N; in 4.0 it keeps the name's parts)
              line 9: the card has no name (N, FN or ORG): named "bo@example.org" after its EMAIL

            """)
    }

    func testImport_ofAFileThatGivesNoContact_exits1_andAnEmptyFileExits0() throws {
        // Given: a file of one card, cut off after a line that is not part of a card
        let cut = "hello\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Lee\r\n"
        // When
        let failed = try ContactsBookProcess.run(["import", "--db", database, "--create", "-"], stdin: cut, home: home)
        let empty = try ContactsBookProcess.run(["import", "--db", database, "-"], stdin: "", home: home)
        // Then: one card, not read, and the status says nothing was imported
        XCTAssertEqual(failed.status, 1)
        XCTAssertEqual(failed.stdout, "")
        XCTAssertEqual(
            failed.stderr,
            """
            error: Nothing imported from /dev/stdin: 1 card could not be read; 1 line outside any card skipped
              line 1: a line outside any card (expected BEGIN:VCARD): skipped
              line 2: the card has no END:VCARD (is the file truncated?)

            """)
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertEqual(empty.stdout, "Imported /dev/stdin: 0 added, 0 updated, 0 unchanged\n")
    }

    func testQuery_badArguments_areUsageErrors() throws {
        // An unknown option, no words, --db without a path: ArgumentParser's errors, status 64
        for arguments in [["--nope", "lee"], [], ["--db"], ["--db", database]] {
            let query = try ContactsBookProcess.run(["query"] + arguments, stdin: "", home: home)
            XCTAssertEqual(query.status, 64, "\(arguments)")
            XCTAssertTrue(query.stderr.hasPrefix("Error: "), "\(arguments): \(query.stderr)")
            XCTAssertEqual(query.stdout, "", "\(arguments)")
        }
        // And --help explains the command
        let help = try ContactsBookProcess.run(["query", "--help"], stdin: "", home: home)
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("USAGE: contactsbook query"), help.stdout)
    }
}
