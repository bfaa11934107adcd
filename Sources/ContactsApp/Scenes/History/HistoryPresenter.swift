import SceneCore

public protocol HistoryPresentationLogic {
    func presentHistory(response: History.ShowHistory.Response)
    func presentFailure(_ failure: ContactsFailure)
}

/// Each change set on a line, field by field below it (`ContactFormatter.history`).
public final class HistoryPresenter: HistoryPresentationLogic {
    weak var viewController: HistoryDisplayLogic?
    let formatter: ContactFormatter

    public init(formatter: ContactFormatter) { self.formatter = formatter }

    public func presentHistory(response: History.ShowHistory.Response) {
        let empty = response.contact.map { "No history for \(formatter.displayName($0))" } ?? "No history yet"
        viewController?.displayHistory(
            viewModel: formatter.history(
                response.changes, contactID: response.contact?.id,
                emptyCaption: empty))
    }

    public func presentFailure(_ failure: ContactsFailure) {
        viewController?.displayMessage(formatter.message(for: failure))
    }
}
