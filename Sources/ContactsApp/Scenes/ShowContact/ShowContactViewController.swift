import SceneCore

public protocol ShowContactDisplayLogic: AnyObject {
    func displayContact(viewModel: ShowContact.FetchContact.ViewModel)
    func displayDeletedContact(message: Message)
    func displayHistory(viewModel: HistoryViewModel)
    func displayMessage(_ message: Message)
}

public final class ShowContactViewController: Scene, ShowContactDisplayLogic {
    public static let descriptor = SceneDescriptor(id: "contact", summary: "one contact, every field", actions: [
        ActionSpec("show", aliases: ["refresh"], summary: "show the contact again, as stored now"),
        ActionSpec("edit", summary: "edit this contact (opens the form)"),
        ActionSpec("delete", summary: "delete this contact and go back to the list"),
        ActionSpec("history", summary: "show what changed in this contact, newest first, field by field"),
    ])

    public var interactor: ShowContactBusinessLogic?
    public var router: (ShowContactRoutingLogic & ShowContactDataPassing)?
    let output: DisplaySink
    /// The name shown in the prompt and the stack; set from what was displayed.
    public private(set) var title = "contact"

    public init(output: DisplaySink) { self.output = output }

    public var descriptor: SceneDescriptor { Self.descriptor }

    public func perform(_ call: ActionCall) {
        switch call.name {
        case "show": interactor?.fetchContact(request: .init(reload: true))
        // Nothing to decide: the contact shown is in the DataStore the Router reads (ARCHITECTURE.md).
        case "edit": router?.routeToEditContact()
        case "delete": interactor?.deleteContact(request: .init())
        case "history": interactor?.showHistory(request: .init())
        default: break
        }
    }

    public func sceneDidBecomeActive(_ reason: ActivationReason) {
        interactor?.fetchContact(request: .init(reload: reason == .pushed))
    }

    public func displayContact(viewModel: ShowContact.FetchContact.ViewModel) {
        title = viewModel.name
        output.display(viewModel)
    }

    public func displayDeletedContact(message: Message) {
        output.display(message)
        router?.routeToList()
    }

    public func displayHistory(viewModel: HistoryViewModel) { output.display(viewModel) }
    public func displayMessage(_ message: Message) { output.display(message) }
}
