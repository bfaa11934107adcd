import JSONBytes
import SceneCore

/// What a client asked to hear of, and the notices a change calls for. Two generations:
///
/// - 2025-11-25's `resources/subscribe`: a plain `notifications/resources/updated` per
///   subscribed resource that changes.
/// - 2026-07-28's `subscriptions/listen` (SEP-2575): each listen request is one stream, open
///   until the client cancels it; every frame on it carries the request's id in
///   `_meta["io.modelcontextprotocol/subscriptionId"]`.
///
/// Resources are kept by the id the app's `DataChange`s name their record by, so a change is
/// matched without asking the app again.
final class MCPSubscriptions {
    static let subscriptionIDKey = "io.modelcontextprotocol/subscriptionId"

    /// One `subscriptions/listen` stream: its request id and the resources it honours.
    struct Stream {
        let id: JSONValue
        let resources: [(uri: String, changeID: String)]
    }

    /// 2025's subscriptions: URI → change id.
    private var resources: [String: String] = [:]
    /// 2026's streams, in the order they were opened.
    private(set) var streams: [Stream] = []

    func subscribe(_ uri: String, changeID: String) { resources[uri] = changeID }

    func unsubscribe(_ uri: String) { resources[uri] = nil }

    func open(_ stream: Stream) { streams.append(stream) }

    /// Ends the stream the listen request `id` opened (nothing when there is none).
    func close(_ id: JSONValue) { streams.removeAll { $0.id == id } }

    /// The params of each `notifications/resources/updated` that `change` calls for: 2025's
    /// subscriptions by URI, then each stream's, stamped with its id. A change naming no
    /// records (a large import: "read everything again") touches every resource.
    func updates(for change: DataChange) -> [JSONValue] {
        let ids = Set(change.ids)
        func touched(_ changeID: String) -> Bool { ids.isEmpty || ids.contains(changeID) }
        var updates: [JSONValue] = resources.sorted { $0.key < $1.key }
            .filter { touched($0.value) }
            .map { ["uri": .string($0.key)] }
        for stream in streams {
            for resource in stream.resources where touched(resource.changeID) {
                updates.append(["uri": .string(resource.uri), "_meta": [Self.subscriptionIDKey: stream.id]])
            }
        }
        return updates
    }
}
