import SceneCore

public protocol EditContactRoutingLogic {
    /// Back to the scene that opened the form, passing what the save did to its DataStore.
    func routeAfterSave()
    func routeAfterCancel()
}

public protocol EditContactDataPassing {
    var dataStore: EditContactDataStore? { get }
    /// Set by the Router that opens the form: where a save returns, and whose DataStore it passes to.
    var origin: EditContact.Origin? { get set }
}

public final class EditContactRouter: EditContactRoutingLogic, EditContactDataPassing {
    public var dataStore: EditContactDataStore?
    public var origin: EditContact.Origin?
    weak var navigator: SceneNavigating?

    init(navigator: SceneNavigating) { self.navigator = navigator }

    public func routeAfterSave() {
        guard let navigator, let source = dataStore else { return }
        switch origin {
        case .list(var destination)?: passDataToListContacts(source: source, destination: &destination)
        case .contact(var destination)?: passDataToShowContact(source: source, destination: &destination)
        case nil: break
        }
        navigator.pop()
    }

    public func routeAfterCancel() {
        navigator?.pop()
    }

    func passDataToListContacts(source: EditContactDataStore, destination: inout ListContactsDataStore) {
        destination.insertedContact = source.addedContact
    }

    func passDataToShowContact(source: EditContactDataStore, destination: inout ShowContactDataStore) {
        destination.contact = source.savedContact ?? destination.contact
        destination.contactWasSaved = source.savedContact != nil
    }
}
