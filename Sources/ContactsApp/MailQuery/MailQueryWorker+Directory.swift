import Foundation

/// `contactsbook query`'s answer: the book's addresses and what the organisation's directories
/// found for the same words (issue 31).
public struct MailQueryResult: Equatable, Sendable {
    /// The book's matches, ranked as `matches(for:)` ranks them.
    public var book: [MailQueryMatch]
    /// The directories' entries, and a notice per directory that failed or was cut short; empty
    /// when no directory is set up.
    public var directories: DirectorySearch
    /// The directories' entries as `mapEntry` made them, as each arrived (empty without one).
    public var fromDirectories: [MailQueryMatch] = []
}

extension MailQueryWorker {
    /// The book's matches for `text` and the directories': the directories are asked on another
    /// thread while the book is searched, each under its time limit, so a query waits for the
    /// slower of the two, not both. A directory that fails is a notice of the answer and the
    /// book's matches stand. `bookFirst` is handed the book's matches while the directories are
    /// still being asked (never when none is set up), for a front end that shows lines as soon
    /// as it has them. `lookahead`, when given, is the thread that asks them (its client is
    /// used), started before the book was opened; it is handed the search, or nothing when the
    /// book has no directory after all. `mapEntry`, when given, makes each directory entry's
    /// lines on the thread asking the directory, as the entry arrives, while the next ones are on
    /// their way (`fromDirectories`); the mail client then waits for nothing but the printing.
    public func answer(
        for text: String, directories: DirectorySourceStore, client: DirectoryClient = OpenLDAPClient(),
        lookahead: DirectoryLookahead? = nil, bookFirst: ([MailQueryMatch]) -> Void = { _ in },
        mapEntry: (@Sendable (DirectoryEntry) -> [MailQueryMatch])? = nil
    ) throws -> MailQueryResult {
        let sources: [DirectorySource]
        do {
            // Most books have no directory: one number (0.04M instructions) before reading every
            // source's ten columns (0.26M) at each keystroke.
            sources = try directories.hasDirectorySources() ? directories.directorySources() : []
        } catch {
            lookahead?.ask(nil)
            throw error
        }
        var asking = lookahead
        if sources.isEmpty {
            asking?.ask(nil)
        } else {
            let worker = DirectoryWorker(sources: directories, client: lookahead?.client ?? client)
            if asking == nil { asking = DirectoryLookahead(client: client) }
            // Only the attributes a mail line shows are asked for: no photos cross the network for `query`.
            asking?.ask {
                guard let mapEntry else {
                    return (worker.search(text, in: sources, attributes: DirectoryMapping.mailAttributes), [])
                }
                return worker.search(text, in: sources, attributes: DirectoryMapping.mailAttributes, mapping: mapEntry)
            }
        }
        let book = try matches(for: text)
        if !sources.isEmpty { bookFirst(book) }
        // Also when there was nothing to ask: a lookahead still loading its library is let finish
        // rather than have the process exit under it.
        let (found, mapped) = asking?.wait() ?? (DirectorySearch(), [])
        return MailQueryResult(book: book, directories: found, fromDirectories: mapped)
    }
}

/// The thread that asks `query`'s directories, which can start before they are known: it first
/// does what the client can do without a directory (`DirectoryClient.prepare`: libldap loaded
/// and started), then waits to be handed the search. `query` starts it before opening the book
/// when the book's header says it has directories (`SQLiteContactStore.mayHaveDirectorySources`),
/// so that the library loads while the book opens and is searched (bench/DIRECTORY.md).
public final class DirectoryLookahead: @unchecked Sendable {
    public let client: DirectoryClient
    private let handed = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    // Written before `handed` is signalled / `done` is signalled, read after the wait on it.
    private var job: (@Sendable () -> (DirectorySearch, [MailQueryMatch]))?
    private var found = (DirectorySearch(), [MailQueryMatch]())

    public init(client: DirectoryClient = OpenLDAPClient()) {
        self.client = client
        // A thread of its own rather than libdispatch's pool, whose first block starts a second
        // worker thread before it runs (bench/DIRECTORY.md, `directory4`).
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<DirectoryLookahead>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<DirectoryLookahead>.fromOpaque(context).release()
            DispatchQueue.global().async { [self] in run() }
        }
    }

    private func run() {
        client.prepare()
        handed.wait()
        if let job { found = job() }
        done.signal()
    }

    /// Ends the thread when no search will be handed to it (the book could not be opened): hands
    /// it nothing and waits until it has finished loading, so that the process never exits with
    /// the loader or libldap's start under way on another thread. Instead of `answer`, once.
    public func abandon() {
        ask(nil)
        _ = wait()
    }

    /// Hands the search to the thread (nil: nothing to ask). Once.
    func ask(_ search: (@Sendable () -> (DirectorySearch, [MailQueryMatch]))?) {
        job = search
        handed.signal()
    }

    /// What the search found (empty when nothing was asked), once the thread is done. Once, after `ask`.
    func wait() -> (DirectorySearch, [MailQueryMatch]) {
        done.wait()
        return found
    }
}
