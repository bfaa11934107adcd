import SceneCore

extension ListContactsViewController: ListContactsDirectoryDisplayLogic {
    /// The directories' actions (issue 31): `copy` a search's directory result into the book
    /// (`show corp:2` goes through `show`).
    static let directoryActions = [
        ActionSpec("copy", summary: "copy a directory's search result into the book", parameters: [
            ParameterSpec("result", .string, help: "the result as the search labelled it (corp:2)"),
        ], details: """
            Saves the directory's entry as a new contact, journalled like any other change ('undo' takes it \
            back); the contact's card keeps where it came from (SOURCE and X-CONTACTSBOOK-DIRECTORY). \
            Example: search lee, then copy corp:2
            """),
    ]

    static let directoryViewModels: [any ViewModel.Type] = [
        ListContacts.SearchDirectories.ViewModel.self, ListContacts.ShowDirectoryEntry.ViewModel.self,
    ]

    var directoryInteractor: ListContactsDirectoryBusinessLogic? { interactor as? ListContactsDirectoryBusinessLogic }

    /// `search` asks the directories after the book; `show corp:2` shows a directory's result.
    /// True when the call was the directories'.
    func performDirectory(_ call: ActionCall) -> Bool {
        switch call.name {
        case "copy":
            directoryInteractor?.copyDirectoryEntry(request: .init(reference: call.string("result") ?? ""))
            return true
        case "show":
            let reference = call.string("contact") ?? ""
            guard let directoryInteractor, directoryInteractor.isDirectoryReference(reference) else { return false }
            directoryInteractor.showDirectoryEntry(request: .init(reference: reference))
            return true
        case "search":
            let text = call.string("text") ?? ""
            interactor?.fetchContacts(request: .init(search: text))
            directoryInteractor?.searchDirectories(request: .init(search: text))
            return true
        default:
            return false
        }
    }

    public func displayDirectoryResults(viewModel: ListContacts.SearchDirectories.ViewModel) { output.display(viewModel) }
    public func displayDirectoryEntry(viewModel: ListContacts.ShowDirectoryEntry.ViewModel) { output.display(viewModel) }
}
