import ArgumentParser
import ContactsApp
import Foundation
import Logging
import SceneCore
import SceneREPL
import SceneRPC

/// The composition root: reads the flags, opens the store, builds the session and hands it
/// to the front end that fits stdin.
struct ContactsBookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contactsbook",
        abstract: "A contacts book for the terminal, editors and scripts.",
        discussion: """
            With stdin not a terminal, reads one command per line (try 'help').
            The book lives in ${XDG_DATA_HOME:-~/.local/share}/contactsbook/contacts.sqlite unless --db says otherwise.
            'contactsbook query [--db PATH] TEXT' prints email addresses for mutt, neomutt or aerc.
            'contactsbook import [--db PATH] [--format F] FILE|-' imports a vCard or CSV file, or stdin.
            """)

    @Option(name: .long, help: ArgumentHelp("The database file, or :memory: for a book that lives only for this run.",
                                            valueName: "path"))
    var db: String?

    @Flag(name: .long, help: "Stop at the first command that fails.")
    var bail = false

    @Flag(name: .long, help: "Run the interactive REPL (the default when stdin is a terminal); stdin must be a terminal.")
    var repl = false

    @Flag(name: .long, help: "Speak strict JSON-RPC 2.0 on stdin/stdout (Content-Length or newline-delimited); see Protocol.md.")
    var rpc = false

    @Flag(name: .long, help: "Print every JSON-RPC method and notification with JSON Schema, then exit.")
    var apiInfo = false

    @Option(name: .long, help: ArgumentHelp("Largest JSON-RPC message (or NDJSON line) accepted, in bytes.", valueName: "bytes"))
    var rpcMaxMessage = FrameLimits().maxBodyBytes

    @Option(name: .long, help: ArgumentHelp("Largest Content-Length header block accepted, in bytes.", valueName: "bytes"))
    var rpcMaxHeader = FrameLimits().maxHeaderBytes

    @Option(name: .long, help: "Contacts per page of the list (1-\(ContactLimits.maximumPageSize)).")
    var pageSize = 20

    @Option(name: .long, help: "Log level on stderr: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .warning

    static let serverInfo = RPCServerInfo(name: "contactsbook", version: "0.1.0")

    func validate() throws {
        if rpc && repl { throw ValidationError("--rpc and --repl exclude each other") }
        guard (1...ContactLimits.maximumPageSize).contains(pageSize) else {
            throw ValidationError("--page-size must be from 1 to \(ContactLimits.maximumPageSize)")
        }
        if let db, db.isEmpty { throw ValidationError("--db needs a path") }
        guard rpcMaxMessage >= 64 else { throw ValidationError("--rpc-max-message must be at least 64 bytes") }
        guard rpcMaxHeader >= 32 else { throw ValidationError("--rpc-max-header must be at least 32 bytes") }
    }

    func run() throws {
        if apiInfo {
            print(RPCServer.apiInfo(sceneKinds: ContactsSceneFactory.sceneKinds, info: Self.serverInfo))
            return
        }
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "contactsbook")
        logger.debug("opening the book", metadata: ["db": "\(db ?? "default")"])
        let changes = ChangeHub()
        let progress = ProgressHub()
        let session = try openSession(db: db, pageSize: pageSize, changes: changes, progress: progress)
        let limits = FrameLimits(maxHeaderBytes: rpcMaxHeader, maxBodyBytes: rpcMaxMessage)
        // Built only for the front ends that speak JSON-RPC (the REPL does not): a server
        // observes the session's changes and progress from the moment it exists.
        func makeServer() -> RPCServer {
            RPCServer(session: session, info: Self.serverInfo, limits: limits, changes: changes, progress: progress,
                      log: { level, text in logger.log(level: level, "\(text)") })
        }
        if rpc {
            let status = makeServer().run()
            if status != 0 { throw ExitCode(status) }
            return
        }
        if repl || REPL.isTerminal(fd: 0) {
            let status = REPL(session: session, environment: ProcessInfo.processInfo.environment,
                              progress: progress).run()
            if status != 0 { throw ExitCode(status) }
            return
        }
        let streams = StandardStreams()
        let lines = LineSession(session: session, streams: streams, bail: bail)
        let mixed = MixedLineSession(lines: lines, server: makeServer(), streams: streams)
        let status = mixed.run { readLine(strippingNewline: true) }
        if status != 0 { throw ExitCode(status) }
    }
}

/// `contactsbook query TEXT`: email addresses in the format of mutt's `query_command`
/// (also neomutt's, and aerc's `address-book-cmd`): a first line for people, then
/// `address<TAB>name<TAB>info` per address; "No matches" and exit status 1 when there are none.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contactsbook query", abstract: "Print email addresses matching TEXT for mutt, neomutt or aerc.")

    @Option(name: .long, help: ArgumentHelp("The database file.", valueName: "path"))
    var db: String?

    @Argument(help: "Words that must all match a name, nickname, organisation or email.")
    var text: [String]

    func run() throws { try Self.answer(db: db, text: text) }

    /// Runs `query` for the arguments of the common shape, `[--db PATH | --db=PATH] [--] TEXT...`,
    /// without ArgumentParser, and exits; returns for anything else (help, an unknown option,
    /// no TEXT), which `main` then hands to ArgumentParser for its usual help and errors.
    /// Written by hand because a mail client runs this command on every lookup, and parsing
    /// with ArgumentParser (its completion-script check instantiates the metadata of every
    /// option) was 15% of the command's time; see bench/RESULTS.md.
    static func runWithoutParser(_ arguments: [String]) {
        var db: String?, text: [String] = [], index = 0, positionalOnly = false
        while index < arguments.count {
            let argument = arguments[index]
            if positionalOnly || !argument.hasPrefix("-") {
                text.append(argument)
            } else if argument == "--" {
                positionalOnly = true
            } else if argument == "--db", index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-") {
                db = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix("--db="), argument.count > 5 {
                db = String(argument.dropFirst(5))
            } else {
                return
            }
            index += 1
        }
        guard !text.isEmpty else { return }
        // Exits by hand too: ArgumentParser's `exit(withError:)` builds the command's help text
        // even for success (another 13% of the command's time).
        do {
            try answer(db: db, text: text)
            Foundation.exit(EXIT_SUCCESS)
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            exit(withError: error)
        }
    }

    static func answer(db: String?, text: [String]) throws {
        let path = try db ?? DefaultPaths.database(environment: ProcessInfo.processInfo.environment)
        let matches: [MailQueryMatch]
        do {
            let store = try SQLiteContactStore.openForReading(path: path, upgrading: { sayUpgrading(path) })
            defer { close(store) }
            matches = try MailQueryWorker(store: store).matches(for: text.joined(separator: " "))
        } catch {
            FileHandle.standardError.write(Data("error: cannot search \(path): \(error)\n".utf8))
            throw ExitCode(2)
        }
        guard !matches.isEmpty else {
            print("No matches")
            throw ExitCode(1)
        }
        print("contactsbook: \(matches.count == 1 ? "1 address" : "\(matches.count) addresses")")
        for match in matches {
            print([match.address, match.name, match.info].map(Self.field).joined(separator: "\t"))
        }
    }

    /// Closes the book (SQLite removes its `-wal` and `-shm` files) and keeps the store until the
    /// process exits, which it does right after the answer: releasing the store would release
    /// GRDB's queue, and disposing of its dispatch queue starts a libdispatch worker thread (a
    /// tenth of the command's instructions; bench/STARTUP.md). If the book cannot be closed,
    /// the store is released as before and closes it then.
    private static func close(_ store: SQLiteContactStore) {
        guard (try? store.close()) != nil else { return }
        _ = Unmanaged.passRetained(store)
    }

    /// One field of a line: tabs, line breaks and other control characters become spaces.
    static func field(_ text: String) -> String {
        let controls = CharacterSet.controlCharacters  // built by each call of the getter
        return String(text.unicodeScalars.map { controls.contains($0) ? " " : Character($0) })
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// The process's stdout and stderr, written whole per message.
final class StandardStreams: TextStreams {
    func writeOutput(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
    func writeError(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}

/// Where files live by default (XDG base directories).
enum DefaultPaths {
    struct NoHome: Error, CustomStringConvertible {
        var description: String { "HOME is not set and neither is XDG_DATA_HOME; pass --db PATH" }
    }

    /// `${XDG_DATA_HOME:-~/.local/share}/contactsbook/contacts.sqlite`; a relative
    /// XDG_DATA_HOME is ignored, as the XDG specification says.
    static func database(environment: [String: String]) throws -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/contactsbook/contacts.sqlite"
        }
        guard let home = environment["HOME"], !home.isEmpty else { throw NoHome() }
        return home + "/.local/share/contactsbook/contacts.sqlite"
    }
}

/// `contactsbook import FILE|-`: imports a vCard or CSV file, or standard input, without a
/// session script; runs the list scene's `import` action, so it reports as the session does.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contactsbook import", abstract: "Import a vCard or CSV file, or standard input (-).")

    @Option(name: .long, help: ArgumentHelp("The database file.", valueName: "path"))
    var db: String?

    @Option(name: .long, help: "auto (csv for a .csv file, else vcard), vcard or csv.")
    var format = "auto"

    @Argument(help: "The file to read, or - for standard input.")
    var file: String

    func validate() throws {
        guard ["auto", "vcard", "csv"].contains(format) else { throw ValidationError("--format must be auto, vcard or csv") }
    }

    func run() throws {
        let session = try openSession(db: db)
        let path = file == "-" ? "/dev/stdin" : file
        let lines = LineSession(session: session, streams: StandardStreams(), bail: false)
        _ = lines.handle(call: ActionCall("import", ["path": .string(path), "format": .string(format)]))
        if lines.failures > 0 { throw ExitCode(1) }
    }
}

/// Said on stderr (never stdout: `--rpc` and `query` answer there) before a book made by an
/// older version is upgraded, which a large book takes a while to do, once.
func sayUpgrading(_ path: String) {
    FileHandle.standardError.write(Data(
        "contactsbook: upgrading \(path) for this version (once; about a minute for a million contacts)\n".utf8))
}

/// Opens the book and builds a session on it, or exits with status 2 and a clear error.
func openSession(db: String?, pageSize: Int = 20, changes: ChangeNotifier? = nil,
                 progress: ProgressReporter? = nil) throws -> Session {
    let path = try db ?? DefaultPaths.database(environment: ProcessInfo.processInfo.environment)
    let store: SQLiteContactStore
    do {
        store = try SQLiteContactStore(path: path, upgrading: { sayUpgrading(path) })
    } catch {
        FileHandle.standardError.write(Data("error: cannot open \(path): \(error)\n".utf8))
        throw ExitCode(2)
    }
    let country = ProcessInfo.processInfo.environment["CONTACTSBOOK_COUNTRY"].flatMap { $0.isEmpty ? nil : $0 }
    let environment = ContactsEnvironment(store: store, pageSize: pageSize, changes: changes, progress: progress,
                                          defaultCountry: country)
    return ContactsSceneFactory.makeSession(environment: environment)
}

// `query` and `import` are modes of their own rather than subcommands, so the session's flags
// and theirs never share a parser (a parent's `--db` would capture the subcommand's).
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "query":
    QueryCommand.runWithoutParser(Array(arguments.dropFirst()))
    QueryCommand.main(Array(arguments.dropFirst()))
case "import": ImportCommand.main(Array(arguments.dropFirst()))
default: ContactsBookCommand.main()
}
