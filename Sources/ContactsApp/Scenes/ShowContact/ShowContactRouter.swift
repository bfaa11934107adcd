import SceneCore

public protocol ShowContactRoutingLogic {
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
        guard let contact = dataStore?.contact else { return }
        navigator?.push(factory.makeEditContact(mode: .edit(contact)))
    }

    public func routeToSelectedContact() {
        guard let navigator, let source = dataStore else { return }
        let destination = factory.makeShowContact()
        var destinationDS = destination.router?.dataStore
        passDataToShowContact(source: source, destination: &destinationDS)
        navigator.replace(with: destination)
    }

    public func routeToEditSelectedContact() {
        guard let navigator, let selected = dataStore?.selectedContact else { return }
        let factory = factory
        if selected.id != dataStore?.contact?.id { routeToSelectedContact() }
        navigator.push(factory.makeEditContact(mode: .edit(selected)))
    }

    func passDataToShowContact(source: ShowContactDataStore, destination: inout ShowContactDataStore?) {
        destination?.contact = source.selectedContact
    }

    public func routeToList() {
        navigator?.pop(to: ListContactsViewController.descriptor.id)
    }
}
