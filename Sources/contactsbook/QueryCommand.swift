import ArgumentParser
import ContactsApp
import Foundation

/// `contactsbook query TEXT`: email addresses in the format of mutt's `query_command`
/// (also neomutt's, and aerc's `address-book-cmd`), as `MailQueryPresenter` writes them;
/// "No matches" and exit status 1 when there are none.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query", abstract: "Print email addresses matching TEXT for mutt, neomutt or aerc.")

    static let textHelp = ArgumentHelp("Words that must all match a name, nickname, organisation or email.")

    @OptionGroup var global: GlobalOptions

    static let formatHelp = ArgumentHelp(
        "mutt (the default: a first line, then address, name and info), plain (those lines alone, for scripts) or aerc (address and name).",
        valueName: "format")

    @Option(name: .long, help: QueryCommand.formatHelp)
    var format: MailQueryFormat = .mutt

    @Argument(help: QueryCommand.textHelp)
    var text: [String]

    func run() throws {
        try Self.search(bookAt: global.bookPath(for: .reading), for: text, format: format)
    }

    /// Prints the addresses matching `words` in the book at `path` (exit status 1 without any),
    /// or says on stderr why it cannot search and exits with status 2. `MailQueryWorker.answer`
    /// searches the book and the organisation's directories (issue 31); this shows its answer.
    static func search(bookAt path: String, for words: [String], format: MailQueryFormat) throws {
        var matches: [MailQueryMatch]
        // A book whose header says it has directories: libldap loads and starts on another thread
        // while this one opens the book and reads which they are (bench/DIRECTORY.md, `directory4`).
        let lookahead = SQLiteContactStore.mayHaveDirectorySources(atPath: path) ? DirectoryLookahead() : nil
        do {
            let store: SQLiteContactStore
            do {
                store = try SQLiteContactStore.openForReading(path: path, upgrading: { sayUpgrading(path) })
            } catch {
                lookahead?.abandon()
                throw error
            }
            defer { closeBeforeExit(store) }
            // Lines without mutt's counting first line go out as soon as the book has them.
            var written = false
            // Each directory entry becomes its lines on the thread asking the directory, as it
            // arrives; this thread then only prints (bench/DIRECTORY.md, `directory5`).
            let found = try MailQueryWorker(store: store, groups: store).answer(
                for: words.joined(separator: " "),
                directories: store, lookahead: lookahead,
                bookFirst: { book in
                    // The book is read: closed now, while the directories are asked, rather than
                    // after their answer (SQLite's unlocking, the `-wal` and `-shm` removed).
                    closeBeforeExit(store)
                    guard format != .mutt, !book.isEmpty else { return }
                    write(MailQueryPresenter().present(book, format: format).text, to: .standardOutput)
                    written = true
                }, mapEntry: { DirectoryPresenter().mailMatches(for: $0) })
            // A directory that failed says so once on stderr; the book's answer stands.
            for notice in found.directories.notices {
                write("contactsbook: \(terminalLines(notice))\n", to: .standardError)
            }
            let fromDirectories = found.fromDirectories
            if written {
                write(MailQueryPresenter().present(fromDirectories, format: format).text, to: .standardOutput)
                return
            }
            matches = found.book + fromDirectories
        } catch {
            write("error: cannot search \(path): \(error)\n", to: .standardError)
            throw ExitCode(2)
        }
        let answer = MailQueryPresenter().present(matches, format: format)
        write(answer.text, to: .standardOutput)
        if !answer.found { throw ExitCode(1) }
    }
}

/// `contactsbook query ...` as a mail client runs it (`ContactsBookCommand.run`): `QueryCommand`'s
/// arguments with the global options declared in place rather than through `@OptionGroup`, parsed
/// by ArgumentParser as a root of its own. The group cost this path five more scans of the
/// binary's conformance records (casts to and from `GlobalOptions`, its coding keys) and a second
/// reflection, 1.6M of its 18.7M instructions (bench/STARTUP.md, "qstart"). Only a parse that
/// succeeds runs here; help, errors and any other shape go to the whole tree, so a user sees
/// `QueryCommand`'s texts. Its options must stay `GlobalOptions`' (an end-to-end test runs every
/// shape both ways).
struct MailQueryArguments: ParsableCommand {
    // `_superCommandName` names the root: ArgumentParser then skips its completion-script check,
    // which reflects over two more commands. No help names: `--help` and `-h` fail this parse
    // and the whole tree answers them, as it does `--version`; with names, every parse spelled
    // out the hidden-help variant (`--help-hidden`) through reflection on an enum, four scans.
    static let configuration = CommandConfiguration(
        commandName: "query", _superCommandName: "contactsbook",
        helpNames: [])

    @Option(name: .long, help: GlobalOptions.dbHelp)
    var db: String?

    @Flag(name: .long, help: GlobalOptions.createHelp)
    var create = false

    @Option(name: .long, help: GlobalOptions.logLevelHelp)
    var logLevel: String?

    @Option(name: .long, help: QueryCommand.formatHelp)
    var format: MailQueryFormat = .mutt

    @Argument(help: QueryCommand.textHelp)
    var text: [String]

    func validate() throws {
        try GlobalOptions.validate(db: db, logLevel: logLevel)
    }

    func run() throws {
        try QueryCommand.search(
            bookAt: GlobalOptions.bookPath(db: db, create: create, for: .reading), for: text, format: format)
    }
}

// ArgumentParser finds a command's options by reflecting over a fresh instance (`Mirror`). The
// stored properties listed by hand (the wrappers' storage, as the compiler names it) spare the
// runtime's own reflection, whose children collection (a `LazyMapSequence` over a `Range`) costs
// nine scans of the conformance records on first use (1.6M instructions, bench/STARTUP.md,
// "qstart"). Every stored property belongs here: one left out is an option this parse does not
// know, so a command line using it (or a required one left out) fails here and the whole tree
// answers it, slower and the same (tried by leaving `_create` out).
extension MailQueryArguments: CustomReflectable {
    var customMirror: Mirror {
        Mirror(
            self,
            children: [
                (label: "_db", value: _db), (label: "_create", value: _create),
                (label: "_logLevel", value: _logLevel), (label: "_format", value: _format),
                (label: "_text", value: _text),
            ] as [Mirror.Child])
    }
}

extension MailQueryFormat: ExpressibleByArgument {}
