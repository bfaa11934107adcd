import ArgumentParser
import ContactsApp
import Foundation
import Logging
import SceneCore

/// `contactsbook account add|set|list|remove`: the CardDAV accounts the book syncs with. Each runs
/// its use case through the accounts' VIP cycle (`ManageAccountsConfigurator`); this front end only
/// shows what the cycle displayed (`AccountsFrontEnd`).
struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Add, change, list or remove CardDAV accounts.",
        subcommands: [Add.self, Change.self, List.self, Remove.self])

    /// `--conflicts server|local`, read as a string and checked in `validate()` (an enum option
    /// makes ArgumentParser describe it at every start-up; see bench/FINDINGS.md, issue 13).
    static func conflictWinner(_ text: String?) throws -> ConflictWinner? {
        guard let text else { return nil }
        guard let winner = ConflictWinner(rawValue: text) else {
            throw ValidationError("--conflicts is server or local, not '\(text)'")
        }
        return winner
    }
    static let conflictsHelp = ArgumentHelp(
        "Who wins a field changed differently here and on the server: server (the default) or local.",
        valueName: "server|local")

    // Every subcommand names itself: ArgumentParser otherwise derives the name from the type's
    // name through reflection, for each of them on every run of any command (a fifth of a
    // `--help`'s instructions; bench/STARTUP.md).
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a CardDAV account, finding its address book from the server's URL.",
            discussion: "The password is never stored: --password-command runs at each sync (sh -c; the first line it "
                + "prints; stdin /dev/null; stopped after CONTACTSBOOK_PASSWORD_TIMEOUT seconds, 30 by default). "
                + "Requests go only to the URL's host: another one the server leads to is asked about on a terminal, "
                + "or named with --allow-host.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "A one-word name for the account.") var name: String
        @Argument(help: "The server's URL (https://dav.example.org/).") var url: String
        @Option(name: .long, help: "The user name.") var user: String
        @Option(
            name: .long, help: ArgumentHelp("A command printing the password (pass show dav).", valueName: "command"))
        var passwordCommand: String?
        @Option(
            name: .long,
            help: ArgumentHelp(
                "An address book to sync, when the server has several (its last path "
                    + "component or display name). Repeatable.", valueName: "name"))
        var book: [String] = []
        @Flag(name: .long, help: "Sync every address book of the account, each a book of its own.") var allBooks = false
        @Flag(name: .long, help: "New local contacts go to this account (the first account added is the default).")
        var `default` = false
        @Option(name: .long, help: AccountCommand.conflictsHelp) var conflicts: String?
        @Option(
            name: .long,
            help: ArgumentHelp(
                "Another host the server may send the account to (its book or principal there), for scripts; "
                    + "on a terminal you are asked instead. Repeatable.", valueName: "host[:port]"))
        var allowHost: [String] = []

        func validate() throws {
            _ = try AccountCommand.conflictWinner(conflicts)
            if allBooks && !book.isEmpty { throw ValidationError("--all-books or --book, not both") }
        }

        func run() throws {
            let accounts = try AccountsFrontEnd.open(global, use: .writing)
            var request = ManageAccounts.AddAccount.Request(
                name: name, url: url, user: user, passwordCommand: passwordCommand, books: book, allBooks: allBooks,
                isDefault: `default`, conflicts: try AccountCommand.conflictWinner(conflicts) ?? .server,
                allowHosts: allowHost)
            // The server leading the account to another host is asked about on a terminal, never
            // elsewhere (`--allow-host` is the way for scripts); a yes tries again allowing that host.
            try AccountsFrontEnd.show(accounts.addAccount(request: request)) { question in
                guard let host = question.allowHost else { return nil }
                request.allowHosts.append(host)
                return accounts.addAccount(request: request)
            }
        }
    }

    /// `account set`.
    struct Change: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Change an account: who wins conflicts, or make it the default.",
            discussion: "Example: contactsbook account set home --conflicts local --default")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The account's name.") var name: String
        @Option(name: .long, help: AccountCommand.conflictsHelp) var conflicts: String?
        @Flag(name: .long, help: "Make this the default account: new local contacts go to it.") var `default` = false

        func validate() throws {
            _ = try AccountCommand.conflictWinner(conflicts)
            if conflicts == nil && !`default` {
                throw ValidationError("say what to change: --conflicts server|local, --default")
            }
        }

        func run() throws {
            let accounts = try AccountsFrontEnd.open(global, use: .reading)
            try AccountsFrontEnd.show(
                accounts.changeAccount(
                    request: .init(
                        name: name, conflicts: try AccountCommand.conflictWinner(conflicts), makeDefault: `default`)))
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the accounts.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let accounts = try AccountsFrontEnd.open(global, use: .reading)
            try AccountsFrontEnd.show(accounts.listAccounts(request: .init()))
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove an account; its contacts stay in the book, local-only.",
            discussion: "Asks for confirmation on a terminal; --yes confirms (required when stdin is not a terminal).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The account's name.") var name: String
        @Flag(name: .long, help: "Remove without asking.") var yes = false

        func run() throws {
            let accounts = try AccountsFrontEnd.open(global, use: .reading)
            try AccountsFrontEnd.show(accounts.removeAccount(request: .init(name: name, confirmed: yes))) { _ in
                accounts.removeAccount(request: .init(name: name, confirmed: true))
            }
        }
    }
}

/// The account commands' front end: what the accounts' cycle displayed, shown on a terminal or a
/// pipe. The text on stdout; a failure on stderr, exit status 1; a question put on a terminal
/// (y/N on stderr), and where stdin is not one, its refusal as the error.
enum AccountsFrontEnd {
    static func open(_ global: GlobalOptions, use: BookUse) throws -> ManageAccountsViewController {
        ManageAccountsConfigurator.configure(worker: try openSyncWorker(global, use: use))
    }

    /// - Parameter confirmed: runs the use case again as the question's yes asks, and returns what it displayed.
    static func show(
        _ displayed: ManageAccounts.Displayed?,
        confirmed: (ManageAccounts.ConfirmationViewModel) -> ManageAccounts.Displayed? = { _ in nil }
    ) throws {
        var shown = displayed
        while true {
            switch shown {
            case .added(let viewModel)?: return write(viewModel.text, to: .standardOutput)
            case .changed(let viewModel)?: return write(viewModel.text, to: .standardOutput)
            case .accounts(let viewModel)?: return write(viewModel.text, to: .standardOutput)
            case .removed(let viewModel)?: return write(viewModel.text, to: .standardOutput)
            case .failure(let text)?: try fail(text)
            case nil: try fail("the account command showed nothing")
            case .confirmation(let question)?:
                guard isatty(0) == 1 else { try fail(question.refusal) }
                write(terminalLines(question.question) + " [y/N] ", to: .standardError)
                guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                    if question.declined.kind == .error { try fail(question.declined.text) }
                    write(terminalLines(question.declined.text) + "\n", to: .standardError)
                    throw ExitCode(1)
                }
                shown = confirmed(question)
            }
        }
    }

    private static func fail(_ text: String) throws -> Never {
        write("error: \(terminalLines(text))\n", to: .standardError)
        throw ExitCode(1)
    }
}

/// `contactsbook sync [ACCOUNT]`: for cron and systemd timers. Progress on stderr, one summary
/// line per account on stdout; exit status 0 when every account synced, 1 when one failed or
/// one of its cards could not be sent or read (the summary names each, and the others synced).
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Sync the book with every CardDAV account, or with ACCOUNT.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "One account's name.") var account: String?

    func run() throws { try Self.run(global.book, account: account) }

    /// The command, for options parsed by ArgumentParser or by hand (`FastCommandLine`).
    static func run(_ options: BookOptions, account: String?) throws {
        // The HTTP and XML libraries load while the book opens (the sync's first request waits
        // for them otherwise), and are done loading before the process exits.
        let loading = DAVTransports.preload()
        defer { loading.wait() }
        let logger = options.bootstrapLogging()
        // The REPL's and JSON-RPC's use case, `sync` on the list (its Interactor, the sync Worker with
        // the cancellable transport, its Presenter); only the showing of the ViewModel is this command's.
        let book = try openSession(options, origin: "line", progress: SceneProgressToLog(logger: logger))
        let outcome = book.session.run(
            ActionCall(ListContacts.Action.sync, account.map { ["account": .string($0)] } ?? [:]))
        guard let list = book.session.stack.scenes.first as? ListContactsViewController,
            let synced = list.syncedContacts
        else {
            // Refused before any account synced: the session's error, an unknown account in this command's words.
            let text: String
            if let account, outcome.error?.code == .notFound {
                text = "\(SyncAccountsWorker.Failure.unknownAccount(account))"
            } else {
                text = outcome.error?.text ?? outcome.dispatchError.map { "\($0)" } ?? "the sync showed nothing"
            }
            FileHandle.standardError.write(Data("error: \(text)\n".utf8))
            throw ExitCode(1)
        }
        if synced.accounts.isEmpty { FileHandle.standardError.write(Data("No accounts to sync.\n".utf8)) }
        var failed = false
        for account in synced.accounts {
            if let summary = account.summary { print(terminalLines(summary)) }
            // The other accounts and cards synced; a failure makes the run fail, for the timer.
            if let error = account.error {
                failed = true
                FileHandle.standardError.write(Data("error: \(terminalLines(error))\n".utf8))
            }
        }
        if failed { throw ExitCode(1) }
    }
}

/// Text with server-sent parts (names, hrefs, book names) made safe for a terminal or a log, line
/// by line: escape sequences and control bytes become `?` (`TerminalText.sanitize`, as every
/// session front end shows them).
func terminalLines(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.sanitize(String($0)) }
        .joined(separator: "\n")
}

/// Opens the book for the account commands, or exits with status 2 and a clear error.
func openSyncWorker(_ global: GlobalOptions, use: BookUse) throws -> SyncAccountsWorker {
    let path = try global.bookPath(for: use)
    do {
        let store = try SQLiteContactStore(path: path, upgrading: { sayUpgrading(path) })
        return SyncAccountsWorker(store: store)
    } catch {
        FileHandle.standardError.write(Data("error: cannot open \(path): \(error)\n".utf8))
        throw ExitCode(2)
    }
}

/// The sync's progress as log lines on stderr (`--log-level info` shows them): a timer's
/// journal gets them, stdout keeps the summary alone.
final class SceneProgressToLog: ProgressReporter {
    private let logger: Logger
    init(logger: Logger) { self.logger = logger }

    func post(_ event: ProgressEvent) {
        switch event {
        case .begin(let title, _): logger.info("\(title)")
        case .report(let completed, let total, let message):
            logger.info("\(message ?? "progress"): \(completed)\(total.map { " of \($0)" } ?? "")")
        case .end(let message): if let message { logger.info("\(message)") }
        }
    }
}
