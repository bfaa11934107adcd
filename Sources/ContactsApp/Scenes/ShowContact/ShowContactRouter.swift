import SceneCore

public protocol ShowContactRoutingLogic {
    /// The form for the contact shown.
    func routeToEditContact()
    func routeToList()
    /// The contact selected, in place of this one (`back` still goes to the list).
    func routeToSelectedContact()
    /// The form for the contact selected, over its own detail.
    func routeToEditSelectedContact()
}

public protocol ShowContactDataPassing {
    var dataStore: ShowContactDataStore? { get }
}

public final class ShowContactRouter: ShowContactRoutingLogic, ShowContactDataPassing {
    public var dataStore: ShowContactDataStore?
    weak var navigator: SceneNavigating?
    let factory: ContactsSceneFactory

    init(navigator: SceneNavigating, factory: ContactsSceneFactory) {
        self.navigator = navigator; self.factory = factory
    }

    public func routeToEditContact() {
        guard let source = dataStore, source.contact != nil else { return }
        pushEditContact(over: source) { passDataToEditContact(source: source, destination: &$0) }
    }

    public func routeToSelectedContact() {
        _ = replaceWithSelectedContact()
    }

    public func routeToEditSelectedContact() {
        guard let source = dataStore, let selected = source.selectedContact else { return }
        guard let detail = selected.id == source.contact?.id ? source : replaceWithSelectedContact() else { return }
        pushEditContact(over: detail) { passDataToEditSelectedContact(source: source, destination: &$0) }
    }

    public func routeToList() {
        navigator?.pop(to: ListContactsViewController.descriptor.id)
    }

    /// The detail of the contact selected, in place of this one; its DataStore, for a form over it.
    private func replaceWithSelectedContact() -> ShowContactDataStore? {
        guard let navigator, let source = dataStore else { return nil }
        let destination = factory.makeShowContact()
        guard var destinationDS = destination.router?.dataStore else { return nil }
        passDataToShowContact(source: source, destination: &destinationDS)
        navigator.replace(with: destination)
        return destinationDS
    }

    /// The form, over the detail whose DataStore is `detail`: a save comes back to it.
    private func pushEditContact(over detail: ShowContactDataStore, passData: (inout EditContactDataStore) -> Void) {
        guard let navigator else { return }
        let destination = factory.makeEditContact()
        guard var destinationDS = destination.router?.dataStore else { return }
        passData(&destinationDS)
        destination.router?.origin = .contact(detail)
        navigator.push(destination)
    }

    func passDataToShowContact(source: ShowContactDataStore, destination: inout ShowContactDataStore) {
        destination.contact = source.selectedContact
    }

    /// The contact shown, as last read.
    func passDataToEditContact(source: ShowContactDataStore, destination: inout EditContactDataStore) {
        if let contact = source.contact { destination.mode = .edit(contact) }
    }

    /// The contact `edit CONTACT` named, as just read.
    func passDataToEditSelectedContact(source: ShowContactDataStore, destination: inout EditContactDataStore) {
        if let contact = source.selectedContact { destination.mode = .edit(contact) }
    }
}
