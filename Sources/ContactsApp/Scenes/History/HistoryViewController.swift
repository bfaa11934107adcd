import SceneCore

public protocol HistoryDisplayLogic: AnyObject {
    func displayHistory(viewModel: HistoryViewModel)
    func displayMessage(_ message: Message)
}

/// The history scene, shown in the list's place: the list's `history` runs here
/// (`ListContactsRouter.routeToHistory`), so its word and method stay the list's.
public final class HistoryViewController: ListContactsToolScene, HistoryDisplayLogic {
    let interactor: HistoryBusinessLogic
    let output: DisplaySink

    public init(interactor: HistoryBusinessLogic, output: DisplaySink) {
        self.interactor = interactor; self.output = output
    }

    public func perform(_ action: ListContacts.Action, _ call: ActionCall) {
        guard action == .history else { return } // the list routes only `history` here
        interactor.showHistory(request: .init(reference: call.string("contact") ?? ""))
    }

    public func displayHistory(viewModel: HistoryViewModel) { output.display(viewModel) }
    public func displayMessage(_ message: Message) { output.display(message) }
}
