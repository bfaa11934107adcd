import SceneCore

public protocol ListContactsToolsDisplayLogic: AnyObject {
    func displayDuplicates(viewModel: ListContacts.FindDuplicates.ViewModel)
    func displayMergedContacts(viewModel: ListContacts.MergeContacts.ViewModel)
    func displayUpcomingBirthdays(viewModel: ListContacts.UpcomingBirthdays.ViewModel)
}

extension ListContactsViewController: ListContactsToolsDisplayLogic {
    /// The everyday tools' actions, declared once for the REPL, the line session and JSON-RPC
    /// (`contacts/duplicates`, `contacts/merge`, `contacts/birthdays`).
    static let toolActions = [
        ActionSpec("duplicates", summary: "show groups of contacts that are probably one person, and why", details: """
            Strongest first: the same email (any case), the same phone (compared in one international \
            form with the book's country, CONTACTSBOOK_COUNTRY), or nearly the same name with a shared \
            organisation or email domain. Merge a group with the command shown under it.
            """),
        ActionSpec("merge", summary: "merge contacts into the first", parameters: [
            ParameterSpec("contacts", .text, help: "two or more numbers (#) or quoted names; the first is kept",
                          completion: .namedWords("contact")),
        ], details: """
            Emails, phones, addresses and tags: all of them, without repeats. Other fields: the first \
            contact's unless empty; differing values are listed. The others are deleted. \
            Example: merge 3 7   ·   merge "ann lee" "anne lee"
            """),
        ActionSpec("birthdays", summary: "show birthdays from today through the next DAYS days, soonest first", parameters: [
            ParameterSpec("days", .integer(min: 0, max: 366), required: false,
                          help: "how many days ahead (default \(ListContactsInteractor.defaultBirthdayDays))"),
        ], details: "29 February birthdays fall on 28 February in other years. Example: birthdays 7"),
    ]

    /// The tools' ViewModels, whose JSON Schemas introspection lists (`ListContactsToolsSchema.swift`).
    static let toolViewModels: [any ViewModel.Type] = [
        ListContacts.FindDuplicates.ViewModel.self, ListContacts.MergeContacts.ViewModel.self,
        ListContacts.UpcomingBirthdays.ViewModel.self,
    ]

    func performTool(_ call: ActionCall) {
        switch call.name {
        case "duplicates": toolsInteractor?.findDuplicates(request: .init())
        case "merge":
            let text = call.string("contacts") ?? ""
            // Unbalanced quotes: the text as one reference, which the Interactor reports as not found.
            toolsInteractor?.mergeContacts(request: .init(references: (try? CommandLineParser.splitWords(text)) ?? [text]))
        case "birthdays":
            toolsInteractor?.showUpcomingBirthdays(request: .init(
                days: call.integer("days") ?? ListContactsInteractor.defaultBirthdayDays))
        default: break
        }
    }

    public func displayDuplicates(viewModel: ListContacts.FindDuplicates.ViewModel) { output.display(viewModel) }
    public func displayMergedContacts(viewModel: ListContacts.MergeContacts.ViewModel) { output.display(viewModel) }
    public func displayUpcomingBirthdays(viewModel: ListContacts.UpcomingBirthdays.ViewModel) { output.display(viewModel) }
}
