import SceneCore

public protocol EditContactDisplayLogic: AnyObject {
    func displayChange(viewModel: EditContact.ChangeViewModel)
    func displayDraft(viewModel: EditContact.ReviewDraft.ViewModel)
    func displaySavedContact(message: Message)
    func displayCancelled(message: Message)
    func displayCancelConfirmation(viewModel: EditContact.Cancel.ConfirmationViewModel)
    func displayUnsavedChanges(viewModel: EditContact.Cancel.ConfirmationViewModel?)
    func displayMessage(_ message: Message)
}

public final class EditContactViewController: Scene, EditContactDisplayLogic {
    /// The fields' actions come from the field table (`EditContact.fieldActions`).
    public static let descriptor = SceneDescriptor(id: "form", summary: "the add and edit form", actions: EditContact.fieldActions + [
        ActionSpec("remove", summary: "remove a phone, email, address, website or tag by its number", parameters: [
            ParameterSpec("kind", .choice(EditContact.ItemKind.allCases.map(\.rawValue)), help: "what to remove"),
            ParameterSpec("number", .integer(min: 1, max: nil), help: "its number, as 'review' shows it"),
        ], details: "Example: remove phone 2"),
        ActionSpec("clear", summary: "empty a field, or remove all phones, emails, addresses, websites or tags", parameters: [
            ParameterSpec("field", .choice(EditContact.Field.allCases.map(\.rawValue) + EditContact.ItemKind.allCases.map(\.plural) + ["photo"]),
                          help: "the field"),
        ]),
        ActionSpec("photo", summary: "set the photo from a picture file (JPEG, PNG, GIF, WebP or HEIC, at most 1 MB)", parameters: [
            ParameterSpec("file", .text, help: "the picture file"),
        ], details: "Example: photo ~/ann.jpg   ·   clear photo removes it   ·   photo save FILE on the contact saves it"),
        ActionSpec("tidy", summary: "capitalise the given and family names if typed all in lower or upper case",
                   details: "Names are kept as typed otherwise; particles stay lower case: ludwig van beethoven → Ludwig van Beethoven"),
        ActionSpec("order", summary: "write the name given name first or family name first", parameters: [
            ParameterSpec("order", .choice(NameOrder.allCases.map(\.rawValue)), help: "given-first (Ann Lee) or family-first (山田 太郎)"),
        ], details: "Example: order family-first"),
        ActionSpec("review", summary: "show the form as filled in so far"),
        ActionSpec("save", aliases: ["done"], summary: "check and save the contact, then close the form"),
        // `back` in a form cancels it out loud, so no draft is dropped without a word.
        ActionSpec("cancel", aliases: ["back"], summary: "close the form without saving (asks first if you changed something)",
                   parameters: [ParameterSpec("confirm", .boolean, required: false, help: "yes to drop the changes without asking")]),
    ])

    public var interactor: EditContactBusinessLogic?
    public var router: (EditContactRoutingLogic & EditContactDataPassing)?
    let output: DisplaySink
    public let title: String

    public init(output: DisplaySink, title: String) { self.output = output; self.title = title }

    public var descriptor: SceneDescriptor { Self.descriptor }

    public func perform(_ call: ActionCall) {
        let value = call.string("value") ?? ""
        if let field = EditContact.Field(rawValue: call.name) {
            return interactor?.updateField(request: .init(field: field, value: value)) ?? ()
        }
        if let kind = EditContact.ItemKind(rawValue: call.name) {
            return interactor?.addItem(request: .init(kind: kind, label: call.string("label"), value: value)) ?? ()
        }
        switch call.name {
        case "remove":
            if let kind = call.string("kind").flatMap(EditContact.ItemKind.init(rawValue:)) {
                interactor?.removeItem(request: .init(kind: kind, index: call.integer("number") ?? 0))
            }
        case "clear": interactor?.clearField(request: .init(name: call.string("field") ?? ""))
        case "review": interactor?.reviewDraft(request: .init())
        case "photo": interactor?.setPhoto(request: .init(path: call.string("file") ?? ""))
        case "tidy": interactor?.tidyNames(request: .init())
        case "order":
            if let order = call.string("order").flatMap(NameOrder.init(rawValue:)) { interactor?.setNameOrder(request: .init(order: order)) }
        case "save": interactor?.saveContact(request: .init())
        case "cancel": interactor?.cancel(request: .init(confirmed: call.boolean("confirm") ?? false))
        default: break
        }
    }

    public func sceneDidBecomeActive(_ reason: ActivationReason) {
        interactor?.reviewDraft(request: .init())
    }

    public func completions(for source: String, prefix: String) -> [String] {
        source == "label" ? ["home", "work", "mobile", "other", "main", "school"].filter { $0.hasPrefix(prefix) } : []
    }

    public func displayChange(viewModel: EditContact.ChangeViewModel) { output.display(viewModel) }
    public func displayDraft(viewModel: EditContact.ReviewDraft.ViewModel) { output.display(viewModel) }
    public func displayMessage(_ message: Message) { output.display(message) }

    public func displaySavedContact(message: Message) {
        output.display(message)
        router?.routeAfterSave()
    }

    /// Asks before dropping changes; where nobody can be asked the form closes as before,
    /// saying how many changes were dropped.
    public func displayCancelConfirmation(viewModel: EditContact.Cancel.ConfirmationViewModel) {
        output.display(confirmation(viewModel, confirmed: ActionCall("cancel", ["confirm": .boolean(true)])))
    }

    /// The front end asks and waits (`confirmationBeforeQuitting`), so the answer is kept for it.
    private var quitConfirmation: ConfirmationRequest?

    public func displayUnsavedChanges(viewModel: EditContact.Cancel.ConfirmationViewModel?) {
        quitConfirmation = viewModel.map { confirmation($0, confirmed: ActionCall("quit")) }
    }

    public func confirmationBeforeQuitting() -> ConfirmationRequest? {
        quitConfirmation = nil
        interactor?.reviewUnsavedChanges(request: .init())
        return quitConfirmation
    }

    private func confirmation(_ viewModel: EditContact.Cancel.ConfirmationViewModel, confirmed: ActionCall) -> ConfirmationRequest {
        ConfirmationRequest(question: viewModel.question, confirmed: confirmed, declined: .info(viewModel.declined),
                            otherwise: .proceed, refusal: .error(viewModel.question, code: .confirmationRequired))
    }

    public func displayCancelled(message: Message) {
        output.display(message)
        router?.routeAfterCancel()
    }
}
