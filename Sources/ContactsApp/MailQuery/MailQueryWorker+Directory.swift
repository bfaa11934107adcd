import Foundation

/// `contactsbook query`'s answer: the book's addresses and what the organisation's directories
/// found for the same words (issue 31).
public struct MailQueryResult: Equatable, Sendable {
    /// The book's matches, ranked as `matches(for:)` ranks them.
    public var book: [MailQueryMatch]
    /// The directories' entries, and a notice per directory that failed or was cut short; empty
    /// when no directory is set up.
    public var directories: DirectorySearch
}

extension MailQueryWorker {
    /// The book's matches for `text` and the directories': the directories are asked on another
    /// thread while the book is searched, each under its time limit, so a query waits for the
    /// slower of the two, not both. A directory that fails is a notice of the answer and the
    /// book's matches stand. `bookFirst` is handed the book's matches while the directories are
    /// still being asked (never when none is set up), for a front end that shows lines as soon
    /// as it has them.
    public func answer(
        for text: String, directories: DirectorySourceStore, client: DirectoryClient = OpenLDAPClient(),
        bookFirst: ([MailQueryMatch]) -> Void = { _ in }
    ) throws -> MailQueryResult {
        let sources = try directories.directorySources()
        let worker = DirectoryWorker(sources: directories, client: client)
        let asking = DispatchGroup()
        let found = DirectoryAnswerBox()
        if !sources.isEmpty {
            // Only the attributes a mail line shows are asked for: no photos cross the network for `query`.
            DispatchQueue.global().async(group: asking) {
                found.search = worker.search(text, in: sources, attributes: DirectoryMapping.mailAttributes)
            }
        }
        let book = try matches(for: text)
        if !sources.isEmpty { bookFirst(book) }
        asking.wait()
        return MailQueryResult(book: book, directories: found.search)
    }
}

/// The directories' answer, handed from the thread that asks them (read after `wait()`).
private final class DirectoryAnswerBox: @unchecked Sendable {
    var search = DirectorySearch()
}
