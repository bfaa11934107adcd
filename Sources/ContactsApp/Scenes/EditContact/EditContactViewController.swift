import SceneCore

/// One display per use case (`updateField` → `presentUpdatedField` → `displayUpdatedField`), and
/// `displayMessage` for a failure of any of them.
public protocol EditContactDisplayLogic: AnyObject {
    func displayUpdatedField(viewModel: EditContact.UpdateField.ViewModel)
    func displayTidiedNames(viewModel: EditContact.TidyNames.ViewModel)
    func displayNameOrder(viewModel: EditContact.SetNameOrder.ViewModel)
    func displayAddedItem(viewModel: EditContact.AddItem.ViewModel)
    func displayRemovedItem(viewModel: EditContact.RemoveItem.ViewModel)
    func displayClearedField(viewModel: EditContact.ClearField.ViewModel)
    func displayPhoto(viewModel: EditContact.SetPhoto.ViewModel)
    func displayDraft(viewModel: EditContact.ReviewDraft.ViewModel)
    func displaySavedContact(viewModel: EditContact.SaveContact.ViewModel)
    func displayCancelled(viewModel: EditContact.Cancel.ViewModel)
    func displayCancelConfirmation(viewModel: EditContact.Cancel.ConfirmationViewModel)
    func displayUnsavedChanges(viewModel: EditContact.Cancel.ConfirmationViewModel?)
    func displayMessage(_ message: Message)
}

public final class EditContactViewController: Scene, EditContactDisplayLogic {
    public static let descriptor = SceneDescriptor(
        id: "form", summary: "the add and edit form", actions: EditContact.Action.self)

    public var interactor: EditContactBusinessLogic?
    public var router: (EditContactRoutingLogic & EditContactDataPassing)?
    let output: DisplaySink

    public init(output: DisplaySink) { self.output = output }

    /// "new contact", or "edit" for a form opened on a contact (what its Router was passed).
    public var title: String {
        if case .edit? = router?.dataStore?.mode { return "edit" }
        return "new contact"
    }

    public var descriptor: SceneDescriptor { Self.descriptor }

    public func perform(_ call: ActionCall) {
        guard let action = call.action(of: EditContact.Action.self) else { return }
        let value = call.string("value") ?? ""
        switch action {
        case .field(.set(let field)): interactor?.updateField(request: .init(field: field, value: value))
        case .field(.add(let kind)):
            interactor?.addItem(request: .init(kind: kind, label: call.string("label"), value: value))
        case .remove:
            if let kind = call.string("kind").flatMap(EditContact.ItemKind.init(rawValue:)) {
                interactor?.removeItem(request: .init(kind: kind, index: call.integer("number") ?? 0))
            }
        case .clear: interactor?.clearField(request: .init(name: call.string("field") ?? ""))
        case .review: interactor?.reviewDraft(request: .init())
        case .photo: interactor?.setPhoto(request: .init(path: call.string("file") ?? ""))
        case .tidy: interactor?.tidyNames(request: .init())
        case .order:
            if let order = call.string("order").flatMap(NameOrder.init(rawValue:)) {
                interactor?.setNameOrder(request: .init(order: order))
            }
        case .save: interactor?.saveContact(request: .init())
        case .cancel: interactor?.cancel(request: .init(confirmed: call.boolean("confirm") ?? false))
        }
    }

    public func sceneDidBecomeActive(_ reason: ActivationReason) {
        interactor?.reviewDraft(request: .init())
    }

    public func completions(for source: String, prefix: String) -> [String] {
        source == "label" ? ["home", "work", "mobile", "other", "main", "school"].filter { $0.hasPrefix(prefix) } : []
    }

    public func displayUpdatedField(viewModel: EditContact.UpdateField.ViewModel) { output.display(viewModel) }
    public func displayTidiedNames(viewModel: EditContact.TidyNames.ViewModel) {
        viewModel.changes.forEach(output.display)
        viewModel.nothingTidied.map(output.display)
    }
    public func displayNameOrder(viewModel: EditContact.SetNameOrder.ViewModel) { output.display(viewModel) }
    public func displayAddedItem(viewModel: EditContact.AddItem.ViewModel) { output.display(viewModel) }
    public func displayRemovedItem(viewModel: EditContact.RemoveItem.ViewModel) { output.display(viewModel) }
    public func displayClearedField(viewModel: EditContact.ClearField.ViewModel) { output.display(viewModel) }
    public func displayPhoto(viewModel: EditContact.SetPhoto.ViewModel) { output.display(viewModel) }
    public func displayDraft(viewModel: EditContact.ReviewDraft.ViewModel) { output.display(viewModel) }
    public func displayMessage(_ message: Message) { output.display(message) }

    /// Says what was saved, then closes the form: its Router passes the outcome back.
    public func displaySavedContact(viewModel: EditContact.SaveContact.ViewModel) {
        output.display(viewModel.message)
        router?.routeAfterSave()
    }

    /// Asks before dropping changes; where nobody can be asked the form closes as before,
    /// saying how many changes were dropped.
    public func displayCancelConfirmation(viewModel: EditContact.Cancel.ConfirmationViewModel) {
        output.display(
            confirmation(viewModel, confirmed: ActionCall(EditContact.Action.cancel, ["confirm": .boolean(true)])))
    }

    /// The front end asks and waits (`confirmationBeforeQuitting`), so the answer is kept for it.
    private var quitConfirmation: ConfirmationRequest?

    public func displayUnsavedChanges(viewModel: EditContact.Cancel.ConfirmationViewModel?) {
        quitConfirmation = viewModel.map { confirmation($0, confirmed: ActionCall(GlobalAction.quit)) }
    }

    public func confirmationBeforeQuitting() -> ConfirmationRequest? {
        quitConfirmation = nil
        interactor?.reviewUnsavedChanges(request: .init())
        return quitConfirmation
    }

    private func confirmation(_ viewModel: EditContact.Cancel.ConfirmationViewModel, confirmed: ActionCall)
        -> ConfirmationRequest
    {
        ConfirmationRequest(
            question: viewModel.question, confirmed: confirmed, declined: .info(viewModel.declined),
            otherwise: .proceed, refusal: .error(viewModel.question, code: .confirmationRequired))
    }

    public func displayCancelled(viewModel: EditContact.Cancel.ViewModel) {
        output.display(viewModel.message)
        router?.routeAfterCancel()
    }
}
