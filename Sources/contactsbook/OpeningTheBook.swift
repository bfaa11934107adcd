import ArgumentParser
import ContactsApp
import Foundation
import SceneCore

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

extension GlobalOptions {
    /// `--db`, or the default book's path.
    func databasePath() throws -> String {
        try db ?? DefaultPaths.database(environment: ProcessInfo.processInfo.environment)
    }
}

/// Said on stderr (never stdout: `--rpc` and `query` answer there) before a book made by an
/// older version is upgraded, which a large book takes a while to do, once.
func sayUpgrading(_ path: String) {
    FileHandle.standardError.write(Data(
        "contactsbook: upgrading \(path) for this version (once; about a minute for a million contacts)\n".utf8))
}

/// A session on the book, and what tells its front end of other processes' changes.
struct OpenedSession {
    let session: Session
    /// Nil for a book in memory, or where inotify is missing.
    let watch: ChangeWatch?
}

/// Opens the book and builds a session on it, or exits with status 2 and a clear error.
/// `origin` is the front end recorded with each change set in the journal (repl, line, rpc);
/// `watching` builds the `ChangeWatch` of other processes' changes.
func openSession(_ global: GlobalOptions, origin: String, watching: Bool = false, pageSize: Int = 20, changes: ChangeNotifier? = nil,
                 progress: ProgressReporter? = nil) throws -> OpenedSession {
    let path = try global.databasePath()
    let store: SQLiteContactStore
    do {
        store = try SQLiteContactStore(path: path, upgrading: { sayUpgrading(path) })
    } catch {
        FileHandle.standardError.write(Data("error: cannot open \(path): \(error)\n".utf8))
        throw ExitCode(2)
    }
    store.journalOrigin = origin
    store.journalRetention = JournalRetention.fromEnvironment()
    let environment = ContactsEnvironment(store: store, pageSize: pageSize, changes: changes, progress: progress)
    store.journalClock = { [now = environment.now] in now() }
    // Only the front ends that tell (the REPL, --rpc): a piped line session gets nothing extra.
    var watch: ChangeWatch?
    if watching, path != ":memory:" {
        let notices = JournalNotices(journal: store)
        watch = ChangeWatch(file: path, check: notices.changes)
    }
    return OpenedSession(session: ContactsSceneFactory.makeSession(environment: environment), watch: watch)
}
