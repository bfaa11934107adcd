import SceneCore

public protocol ListContactsRoutingLogic {
    func routeToShowContact()
    func routeToAddContact()
    /// The form for the contact selected, over its detail over the list.
    func routeToEditContact()
    /// The tools' scenes, shown in the list's place rather than pushed: their words are the
    /// list's (`contacts/history`, …), so a script's next line is the list's as before. Each is
    /// built on first use and runs the action.
    func routeToHistory(_ action: ListContacts.Action, _ call: ActionCall)
    func routeToTrash(_ action: ListContacts.Action, _ call: ActionCall)
    func routeToDuplicates(_ action: ListContacts.Action, _ call: ActionCall)
    func routeToBirthdays(_ action: ListContacts.Action, _ call: ActionCall)
}

/// A scene the list shows in its own place (history, trash, duplicates, birthdays): it runs
/// actions of the list's and displays through the list's output.
public protocol ListContactsToolScene: AnyObject {
    func perform(_ action: ListContacts.Action, _ call: ActionCall)
}

public protocol ListContactsDataPassing {
    var dataStore: ListContactsDataStore? { get }
}

public final class ListContactsRouter: ListContactsRoutingLogic, ListContactsDataPassing {
    public var dataStore: ListContactsDataStore?
    weak var navigator: SceneNavigating?
    let factory: ContactsSceneFactory
    /// The tools' scenes once built: one VIP cycle each for the list's lifetime.
    private(set) var history: ListContactsToolScene?, trash: ListContactsToolScene?
    private(set) var duplicates: ListContactsToolScene?, birthdays: ListContactsToolScene?

    init(navigator: SceneNavigating, factory: ContactsSceneFactory) {
        self.navigator = navigator; self.factory = factory
    }

    public func routeToShowContact() {
        guard let source = dataStore else { return }
        let destination = factory.makeShowContact()
        guard var destinationDS = destination.router?.dataStore else { return }
        passDataToShowContact(source: source, destination: &destinationDS)
        navigator?.push(destination)
    }

    /// An empty form; a save comes back here with where the new contact landed.
    public func routeToAddContact() {
        guard let navigator, let source = dataStore else { return }
        let destination = factory.makeEditContact()
        guard var destinationDS = destination.router?.dataStore else { return }
        passDataToAddContact(source: source, destination: &destinationDS)
        destination.router?.origin = .list(source)
        navigator.push(destination)
    }

    public func routeToEditContact() {
        guard let navigator, let source = dataStore, source.selectedContact != nil else { return }
        // Over the contact's detail, as `show 3` then `edit` opens it: the prompt names whom the
        // form edits (`contacts › Ann Lee › edit`), and a save comes back to the contact as saved.
        let detail = factory.makeShowContact()
        guard var detailDS = detail.router?.dataStore else { return }
        passDataToShowContact(source: source, destination: &detailDS)
        let form = factory.makeEditContact()
        guard var formDS = form.router?.dataStore else { return }
        passDataToEditContact(source: source, destination: &formDS)
        form.router?.origin = .contact(detailDS)
        navigator.push(detail)
        navigator.push(form)
    }

    public func routeToHistory(_ action: ListContacts.Action, _ call: ActionCall) {
        show(&history, factory.makeHistory, action, call)
    }

    public func routeToTrash(_ action: ListContacts.Action, _ call: ActionCall) {
        show(&trash, factory.makeTrash, action, call)
    }

    public func routeToDuplicates(_ action: ListContacts.Action, _ call: ActionCall) {
        show(&duplicates, factory.makeDuplicates, action, call)
    }

    public func routeToBirthdays(_ action: ListContacts.Action, _ call: ActionCall) {
        show(&birthdays, factory.makeBirthdays, action, call)
    }

    private func show(
        _ scene: inout ListContactsToolScene?, _ make: () -> ListContactsToolScene,
        _ action: ListContacts.Action, _ call: ActionCall
    ) {
        let shown = scene ?? make()
        scene = shown
        shown.perform(action, call)
    }

    func passDataToShowContact(source: ListContactsDataStore, destination: inout ShowContactDataStore) {
        destination.contact = source.selectedContact
    }

    /// The list's order, so the save can say where the new contact lands in it.
    func passDataToAddContact(source: ListContactsDataStore, destination: inout EditContactDataStore) {
        destination.mode = .add
        destination.listOrder = source.query.sort
    }

    func passDataToEditContact(source: ListContactsDataStore, destination: inout EditContactDataStore) {
        if let contact = source.selectedContact { destination.mode = .edit(contact) }
    }
}
