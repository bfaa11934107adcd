import JSONBytes

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

    /// - Parameter nullParamsAbsent: `"params": null` read as no params (LSP clients such as
    ///   eglot 1.9 send it for `shutdown` and `exit`) instead of refused.
    init(_ value: JSONValue) { self.init(value, nullParamsAbsent: false) }

    init(_ value: JSONValue, nullParamsAbsent: Bool) {
        guard case .object(let members) = value else {
            self = .invalid(id: .null, .invalidRequest("a message must be a JSON object, not \(value.typeName)"))
            return
        }
        self.init(members: { members[$0] }, nullParamsAbsent: nullParamsAbsent)
    }

    /// A message from the members of its object, in order (keys unique), as
    /// `JSONValue.objectMembers` gives them: no dictionary for the few members of an envelope.
    init(members pairs: [(key: String, value: JSONValue)]) { self.init(members: pairs, nullParamsAbsent: false) }

    init(members pairs: [(key: String, value: JSONValue)], nullParamsAbsent: Bool) {
        self.init(members: { key in pairs.first(where: { $0.key == key })?.value }, nullParamsAbsent: nullParamsAbsent)
    }

    /// Reads a message object through `members`, which looks a member up by key.
    private init(members: (String) -> JSONValue?, nullParamsAbsent: Bool) {
        var id = JSONValue.null
        if let raw = members("id") {
            switch raw {
            case .string, .integer, .double, .null: id = raw
            default:
                self = .invalid(
                    id: .null, .invalidRequest("id must be a string, a number or null, not \(raw.typeName)"))
                return
            }
        }
        guard members("jsonrpc") == "2.0" else {
            self = .invalid(id: id, .invalidRequest("\"jsonrpc\" must be \"2.0\""))
            return
        }
        guard let methodValue = members("method") else {
            if members("id") != nil && (members("result") != nil || members("error") != nil) {
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
        var params = members("params")
        if nullParamsAbsent, params == .null { params = nil }
        switch params {
        case nil, .object?, .array?: break
        case let other?:
            self = .invalid(id: id, .invalidRequest("\"params\" must be an object or an array, not \(other.typeName)"))
            return
        }
        self =
            members("id") == nil
            ? .notification(method: method, params: params)
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

/// An outgoing message, kept apart from its JSON object until written: the writer puts the
/// envelope's members in sorted order itself, instead of building and sorting a dictionary for
/// every message (measured: a tenth of a small request's time).
enum OutgoingMessage: Equatable {
    case result(id: JSONValue, JSONValue)
    /// The result of a scene or router method.
    case actionResult(id: JSONValue, ActionResult)
    case error(id: JSONValue, RPCError)
    case notification(String, JSONValue)
    /// The responses to a batch, as one array.
    case batch([OutgoingMessage])

    var json: JSONValue {
        switch self {
        case .result(let id, let result): return ["jsonrpc": "2.0", "id": id, "result": result]
        case .actionResult(let id, let result): return ["jsonrpc": "2.0", "id": id, "result": result.json]
        case .error(let id, let error): return ["jsonrpc": "2.0", "id": id, "error": error.json]
        case .notification(let method, let params):
            return ["jsonrpc": "2.0", "method": .string(method), "params": params]
        case .batch(let messages): return .array(messages.map(\.json))
        }
    }

    /// Appends the compact text, the same bytes as `json.serialized()` (keys in sorted order:
    /// error < id < jsonrpc < method < params < result).
    func appendCompact(to out: inout [UInt8]) {
        switch self {
        case .result(let id, let result):
            JSONWriter.appendRaw(#"{"id":"#, to: &out)
            id.appendCompact(to: &out)
            JSONWriter.appendRaw(#","jsonrpc":"2.0","result":"#, to: &out)
            result.appendCompact(to: &out)
        case .actionResult(let id, let result):
            JSONWriter.appendRaw(#"{"id":"#, to: &out)
            id.appendCompact(to: &out)
            JSONWriter.appendRaw(#","jsonrpc":"2.0","result":"#, to: &out)
            result.appendCompact(to: &out)
        case .error(let id, let error):
            JSONWriter.appendRaw(#"{"error":"#, to: &out)
            error.json.appendCompact(to: &out)
            JSONWriter.appendRaw(#","id":"#, to: &out)
            id.appendCompact(to: &out)
            JSONWriter.appendRaw(#","jsonrpc":"2.0""#, to: &out)
        case .notification(let method, let params):
            JSONWriter.appendRaw(#"{"jsonrpc":"2.0","method":"#, to: &out)
            JSONWriter.appendString(method, to: &out)
            JSONWriter.appendRaw(#","params":"#, to: &out)
            params.appendCompact(to: &out)
        case .batch(let messages):
            out.append(UInt8(ascii: "["))
            for (index, message) in messages.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                message.appendCompact(to: &out)
            }
            out.append(UInt8(ascii: "]"))
            return
        }
        out.append(UInt8(ascii: "}"))
    }
}
