import SceneCore

public protocol ShowContactDisplayLogic: AnyObject {
    func displayContact(viewModel: ShowContact.FetchContact.ViewModel)
    func displayDeletedContact(message: Message)
    func displayHistory(viewModel: HistoryViewModel)
    func displaySelectedContact(viewModel: ShowContact.SelectContact.ViewModel)
    func displayCompletions(viewModel: ListContacts.CompleteReference.ViewModel)
    func displayMessage(_ message: Message)
}

public final class ShowContactViewController: Scene, ShowContactDisplayLogic {
    public static let descriptor = SceneDescriptor(id: "contact", summary: "one contact, every field", actions: [
        ActionSpec("show", aliases: ["refresh"], summary: "show the contact again, as stored now, or another one", parameters: [
            ParameterSpec("contact", .text, required: false, help: "another contact's number (#) or name", completion: .named("contact"),
                          acceptsNumber: true),
        ], details: "Example: show   ·   show 3   ·   show ann lee"),
        ActionSpec("edit", summary: "edit this contact, or another one (opens the form)", parameters: [
            ParameterSpec("contact", .text, required: false, help: "another contact's number (#) or name", completion: .named("contact"),
                          acceptsNumber: true),
        ], details: "Example: edit   ·   edit 3"),
        ActionSpec("delete", summary: "delete this contact and go back to the list"),
        ActionSpec("history", summary: "show what changed in this contact, newest first, field by field"),
        ActionSpec("photo", summary: "save the contact's photo to a new file", parameters: [
            ParameterSpec("what", .choice(["save"]), help: "save"),
            ParameterSpec("file", .text, help: "the file to write (an existing file is not replaced)"),
        ], details: "Example: photo save ~/ann.jpg   ·   set or remove a photo in the form: edit, then photo FILE or clear photo"),
    ], displays: [ShowContact.FetchContact.ViewModel.self])

    public var interactor: ShowContactBusinessLogic?
    public var router: (ShowContactRoutingLogic & ShowContactDataPassing)?
    let output: DisplaySink
    /// The name shown in the prompt and the stack; set from what was displayed.
    public private(set) var title = "contact"

    public init(output: DisplaySink) { self.output = output }

    public var descriptor: SceneDescriptor { Self.descriptor }

    public func perform(_ call: ActionCall) {
        switch call.name {
        case "show":
            if let reference = call.string("contact") {
                interactor?.selectContact(request: .init(reference: reference))
            } else {
                interactor?.fetchContact(request: .init(reload: true))
            }
        case "edit":
            if let reference = call.string("contact") {
                interactor?.selectContact(request: .init(reference: reference, purpose: .edit))
            } else {
                // Whether its book may be written is decided first (issue 30: read-only books).
                interactor?.editContact(request: .init())
            }
        case "delete": interactor?.deleteContact(request: .init())
        case "history": interactor?.showHistory(request: .init())
        case "photo": interactor?.savePhoto(request: .init(path: call.string("file") ?? ""))
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
    public func displaySelectedContact(viewModel: ShowContact.SelectContact.ViewModel) {
        switch viewModel.purpose {
        case .show: router?.routeToSelectedContact()
        case .edit: router?.routeToEditSelectedContact()
        }
    }

    /// The front end asks and waits for the answer, so the cycle's answer is kept here for it.
    private var completionCandidates: [String] = []

    public func completions(for source: String, prefix: String) -> [String] {
        guard source == "contact" else { return [] }
        completionCandidates = []
        interactor?.completeReference(request: .init(prefix: prefix))
        return completionCandidates
    }

    public func displayCompletions(viewModel: ListContacts.CompleteReference.ViewModel) {
        completionCandidates = viewModel.candidates
    }

    public func displayMessage(_ message: Message) { output.display(message) }
}
