/// A change to the app's data that front ends may announce to clients (JSON-RPC sends it as
/// `session/dataChanged`), so an editor showing a list can refresh it.
public struct DataChange: Equatable, Sendable, Encodable {
    /// What changed, in the app's words, e.g. `"contacts"`.
    public let topic: String
    /// How it changed, e.g. `"created"`, `"updated"`, `"deleted"`.
    public let kind: String
    /// The ids of the records that changed.
    public let ids: [String]
    /// True when another process made the change (`ChangeWatch`); false for this session's own.
    public let external: Bool

    public init(topic: String, kind: String, ids: [String], external: Bool = false) {
        self.topic = topic; self.kind = kind; self.ids = ids; self.external = external
    }
}

/// Where the app posts data changes. Workers hold this protocol (tests pass a spy); the core
/// never knows what the data is.
public protocol ChangeNotifier: AnyObject {
    func post(_ change: DataChange)
}

/// The composition root's notifier: hands each change to every observer (the JSON-RPC front).
public final class ChangeHub: ChangeNotifier {
    private var observers: [(DataChange) -> Void] = []

    public init() {}

    public func observe(_ observer: @escaping (DataChange) -> Void) { observers.append(observer) }

    public func post(_ change: DataChange) { observers.forEach { $0(change) } }
}
