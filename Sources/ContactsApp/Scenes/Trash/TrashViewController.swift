import SceneCore

public protocol TrashDisplayLogic: AnyObject {
    func displayTrash(viewModel: TrashViewModel)
    func displayRestoredContact(viewModel: Trash.RestoreContact.ViewModel)
    func displayPurgedContacts(viewModel: Trash.PurgeContacts.ViewModel)
    func displayPurgeConfirmation(viewModel: Trash.PurgeContacts.ConfirmationViewModel)
    func displayMessage(_ message: Message)
}

/// The trash scene, shown in the list's place: the list's `trash`, `restore` and `purge` run here
/// (`ListContactsRouter.routeToTrash`), so their words and methods stay the list's.
public final class TrashViewController: ListContactsToolScene, TrashDisplayLogic {
    let interactor: TrashBusinessLogic
    let output: DisplaySink

    public init(interactor: TrashBusinessLogic, output: DisplaySink) {
        self.interactor = interactor; self.output = output
    }

    public func perform(_ action: ListContacts.Action, _ call: ActionCall) {
        switch action {
        case .trash: interactor.showTrash(request: .init())
        case .restore: interactor.restoreContact(request: .init(reference: call.string("contact") ?? ""))
        case .purge:
            interactor.purgeContacts(
                request: .init(reference: call.string("contact") ?? "", confirmed: call.boolean("confirm") ?? false))
        default: break // not this scene's: the list routes only its three actions here
        }
    }

    public func displayTrash(viewModel: TrashViewModel) { output.display(viewModel) }
    public func displayRestoredContact(viewModel: Trash.RestoreContact.ViewModel) { output.display(viewModel.message) }
    public func displayPurgedContacts(viewModel: Trash.PurgeContacts.ViewModel) { output.display(viewModel.message) }

    /// Asks before erasing; on yes the front end runs the list's `purge` naming the contact by its
    /// number, which the list routes here again.
    public func displayPurgeConfirmation(viewModel: Trash.PurgeContacts.ConfirmationViewModel) {
        var confirmed: [String: ArgumentValue] = ["confirm": .boolean(true)]
        if let id = viewModel.id { confirmed["contact"] = .string("#\(id)") }
        output.display(
            ConfirmationRequest(
                question: viewModel.question, confirmed: ActionCall(ListContacts.Action.purge, confirmed),
                declined: .info(viewModel.declined), otherwise: .refuse,
                refusal: .error(viewModel.refusal, code: .confirmationRequired)))
    }

    public func displayMessage(_ message: Message) { output.display(message) }
}
