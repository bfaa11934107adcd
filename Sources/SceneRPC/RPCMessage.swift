/// One incoming JSON-RPC message, checked against the 2.0 spec.
enum IncomingMessage: Equatable {
    /// Has an id: must be answered.
    case request(id: JSONValue, method: String, params: JSONValue?)
    /// No id member: never answered.
    case notification(method: String, params: JSONValue?)
    /// A response from the client. The server sends no requests, so these are logged and dropped.
    case response(id: JSONValue)
    /// Not a valid request; answered with this error and the id when it could be recovered.
    case invalid(id: JSONValue, RPCError)

    init(_ value: JSONValue) {
        guard case .object(let members) = value else {
            self = .invalid(id: .null, .invalidRequest("a message must be a JSON object, not \(value.typeName)"))
            return
        }
        var id = JSONValue.null
        if let raw = members["id"] {
            switch raw {
            case .string, .integer, .double, .null: id = raw
            default:
                self = .invalid(id: .null, .invalidRequest("id must be a string, a number or null, not \(raw.typeName)"))
                return
            }
        }
        guard members["jsonrpc"] == "2.0" else {
            self = .invalid(id: id, .invalidRequest("\"jsonrpc\" must be \"2.0\""))
            return
        }
        guard let methodValue = members["method"] else {
            if members["id"] != nil && (members["result"] != nil || members["error"] != nil) {
                self = .response(id: id)
            } else {
                self = .invalid(id: id, .invalidRequest("\"method\" is missing"))
            }
            return
        }
        guard case .string(let method) = methodValue else {
            self = .invalid(id: id, .invalidRequest("\"method\" must be a string, not \(methodValue.typeName)"))
            return
        }
        let params = members["params"]
        switch params {
        case nil, .object?, .array?: break
        case let other?:
            self = .invalid(id: id, .invalidRequest("\"params\" must be an object or an array, not \(other.typeName)"))
            return
        }
        self = members["id"] == nil ? .notification(method: method, params: params)
                                    : .request(id: id, method: method, params: params)
    }

    /// The id a `$/cancelRequest` (LSP) or `notifications/cancelled` (MCP) notification names.
    var cancelledID: JSONValue? {
        guard case .notification(let method, let params) = self else { return nil }
        switch method {
        case "$/cancelRequest": return params?["id"]
        case "notifications/cancelled": return params?["requestId"]
        default: return nil
        }
    }
}

/// Builds outgoing messages.
enum OutgoingMessage {
    static func result(id: JSONValue, _ result: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": id, "result": result]
    }

    static func error(id: JSONValue, _ error: RPCError) -> JSONValue {
        ["jsonrpc": "2.0", "id": id, "error": error.json]
    }

    static func notification(_ method: String, _ params: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "method": .string(method), "params": params]
    }
}
