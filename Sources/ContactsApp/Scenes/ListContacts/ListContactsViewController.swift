import SceneCore

public protocol ListContactsDisplayLogic: AnyObject {
    func displayFetchedContacts(viewModel: ListContacts.FetchContacts.ViewModel)
    func displaySelectedContact(viewModel: ListContacts.SelectContact.ViewModel)
    func displayDeletedContact(viewModel: ListContacts.DeleteContact.ViewModel)
    func displayExportedFile(viewModel: ListContacts.ExportContacts.FileViewModel)
    func displayImportedContacts(viewModel: ListContacts.ImportContacts.ViewModel)
    func displayUndoneChange(viewModel: ListContacts.UndoChange.ViewModel)
    func displayInsertedContact(viewModel: ListContacts.ShowInsertedContact.ViewModel)
    func displayExportedContacts(viewModel: ListContacts.ExportContacts.ViewModel)
    func displayCompletions(viewModel: ListContacts.CompleteReference.ViewModel)
    func displayDeleteConfirmation(viewModel: ListContacts.DeleteContact.ConfirmationViewModel)
    func displaySyncedContacts(viewModel: ListContacts.SyncContacts.ViewModel)
    func displayMessage(_ message: Message)
}

/// Turns the list's actions into Requests and hands what it displays to the front end.
public final class ListContactsViewController: Scene, ListContactsDisplayLogic {
    public static let descriptor = SceneDescriptor(
        id: "contacts", summary: "the list of contacts",
        actions: ListContacts.Action.self,
        displays: DuplicatesViewController.viewModels + BirthdaysViewController.viewModels
            + groupViewModels + directoryViewModels + bookViewModels)

    public var interactor: ListContactsBusinessLogic?
    public var groupsInteractor: ListContactsGroupsBusinessLogic?
    public var booksInteractor: ListContactsBooksBusinessLogic?
    /// Set by the configurator as its siblings are, not cast from `interactor` at each `search`:
    /// the first cast scanned every conformance in the binary (0.28M instructions of a piped `search`).
    public var directoryInteractor: ListContactsDirectoryBusinessLogic?
    public var router: (ListContactsRoutingLogic & ListContactsDataPassing)?
    let output: DisplaySink

    public init(output: DisplaySink) { self.output = output }

    public var descriptor: SceneDescriptor { Self.descriptor }
    public var title: String { "contacts" }

    public func perform(_ call: ActionCall) {
        typealias Fetch = ListContacts.FetchContacts.Request
        guard let action = call.action(of: ListContacts.Action.self) else { return }
        if performDirectory(action, call) { return }
        switch action {
        case .list:
            var fetch = Fetch(
                page: .number(call.integer("page") ?? 1), limit: call.integer("limit"), search: "",
                filter: .init(group: call.string("group"), ungrouped: call.boolean("ungrouped") ?? false))
            fetch.book = .some(call.string("book"))
            interactor?.fetchContacts(request: fetch)
        case .next: interactor?.fetchContacts(request: Fetch(page: .next))
        case .previous: interactor?.fetchContacts(request: Fetch(page: .previous))
        case .page: interactor?.fetchContacts(request: Fetch(page: call.integer("number").map { .number($0) }))
        case .sort:
            interactor?.fetchContacts(request: Fetch(sort: call.string("by").flatMap(SortOrder.init(rawValue:))))
        case .search: interactor?.fetchContacts(request: Fetch(search: call.string("text") ?? ""))
        case .show: interactor?.selectContact(request: .init(reference: call.string("contact") ?? ""))
        case .edit: interactor?.selectContact(request: .init(reference: call.string("contact") ?? "", purpose: .edit))
        case .add: router?.routeToAddContact()
        case .delete:
            interactor?.deleteContact(
                request: .init(reference: call.string("contact") ?? "", confirmed: call.boolean("confirm") ?? false))
        case .import:
            interactor?.importContacts(
                request: .init(
                    path: call.string("path") ?? "",
                    format: call.string("format").flatMap(ImportFormat.init(rawValue:)) ?? .auto))
        case .export:
            interactor?.exportContacts(
                request: .init(
                    path: call.string("path") ?? "",
                    format: call.string("format").flatMap(ExportFormat.init(rawValue:)),
                    scope: call.string("contacts").flatMap(ListContacts.ExportContacts.Scope.init(rawValue:)) ?? .all,
                    overwrite: call.boolean("overwrite") ?? false))
        case .undo:
            interactor?.undoChange(request: .init(redo: false, changeSet: call.integer("change").map(Int64.init)))
        case .redo: interactor?.undoChange(request: .init(redo: true))
        case .sync: interactor?.syncContacts(request: .init(account: call.string("account")))
        // The tools are scenes of their own, shown in the list's place: nothing to decide here.
        case .history: router?.routeToHistory(action, call)
        case .trash, .restore, .purge: router?.routeToTrash(action, call)
        case .duplicates, .merge: router?.routeToDuplicates(action, call)
        case .birthdays: router?.routeToBirthdays(action, call)
        case .groups, .group: performGroups(action, call)
        case .books, .move, .copy: performBooks(action, call) // a directory's result: `performDirectory`
        }
    }

    public func sceneDidBecomeActive(_ reason: ActivationReason) {
        if reason == .returned { interactor?.showInsertedContact(request: .init()) }
    }

    private let contactNames = ContactNameCompletion()
    /// The same for group names (`ListContactsViewController+Groups.swift`); while asking,
    /// what the cycle displays is kept, not shown.
    var groupNameCandidates: [String] = []
    var completingGroups = false

    public func completions(for source: String, prefix: String) -> [String] {
        if source == "group" { return groupCompletions(prefix) }
        return contactNames.candidates(for: source, prefix: prefix) {
            interactor?.completeReference(request: .init(prefix: $0))
        }
    }

    public func displayFetchedContacts(viewModel: ListContacts.FetchContacts.ViewModel) { output.display(viewModel) }
    public func displaySelectedContact(viewModel: ListContacts.SelectContact.ViewModel) {
        switch viewModel.purpose {
        case .show: router?.routeToShowContact()
        case .edit: router?.routeToEditContact()
        }
    }
    public func displayDeletedContact(viewModel: ListContacts.DeleteContact.ViewModel) {
        output.display(viewModel.message)
    }
    public func displayExportedFile(viewModel: ListContacts.ExportContacts.FileViewModel) {
        output.display(viewModel.message)
    }
    public func displayImportedContacts(viewModel: ListContacts.ImportContacts.ViewModel) {
        output.display(viewModel.message)
    }
    public func displayUndoneChange(viewModel: ListContacts.UndoChange.ViewModel) { output.display(viewModel.message) }
    public func displayInsertedContact(viewModel: ListContacts.ShowInsertedContact.ViewModel) {
        output.display(viewModel)
    }
    public func displayExportedContacts(viewModel: ListContacts.ExportContacts.ViewModel) { output.display(viewModel) }
    /// Asks before deleting; on yes the front end runs `delete` naming the contact by its number.
    public func displayDeleteConfirmation(viewModel: ListContacts.DeleteContact.ConfirmationViewModel) {
        output.display(
            ConfirmationRequest(
                question: viewModel.question,
                confirmed: ActionCall(
                    ListContacts.Action.delete, ["contact": .string(String(viewModel.id)), "confirm": .boolean(true)]),
                declined: .info(viewModel.declined), otherwise: .refuse,
                refusal: .error(viewModel.refusal, code: .confirmationRequired)))
    }

    public func displayCompletions(viewModel: ListContacts.CompleteReference.ViewModel) {
        contactNames.answer(viewModel.candidates)
    }
    /// The last sync's ViewModel, kept for a front end that shows it its own way and reads it after
    /// the action (`contactsbook sync`: a line per account on stdout, errors on stderr); sessions
    /// are sent its message.
    public private(set) var syncedContacts: ListContacts.SyncContacts.ViewModel?

    public func displaySyncedContacts(viewModel: ListContacts.SyncContacts.ViewModel) {
        syncedContacts = viewModel
        output.display(viewModel.message)
    }
    public func displayMessage(_ message: Message) {
        if completingGroups { return } // completion never interrupts typing with an error
        output.display(message)
    }
}
