import ArgumentParser
import ContactsApp
import Foundation

/// `contactsbook query TEXT`: email addresses in the format of mutt's `query_command`
/// (also neomutt's, and aerc's `address-book-cmd`), as `MailQueryPresenter` writes them;
/// "No matches" and exit status 1 when there are none.
struct QueryCommand: ParsableCommand {
    // `_superCommandName` names the root for when `query` is parsed as a root itself
    // (`ContactsBookCommand.run`): ArgumentParser then skips its completion-script check, which
    // reflects over two more commands. ArgumentParser reads it only on the root of a command
    // stack, so the whole tree's texts do not change.
    static let configuration = CommandConfiguration(
        commandName: "query", _superCommandName: "contactsbook",
        abstract: "Print email addresses matching TEXT for mutt, neomutt or aerc.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Words that must all match a name, nickname, organisation or email.")
    var text: [String]

    func run() throws {
        let path = try global.bookPath(for: .reading)
        let matches: [MailQueryMatch]
        do {
            let store = try SQLiteContactStore.openForReading(path: path, upgrading: { sayUpgrading(path) })
            defer { Self.close(store) }
            matches = try MailQueryWorker(store: store).matches(for: text.joined(separator: " "))
        } catch {
            FileHandle.standardError.write(Data("error: cannot search \(path): \(error)\n".utf8))
            throw ExitCode(2)
        }
        let answer = MailQueryPresenter().present(matches)
        FileHandle.standardOutput.write(Data(answer.text.utf8))
        if !answer.found { throw ExitCode(1) }
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
}
