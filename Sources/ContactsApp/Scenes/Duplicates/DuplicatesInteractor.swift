import Foundation

/// The duplicates scene's use cases: `duplicates` and `merge`.
public protocol DuplicatesBusinessLogic {
    func findDuplicates(request: Duplicates.FindDuplicates.Request)
    func mergeContacts(request: Duplicates.MergeContacts.Request)
}

/// The storage work the duplicates scene delegates (`ContactsWorker+Tools.swift`; its seam:
/// tests put a spy here).
public protocol DuplicatesStorageLogic {
    /// Groups strongest first: by their strongest reason, then the number of kinds of reason,
    /// then the lowest id.
    func duplicates() throws -> [DuplicateGroup]
    /// Merges the contacts the references name into the first, in one store transaction.
    func merge(_ references: [String]) throws -> MergedContacts
}

/// Finds the groups and merges one, built whole by `DuplicatesConfigurator`.
public final class DuplicatesInteractor: DuplicatesBusinessLogic {
    let worker: DuplicatesStorageLogic
    let presenter: DuplicatesPresentationLogic

    public init(worker: DuplicatesStorageLogic, presenter: DuplicatesPresentationLogic) {
        self.worker = worker; self.presenter = presenter
    }

    public func findDuplicates(request: Duplicates.FindDuplicates.Request) {
        do {
            presenter.presentDuplicates(response: .init(groups: try worker.duplicates()))
        } catch {
            presenter.presentFailure(ContactsFailure(error))
        }
    }

    public func mergeContacts(request: Duplicates.MergeContacts.Request) {
        do {
            presenter.presentMergedContacts(response: .init(result: try worker.merge(request.references)))
        } catch {
            presenter.presentFailure(ContactsFailure(error))
        }
    }
}
