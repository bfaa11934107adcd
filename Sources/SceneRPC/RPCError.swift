import JSONBytes
import SceneCore

/// A JSON-RPC error object: what goes in a response's `error` member.
public struct RPCError: Error, Equatable, Sendable {
    public let code: Int
    public let message: String
    public let data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code; self.message = message; self.data = data
    }

    public var json: JSONValue {
        var members: [String: JSONValue] = ["code": .integer(code), "message": .string(message)]
        if let data { members["data"] = data }
        return .object(members)
    }

    // The codes the JSON-RPC 2.0 spec defines, and the LSP ones stock clients understand.
    public static let parseErrorCode = -32700
    public static let invalidRequestCode = -32600
    public static let methodNotFoundCode = -32601
    public static let invalidParamsCode = -32602
    public static let internalErrorCode = -32603
    /// An error message without a code (the app should give one).
    public static let applicationErrorCode = -32000
    /// LSP's ServerNotInitialized.
    public static let serverNotInitializedCode = -32002
    /// LSP's RequestCancelled.
    public static let requestCancelledCode = -32800

    public static func parseError(_ reason: String) -> RPCError {
        RPCError(code: parseErrorCode, message: "parse error: \(reason)")
    }

    public static func invalidRequest(_ reason: String, data: JSONValue? = nil) -> RPCError {
        RPCError(code: invalidRequestCode, message: "invalid request: \(reason)", data: data)
    }

    public static func methodNotFound(_ method: String) -> RPCError {
        RPCError(
            code: methodNotFoundCode, message: "method not found: \(method)",
            data: ["method": .string(method), "hint": "session/describe lists every method"])
    }

    public static let serverNotInitialized = RPCError(
        code: serverNotInitializedCode, message: "server not initialized: send initialize first")

    public static let requestCancelled = RPCError(code: requestCancelledCode, message: "request cancelled")

    /// A request read while another one's long work runs: the session does one at a time.
    public static let busyCode = -32018

    public static func busy(running: JSONValue) -> RPCError {
        RPCError(
            code: busyCode,
            message:
                "busy: request \(String(decoding: running.serialized(), as: UTF8.self)) is still running; send this again "
                + "once it is answered, or cancel that one first", data: ["running": running])
    }
}

extension ErrorCode {
    /// The JSON-RPC error code of an application error (documented in Protocol.md).
    /// -32001 is left out because LSP uses it for "unknown error", -32002 for "not initialized".
    public var rpcCode: Int {
        switch self {
        case .validationFailed: return -32010
        case .notFound: return -32011
        case .conflict: return -32012
        case .sceneNotActive: return -32013
        case .invalidState: return -32014
        case .storage: return -32015
        case .badInput: return -32016
        case .confirmationRequired: return -32017
        }
    }
}
