import JSONBytes
import SceneCore

/// A protocol spoken over this server's JSON-RPC layer in place of the session's own methods
/// (MCP is one): framing, limits, batches, cancellation and JSON-RPC errors stay the server's,
/// and the handler answers each checked request and notification.
///
/// The server still reads a progress token from `params._meta.progressToken` (MCP's spelling)
/// and sends the app's progress under it while the request runs; the handler gets the params
/// untouched, `_meta` included.
public protocol RPCProtocolHandler: AnyObject {
    /// The result of a request, or an `RPCError` to send instead.
    func answer(method: String, params: JSONValue?) throws -> JSONValue
    /// A notification from the client (cancellations are matched by the server before this).
    func receive(notification method: String, params: JSONValue?)
    /// Asked before `answer`: true keeps the request open with no response now (a stream, such
    /// as MCP's `subscriptions/listen`, whose frames are the handler's notifications). The
    /// handler ends it on the client's `notifications/cancelled` (no response, as MCP says) or
    /// when the connection ends. Throws to refuse it.
    func holdsOpen(request id: JSONValue, method: String, params: JSONValue?) throws -> Bool
    /// Changes another process made to the app's data (the server's `ChangeWatch`), told in the
    /// handler's own words in place of `session/dataChanged`.
    func receive(changesElsewhere changes: [DataChange])
    /// Set once the handler's protocol has ended the connection (LSP's `exit`): the server stops
    /// reading and the process ends with this status. Nil while the connection goes on.
    var exitStatus: Int32? { get }
    /// Whether `"params": null` counts as no params (strict JSON-RPC refuses it with -32600;
    /// some LSP clients send it).
    var readsNullParamsAsAbsent: Bool { get }
}

extension RPCProtocolHandler {
    /// Every request is answered at once.
    public func holdsOpen(request id: JSONValue, method: String, params: JSONValue?) throws -> Bool { false }

    /// A protocol with no word for changes made elsewhere says nothing.
    public func receive(changesElsewhere changes: [DataChange]) {}

    /// A protocol without an `exit` of its own ends with the input.
    public var exitStatus: Int32? { nil }

    /// Strict JSON-RPC, as `--rpc`.
    public var readsNullParamsAsAbsent: Bool { false }
}
