import Foundation
#if os(Linux) && !CONTACTSBOOK_NO_LIBCURL
import CCurlSupport

/// HTTP through libcurl's easy interface, called directly: the sync's client on Linux.
///
/// Chosen over FoundationNetworking's URLSession, which drives libcurl's multi interface on
/// libdispatch and woke about 2,000 times a second while it waited for the server, taking a core
/// the server needed (bench/FINDINGS.md). The easy interface blocks in one `poll` per wait, on the
/// thread of the sync. One handle serves the whole sync, so a server that keeps connections alive
/// gets one connection. Certificates are verified (libcurl's default, set explicitly and never
/// turned off); only http and https are spoken; redirects are followed here, not by libcurl,
/// and only within the origin the request was made for (`RedirectPolicy`).
public final class CurlTransport: DAVTransport {
    private let handle: UnsafeMutableRawPointer
    private let credentials: DAVCredentials?
    private let timeout: TimeInterval
    /// libcurl writes the detail of a failure here (CURL_ERROR_SIZE bytes).
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    /// Redirects followed before giving up (as URLSession's limit).
    static let maximumRedirects = 16

    public init(credentials: DAVCredentials?, timeout: TimeInterval = 30) {
        Self.globalInit
        self.credentials = credentials
        self.timeout = timeout
        // Only fails when out of memory, which the next allocation would report anyway.
        handle = curl_easy_init()!
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// `curl_global_init` once per process, before the first handle (it is not thread-safe
    /// with other libcurl calls; a Swift static's initializer runs once, under a lock).
    private static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    public func send(_ request: DAVRequest) throws -> DAVResponse {
        var url = request.url
        for _ in 0...Self.maximumRedirects {
            let withCredentials = RedirectPolicy.sendsCredentials(from: request.url, to: url)
            let response = try perform(request, at: url, withCredentials: withCredentials)
            guard RedirectPolicy.isRedirect(response.status), let location = response.header("Location"),
                  let next = URL(string: location, relativeTo: url)?.absoluteURL,
                  next.scheme == "http" || next.scheme == "https",
                  RedirectPolicy.sendsCredentials(from: request.url, to: next) else {
                // Another origin is not followed here: the 3xx goes back to the caller
                // (`OriginGuardTransport`), which refuses it unless the account may go there.
                return response
            }
            // A DAV request keeps its method and body on every redirect (as the URLSession
            // transport did).
            url = next
        }
        throw DAVError.network("more than \(Self.maximumRedirects) redirects from \(request.url.absoluteString)")
    }

    /// One exchange at `url`, without following a redirect.
    private func perform(_ request: DAVRequest, at url: URL, withCredentials: Bool) throws -> DAVResponse {
        // Options back to their defaults; the connection, DNS and TLS session caches stay.
        curl_easy_reset(handle)
        let received = Received()
        let context = Unmanaged.passUnretained(received).toOpaque()
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            headers = curl_slist_append(headers, "\(name): \(value)")
        }
        // libcurl asks for `100 Continue` before a body over 1 kB and waits a second for servers
        // that never send it (Radicale); an empty value turns it off.
        headers = curl_slist_append(headers, "Expect:")
        if withCredentials, let credentials {
            let token = Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
            headers = curl_slist_append(headers, "Authorization: Basic \(token)")
        }
        errorBuffer.initialize(to: 0)

        var code = setup(url: url, method: request.method, headers: headers, context: context)
        let body = request.body ?? Data()
        code = code == CURLE_OK ? body.withUnsafeBytes { bytes -> CURLcode in
            var result = CURLE_OK
            if request.body != nil {
                // POSTFIELDS with a size sends exactly these bytes (none for an empty body),
                // under the method CUSTOMREQUEST names; not copied, so set inside this closure.
                result = ccurl_setopt_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                if result == CURLE_OK { result = ccurl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count)) }
            }
            return result == CURLE_OK ? curl_easy_perform(handle) : result
        } : code
        guard code == CURLE_OK else { throw DAVError.network(describe(code)) }
        var status = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return DAVResponse(status: status, headers: received.headers, body: received.body, url: url)
    }

    private func setup(url: URL, method: String, headers: UnsafeMutablePointer<curl_slist>?,
                       context: UnsafeMutableRawPointer) -> CURLcode {
        let milliseconds = Int(timeout * 1000)
        let steps: [() -> CURLcode] = [
            { ccurl_setopt_string(self.handle, CURLOPT_URL, url.absoluteString) },
            { ccurl_setopt_string(self.handle, CURLOPT_PROTOCOLS_STR, "http,https") },
            { ccurl_setopt_long(self.handle, CURLOPT_NOSIGNAL, 1) },
            { ccurl_setopt_long(self.handle, CURLOPT_SSL_VERIFYPEER, 1) },
            { ccurl_setopt_long(self.handle, CURLOPT_SSL_VERIFYHOST, 2) },
            { ccurl_setopt_long(self.handle, CURLOPT_FOLLOWLOCATION, 0) },
            // As URLSession's request timeout: the connection within `timeout`, then no
            // `timeout` without a byte (a large answer may take longer in all).
            { ccurl_setopt_long(self.handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds) },
            { ccurl_setopt_long(self.handle, CURLOPT_LOW_SPEED_LIMIT, 1) },
            { ccurl_setopt_long(self.handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(self.timeout.rounded(.up)))) },
            { ccurl_setopt_slist(self.handle, CURLOPT_HTTPHEADER, headers) },
            { method == "GET" ? CURLE_OK : ccurl_setopt_string(self.handle, CURLOPT_CUSTOMREQUEST, method) },
            { ccurl_setopt_pointer(self.handle, CURLOPT_ERRORBUFFER, self.errorBuffer) },
            { ccurl_setopt_data_function(self.handle, CURLOPT_WRITEFUNCTION, curlTransportWrite) },
            { ccurl_setopt_pointer(self.handle, CURLOPT_WRITEDATA, context) },
            { ccurl_setopt_data_function(self.handle, CURLOPT_HEADERFUNCTION, curlTransportHeader) },
            { ccurl_setopt_pointer(self.handle, CURLOPT_HEADERDATA, context) },
        ]
        for step in steps {
            let code = step()
            if code != CURLE_OK { return code }
        }
        return CURLE_OK
    }

    /// libcurl's words for a failure, with its detail when it gave one.
    private func describe(_ code: CURLcode) -> String {
        let summary = String(cString: curl_easy_strerror(code))
        let detail = String(cString: errorBuffer)
        return detail.isEmpty || detail == summary ? summary : "\(summary) (\(detail))"
    }

    /// What one exchange received, filled by the callbacks below.
    final class Received {
        var body = Data()
        var headers: [String: String] = [:]

        /// One header line as libcurl hands it (with its CRLF); a status line starts a new
        /// response (an interim `100` or a redirect's), whose headers replace the last ones.
        func header(line: String) {
            if line.hasPrefix("HTTP/") { headers = [:]; return }
            guard let colon = line.firstIndex(of: ":") else { return }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else { return }
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
    }
}

private func curlTransportWrite(_ data: UnsafeMutablePointer<CChar>, _ size: Int, _ count: Int,
                                _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context else { return 0 }
    let received = Unmanaged<CurlTransport.Received>.fromOpaque(context).takeUnretainedValue()
    received.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: size * count)
    return size * count
}

private func curlTransportHeader(_ data: UnsafeMutablePointer<CChar>, _ size: Int, _ count: Int,
                                 _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context else { return 0 }
    let received = Unmanaged<CurlTransport.Received>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    received.header(line: String(decoding: bytes, as: UTF8.self))
    return size * count
}
#endif

/// Where a request's credentials may go when the server redirects it.
enum RedirectPolicy {
    /// 301, 302, 303, 307 and 308 send the client elsewhere (with a `Location`).
    static func isRedirect(_ status: Int) -> Bool { [301, 302, 303, 307, 308].contains(status) }

    /// Credentials go only to the origin (scheme, host, port) the request was made for: never to
    /// another host, nor over plain http after https.
    static func sendsCredentials(from original: URL, to url: URL) -> Bool {
        original.scheme?.lowercased() == url.scheme?.lowercased()
            && original.host?.lowercased() == url.host?.lowercased()
            && port(original) == port(url)
    }

    private static func port(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}

/// The HTTP client a sync uses.
public enum DAVTransports {
    /// libcurl's easy interface on Linux; URLSession on other systems and in a fully static
    /// build, which cannot link libcurl (there, a sync says which build syncs).
    public static func standard(credentials: DAVCredentials?) -> DAVTransport {
        #if os(Linux) && !CONTACTSBOOK_NO_LIBCURL
        return CurlTransport(credentials: credentials)
        #else
        return URLSessionTransport(credentials: credentials)
        #endif
    }
}
