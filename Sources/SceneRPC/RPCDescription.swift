import JSONBytes
import SceneCore

/// Who the server is, for `initialize` and `session/describe`.
public struct RPCServerInfo: Equatable, Sendable {
    public var name: String
    public var version: String

    public init(name: String, version: String) { self.name = name; self.version = version }

    /// The version of this protocol (Protocol.md, "Versioning"): the major changes only when a
    /// method, field or code is removed or changes meaning; additions raise the minor.
    public static let protocolVersion = "1.7"
}

/// The introspection document: every method and notification with JSON Schema for its params
/// and result, plus the error codes. `session/describe` returns it; `--api-info` prints it.
enum RPCDescription {
    static func document(catalog: MethodCatalog, sceneKinds: [SceneDescriptor], info: RPCServerInfo) -> JSONValue {
        let methods = lifecycleMethods + catalog.entries.map(method)
        return [
            "server": serverInfo(info), "protocolVersion": .string(RPCServerInfo.protocolVersion),
            "methods": .array(methods), "notifications": .array(notifications), "errors": errors,
            "scenes": scenes(sceneKinds), "viewModels": viewModels(sceneKinds),
        ]
    }

    /// JSON Schema for the `value` of each displayed ViewModel kind whose type describes itself.
    static func viewModels(_ kinds: [SceneDescriptor]) -> JSONValue {
        var schemas: [String: JSONValue] = [:]
        for type in kinds.flatMap(\.displays) {
            if let described = type as? JSONSchemaDescribed.Type { schemas[type.kind] = described.jsonSchema }
        }
        return .object(schemas)
    }

    static func serverInfo(_ info: RPCServerInfo) -> JSONValue {
        ["name": .string(info.name), "version": .string(info.version)]
    }

    /// The scene kinds and their method names, for `initialize` and the describe document.
    static func scenes(_ kinds: [SceneDescriptor]) -> JSONValue {
        .array(
            kinds.map { kind in
                [
                    "id": .string(kind.id), "summary": .string(kind.summary),
                    "methods": .array(kind.actions.map { .string("\(kind.id)/\($0.name)") }),
                ]
            })
    }

    private static func method(_ entry: MethodCatalog.Entry) -> JSONValue {
        var members: [String: JSONValue] = [
            "name": .string(entry.name), "summary": .string(entry.spec.summary),
            "params": RPCSchema.params(entry.spec), "result": RPCSchema.actionResult,
        ]
        if case .sceneAction(let scene) = entry.target { members["scene"] = .string(scene) }
        if !entry.spec.details.isEmpty { members["details"] = .string(entry.spec.details) }
        return .object(members)
    }

    private static func described(
        _ name: String, _ summary: String, params: JSONValue, result: JSONValue? = nil,
        direction: String? = nil
    ) -> JSONValue {
        var members: [String: JSONValue] = ["name": .string(name), "summary": .string(summary), "params": params]
        if let result { members["result"] = result }
        if let direction { members["direction"] = .string(direction) }
        return .object(members)
    }

    static let lifecycleMethods: [JSONValue] = [
        described(
            "initialize", "start the session; must come first in Content-Length framing",
            params: RPCSchema.object(["clientInfo": ["type": "object"], "capabilities": ["type": "object"]]),
            result: RPCSchema.object(
                [
                    "serverInfo": ["type": "object"], "protocolVersion": ["type": "string"],
                    "capabilities": ["type": "object"], "scenes": ["type": "array"],
                    "stack": RPCSchema.stack,
                ],
                required: ["serverInfo", "protocolVersion", "capabilities", "scenes"])),
        described(
            "shutdown", "get ready to exit; only exit is accepted afterwards",
            params: RPCSchema.object([:]), result: ["type": "null"]),
        described(
            "session/describe", "this document (also rpc.discover)",
            params: RPCSchema.object([:]), result: ["type": "object"]),
    ]

    static let notifications: [JSONValue] = [
        described("initialized", "the client has the initialize result", params: RPCSchema.any, direction: "client"),
        described(
            "exit", "end the process (status 0 after shutdown, 1 otherwise)", params: RPCSchema.any,
            direction: "client"),
        described(
            "$/cancelRequest", "cancel a request not yet handled",
            params:
                RPCSchema.object(["id": ["type": ["integer", "string"]]], required: ["id"]), direction: "client"),
        described(
            "notifications/cancelled", "MCP's spelling of $/cancelRequest",
            params:
                RPCSchema.object(
                    ["requestId": ["type": ["integer", "string"]], "reason": ["type": "string"]],
                    required: ["requestId"]), direction: "client"),
        described(
            "session/stackChanged", "the scene stack changed while a request was handled",
            params: RPCSchema.object(
                ["routes": RPCSchema.routes, "stack": RPCSchema.stack],
                required: ["routes", "stack"]), direction: "server"),
        described(
            "session/message", "a message for the user (success, error, info) was displayed",
            params: RPCSchema.object(
                [
                    "kind": ["type": "string", "enum": ["success", "error", "info"]],
                    "text": ["type": "string"], "code": ["type": "string"],
                    "details": ["type": "object"],
                ], required: ["kind", "text"]),
            direction: "server"),
        described(
            "session/dataChanged", "the app's data changed (e.g. contacts created, updated, deleted)",
            params: RPCSchema.object(
                [
                    "topic": ["type": "string"], "kind": ["type": "string"],
                    "ids": ["type": "array", "items": ["type": "string"]],
                ],
                required: ["topic", "kind", "ids"]), direction: "server"),
        described(
            "$/progress",
            "long work goes on (LSP WorkDoneProgress); only for a request whose params "
                + "carried workDoneToken",
            params: RPCSchema.object(
                [
                    "token": ["type": ["integer", "string"]],
                    "value": RPCSchema.object(
                        [
                            "kind": ["type": "string", "enum": ["begin", "report", "end"]],
                            "title": ["type": "string"], "message": ["type": "string"],
                            "percentage": ["type": "integer", "minimum": 0, "maximum": 100],
                            "cancellable": ["type": "boolean"],
                        ], required: ["kind"]),
                ],
                required: ["token", "value"]), direction: "server"),
        described(
            "notifications/progress",
            "long work goes on (MCP); only for a request whose params carried "
                + "_meta.progressToken",
            params: RPCSchema.object(
                [
                    "progressToken": ["type": ["integer", "string"]], "progress": ["type": "integer"],
                    "total": ["type": "integer"], "message": ["type": "string"],
                ],
                required: ["progressToken", "progress"]), direction: "server"),
    ]

    static let errors: JSONValue = .array(
        [
            (RPCError.parseErrorCode, "parse error", "not JSON, or not UTF-8; id is null"),
            (
                RPCError.invalidRequestCode, "invalid request",
                "not a JSON-RPC 2.0 request, oversized, or after shutdown"
            ),
            (RPCError.methodNotFoundCode, "method not found", "see session/describe"),
            (RPCError.invalidParamsCode, "invalid params", "data names the parameter and what was expected"),
            (RPCError.internalErrorCode, "internal error", "a bug; please report it"),
            (RPCError.applicationErrorCode, "application error", "an error without a specific code"),
            (RPCError.serverNotInitializedCode, "server not initialized", "send initialize first"),
            (RPCError.requestCancelledCode, "request cancelled", "cancelled before it was handled"),
        ]
        .map { code, name, meaning in ["code": .integer(code), "name": .string(name), "meaning": .string(meaning)] }
            + ErrorCode.allCases.map { code in
                ["code": .integer(code.rpcCode), "name": .string(code.rawValue), "meaning": "application error"]
            })
}
