import SceneCore

public protocol TrashPresentationLogic {
    func presentTrash(response: Trash.ShowTrash.Response)
    func presentRestoredContact(response: Trash.RestoreContact.Response)
    func presentPurgedContacts(response: Trash.PurgeContacts.Response)
    func presentPurgeConfirmation(response: Trash.PurgeContacts.ConfirmationResponse)
    func presentFailure(_ failure: ContactsFailure)
}

/// The trash as a table; a restore and a purge as a line each; the question before erasing.
public final class TrashPresenter: TrashPresentationLogic {
    weak var viewController: TrashDisplayLogic?
    let formatter: ContactFormatter

    public init(formatter: ContactFormatter) { self.formatter = formatter }

    public func presentTrash(response: Trash.ShowTrash.Response) {
        viewController?.displayTrash(viewModel: formatter.trash(response.items))
    }

    public func presentRestoredContact(response: Trash.RestoreContact.Response) {
        viewController?.displayRestoredContact(
            viewModel: .init(
                message: .success("Restored \(formatter.displayName(response.contact)) (#\(response.contact.id ?? 0))"))
        )
    }

    public func presentPurgeConfirmation(response: Trash.PurgeContacts.ConfirmationResponse) {
        let what =
            response.contact.map { "\(formatter.displayName($0)) (#\($0.id ?? 0))" }
            ?? count(response.trashCount, "deleted contact")
        let its = response.contact == nil && response.trashCount != 1 ? "their" : "its"
        let confirm = response.contact.map { "purge #\($0.id ?? 0) yes" } ?? "purge yes"
        viewController?.displayPurgeConfirmation(
            viewModel: .init(
                id: response.contact?.id, question: "Erase \(what) for good, with \(its) history?",
                declined: "Nothing purged",
                refusal: "not purged: this erases \(what) for good, with \(its) history; confirm with '\(confirm)'"))
    }

    public func presentPurgedContacts(response: Trash.PurgeContacts.Response) {
        viewController?.displayPurgedContacts(
            viewModel: .init(
                message: .success(
                    "Purged \(count(response.purged, "contact")) for good, with \(response.purged == 1 ? "its" : "their") history"
                )))
    }

    public func presentFailure(_ failure: ContactsFailure) {
        viewController?.displayMessage(formatter.message(for: failure))
    }

    private func count(_ number: Int, _ noun: String) -> String { number == 1 ? "1 \(noun)" : "\(number) \(noun)s" }
}
