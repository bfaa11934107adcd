import SceneCore

/// One display per use case (`fetchContact` → `presentFetchedContact` → `displayFetchedContact`),
/// and `displayMessage` for a failure of any of them.
public protocol ShowContactDisplayLogic: AnyObject {
    func displayFetchedContact(viewModel: ShowContact.FetchContact.ViewModel)
    func displayDeletedContact(viewModel: ShowContact.DeleteContact.ViewModel)
    func displayHistory(viewModel: ShowContact.ShowHistory.ViewModel)
    func displaySelectedContact(viewModel: ShowContact.SelectContact.ViewModel)
    func displayContactToEdit(viewModel: ShowContact.EditContact.ViewModel)
    func displayCompletedReference(viewModel: ShowContact.CompleteReference.ViewModel)
    func displaySavedPhoto(viewModel: ShowContact.SavePhoto.ViewModel)
    func displayMessage(_ message: Message)
}

public final class ShowContactViewController: Scene, ShowContactDisplayLogic {
    public static let descriptor = SceneDescriptor(
        id: "contact", summary: "one contact, every field",
        actions: ShowContact.Action.self, displays: [ShowContact.FetchContact.ViewModel.self])

    public var interactor: ShowContactBusinessLogic?
    public var router: (ShowContactRoutingLogic & ShowContactDataPassing)?
    let output: DisplaySink
    /// The name shown in the prompt and the stack; set from what was displayed.
    public private(set) var title = "contact"

    public init(output: DisplaySink) { self.output = output }

    public var descriptor: SceneDescriptor { Self.descriptor }

    public func perform(_ call: ActionCall) {
        guard let action = call.action(of: ShowContact.Action.self) else { return }
        switch action {
        case .show:
            if let reference = call.string("contact") {
                interactor?.selectContact(request: .init(reference: reference))
            } else {
                interactor?.fetchContact(request: .init(reload: true))
            }
        case .edit:
            if let reference = call.string("contact") {
                interactor?.selectContact(request: .init(reference: reference, purpose: .edit))
            } else {
                // Whether its book may be written is decided first (issue 30: read-only books).
                interactor?.editContact(request: .init())
            }
        case .delete: interactor?.deleteContact(request: .init())
        case .history: interactor?.showHistory(request: .init())
        case .photo: interactor?.savePhoto(request: .init(path: call.string("file") ?? ""))
        }
    }

    public func sceneDidBecomeActive(_ reason: ActivationReason) {
        interactor?.fetchContact(request: .init(reload: reason == .pushed))
    }

    public func displayFetchedContact(viewModel: ShowContact.FetchContact.ViewModel) {
        title = viewModel.name
        output.display(viewModel)
    }

    public func displayDeletedContact(viewModel: ShowContact.DeleteContact.ViewModel) {
        output.display(viewModel.message)
        router?.routeToList()
    }

    public func displayHistory(viewModel: ShowContact.ShowHistory.ViewModel) { output.display(viewModel) }
    public func displaySavedPhoto(viewModel: ShowContact.SavePhoto.ViewModel) { output.display(viewModel.message) }
    /// The contact shown may be edited: the form opens over it.
    public func displayContactToEdit(viewModel: ShowContact.EditContact.ViewModel) { router?.routeToEditContact() }
    public func displaySelectedContact(viewModel: ShowContact.SelectContact.ViewModel) {
        switch viewModel.purpose {
        case .show: router?.routeToSelectedContact()
        case .edit: router?.routeToEditSelectedContact()
        }
    }

    private let contactNames = ContactNameCompletion()

    public func completions(for source: String, prefix: String) -> [String] {
        contactNames.candidates(for: source, prefix: prefix) {
            interactor?.completeReference(request: .init(prefix: $0))
        }
    }

    public func displayCompletedReference(viewModel: ShowContact.CompleteReference.ViewModel) {
        contactNames.answer(viewModel.candidates)
    }

    public func displayMessage(_ message: Message) { output.display(message) }
}
