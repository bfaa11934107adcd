import ArgumentParser
import ContactsApp
import Foundation
import Logging

extension ContactsBookCommand {
    /// Runs the command line: `ContactsBookCommand.main(arguments)`, except for the shapes a mail
    /// client, an editor, an agent or a script start on every use (`query ...`, `--rpc`, `--mcp`,
    /// `--lsp`, a piped session, `--help`), which `FastCommandLine` reads by hand. ArgumentParser
    /// reflects over every command of the tree it is given, and every first use of a generic type
    /// scans all the binary's conformance records: that was two thirds of a `query`'s and half of
    /// an `--rpc` start-up's instructions (bench/STARTUP.md). A shape the fast path does not know
    /// for sure (help other than `--help`/`-h`, `--version`, a bad or repeated option, a value
    /// starting with `-`, a completion request) goes to ArgumentParser, so its texts and exit
    /// statuses are the tree's; `query` shapes go first through `MailQueryArguments` as before.
    static func run(_ arguments: [String]) {
        switch FastCommandLine.read(arguments) {
        case .query(let query):
            runThenExit {
                try QueryCommand.search(
                    bookAt: GlobalOptions.bookPath(
                        db: query.book.db, create: query.book.create,
                        for: .reading),
                    for: query.words, format: query.format)
            }
            return
        case .session(let session):
            runThenExit { try session.run() }
            return
        case .sync(let book, let account):
            runThenExit { try SyncCommand.run(book, account: account) }
            return
        case .help:
            // What ArgumentParser prints for `contactsbook --help`: the root's help at the
            // terminal's width, on stdout, status 0 (an end-to-end test holds the two equal). At
            // 80 columns the text is kept as rendered (`scripts/regenerate-help`): rendering it
            // reflects over the whole tree, 9.9M of a `--help`'s 11.6M instructions.
            print(HelpWidth.current == RootHelpText.columns ? RootHelpText.text : helpMessage())
            return
        case nil:
            break
        }
        if arguments.first == "query",
            let query = try? MailQueryArguments.parseAsRoot(Array(arguments.dropFirst())) as? MailQueryArguments
        {
            do {
                try query.run()
            } catch {
                exit(withError: error)
            }
            return
        }
        main(arguments)
    }

    /// Runs `body` and ends the process as `main` would after `run()`: an `ExitCode` exits with
    /// its status and prints nothing (ArgumentParser would first build the usage text, for
    /// nothing); any other error is reported by `exit(withError:)`.
    private static func runThenExit(_ body: () throws -> Void) {
        do {
            try body()
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}

/// The width ArgumentParser renders help at (its `Platform.terminalSize`): `COLUMNS` when it is
/// a whole number, else the width the terminal on stdout reports, else 80.
enum HelpWidth {
    static var current: Int {
        if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }) { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}

/// The command lines started on every use, read without ArgumentParser: only shapes whose
/// meaning is certain, every value checked as ArgumentParser and the commands' `validate()`
/// check it; for anything else `read` answers nil and the whole tree parses the line.
/// Options and their spellings must stay those of `GlobalOptions`, `QueryCommand`,
/// `SessionCommand` and `SyncCommand` (OneShotCommandsEndToEndTests runs each shape both ways).
enum FastCommandLine {
    case query(MailQuery)
    case session(SessionRun)
    /// `sync [ACCOUNT]`, which a timer starts every few minutes: ArgumentParser was a fifth of a
    /// sync with nothing to do (bench/FINDINGS.md, issue 32).
    case sync(BookOptions, account: String?)
    case help

    /// `contactsbook query [options] WORDS...`.
    struct MailQuery {
        var book = BookOptions()
        var format = MailQueryFormat.mutt
        var words: [String] = []
    }

    static func read(_ arguments: [String]) -> FastCommandLine? {
        if arguments == ["--help"] || arguments == ["-h"] { return .help }
        if arguments.first == "query" { return readQuery(arguments.dropFirst()).map(FastCommandLine.query) }
        if arguments.first == "sync" { return readSync(arguments.dropFirst()) }
        return readSession(arguments.first == "session" ? arguments.dropFirst() : arguments[...]).map(
            FastCommandLine.session)
    }

    /// `query`'s options (`MailQueryArguments`) and at least one word; words after `--` as they are.
    private static func readQuery(_ arguments: ArraySlice<String>) -> MailQuery? {
        var query = MailQuery()
        var reader = OptionReader(arguments)
        var format: String?
        while let argument = reader.next() {
            // An empty word is left to ArgumentParser, which this path need not second-guess.
            if argument.isEmpty { return nil }
            if reader.afterTerminator {
                query.words.append(argument)
                continue
            }
            if argument == "--" {
                reader.afterTerminator = true
                continue
            }
            if !argument.hasPrefix("-") {
                query.words.append(argument)
                continue
            }
            guard
                reader.readBookOption(argument, into: &query.book)
                    || reader.readValue(argument, "--format", into: &format)
            else { return nil }
        }
        if let format {
            guard let value = MailQueryFormat(rawValue: format) else { return nil }
            query.format = value
        }
        guard reader.valid, !query.words.isEmpty, query.book.isValid else { return nil }
        return query
    }

    /// `sync`'s options and at most one account name (`--` and anything else go to ArgumentParser).
    private static func readSync(_ arguments: ArraySlice<String>) -> FastCommandLine? {
        var book = BookOptions()
        var account: String?
        var reader = OptionReader(arguments)
        while let argument = reader.next() {
            if argument.hasPrefix("-") {
                guard reader.readBookOption(argument, into: &book) else { return nil }
                continue
            }
            guard account == nil, !argument.isEmpty else { return nil }
            account = argument
        }
        guard reader.valid, book.isValid else { return nil }
        return .sync(book, account: account)
    }

    /// A session with the global options and at most one front end named (`SessionCommand`'s
    /// other options, and combinations it refuses, go to ArgumentParser).
    private static func readSession(_ arguments: ArraySlice<String>) -> SessionRun? {
        var session = SessionRun(book: BookOptions())
        var reader = OptionReader(arguments)
        while let argument = reader.next() {
            guard argument.hasPrefix("-"), argument != "--" else { return nil } // a subcommand, a word, `--`
            if reader.readBookOption(argument, into: &session.book) { continue }
            guard
                reader.readFlag(argument, "--rpc", into: &session.rpc)
                    || reader.readFlag(argument, "--mcp", into: &session.mcp)
                    || reader.readFlag(argument, "--lsp", into: &session.lsp)
                    || reader.readFlag(argument, "--repl", into: &session.repl)
                    || reader.readFlag(argument, "--bail", into: &session.bail)
            else { return nil }
        }
        let frontEnds = [session.rpc, session.mcp, session.lsp, session.repl].filter { $0 }.count
        guard reader.valid, frontEnds <= 1, session.book.isValid else { return nil }
        return session
    }
}

/// Long options as ArgumentParser reads them (`--name value`, `--name=value`, flags), more
/// strictly: an option given twice, a value starting with `-` or a flag with `=value` makes the
/// line invalid, and the caller leaves it to ArgumentParser.
private struct OptionReader {
    private var arguments: ArraySlice<String>
    // A list, not a set: a handful of names, and `query` reads its line before it starts the
    // directory's thread, where a set's first use (its storage type's metadata) cost 0.44M
    // instructions (bench/DIRECTORY.md, `directory5`).
    private var seen: [String] = []
    private(set) var valid = true
    var afterTerminator = false

    init(_ arguments: ArraySlice<String>) { self.arguments = arguments }

    mutating func next() -> String? {
        guard valid else { return nil }
        return arguments.popFirst()
    }

    /// `--db`, `--create`, `--log-level` (`GlobalOptions`).
    mutating func readBookOption(_ argument: String, into book: inout BookOptions) -> Bool {
        var db = book.db, logLevel = book.logLevel
        if readValue(argument, "--db", into: &db) {
            book.db = db
            return true
        }
        if readValue(argument, "--log-level", into: &logLevel) {
            book.logLevel = logLevel
            return true
        }
        return readFlag(argument, "--create", into: &book.create)
    }

    mutating func readFlag(_ argument: String, _ name: String, into flag: inout Bool) -> Bool {
        guard argument == name else { return false }
        if seen.contains(name) { valid = false } else { seen.append(name) }
        flag = true
        return true
    }

    mutating func readValue(_ argument: String, _ name: String, into value: inout String?) -> Bool {
        let given: String?
        if argument == name {
            given = arguments.popFirst()
        } else if argument.hasPrefix(name + "=") {
            given = String(argument.dropFirst(name.count + 1))
        } else {
            return false
        }
        if seen.contains(name) { valid = false } else { seen.append(name) }
        guard let given, !given.hasPrefix("-") else {
            valid = false
            return true
        }
        value = given
        return true
    }
}

extension BookOptions {
    /// What `GlobalOptions.validate()` accepts.
    var isValid: Bool { (try? GlobalOptions.validate(db: db, logLevel: logLevel)) != nil }
}
