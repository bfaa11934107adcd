import SceneCore

public protocol DuplicatesDisplayLogic: AnyObject {
    func displayDuplicates(viewModel: Duplicates.FindDuplicates.ViewModel)
    func displayMergedContacts(viewModel: Duplicates.MergeContacts.ViewModel)
    func displayMessage(_ message: Message)
}

/// The duplicates scene, shown in the list's place: the list's `duplicates` and `merge` run here
/// (`ListContactsRouter.routeToDuplicates`), so their words and methods stay the list's.
public final class DuplicatesViewController: ListContactsToolScene, DuplicatesDisplayLogic {
    /// What it displays, whose JSON Schemas introspection lists under the list's methods.
    static let viewModels: [any ViewModel.Type] = [
        Duplicates.FindDuplicates.ViewModel.self, Duplicates.MergeContacts.ViewModel.self,
    ]

    let interactor: DuplicatesBusinessLogic
    let output: DisplaySink

    public init(interactor: DuplicatesBusinessLogic, output: DisplaySink) {
        self.interactor = interactor; self.output = output
    }

    public func perform(_ action: ListContacts.Action, _ call: ActionCall) {
        switch action {
        case .duplicates: interactor.findDuplicates(request: .init())
        case .merge:
            let text = call.string("contacts") ?? ""
            // Unbalanced quotes: the text as one reference, which the Interactor reports as not found.
            interactor.mergeContacts(request: .init(references: (try? CommandLineParser.splitWords(text)) ?? [text]))
        default: break // not this scene's: the list routes only its two actions here
        }
    }

    public func displayDuplicates(viewModel: Duplicates.FindDuplicates.ViewModel) { output.display(viewModel) }
    public func displayMergedContacts(viewModel: Duplicates.MergeContacts.ViewModel) { output.display(viewModel) }
    public func displayMessage(_ message: Message) { output.display(message) }
}
