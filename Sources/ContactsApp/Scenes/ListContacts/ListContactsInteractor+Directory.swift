import Foundation

public protocol ListContactsDirectoryBusinessLogic: AnyObject {
    func searchDirectories(request: ListContacts.SearchDirectories.Request)
    func showDirectoryEntry(request: ListContacts.ShowDirectoryEntry.Request)
    func copyDirectoryEntry(request: ListContacts.CopyDirectoryEntry.Request)
    /// Whether `reference` names a result of the last directory search (`corp:2`).
    func isDirectoryReference(_ reference: String) -> Bool
}

public protocol ListContactsDirectoryPresentationLogic {
    func presentDirectoryResults(response: ListContacts.SearchDirectories.Response)
    func presentDirectoryEntry(response: ListContacts.ShowDirectoryEntry.Response)
    func presentCopiedEntry(response: ListContacts.CopyDirectoryEntry.Response)
    func presentDirectoryFailure(_ failure: DirectoryFailure)
}

/// What the list keeps of the last directory search: its entries by reference.
final class DirectoryResults {
    var entries: [String: DirectoryEntry] = [:]
}

extension ListContactsInteractor: ListContactsDirectoryBusinessLogic {

    /// After the book's own rows of a search: the directories', each asked with a server-side
    /// filter under its time limit. A directory that fails is a notice in the answer, never the
    /// search's failure.
    public func searchDirectories(request: ListContacts.SearchDirectories.Request) {
        // A search the book refused (too long) is not sent to the directories either.
        // An empty search lists the book; nothing is asked of a directory. (Trimmed without
        // NSString: its first use cost every piped `search` 0.3M instructions, bench/FINDINGS.md.)
        guard let directoryWorker, request.search.count <= ContactLimits.maximumSearchLength,
            !request.search.trimmingWhitespaces.isEmpty, directoryWorker.hasSources
        else { return }
        let search = directoryWorker.search(request.search)
        var numbers: [String: Int] = [:]
        directoryResults.entries = [:]
        for entry in search.entries {
            numbers[entry.source, default: 0] += 1
            directoryResults.entries["\(entry.source):\(numbers[entry.source]!)"] = entry
        }
        directoryPresenter?.presentDirectoryResults(response: .init(search: search))
    }

    public func isDirectoryReference(_ reference: String) -> Bool {
        directoryResults.entries[reference.trimmingCharacters(in: .whitespaces)] != nil
    }

    public func showDirectoryEntry(request: ListContacts.ShowDirectoryEntry.Request) {
        guard let entry = directoryResults.entries[request.reference.trimmingCharacters(in: .whitespaces)] else {
            directoryPresenter?.presentDirectoryFailure(
                .invalid(
                    "no directory result \(request.reference): search first, then use a "
                        + "reference its rows show (corp:2)"))
            return
        }
        directoryPresenter?.presentDirectoryEntry(
            response: .init(entry: entry, contact: DirectoryMapping.contact(from: entry)))
    }

    public func copyDirectoryEntry(request: ListContacts.CopyDirectoryEntry.Request) {
        guard let directoryWorker,
            let entry = directoryResults.entries[request.reference.trimmingCharacters(in: .whitespaces)]
        else {
            directoryPresenter?.presentDirectoryFailure(
                .invalid(
                    "no directory result \(request.reference): search first, then use a "
                        + "reference its rows show (corp:2)"))
            return
        }
        do {
            let contact = try directoryWorker.copy(entry)
            directoryPresenter?.presentCopiedEntry(response: .init(contact: contact, directory: entry.source))
        } catch let failure as DirectoryFailure {
            directoryPresenter?.presentDirectoryFailure(failure)
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }
}
