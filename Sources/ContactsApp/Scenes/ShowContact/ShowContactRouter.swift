import SceneCore

public protocol ShowContactRoutingLogic {
    func routeToEditContact()
    func routeToList()
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

    public func routeToList() {
        navigator?.pop(to: ListContactsViewController.descriptor.id)
    }
}
