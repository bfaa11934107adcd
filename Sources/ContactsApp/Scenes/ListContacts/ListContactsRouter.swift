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
        var destinationDS = destination.router?.dataStore
        passDataToShowContact(source: source, destination: &destinationDS)
        navigator?.push(destination)
    }

    public func routeToAddContact() {
        navigator?.push(factory.makeEditContact(mode: .add))
    }

    public func routeToEditContact() {
        guard let navigator, let source = dataStore, let contact = source.selectedContact else { return }
        // Over the contact's detail, as `show 3` then `edit` opens it: the prompt names whom the
        // form edits (`contacts › Ann Lee › edit`), and a save comes back to the contact as saved.
        let detail = factory.makeShowContact()
        var destinationDS = detail.router?.dataStore
        passDataToShowContact(source: source, destination: &destinationDS)
        navigator.push(detail)
        navigator.push(factory.makeEditContact(mode: .edit(contact)))
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

    private func show(_ scene: inout ListContactsToolScene?, _ make: () -> ListContactsToolScene,
                      _ action: ListContacts.Action, _ call: ActionCall) {
        let shown = scene ?? make()
        scene = shown
        shown.perform(action, call)
    }

    func passDataToShowContact(source: ListContactsDataStore, destination: inout ShowContactDataStore?) {
        destination?.contact = source.selectedContact
    }
}
