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
        self.init(
            Envelope(
                id: members["id"], isVersion2: members["jsonrpc"] == "2.0", method: members["method"],
                params: members["params"], hasResultOrError: members["result"] != nil || members["error"] != nil),
            nullParamsAbsent: nullParamsAbsent)
    }

    /// A message read straight from its bytes when they are one object whose keys are plain
    /// ASCII and each envelope key comes once (`JSONValue.forEachMember`): the keys compared in
    /// place, no dictionary and no `String` for them. Nil otherwise (not JSON, not an object, a
    /// key escaped or repeated): then the text is parsed whole, which says why or lets the later
    /// of two equal keys win, so both ways make the same message.
    init?(envelope bytes: [UInt8], nullParamsAbsent: Bool) {
        var envelope = Envelope()
        var seen: UInt8 = 0
        let read = JSONValue.forEachMember(in: bytes) { key, value throws(JSONValue.ParseError) in
            guard let member = EnvelopeKey(key) else {
                _ = try value.value() // another member: read, not the envelope's
                return true
            }
            let bit: UInt8 = 1 << member.rawValue
            guard seen & bit == 0 else { return false }
            seen |= bit
            switch member {
            case .id: envelope.id = try value.value()
            // The version as every client writes it is compared in place; any other text is read.
            case .jsonrpc:
                envelope.isVersion2 = value.take(#""2.0""#)
                if !envelope.isVersion2 { envelope.isVersion2 = try value.value() == "2.0" }
            case .method: envelope.method = try value.value()
            case .params: envelope.params = try value.value()
            case .result, .error:
                _ = try value.value()
                envelope.hasResultOrError = true
            }
            return true
        }
        guard read else { return nil }
        self.init(envelope, nullParamsAbsent: nullParamsAbsent)
    }

    /// The members of a message object that say what it is.
    private struct Envelope {
        var id: JSONValue?
        /// `"jsonrpc": "2.0"` is there.
        var isVersion2 = false
        var method: JSONValue?
        var params: JSONValue?
        var hasResultOrError = false
    }

    /// The keys of `Envelope`, read from a key's bytes (ASCII: byte for byte as `String`s compare).
    private enum EnvelopeKey: UInt8 {
        case id, jsonrpc, method, params, result, error

        init?(_ key: UnsafeBufferPointer<UInt8>) {
            // The key's bytes as one big-endian number (all keys here have at most 7): compared at
            // once, where a byte-by-byte comparison per name was 3 % of a pipelined request.
            guard key.count <= 7 else { return nil }
            var packed: UInt64 = 0
            for byte in key { packed = packed << 8 | UInt64(byte) }
            switch packed {
            case 0x6964 where key.count == 2: self = .id // "id"
            case 0x65_7272_6f72 where key.count == 5: self = .error // "error"
            case 0x6d65_7468_6f64 where key.count == 6: self = .method // "method"
            case 0x7061_7261_6d73 where key.count == 6: self = .params // "params"
            case 0x7265_7375_6c74 where key.count == 6: self = .result // "result"
            case 0x6a_736f_6e72_7063 where key.count == 7: self = .jsonrpc // "jsonrpc"
            default: return nil
            }
        }
    }

    private init(_ envelope: Envelope, nullParamsAbsent: Bool) {
        var id = JSONValue.null
        if let raw = envelope.id {
            switch raw {
            case .string, .integer, .double, .null: id = raw
            default:
                self = .invalid(
                    id: .null, .invalidRequest("id must be a string, a number or null, not \(raw.typeName)"))
                return
            }
        }
        guard envelope.isVersion2 else {
            self = .invalid(id: id, .invalidRequest("\"jsonrpc\" must be \"2.0\""))
            return
        }
        guard let methodValue = envelope.method else {
            if envelope.id != nil && envelope.hasResultOrError {
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
        var params = envelope.params
        if nullParamsAbsent, params == .null { params = nil }
        switch params {
        case nil, .object?, .array?: break
        case let other?:
            self = .invalid(id: id, .invalidRequest("\"params\" must be an object or an array, not \(other.typeName)"))
            return
        }
        self =
            envelope.id == nil
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
