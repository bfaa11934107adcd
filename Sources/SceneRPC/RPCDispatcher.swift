import JSONBytes
import Logging
import SceneCore

/// Where the connection is in its life (LSP's lifecycle).
public enum RPCLifecycle: Equatable, Sendable {
    case awaitingInitialize
    case running
    /// `shutdown` was answered; only `exit` is accepted.
    case shuttingDown
    /// `exit` was received; the process should end with this status.
    case exited(status: Int32)
}

/// Answers one checked message: lifecycle, introspection, and scene and router methods run
/// through the session. Server notifications caused on the way wait in `outbox`, so the server
/// can write them before the response they belong to.
final class RPCDispatcher {
    let session: Session
    /// Made when a method is first looked up: `initialize` needs none.
    private(set) lazy var catalog = MethodCatalog(sceneKinds: session.sceneKinds)
    let info: RPCServerInfo
    private let log: RPCServer.Log
    private(set) var lifecycle = RPCLifecycle.awaitingInitialize
    private var initializeCalled = false
    /// Content-Length clients (editors) must initialize; newline-delimited ones (scripts) may skip it.
    var requiresInitialize = true
    var framing = Framing.contentLength
    private(set) var outbox: [OutgoingMessage] = []
    /// The progress token of the request being handled, if it carried one.
    private var progressToken: ProgressToken?
    /// The last stack written as JSON (see `stackJSON()`), and the model it was made from.
    var stackCacheJSON: StackJSON?
    var stackCacheModel: StackViewModel?
    /// The catalog's entry last dispatched to: a client asking the same method again (a
    /// pipeline, a poll) finds it without hashing the name (issue 32). Never a lifecycle or
    /// introspection method: those are answered before the catalog is asked.
    private var lastEntry: MethodCatalog.Entry?
    /// Called after a progress notification is queued, so the server can write it at once.
    var onProgress: (() -> Void)?
    /// Another protocol answering in place of the session's methods (see `RPCProtocolHandler`).
    var protocolHandler: RPCProtocolHandler?

    init(session: Session, info: RPCServerInfo, log: @escaping RPCServer.Log) {
        self.session = session; self.info = info; self.log = log
    }

    /// Queues a server notification (also used for data changes the app posts).
    func notify(_ method: String, _ params: JSONValue) {
        outbox.append(.notification(method, params))
    }

    func takeOutbox() -> [OutgoingMessage] { defer { outbox = [] }; return outbox }

    var hasOutbox: Bool { !outbox.isEmpty }

    /// Long work the app reports: sent only while a request that carried a token is handled.
    /// Either way the server is told (`onProgress`), so answers already computed for earlier
    /// requests of the same read go out before the long work instead of after it.
    func progress(_ event: ProgressEvent) {
        if let (method, params) = progressToken?.notification(for: event) { notify(method, params) }
        onProgress?()
    }

    /// The response to send, or nil (notifications, client responses, a request a protocol
    /// handler holds open).
    func handle(_ message: IncomingMessage, cancelled: Bool) -> OutgoingMessage? {
        switch message {
        case .invalid(let id, let error):
            return .error(id: id, error)
        case .response(let id):
            log(.notice, "ignored a response (id \(id.text)): this server sends no requests")
            return nil
        case .notification(let method, let params):
            if let protocolHandler { protocolHandler.receive(notification: method, params: params); return nil }
            receiveNotification(method, ProgressToken.extract(from: params).params)
            return nil
        case .request(let id, let method, let rawParams):
            if cancelled { return .error(id: id, .requestCancelled) }
            let (params, token) = ProgressToken.extract(from: rawParams)
            progressToken = token
            defer { progressToken = nil }
            do {
                if let protocolHandler {
                    if try protocolHandler.holdsOpen(request: id, method: method, params: rawParams) { return nil }
                    return .result(id: id, try protocolHandler.answer(method: method, params: rawParams))
                }
                switch try answer(method, params) {
                case .value(let value): return .result(id: id, value)
                case .action(let result): return .actionResult(id: id, result)
                }
            } catch let error as RPCError {
                return .error(id: id, error)
            } catch {
                return .error(id: id, RPCError(code: RPCError.internalErrorCode, message: "\(error)"))
            }
        }
    }

    /// What a request's `result` is: a value, or the result of a scene or router method.
    private enum Answer {
        case value(JSONValue)
        case action(ActionResult)
    }

    private func answer(_ method: String, _ params: JSONValue?) throws -> Answer {
        // Kept only from the `default:` below: its name is none of the names answered before it.
        if let entry = lastEntry, entry.name == method {
            try enterRunning()
            return .action(try perform(ParamsBinder.bind(params, to: entry.spec, method: method), entry.target))
        }
        if method == "initialize" { return .value(try initialize(params)) }
        try enterRunning()
        switch method {
        case "shutdown":
            lifecycle = .shuttingDown
            return .value(.null)
        case "session/describe", "rpc.discover":
            return .value(RPCDescription.document(catalog: catalog, sceneKinds: session.sceneKinds, info: info))
        default:
            guard let entry = catalog[method] else { throw RPCError.methodNotFound(method) }
            lastEntry = entry
            return .action(try perform(ParamsBinder.bind(params, to: entry.spec, method: method), entry.target))
        }
    }

    /// Checks that a request other than `initialize` may run now; the first one a client that
    /// need not initialize sends starts the session.
    private func enterRunning() throws {
        switch lifecycle {
        case .awaitingInitialize:
            if requiresInitialize { throw RPCError.serverNotInitialized }
            lifecycle = .running
        case .shuttingDown, .exited:
            throw RPCError.invalidRequest("the server is shutting down; only exit is accepted")
        case .running: break
        }
    }

    private func initialize(_ params: JSONValue?) throws -> JSONValue {
        guard !initializeCalled else { throw RPCError.invalidRequest("initialize may be sent only once") }
        initializeCalled = true
        if lifecycle == .awaitingInitialize { lifecycle = .running }
        if let client = params?["clientInfo"] { log(.info, "client: \(client.text)") }
        return [
            "serverInfo": RPCDescription.serverInfo(info),
            "protocolVersion": .string(RPCServerInfo.protocolVersion),
            "capabilities": [
                "framing": .string(framing.rawValue), "batches": true, "cancelRequest": true,
                "describe": "session/describe", "progress": true,
                "notifications": [
                    "session/stackChanged", "session/message", "session/dataChanged",
                    "$/progress", "notifications/progress",
                ],
            ],
            "scenes": RPCDescription.scenes(session.sceneKinds),
            "stack": stackJSON().value,
        ]
    }

    private func receiveNotification(_ method: String, _ params: JSONValue?) {
        switch method {
        case "exit":
            lifecycle = .exited(status: lifecycle == .shuttingDown ? 0 : 1)
        case "initialized", "$/cancelRequest", "notifications/cancelled":
            break // cancellations are matched before dispatch (RPCServer), never here
        default:
            // A method sent as a notification runs and its answer is dropped; unknown ones are ignored.
            guard let entry = catalog[method] else { return log(.notice, "ignored notification \(method)") }
            if lifecycle == .awaitingInitialize && !requiresInitialize { lifecycle = .running }
            guard lifecycle == .running else { return log(.notice, "ignored notification \(method) (\(lifecycle))") }
            do { _ = try perform(ParamsBinder.bind(params, to: entry.spec, method: method), entry.target) } catch {
                log(.warning, "notification \(method) failed: \((error as? RPCError)?.message ?? "\(error)")")
            }
        }
    }
}
