import SceneCore

extension ListContactsViewController: ListContactsGroupsDisplayLogic {
    static let groupViewModels: [any ViewModel.Type] = [
        ListContacts.ListGroups.ViewModel.self, ListContacts.ChangeGroup.ViewModel.self,
    ]

    func performGroups(_ action: ListContacts.Action, _ call: ActionCall) {
        switch action {
        case .groups: groupsInteractor?.listGroups(request: .init())
        default:
            let text = call.string("values") ?? ""
            // Unbalanced quotes: the text as one value, which the Interactor reports as not found.
            let values = text.isEmpty ? [] : (try? CommandLineParser.splitWords(text)) ?? [text]
            groupsInteractor?.changeGroup(
                request: .init(
                    action: call.string("action").flatMap(ListContacts.ChangeGroup.Action.init(rawValue:)) ?? .new,
                    name: call.string("name") ?? "", values: values, book: call.string("book")))
        }
    }

    /// The front end waits for the names, so they are kept from the cycle's answer.
    func groupCompletions(_ prefix: String) -> [String] {
        groupNameCandidates = []
        completingGroups = true
        defer { completingGroups = false }
        groupsInteractor?.listGroups(request: .init())
        let folded = prefix.lowercased()
        return groupNameCandidates.filter { $0.lowercased().hasPrefix(folded) }
    }

    public func displayGroups(viewModel: ListContacts.ListGroups.ViewModel) {
        if completingGroups { groupNameCandidates = viewModel.groups.map(\.name); return }
        output.display(viewModel)
    }

    public func displayChangedGroup(viewModel: ListContacts.ChangeGroup.ViewModel) { output.display(viewModel) }
}
