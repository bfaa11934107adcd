import JSONBytes
import SceneRPC

/// Reading a request's params, each mistake an invalid-params error (-32602) that names the
/// member and says what it must be: a client's bad request gets an answer, never a crash.
public enum LSPParams {
    public static func invalid(_ name: String, _ reason: String) -> RPCError {
        RPCError(
            code: RPCError.invalidParamsCode, message: "invalid params: '\(name)' \(reason)",
            data: ["parameter": .string(name), "reason": .string(reason)])
    }

    /// The params object, or an error when they are not one.
    public static func object(_ params: JSONValue?) throws -> [String: JSONValue] {
        guard case .object(let members)? = params else { throw invalid("params", "must be an object") }
        return members
    }

    public static func string(_ params: JSONValue?, _ key: String) throws -> String {
        guard case .string(let value)? = try object(params)[key] else { throw invalid(key, "is required (a string)") }
        return value
    }

    public static func optionalString(_ value: JSONValue?, _ name: String) throws -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw invalid(name, "must be a string")
        }
    }

    /// `textDocument.uri`.
    public static func documentURI(_ params: JSONValue?) throws -> String {
        guard case .string(let uri)? = try object(params)["textDocument"]?["uri"] else {
            throw invalid("textDocument.uri", "is required (a string)")
        }
        return uri
    }

    /// `textDocument.uri` and `position` (TextDocumentPositionParams).
    public static func documentPosition(_ params: JSONValue?) throws -> (uri: String, position: LSPPosition) {
        let uri = try documentURI(params)
        return (uri, try LSPPosition(json: try object(params)["position"], name: "position"))
    }
}
