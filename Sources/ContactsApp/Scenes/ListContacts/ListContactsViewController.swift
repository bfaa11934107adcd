import SceneCore

public protocol ListContactsDisplayLogic: AnyObject {
    func displayFetchedContacts(viewModel: ListContacts.FetchContacts.ViewModel)
    func displaySelectedContact(viewModel: ListContacts.SelectContact.ViewModel)
    func displayInsertedContact(viewModel: ListContacts.ShowInsertedContact.ViewModel)
    func displayExportedContacts(viewModel: ListContacts.ExportContacts.ViewModel)
    func displayCompletions(viewModel: ListContacts.CompleteReference.ViewModel)
    func displayHistory(viewModel: HistoryViewModel)
    func displayPurgeConfirmation(viewModel: ListContacts.PurgeContacts.ConfirmationViewModel)
    func displayTrash(viewModel: TrashViewModel)
    func displayDeleteConfirmation(viewModel: ListContacts.DeleteContact.ConfirmationViewModel)
    func displayMessage(_ message: Message)
}

/// Turns the list's actions into Requests and hands what it displays to the front end.
public final class ListContactsViewController: Scene, ListContactsDisplayLogic {
    public static let descriptor = SceneDescriptor(id: "contacts", summary: "the list of contacts", actions: [
        ActionSpec("list", summary: "show all contacts (clears a search), or one page of them", parameters: [
            ParameterSpec("page", .integer(min: 1, max: nil), required: false, help: "page number, from 1"),
            ParameterSpec("limit", .integer(min: 1, max: ContactLimits.maximumPageSize), required: false, help: "contacts per page"),
            ParameterSpec("book", .string, required: false, help: "only this address book's contacts (as 'books' names them)"),
        ], details: "Example: list 2 50   ·   list 1 50 work (the book work's contacts)"),
        ActionSpec("next", summary: "show the next page"),
        ActionSpec("previous", aliases: ["prev"], summary: "show the previous page"),
        ActionSpec("page", summary: "show a page of the current listing", parameters: [
            ParameterSpec("number", .integer(min: 1, max: nil), help: "page number, from 1"),
        ]),
        ActionSpec("sort", summary: "sort by first or last name", parameters: [
            ParameterSpec("by", .choice(["first", "last"]), help: "first or last name"),
        ]),
        ActionSpec("search", aliases: ["find"], summary: "show contacts matching names, organisation, emails or phone digits",
                   parameters: [ParameterSpec("text", .text, help: "words that must all match (prefixes of words, or 3+ phone digits)")],
                   details: "Example: search lee acme   ·   search 555 12"),
        ActionSpec("show", aliases: ["open"], summary: "open a contact", parameters: [
            ParameterSpec("contact", .text, help: "the contact's number (#), its UID or a name", completion: .named("contact"),
                          acceptsNumber: true),
        ], details: "Example: show 3   ·   show ann lee"),
        ActionSpec("edit", summary: "edit a contact (opens the form)", parameters: [
            ParameterSpec("contact", .text, help: "the contact's number (#) or a name", completion: .named("contact"),
                          acceptsNumber: true),
        ], details: "Example: edit 3   ·   edit ann lee"),
        ActionSpec("add", aliases: ["new"], summary: "add a contact (opens the form)"),
        ActionSpec("delete", summary: "delete a contact", parameters: [
            ParameterSpec("contact", .text, help: "the contact's number (#), UID or full name; part of a name asks first",
                          completion: .named("contact"), acceptsNumber: true),
            ParameterSpec("confirm", .boolean, required: false, help: "yes to delete a contact named by part of its name"),
        ], details: "Example: delete 3   ·   delete ann lee   ·   delete ann yes"),
        ActionSpec("import", summary: "add or update contacts from a vCard (.vcf) or CSV file", parameters: [
            ParameterSpec("path", .string, help: "the file to read", completion: .files),
            ParameterSpec("format", .choice(ImportFormat.allCases.map(\.rawValue)), required: false,
                          help: "auto (the default: csv for a .csv file, else vcard), vcard or csv"),
        ], details: """
            vCard 2.1, 3.0 and 4.0, or CSV (our columns, or Google's or Outlook's export). A card whose UID \
            is in the book updates that contact; cards without a UID are added. Cards that cannot be read \
            are listed by line and the rest imported. Example: import ~/contacts.vcf
            """),
        ActionSpec("export", summary: "write contacts to a vCard or CSV file, or show them (-)", parameters: [
            ParameterSpec("path", .string, help: "the file to write, or - for the text itself", completion: .files),
            ParameterSpec("format", .choice(ExportFormat.allCases.map(\.rawValue)), required: false,
                          help: "vcard4 (the default; csv for a .csv file), vcard3 or csv"),
            ParameterSpec("contacts", .choice(ListContacts.ExportContacts.Scope.allCases.map(\.rawValue)), required: false,
                          help: "all (the default) or search: the contacts of the current search"),
            ParameterSpec("overwrite", .boolean, required: false, help: "yes to replace an existing file (default no)"),
        ], details: "Example: export ~/book.vcf   ·   export lee.csv csv search   ·   export - vcard3"),
        ActionSpec("undo", summary: "take back the most recent change (a save, a delete, a whole import), in any session",
                   parameters: [ParameterSpec("change", .integer(min: 1, max: nil), required: false,
                                              help: "an older change's number, as history shows it")],
                   details: "Refused, naming it, when a later change touched the same contact. Example: undo   ·   undo 12"),
        ActionSpec("redo", summary: "apply again the change undone last"),
        ActionSpec("history", summary: "show what changed, newest first: when, from where, field by field", parameters: [
            ParameterSpec("contact", .text, required: false, help: "only this contact's changes (# or a name; deleted ones too)",
                          completion: .named("contact"), acceptsNumber: true),
        ], details: "Example: history   ·   history bob stone"),
        ActionSpec("trash", summary: "show the deleted contacts"),
        ActionSpec("restore", summary: "bring a deleted contact back, whole (same UID, every field)", parameters: [
            ParameterSpec("contact", .text, help: "the deleted contact's number (#) or name, as 'trash' shows",
                          acceptsNumber: true),
        ]),
        ActionSpec("purge", summary: "erase deleted contacts for good, with their history (asks first)", parameters: [
            ParameterSpec("contact", .text, required: false,
                          help: "one deleted contact (# or name, as 'trash' shows), or none for the whole trash",
                          acceptsNumber: true),
            ParameterSpec("confirm", .boolean, required: false, help: "yes to erase without being asked"),
        ], details: "Example: purge #12 (asks)   ·   purge #12 yes   ·   purge yes (the whole trash)"),
        ActionSpec("sync", summary: "sync with the CardDAV accounts (all, or one)", parameters: [
            ParameterSpec("account", .string, required: false, help: "an account's name (default: every account)"),
        ], details: """
            Pulls what changed on each server, merges it with what changed here field by field, and pushes \
            the rest; says what moved (pulled, pushed, merged, conflicts). Accounts are added with \
            'contactsbook account add'. Example: sync   ·   sync home
            """),
    ] + toolActions + bookActions, displays: toolViewModels + bookViewModels)

    public var interactor: ListContactsBusinessLogic?
    public var toolsInteractor: ListContactsToolsBusinessLogic?
    public var booksInteractor: ListContactsBooksBusinessLogic?
    public var router: (ListContactsRoutingLogic & ListContactsDataPassing)?
    let output: DisplaySink

    public init(output: DisplaySink) { self.output = output }

    public var descriptor: SceneDescriptor { Self.descriptor }
    public var title: String { "contacts" }

    public func perform(_ call: ActionCall) {
        typealias Fetch = ListContacts.FetchContacts.Request
        switch call.name {
        case "list":
            var fetch = Fetch(page: .number(call.integer("page") ?? 1), limit: call.integer("limit"), search: "")
            fetch.book = .some(call.string("book"))
            interactor?.fetchContacts(request: fetch)
        case "next": interactor?.fetchContacts(request: Fetch(page: .next))
        case "previous": interactor?.fetchContacts(request: Fetch(page: .previous))
        case "page": interactor?.fetchContacts(request: Fetch(page: call.integer("number").map { .number($0) }))
        case "sort": interactor?.fetchContacts(request: Fetch(sort: call.string("by").flatMap(SortOrder.init(rawValue:))))
        case "search": interactor?.fetchContacts(request: Fetch(search: call.string("text") ?? ""))
        case "show": interactor?.selectContact(request: .init(reference: call.string("contact") ?? ""))
        case "edit": interactor?.selectContact(request: .init(reference: call.string("contact") ?? "", purpose: .edit))
        case "add": router?.routeToAddContact()
        case "delete":
            interactor?.deleteContact(request: .init(reference: call.string("contact") ?? "", confirmed: call.boolean("confirm") ?? false))
        case "import":
            interactor?.importContacts(request: .init(
                path: call.string("path") ?? "", format: call.string("format").flatMap(ImportFormat.init(rawValue:)) ?? .auto))
        case "export":
            interactor?.exportContacts(request: .init(
                path: call.string("path") ?? "", format: call.string("format").flatMap(ExportFormat.init(rawValue:)),
                scope: call.string("contacts").flatMap(ListContacts.ExportContacts.Scope.init(rawValue:)) ?? .all,
                overwrite: call.boolean("overwrite") ?? false))
        case "undo": interactor?.undoChange(request: .init(redo: false, changeSet: call.integer("change").map(Int64.init)))
        case "redo": interactor?.undoChange(request: .init(redo: true))
        case "history": interactor?.showHistory(request: .init(reference: call.string("contact") ?? ""))
        case "trash": interactor?.showTrash(request: .init())
        case "restore": interactor?.restoreContact(request: .init(reference: call.string("contact") ?? ""))
        case "purge":
            interactor?.purgeContacts(request: .init(reference: call.string("contact") ?? "", confirmed: call.boolean("confirm") ?? false))
        case "sync": interactor?.syncContacts(request: .init(account: call.string("account")))
        case "books", "move", "copy": performBooks(call)
        default: performTool(call)
        }
    }

    public func sceneDidBecomeActive(_ reason: ActivationReason) {
        if reason == .returned { interactor?.showInsertedContact(request: .init()) }
    }

    /// The front end asks and waits for the answer, so the cycle's answer is kept here for it.
    private var completionCandidates: [String] = []

    public func completions(for source: String, prefix: String) -> [String] {
        guard source == "contact" else { return [] }
        completionCandidates = []
        interactor?.completeReference(request: .init(prefix: prefix))
        return completionCandidates
    }

    public func displayFetchedContacts(viewModel: ListContacts.FetchContacts.ViewModel) { output.display(viewModel) }
    public func displaySelectedContact(viewModel: ListContacts.SelectContact.ViewModel) {
        switch viewModel.purpose {
        case .show: router?.routeToShowContact()
        case .edit: router?.routeToEditContact()
        }
    }
    public func displayInsertedContact(viewModel: ListContacts.ShowInsertedContact.ViewModel) { output.display(viewModel) }
    public func displayExportedContacts(viewModel: ListContacts.ExportContacts.ViewModel) { output.display(viewModel) }
    /// Asks before deleting; on yes the front end runs `delete` naming the contact by its number.
    public func displayDeleteConfirmation(viewModel: ListContacts.DeleteContact.ConfirmationViewModel) {
        output.display(ConfirmationRequest(
            question: viewModel.question,
            confirmed: ActionCall("delete", ["contact": .string(String(viewModel.id)), "confirm": .boolean(true)]),
            declined: .info(viewModel.declined), otherwise: .refuse,
            refusal: .error(viewModel.refusal, code: .confirmationRequired)))
    }

    public func displayCompletions(viewModel: ListContacts.CompleteReference.ViewModel) {
        completionCandidates = viewModel.candidates
    }
    public func displayHistory(viewModel: HistoryViewModel) { output.display(viewModel) }
    /// Asks before erasing; on yes the front end runs `purge` naming the contact by its number.
    public func displayPurgeConfirmation(viewModel: ListContacts.PurgeContacts.ConfirmationViewModel) {
        var confirmed: [String: ArgumentValue] = ["confirm": .boolean(true)]
        if let id = viewModel.id { confirmed["contact"] = .string("#\(id)") }
        output.display(ConfirmationRequest(
            question: viewModel.question, confirmed: ActionCall("purge", confirmed),
            declined: .info(viewModel.declined), otherwise: .refuse,
            refusal: .error(viewModel.refusal, code: .confirmationRequired)))
    }
    public func displayTrash(viewModel: TrashViewModel) { output.display(viewModel) }
    public func displayMessage(_ message: Message) { output.display(message) }
}
