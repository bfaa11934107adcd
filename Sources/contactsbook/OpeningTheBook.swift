import ArgumentParser
import ContactsApp
import Foundation
import SceneCore

/// The process's stdout and stderr, written whole per message.
final class StandardStreams: TextStreams {
    func writeOutput(_ text: String) { write(text, to: .standardOutput) }
    func writeError(_ text: String) { write(text, to: .standardError) }

    /// Stdout's width in columns when it is a terminal, else nil: a one-shot command or piped
    /// commands printing to a terminal fit it as the REPL does; pipes and files get the full text.
    static var outputColumns: Int? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

/// Writes `text` whole. From its UTF-8 buffer, not `Data(text.utf8)`: that generic initialiser
/// asks at run time whether the view is `ContiguousBytes`, a scan of all the binary's conformance
/// records on first use (0.27M instructions, 1.4 % of a mail client's `query`).
func write(_ text: String, to handle: FileHandle) {
    var text = text
    text.withUTF8 { bytes in
        guard let base = bytes.baseAddress else { return }
        handle.write(Data(bytes: base, count: bytes.count))
    }
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

/// What a command does with the book, which decides whether a missing one may be made.
enum BookUse {
    /// `query`: never makes a book.
    case reading
    /// A session or `import`: makes the default book silently on first use, another only with
    /// `--create` (and never its folder), so a mistyped `--db` cannot leave an empty book behind.
    case writing
}

extension GlobalOptions {
    /// The book's path (`~` taken from `$HOME`), after checking that it exists or may be made;
    /// otherwise says why on stderr and exits with status 2, as for a book that cannot be opened.
    func bookPath(for use: BookUse) throws -> String {
        try GlobalOptions.bookPath(db: db, create: create, for: use)
    }

    /// `bookPath(for:)` for a `--db` and `--create` parsed elsewhere (`MailQueryArguments`).
    static func bookPath(db: String?, create: Bool, for use: BookUse) throws -> String {
        guard let db else {
            let path = try DefaultPaths.database(environment: environmentVariables(["XDG_DATA_HOME", "HOME"]))
            try refuseUnlessRegular(path)
            if use == .reading && !FileManager.default.fileExists(atPath: path) {
                throw refusal("there is no book at \(path) yet (import or add a contact to make it)")
            }
            return path
        }
        if db == ":memory:" { return db }
        // The environment only for a `~`: building it is a twelfth of a mail client's `query`.
        let path = db.hasPrefix("~") ? HomePath.expanding(db, environment: ProcessInfo.processInfo.environment) : db
        if try refuseUnlessRegular(path) { return path }
        switch use {
        case .reading:
            throw refusal("there is no book at \(path) (check --db)")
        case .writing where !create:
            throw refusal("there is no book at \(path); pass --create to make a new one there")
        case .writing:
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw refusal("cannot create \(path): there is no folder \(folder)")
            }
            return path
        }
    }

    /// Whether a file is at `path`; a device, folder, pipe or socket there is refused before
    /// SQLite opens it: it would write its `-journal` or `-wal` beside it (as root,
    /// `--db /dev/null` left `/dev/null-journal`, mode 0666; issue 26, item 13).
    @discardableResult
    static func refuseUnlessRegular(_ path: String) throws -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        if info.st_mode & S_IFMT == S_IFREG { return true }
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFDIR: kind = "a folder"
        case S_IFCHR, S_IFBLK: kind = "a device"
        case S_IFIFO: kind = "a pipe"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        throw refusal("\(path) is \(kind), not a book (--db names the book's file)")
    }

    private static func refusal(_ text: String) -> ExitCode {
        FileHandle.standardError.write(Data("error: \(text)\n".utf8))
        return ExitCode(2)
    }
}

/// Said on stderr (never stdout: `--rpc` and `query` answer there) before a book made by an
/// older version is upgraded, which a large book takes a while to do, once.
func sayUpgrading(_ path: String) {
    FileHandle.standardError.write(
        Data(
            "contactsbook: upgrading \(path) for this version (once; about a minute for a million contacts)\n".utf8))
}

/// A book opened for a session: the session on it, what a greeting says about it, and what
/// tells its front end of other processes' changes.
struct OpenedBook {
    let session: Session
    let path: String
    let store: SQLiteContactStore
    /// What the session's scenes share, for other readers of the book (MCP's resources).
    let environment: ContactsEnvironment
    /// Nil for a book in memory, where inotify is missing, or unless asked for (`watching`).
    let watch: ChangeWatch?

    /// "Book /home/ann/.local/share/contactsbook/contacts.sqlite · 12 contacts", or without the
    /// count if the book cannot say.
    var greeting: String {
        let total = try? store.page(ContactQuery(search: "", sort: .last, page: 1, limit: 0)).total
        let place = path == ":memory:" ? "an in-memory book (gone when this session ends)" : path
        guard let total else { return "Book \(place)" }
        return "Book \(place) · \(total == 1 ? "1 contact" : "\(total) contacts")"
    }
}

/// Opens the book and builds a session on it, or exits with status 2 and a clear error.
/// `origin` is the front end recorded with each change set in the journal (repl, line, rpc);
/// `watching` builds the `ChangeWatch` of other processes' changes.
func openSession(
    _ global: GlobalOptions, origin: String, watching: Bool = false, pageSize: Int = 20,
    changes: ChangeNotifier? = nil, progress: ProgressReporter? = nil
) throws -> OpenedBook {
    try openSession(
        global.book, origin: origin, watching: watching, pageSize: pageSize, changes: changes, progress: progress)
}

/// `openSession(_:origin:...)` for options parsed by hand (`FastCommandLine`) or by ArgumentParser.
/// `inBackground` opens the book on a thread of its own (`--rpc`, `--mcp`, `--lsp`: `initialize`
/// needs no book, and was answered after a whole open, bench/STARTUP.md), begun when the front end
/// first waits for input (`store.letOpenFinish()`, after its first answers are written), when the
/// session first needs the book, or when it ends; a book that cannot be opened is reported the
/// same way, status 2, when the session first needs it or at the latest when it ends.
/// `readingFirst` reads the book through one connection until the session first writes
/// (`SQLiteContactStore.openReadingFirst`): a piped line session, which often only reads.
func openSession(
    _ options: BookOptions, origin: String, watching: Bool = false, pageSize: Int = 20,
    changes: ChangeNotifier? = nil, progress: ProgressReporter? = nil, inBackground: Bool = false,
    readingFirst: Bool = false
) throws -> OpenedBook {
    let path = try GlobalOptions.bookPath(db: options.db, create: options.create, for: .writing)
    let store: SQLiteContactStore
    if inBackground {
        // Held before its first write until the front end waits for input or needs the book: a
        // script's session that ends first leaves an up-to-date book as it is (no syncs to wait for).
        store = SQLiteContactStore.toOpen(
            path: path, upgrading: { sayUpgrading(path) }, holdingWrites: true,
            failed: { error in
                FileHandle.standardError.write(Data("error: cannot open \(path): \(error)\n".utf8))
                exit(2)
            })
    } else {
        do {
            store =
                readingFirst
                ? try SQLiteContactStore.openReadingFirst(path: path, upgrading: { sayUpgrading(path) })
                : try SQLiteContactStore(path: path, upgrading: { sayUpgrading(path) })
        } catch {
            FileHandle.standardError.write(Data("error: cannot open \(path): \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
    store.journalOrigin = origin
    // Only the variables a session reads: the whole environment as a dictionary
    // (`ProcessInfo.environment`) was a million instructions, a tenth of `--rpc`'s way to `initialize`.
    let variables = environmentVariables(
        ["CONTACTSBOOK_HISTORY_DAYS", "CONTACTSBOOK_HISTORY_CHANGES", "CONTACTSBOOK_COUNTRY"])
    store.journalRetention = JournalRetention.fromEnvironment(variables)
    let environment = ContactsEnvironment(
        store: store, pageSize: pageSize, changes: changes, progress: progress,
        defaultCountry: bookCountry(variables), journal: store, syncState: store, directories: store,
        books: store)
    store.journalClock = { [now = environment.now] in now() }
    // Only the front ends that tell (the REPL, --rpc, --mcp): a piped line session gets nothing extra.
    var watch: ChangeWatch?
    if inBackground {
        // The notices start from the journal as the open left it, as they do below: taken on the
        // opening thread right after the open, so a change made meanwhile is told, not skipped.
        // A failed open is left to the session's thread (the next call that needs the book, or
        // closing it at the end), never reported from this one or by the watch: the answers
        // already due (`initialize`) go out first.
        let notices = watching && path != ":memory:" ? Deferred<JournalNotices>() : nil
        // Begun once the front end has written its first answers and waits for input (or needs
        // the book, or ends): on a shared two-core host an open beside `initialize` delayed its answer.
        Thread {
            if store.openWhenLet() { notices?.set(JournalNotices(journal: store)) }
        }.start()
        if let notices {
            // Not waiting for the open (nor letting a held one write): the open's own files wake
            // the watch, and what changed before it ended is before the journal position anyway.
            // Armed by the front end when it first waits for input (RPCServer.run).
            watch = ChangeWatch(file: path, armed: false) { store.hasOpened ? notices.value.changes() : [] }
        }
    } else if watching, path != ":memory:" {
        let notices = JournalNotices(journal: store)
        watch = ChangeWatch(file: path, check: notices.changes)
    }
    return OpenedBook(
        session: ContactsSceneFactory.makeSession(environment: environment), path: path, store: store,
        environment: environment, watch: watch)
}

/// A value another thread sets once; `value` waits for it.
final class Deferred<Value>: @unchecked Sendable {
    private let done = DispatchGroup()
    /// Written once before `done` is left; read only after `done.wait()`.
    private var stored: Value?

    init() { done.enter() }

    func set(_ value: Value) {
        stored = value
        done.leave()
    }

    var value: Value {
        done.wait()
        return stored!
    }
}

/// The book's country for phone numbers without a country code: `CONTACTSBOOK_COUNTRY` (`US`, `DE`;
/// README: command language), for sessions and one-shot commands alike.
func bookCountry(_ variables: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    variables["CONTACTSBOOK_COUNTRY"].flatMap { $0.isEmpty ? nil : $0 }
}

/// Closes the book (SQLite removes its `-wal` and `-shm` files) and keeps the store until the
/// process exits, which it does right after: releasing the store would release GRDB's queue or
/// pool, whose removal of notification observers and disposal of dispatch queues are a tenth of
/// a mail client's `query` and 3 % of a short session (bench/STARTUP.md). If the book cannot be
/// closed, the store is released as before and closes it then.
func closeBeforeExit(_ store: SQLiteContactStore) {
    guard (try? store.close()) != nil else { return }
    _ = Unmanaged.passRetained(store)
}
