import SceneCore

extension ListContactsViewController: ListContactsGroupsDisplayLogic {
    /// The groups' actions, declared once for the REPL, the line session and JSON-RPC
    /// (`contacts/groups`, `contacts/group`).
    static let groupActions = [
        ActionSpec("groups", summary: "show the groups with their sizes"),
        ActionSpec("group", summary: "make, rename or delete a group, or add and remove its members", parameters: [
            ParameterSpec("action", .choice(ListContacts.ChangeGroup.Action.allCases.map(\.rawValue)),
                          help: "new, rename, delete, add or remove"),
            ParameterSpec("name", .string, help: "the group's name (quoted when it has spaces), or the start of it",
                          completion: .named("group")),
            ParameterSpec("values", .text, required: false,
                          help: "rename: the new name; add, remove: the contacts, by number (#), UID or quoted name",
                          completion: .namedWords("contact"), acceptsNumber: true),
        ], details: """
            A group is a card of its own (vCard 4.0 KIND:group, or Apple's X-ADDRESSBOOKSERVER form in a 3.0 \
            book) listing its members by UID; it syncs, imports and exports as any card. Tags stay tags. \
            Example: group new Family   ·   group add Family 3 "ann lee"   ·   group remove Family 3   ·   \
            group rename Family Kin   ·   group delete Kin
            """),
    ]

    static let groupViewModels: [any ViewModel.Type] = [
        ListContacts.ListGroups.ViewModel.self, ListContacts.ChangeGroup.ViewModel.self,
    ]

    func performGroups(_ call: ActionCall) {
        switch call.name {
        case "groups": groupsInteractor?.listGroups(request: .init())
        default:
            let text = call.string("values") ?? ""
            // Unbalanced quotes: the text as one value, which the Interactor reports as not found.
            let values = text.isEmpty ? [] : (try? CommandLineParser.splitWords(text)) ?? [text]
            groupsInteractor?.changeGroup(request: .init(
                action: call.string("action").flatMap(ListContacts.ChangeGroup.Action.init(rawValue:)) ?? .new,
                name: call.string("name") ?? "", values: values))
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
