import Foundation

/// Sends an account's requests only to the origins it may use (its book's, or during
/// `account add` the server's and those the person confirmed), whatever transport is under it.
///
/// The transports follow redirects only within one origin; a redirect to another one comes back
/// here as the 3xx it was, and is followed only to an allowed origin, or one `ask` (the person,
/// at `account add`) allows then. Anything else throws `DAVError.otherOrigin` before a byte (or
/// a password) goes there.
public final class OriginGuardTransport: DAVTransport {
    private let inner: DAVTransport
    public private(set) var allowed: Set<DAVOrigin>
    /// Asked once per other origin met; nil: never allowed.
    private let ask: ((URL) -> Bool)?

    /// Redirects between allowed origins followed before giving up.
    static let maximumRedirects = 8

    public init(_ inner: DAVTransport, allowed: Set<DAVOrigin>, ask: ((URL) -> Bool)? = nil) {
        self.inner = inner; self.allowed = allowed; self.ask = ask
    }

    /// Whether requests may go to `url`: its origin is allowed, or `ask` allows it now.
    public func allows(_ url: URL) -> Bool {
        guard let origin = DAVOrigin(url) else { return false }
        if allowed.contains(origin) { return true }
        guard let ask, ask(url) else { return false }
        allowed.insert(origin)
        return true
    }

    public func send(_ request: DAVRequest) throws -> DAVResponse { try send(request, nil) }

    public func send(_ request: DAVRequest, receiving receiver: DAVBodyReceiver) throws -> DAVResponse {
        try send(request, receiver)
    }

    private func send(_ request: DAVRequest, _ receiver: DAVBodyReceiver?) throws -> DAVResponse {
        var request = request
        for _ in 0...Self.maximumRedirects {
            guard allows(request.url) else { throw DAVError.otherOrigin(request.url) }
            let response = try receiver.map { try inner.send(request, receiving: $0) } ?? inner.send(request)
            // A transport that followed a redirect itself must have stayed on allowed ground.
            if let url = response.url, !(DAVOrigin(url).map(allowed.contains) ?? false) {
                throw DAVError.otherOrigin(url)
            }
            guard RedirectPolicy.isRedirect(response.status), let location = response.header("Location"),
                let next = URL(string: location, relativeTo: response.url ?? request.url)?.absoluteURL
            else {
                return response
            }
            request.url = next
        }
        throw DAVError.network("more than \(Self.maximumRedirects) redirects from \(request.url.absoluteString)")
    }
}
