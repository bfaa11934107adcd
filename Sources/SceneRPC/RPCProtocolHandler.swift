import JSONBytes

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
}
