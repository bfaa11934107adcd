import SceneCore

extension ListContactsViewController: ListContactsDirectoryDisplayLogic {
    /// The directories' actions (issue 31): `copy` a search's directory result into the book
    /// (`show corp:2` goes through `show`).
    static let directoryViewModels: [any ViewModel.Type] = [
        ListContacts.SearchDirectories.ViewModel.self, ListContacts.ShowDirectoryEntry.ViewModel.self,
    ]

    /// `search` asks the directories after the book; `show corp:2` shows a directory's result.
    /// True when the call was the directories'.
    func performDirectory(_ action: ListContacts.Action, _ call: ActionCall) -> Bool {
        switch action {
        case .copy:
            // `copy corp:2`: one directory result, into the default book; contacts go to `performBooks`.
            let text = (call.string("contacts") ?? "").trimmingSpaces
            guard let directoryInteractor, directoryInteractor.isDirectoryReference(text) else { return false }
            if let book = call.string("book") {
                displayMessage(
                    .error(
                        "a directory's result is copied into the default book, not '\(book)': copy \(text), then move it",
                        code: .badInput))
                return true
            }
            directoryInteractor.copyDirectoryEntry(request: .init(reference: text))
            return true
        case .show:
            let reference = call.string("contact") ?? ""
            guard let directoryInteractor, directoryInteractor.isDirectoryReference(reference) else { return false }
            directoryInteractor.showDirectoryEntry(request: .init(reference: reference))
            return true
        case .search:
            let text = call.string("text") ?? ""
            interactor?.fetchContacts(request: .init(search: text))
            directoryInteractor?.searchDirectories(request: .init(search: text))
            return true
        default:
            return false
        }
    }

    public func displayDirectoryResults(viewModel: ListContacts.SearchDirectories.ViewModel) {
        output.display(viewModel)
    }
    public func displayDirectoryEntry(viewModel: ListContacts.ShowDirectoryEntry.ViewModel) {
        output.display(viewModel)
    }
}
