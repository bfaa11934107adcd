import SceneCore

public protocol ListContactsToolsDisplayLogic: AnyObject {
    func displayDuplicates(viewModel: ListContacts.FindDuplicates.ViewModel)
    func displayMergedContacts(viewModel: ListContacts.MergeContacts.ViewModel)
    func displayUpcomingBirthdays(viewModel: ListContacts.UpcomingBirthdays.ViewModel)
}

extension ListContactsViewController: ListContactsToolsDisplayLogic {
    /// The tools' ViewModels, whose JSON Schemas introspection lists (`ListContactsToolsSchema.swift`).
    static let toolViewModels: [any ViewModel.Type] = [
        ListContacts.FindDuplicates.ViewModel.self, ListContacts.MergeContacts.ViewModel.self,
        ListContacts.UpcomingBirthdays.ViewModel.self,
    ]

    /// The everyday tools' actions (`contacts/duplicates`, `contacts/merge`, `contacts/birthdays`;
    /// declared in `ListContacts.Action`).
    func performTool(_ action: ListContacts.Action, _ call: ActionCall) {
        switch action {
        case .duplicates: toolsInteractor?.findDuplicates(request: .init())
        case .merge:
            let text = call.string("contacts") ?? ""
            // Unbalanced quotes: the text as one reference, which the Interactor reports as not found.
            toolsInteractor?.mergeContacts(request: .init(references: (try? CommandLineParser.splitWords(text)) ?? [text]))
        case .birthdays:
            toolsInteractor?.showUpcomingBirthdays(request: .init(
                days: call.integer("days") ?? ListContactsInteractor.defaultBirthdayDays))
        default: break // the list's own actions, which `perform` dispatches
        }
    }

    public func displayDuplicates(viewModel: ListContacts.FindDuplicates.ViewModel) { output.display(viewModel) }
    public func displayMergedContacts(viewModel: ListContacts.MergeContacts.ViewModel) { output.display(viewModel) }
    public func displayUpcomingBirthdays(viewModel: ListContacts.UpcomingBirthdays.ViewModel) { output.display(viewModel) }
}
