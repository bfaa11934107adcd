import JSONBytes
import SceneCore
import SceneRPC

// Why not modelcontextprotocol/swift-sdk (0.12.1, in the local package copies): it speaks only
// 2025-11-25, so agents on 2026-07-28 (`server/discover`, version and capabilities in each
// request's `_meta`) could not use it, and it brings its own transport and JSON layer, a second
// implementation of the framing, limits and errors SceneRPC already has and tests.

/// The Model Context Protocol spoken over SceneRPC's JSON-RPC layer: tools, resources and the
/// handshakes of both protocol generations. It knows nothing of the app: the app hands it tools
/// and a resource provider, built from its own declarations.
///
/// - 2025-11-25 and earlier: `initialize`, then `notifications/initialized`; the version agreed
///   holds for the connection.
/// - 2026-07-28: no handshake; each request names its version in `_meta`
///   (`io.modelcontextprotocol/protocolVersion`), `server/discover` tells what the server
///   supports, and every result carries `resultType`.
public final class MCPServer: RPCProtocolHandler {
    public static let modernVersions = ["2026-07-28"]
    /// Newest first: an `initialize` naming another version is answered with the first.
    public static let handshakeVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    static let protocolVersionKey = "io.modelcontextprotocol/protocolVersion"
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"
    /// The MCP code for a version the server does not speak; `data.supported` lists those it does.
    public static let unsupportedProtocolVersionCode = -32022
    /// Listen streams open at once: a client that never cancels its streams cannot grow the
    /// server without bound (the official SDK's server refuses more the same way).
    public static let maximumListenStreams = 100

    public let name: String
    public let version: String
    public let instructions: String
    public let tools: [MCPTool]
    private let toolsByName: [String: MCPTool]
    private let resources: MCPResourceProvider?
    /// The version `initialize` agreed on (2025 generation), nil before.
    public private(set) var handshakeVersion: String?
    /// What the client subscribed to: 2025's resources and 2026's listen streams.
    private let subscriptions = MCPSubscriptions()
    /// Sends a server notification (the RPC server's `notify`), set by `attach(to:)`.
    private var notify: ((String, JSONValue) -> Void)?

    public init(name: String, version: String, instructions: String, tools: [MCPTool], resources: MCPResourceProvider?)
    {
        self.name = name; self.version = version; self.instructions = instructions
        self.tools = tools; self.resources = resources
        toolsByName = Dictionary(tools.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Sends `notifications/resources/updated` through `server` for subscribed resources that
    /// the app's changes touch: this session's (`changes`), and other processes' (the server's
    /// `ChangeWatch`, through `receive(changesElsewhere:)`).
    public func attach(to server: RPCServer, changes: ChangeHub?) {
        notify = { [weak server] method, params in server?.notify(method, params) }
        changes?.observe { [weak self] change in self?.changed(change) }
    }

    func changed(_ change: DataChange) {
        for update in subscriptions.updates(for: change) { notify?("notifications/resources/updated", update) }
    }

    // MARK: RPCProtocolHandler

    public func answer(method: String, params: JSONValue?) throws -> JSONValue {
        let modern = try modernVersion(params)
        let result: JSONValue
        switch method {
        case "initialize": return try initialize(params)
        case "server/discover": result = discover()
        default:
            guard modern != nil || handshakeVersion != nil else {
                throw RPCError(
                    code: RPCError.invalidRequestCode,
                    message:
                        "not initialized: send initialize first (2025-11-25), or name the version in each request's _meta.\(Self.protocolVersionKey) (2026-07-28)",
                    data: ["supported": .array((Self.modernVersions + Self.handshakeVersions).map { .string($0) })])
            }
            result = try answerInSession(method, params)
        }
        return modern == nil ? result : Self.modernResult(result, method: method, serverInfo: serverInfo)
    }

    public func receive(notification method: String, params: JSONValue?) {
        // `notifications/initialized` ends the 2025 handshake; the RPC server matches
        // cancellations of requests still running or queued; one naming a listen request ends
        // its stream, with no response (MCP: a cancelled request is not answered).
        if method == "notifications/cancelled", let id = params?["requestId"] { subscriptions.close(id) }
    }

    public func receive(changesElsewhere changes: [DataChange]) {
        changes.forEach(changed)
    }

    /// `subscriptions/listen` (2026-07-28) is held open: acknowledged at once with the resources
    /// honoured, then its frames are the updates of those resources, until the client cancels it.
    public func holdsOpen(request id: JSONValue, method: String, params: JSONValue?) throws -> Bool {
        guard method == "subscriptions/listen" else { return false }
        guard try modernVersion(params) != nil else {
            throw RPCError(
                code: RPCError.methodNotFoundCode,
                message:
                    "subscriptions/listen is 2026-07-28's; on \(handshakeVersion ?? "2025-11-25") use resources/subscribe",
                data: ["method": "subscriptions/listen"])
        }
        guard subscriptions.streams.count < Self.maximumListenStreams else {
            throw RPCError(
                code: RPCError.internalErrorCode,
                message:
                    "subscription limit reached: \(Self.maximumListenStreams) listen streams are open; cancel one first",
                data: ["limit": .integer(Self.maximumListenStreams)])
        }
        let stream = MCPSubscriptions.Stream(id: id, resources: try honouredResources(params?["notifications"]))
        subscriptions.open(stream)
        var honoured: [String: JSONValue] = [:]
        if !stream.resources.isEmpty {
            honoured["resourceSubscriptions"] = .array(stream.resources.map { .string($0.uri) })
        }
        notify?(
            "notifications/subscriptions/acknowledged",
            ["notifications": .object(honoured), "_meta": [MCPSubscriptions.subscriptionIDKey: id]])
        return true
    }

    /// The resources a listen filter asks for that this server can tell of: those that name a
    /// record (others are left out of the acknowledgement, as unsupported). The list-changed
    /// kinds are never honoured: tools never change, and the resource list is not announced.
    private func honouredResources(_ filter: JSONValue?) throws -> [(uri: String, changeID: String)] {
        guard case .object(let members)? = filter else {
            throw RPCError(
                code: RPCError.invalidParamsCode, message: "invalid params: 'notifications' is required (an object)",
                data: ["parameter": "notifications", "reason": filter == nil ? "missing" : "invalid"])
        }
        var uris: [String] = []
        switch members["resourceSubscriptions"] {
        case nil, .null?: break
        case .array(let items)? where items.allSatisfy({ if case .string = $0 { return true } else { return false } }):
            for case .string(let uri) in items where !uris.contains(uri) { uris.append(uri) }
        default:
            throw RPCError(
                code: RPCError.invalidParamsCode,
                message: "invalid params: 'notifications.resourceSubscriptions' must be an array of URI strings",
                data: ["parameter": "notifications.resourceSubscriptions", "reason": "invalid"])
        }
        guard let resources else { return [] }
        return try uris.compactMap { uri in try resources.changeID(of: uri).map { (uri, $0) } }
    }

    // MARK: Handshakes

    /// The version a 2026 request names in `_meta`, checked; nil for a 2025-generation request.
    private func modernVersion(_ params: JSONValue?) throws -> String? {
        guard let value = params?["_meta"]?[Self.protocolVersionKey] else { return nil }
        guard case .string(let version) = value, Self.modernVersions.contains(version) else {
            throw RPCError(
                code: Self.unsupportedProtocolVersionCode,
                message:
                    "unsupported protocol version \(value.text); this server speaks \((Self.modernVersions + Self.handshakeVersions).joined(separator: ", "))",
                data: [
                    "supported": .array((Self.modernVersions + Self.handshakeVersions).map { .string($0) }),
                    "requested": value,
                ])
        }
        return version
    }

    private func initialize(_ params: JSONValue?) throws -> JSONValue {
        guard handshakeVersion == nil else { throw RPCError.invalidRequest("initialize may be sent only once") }
        guard case .string(let requested)? = params?["protocolVersion"] else {
            throw RPCError(
                code: RPCError.invalidParamsCode, message: "invalid params: 'protocolVersion' is required (a string)",
                data: ["parameter": "protocolVersion", "reason": "missing"])
        }
        let agreed = Self.handshakeVersions.contains(requested) ? requested : Self.handshakeVersions[0]
        handshakeVersion = agreed
        return [
            "protocolVersion": .string(agreed), "capabilities": capabilities,
            "serverInfo": serverInfo, "instructions": .string(instructions),
        ]
    }

    private func discover() -> JSONValue {
        [
            "supportedVersions": .array((Self.modernVersions + Self.handshakeVersions).map { .string($0) }),
            "capabilities": capabilities, "instructions": .string(instructions),
        ]
    }

    private var serverInfo: JSONValue { ["name": .string(name), "version": .string(version)] }

    /// `subscribe`: 2025's `resources/subscribe`, and 2026's `subscriptions/listen` for resources.
    private var capabilities: JSONValue {
        var capabilities: [String: JSONValue] = ["tools": ["listChanged": false]]
        if resources != nil { capabilities["resources"] = ["subscribe": true, "listChanged": false] }
        return .object(capabilities)
    }

    /// A 2026 result: `resultType` always, the caching members on lists, reads and discovery,
    /// and the server's name in `_meta`.
    static func modernResult(_ result: JSONValue, method: String, serverInfo: JSONValue) -> JSONValue {
        guard case .object(var members) = result else { return result }
        members["resultType"] = "complete"
        if method.hasSuffix("/list") || method == "resources/read" || method == "server/discover" {
            members["ttlMs"] = 0
            members["cacheScope"] = "private"
        }
        members["_meta"] = [serverInfoKey: serverInfo]
        return .object(members)
    }

    // MARK: Methods

    private func answerInSession(_ method: String, _ params: JSONValue?) throws -> JSONValue {
        switch method {
        case "ping": return [:]
        case "tools/list": return ["tools": .array(tools.map(\.listing))]
        case "tools/call": return try callTool(params)
        case "resources/list":
            let provider = try resourceProvider()
            let page = try provider.list(cursor: try optionalString(params, "cursor"))
            var result: [String: JSONValue] = ["resources": .array(page.resources.map(\.json))]
            if let next = page.nextCursor { result["nextCursor"] = .string(next) }
            return .object(result)
        case "resources/templates/list":
            return ["resourceTemplates": .array(try resourceProvider().templates.map(\.json))]
        case "resources/read":
            let uri = try requiredString(params, "uri")
            guard let contents = try resourceProvider().read(uri: uri) else { throw Self.resourceNotFound(uri) }
            return ["contents": [contents.json]]
        case "resources/subscribe":
            let uri = try requiredString(params, "uri")
            guard let id = try resourceProvider().changeID(of: uri) else { throw Self.resourceNotFound(uri) }
            subscriptions.subscribe(uri, changeID: id)
            return [:]
        case "resources/unsubscribe":
            subscriptions.unsubscribe(try requiredString(params, "uri"))
            return [:]
        default:
            throw RPCError.methodNotFound(method)
        }
    }

    /// A tool's failure is a result the agent reads (`isError`); an unknown tool or a malformed
    /// call is a JSON-RPC error.
    private func callTool(_ params: JSONValue?) throws -> JSONValue {
        let name = try requiredString(params, "name")
        guard let tool = toolsByName[name] else {
            throw RPCError(
                code: RPCError.invalidParamsCode, message: "unknown tool: \(name)",
                data: ["tool": .string(name), "tools": .array(tools.map { .string($0.name) })])
        }
        let arguments = params?["arguments"] ?? [:]
        let result: MCPToolResult
        do {
            result = try tool.run(arguments)
        } catch let failure as MCPToolFailure {
            result = .failure(failure.message, details: failure.details)
        } catch {
            result = .failure("\(name) failed: \(error)")
        }
        return result.json
    }

    private func resourceProvider() throws -> MCPResourceProvider {
        guard let resources else { throw RPCError.methodNotFound("resources") }
        return resources
    }

    /// MCP's code for a resource that does not exist.
    static func resourceNotFound(_ uri: String) -> RPCError {
        RPCError(code: -32002, message: "resource not found: \(uri)", data: ["uri": .string(uri)])
    }

    private func requiredString(_ params: JSONValue?, _ key: String) throws -> String {
        guard let value = try optionalString(params, key) else {
            throw RPCError(
                code: RPCError.invalidParamsCode, message: "invalid params: '\(key)' is required (a string)",
                data: ["parameter": .string(key), "reason": "missing"])
        }
        return value
    }

    private func optionalString(_ params: JSONValue?, _ key: String) throws -> String? {
        switch params?[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?:
            throw RPCError(
                code: RPCError.invalidParamsCode,
                message: "invalid params: '\(key)' must be a string, not \(other.typeName)",
                data: ["parameter": .string(key), "reason": "invalid"])
        }
    }
}
