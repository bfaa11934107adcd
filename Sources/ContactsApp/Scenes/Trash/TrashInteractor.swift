import Foundation

/// The trash scene's use cases: `trash`, `restore`, `purge`.
public protocol TrashBusinessLogic {
    func showTrash(request: Trash.ShowTrash.Request)
    func restoreContact(request: Trash.RestoreContact.Request)
    func purgeContacts(request: Trash.PurgeContacts.Request)
}

/// Reads and empties the trash through the journal (`ContactsJournalLogic`, `JournalWorker`),
/// built whole by `TrashConfigurator`.
public final class TrashInteractor: TrashBusinessLogic {
    let journalWorker: ContactsJournalLogic
    let presenter: TrashPresentationLogic

    public init(journalWorker: ContactsJournalLogic, presenter: TrashPresentationLogic) {
        self.journalWorker = journalWorker; self.presenter = presenter
    }

    public func showTrash(request: Trash.ShowTrash.Request) {
        do {
            presenter.presentTrash(response: .init(items: try journalWorker.trash()))
        } catch {
            presenter.presentFailure(ContactsFailure(error))
        }
    }

    public func restoreContact(request: Trash.RestoreContact.Request) {
        do {
            let restored = try journalWorker.restore(try journalWorker.resolveTrashed(request.reference))
            presenter.presentRestoredContact(response: .init(contact: restored))
        } catch {
            presenter.presentFailure(ContactsFailure(error))
        }
    }

    /// Nothing is erased without a yes: asked (or refused where nobody can be asked) unless
    /// confirmed. `purge yes` is the whole trash, confirmed.
    public func purgeContacts(request: Trash.PurgeContacts.Request) {
        var reference = request.reference.trimmingCharacters(in: .whitespaces)
        var confirmed = request.confirmed
        if reference.lowercased() == "yes" { reference = ""; confirmed = true }
        do {
            let trashed = reference.isEmpty ? nil : try journalWorker.resolveTrashed(reference)
            let count = try journalWorker.trash().count
            guard count > 0 else { throw ContactsFailure.badInput("The trash is empty.") }
            guard confirmed else {
                presenter.presentPurgeConfirmation(response: .init(contact: trashed?.contact, trashCount: count))
                return
            }
            presenter.presentPurgedContacts(response: .init(purged: try journalWorker.purge(trashed)))
        } catch {
            presenter.presentFailure(ContactsFailure(error))
        }
    }
}
