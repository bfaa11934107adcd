import SceneCore

public protocol ListContactsRoutingLogic {
    func routeToShowContact()
    func routeToAddContact()
    /// The form for the contact selected, over its detail over the list.
    func routeToEditContact()
}

public protocol ListContactsDataPassing {
    var dataStore: ListContactsDataStore? { get }
}

public final class ListContactsRouter: ListContactsRoutingLogic, ListContactsDataPassing {
    public var dataStore: ListContactsDataStore?
    weak var navigator: SceneNavigating?
    let factory: ContactsSceneFactory

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

    func passDataToShowContact(source: ListContactsDataStore, destination: inout ShowContactDataStore?) {
        destination?.contact = source.selectedContact
    }
}
