import Foundation

/// One HTTP request of the WebDAV/CardDAV dialogue, as data, so tests can record and answer it.
public struct DAVRequest: Equatable, Sendable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method; self.url = url; self.headers = headers; self.body = body
    }
}

/// What came back: status, headers (names lowercased) and body.
public struct DAVResponse: Equatable, Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data
    /// The URL the answer came from, after any redirect.
    public var url: URL?

    public init(status: Int, headers: [String: String] = [:], body: Data = Data(), url: URL? = nil) {
        self.status = status; self.url = url; self.body = body
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Who the requests are sent as (Basic or Digest, as the server asks), the password fetched for
/// this sync only.
public struct DAVCredentials: Equatable, Sendable {
    public var user: String
    public var password: String
    public init(user: String, password: String) { self.user = user; self.password = password }
}

/// Sends one request and waits for its answer. `CurlTransport` (Linux) and `URLSessionTransport`
/// are the real ones (`DAVTransports.standard`); tests use spies answering recorded responses.
public protocol DAVTransport: AnyObject {
    /// Throws `DAVError.network` when no answer came (refused, timed out, TLS failed).
    func send(_ request: DAVRequest) throws -> DAVResponse
    /// The same, handing the body of an answer `receiver` accepts to it as it arrives (the
    /// response then has an empty body): a large answer is never held whole. What `receiver`
    /// throws stops the transfer and is thrown here.
    func send(_ request: DAVRequest, receiving receiver: DAVBodyReceiver) throws -> DAVResponse
}

/// Takes the body of an answer as it arrives (`DAVMultistatusStream`).
public protocol DAVBodyReceiver: AnyObject {
    /// Whether the body of an answer with this status is for it (a 207); any other stays in
    /// the response, as `send(_:)` gives it.
    func accepts(status: Int) -> Bool
    /// The next bytes of the body.
    func receive(_ bytes: UnsafeRawBufferPointer) throws
}

extension DAVTransport {
    /// For transports that hold every body (URLSession, the tests' recorded servers): the body
    /// handed over once it came, a chunk at a time, as a streaming transport would.
    public func send(_ request: DAVRequest, receiving receiver: DAVBodyReceiver) throws -> DAVResponse {
        var response = try send(request)
        guard receiver.accepts(status: response.status) else { return response }
        try response.body.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count {
                let end = min(start + (1 << 16), bytes.count)
                try receiver.receive(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                start = end
            }
        }
        response.body = Data()
        return response
    }
}

/// Why a CardDAV exchange failed, in words for people.
public enum DAVError: Error, Equatable, CustomStringConvertible {
    /// No answer: connection refused, host unknown, timeout, certificate refused.
    case network(String)
    /// 401: the server refused the user name or password.
    case unauthorized(url: URL)
    /// 401 asking for an authentication we cannot do (only Basic and Digest are done): not
    /// the password's fault.
    case unsupportedAuthentication(String, url: URL)
    /// The sync token is no longer valid (403 or 409 with `valid-sync-token`).
    case invalidSyncToken
    /// 412: the resource changed on the server since its ETag was read.
    case preconditionFailed(url: URL)
    /// Any other status we cannot go on from.
    case status(Int, method: String, url: URL)
    /// The server refused one card (a PUT or DELETE answered 4xx or 5xx), with its reason in
    /// its own words (sanitised): that card fails, the sync goes on with the others.
    case refused(Int, method: String, url: URL, reason: String)
    /// The body was not the XML the request calls for.
    case malformed(String)
    /// A request or redirect to another origin than the account's (`OriginGuardTransport`):
    /// not sent, credentials and all.
    case otherOrigin(URL)
    /// An href the server listed outside the address book (`DAVCollectionScope`): not followed.
    case outsideBook(String)
    /// An answer longer than a `DAVSizeLimits` allows: stopped there. The reason names the
    /// request, the limit and the variable that sets it.
    case tooLarge(String)
    /// A time limit passed (`DAVTimeLimits`): the reason says which, and what sets it.
    case timedOut(String)
    /// The person or client that asked for the sync asked to stop it.
    case cancelled
    /// A library the sync loads on first use (libcurl, libxml2) is not installed: the reason
    /// names the package.
    case unavailable(String)

    public var description: String {
        switch self {
        case .network(let reason): return "the server did not answer: \(reason)"
        case .unauthorized(let url): return "the server refused the password (401 at \(url.absoluteString))"
        case .unsupportedAuthentication(let scheme, let url):
            return "the server asks for \(scheme) authentication at \(url.absoluteString), which contactsbook "
                + "cannot do (it does Basic and Digest)"
        case .invalidSyncToken: return "the server no longer knows the sync token"
        case .preconditionFailed(let url): return "\(url.absoluteString) changed on the server meanwhile (412)"
        case .status(let code, let method, let url): return "\(method) \(url.absoluteString) answered \(code)"
        case .refused(let code, let method, let url, let reason):
            return "\(method) \(url.absoluteString) answered \(code)" + (reason.isEmpty ? "" : ": \(reason)")
        case .malformed(let reason): return "the server's answer could not be read: \(reason)"
        case .otherOrigin(let url): return "refused to go to \(url.absoluteString), another host than the account's"
        case .outsideBook(let href): return "refused \(href), outside the address book"
        case .tooLarge(let reason): return reason
        case .timedOut(let reason): return reason
        case .unavailable(let reason): return reason
        case .cancelled: return "sync cancelled: what was pulled and pushed before is kept; sync again to go on"
        }
    }
}
