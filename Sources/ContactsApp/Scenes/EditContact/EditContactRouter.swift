import SceneCore

public protocol EditContactRoutingLogic {
    /// Back to where the form was opened, passing the saved contact along.
    func routeAfterSave()
    func routeAfterCancel()
}

public protocol EditContactDataPassing {
    var dataStore: EditContactDataStore? { get }
}

public final class EditContactRouter: EditContactRoutingLogic, EditContactDataPassing {
    public var dataStore: EditContactDataStore?
    weak var navigator: SceneNavigating?

    init(navigator: SceneNavigating) { self.navigator = navigator }

    public func routeAfterSave() {
        guard let navigator, let source = dataStore else { return }
        let below = navigator.scenes.dropLast().last
        if let list = below as? ListContactsViewController, var destination = list.router?.dataStore {
            passDataToList(source: source, destination: &destination)
        } else if let detail = below as? ShowContactViewController, var destination = detail.router?.dataStore {
            passDataToShowContact(source: source, destination: &destination)
        }
        navigator.pop()
    }

    public func routeAfterCancel() {
        navigator?.pop()
    }

    func passDataToList(source: EditContactDataStore, destination: inout ListContactsDataStore) {
        destination.insertedContactID = source.savedContact?.id
    }

    func passDataToShowContact(source: EditContactDataStore, destination: inout ShowContactDataStore) {
        destination.contact = source.savedContact ?? destination.contact
        destination.contactWasSaved = source.savedContact != nil
    }
}
