import Foundation

/// The history scene's use case: `history [CONTACT]`.
public protocol HistoryBusinessLogic {
    func showHistory(request: History.ShowHistory.Request)
}

/// How the history scene finds a contact in the book (`ContactsWorker`); the journal is
/// `ContactsJournalLogic` (`JournalWorker`).
public protocol HistoryStorageLogic {
    func resolve(_ reference: String) throws -> Contact
}

/// Reads the journal, built whole by `HistoryConfigurator`.
public final class HistoryInteractor: HistoryBusinessLogic {
    let worker: HistoryStorageLogic
    let journalWorker: ContactsJournalLogic
    let presenter: HistoryPresentationLogic

    public init(worker: HistoryStorageLogic, journalWorker: ContactsJournalLogic, presenter: HistoryPresentationLogic) {
        self.worker = worker; self.journalWorker = journalWorker; self.presenter = presenter
    }

    /// A contact named is looked for in the book, then in the trash (a deleted contact has history too).
    public func showHistory(request: History.ShowHistory.Request) {
        do {
            let reference = request.reference.trimmingCharacters(in: .whitespaces)
            var contact: Contact?
            if !reference.isEmpty {
                do {
                    contact = try worker.resolve(reference)
                } catch ContactsFailure.notFound {
                    contact = try journalWorker.resolveTrashed(reference).contact
                }
            }
            let changes = try journalWorker.history(of: contact)
            presenter.presentHistory(response: .init(changes: changes, contact: contact))
        } catch {
            presenter.presentFailure(ContactsFailure(error))
        }
    }
}
