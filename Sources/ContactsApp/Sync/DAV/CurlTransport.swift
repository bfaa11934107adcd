import Foundation
import SceneCore

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
    /// and only within the origin the request was made for (`RedirectPolicy`), so credentials go only
    /// to that origin.
    ///
    /// Authentication is Basic or Digest (RFC 7617, 7616: MD5 or SHA-256, `qop=auth`), whichever the
    /// server's first 401 asks for: libcurl learns it and, as the handle is not reset between
    /// requests to that origin, answers every later request with it at once (Digest with the
    /// server's nonce and the next nonce count), so only a transport's first request goes without
    /// credentials. A password never goes as Basic to a server that asked for Digest.
    public final class CurlTransport: DAVTransport {
        private let handle: UnsafeMutableRawPointer
        private let credentials: DAVCredentials?
        /// The origin whose authentication the handle holds (its scheme and Digest nonce); a request
        /// elsewhere resets the handle first, so nothing learnt there is sent anywhere else.
        private var authenticatedOrigin: String?
        private let limits: DAVTimeLimits
        /// The limit of each request of this transport (one sync, one discovery), within the sync's.
        private let clock: DAVRequestClock
        /// Asked before each request and while one runs (curl's progress callback, at least once a
        /// second): true stops the sync at once (`DAVError.cancelled`).
        private let isCancelled: () -> Bool
        /// libcurl writes the detail of a failure here (CURL_ERROR_SIZE bytes).
        private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

        /// Redirects followed before giving up (as URLSession's limit).
        static let maximumRedirects = 16

        /// What a body held here may weigh (`card`); a streamed one, its receiver checks.
        public var sizeLimits = DAVSizeLimits.configured()
        /// Takes the bodies it accepts as they arrive, while `send(_:receiving:)` runs.
        private var receiver: DAVBodyReceiver?
        /// The exchange under way: what stopped its body, if anything did.
        private var current: Received?
        /// Where a streamed answer is kept between the network and its receiver (`DAVBodySpool`).
        public var spoolDirectory = DAVBodySpool.defaultDirectory()
        /// Shown each spool as it is made (the tests look at its file).
        var onSpool: ((DAVBodySpool) -> Void)?

        public init(
            credentials: DAVCredentials?, limits: DAVTimeLimits = .configured(),
            isCancelled: @escaping () -> Bool = { false }
        ) {
            Self.globalInit
            self.credentials = credentials
            self.limits = limits
            self.isCancelled = isCancelled
            clock = DAVRequestClock(limits: limits, isCancelled: isCancelled)
            // Only fails when out of memory, which the next allocation would report anyway.
            handle = curl_easy_init()!
        }

        deinit {
            curl_easy_cleanup(handle)
            errorBuffer.deallocate()
        }

        /// `curl_global_init` once per process, before the first handle (it is not thread-safe
        /// with other libcurl calls; a Swift static's initializer runs once, under a lock).
        /// The first use loads libcurl and libxml2 (lazycurl.c); `DAVTransports.preload` may begin it.
        static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

        /// Seconds on the monotonic clock (a changed wall clock moves no deadline).
        private static func uptime() -> TimeInterval { ProcessInfo.processInfo.systemUptime }

        /// The low-speed floor's window: when it began and the bytes moved by then. It opens at the
        /// answer's status line, not at the request: a server may think before it answers (Radicale
        /// took over 30 s to start the listing of 20,000 cards on a loaded host, and 35 s to start
        /// that of 50,000, bench/FINDINGS.md); once it answers, it may not trickle nor stall.
        private var window: (time: TimeInterval, bytes: Int64)?
        /// The floor stopped the transfer (not a cancellation).
        private var tooSlow = false

        /// Asked by the progress callback while a transfer runs (at least once a second), with the
        /// bytes moved so far: a cancellation, the receiver of a spooled answer stopped, or an
        /// answer slower than the floor over its window.
        fileprivate func shouldStop(moved bytes: Int64) -> Bool {
            // A spooled answer's reader looks for a cancellation on the sync's thread (the front
            // end's check may read its input, which is that thread's) and abandons the spool.
            if let spool = current?.spool {
                if spool.isAbandoned { return true }
            } else if isCancelled() {
                return true
            }
            // Not before a status line, nor after a 401 libcurl answers with credentials (the server
            // thinks again before the second answer) or an interim 100.
            guard let exchange = current, ![0, 100, 401].contains(exchange.status) else { window = nil; return false }
            let now = Self.uptime()
            // A new round (Digest's second request) counts from zero again.
            guard let start = window, bytes >= start.bytes else { window = (now, bytes); return false }
            guard now - start.time >= limits.lowSpeedTime else { return false }
            if Double(bytes - start.bytes) < Double(limits.lowSpeedBytes) * (now - start.time) {
                tooSlow = true
                return true
            }
            window = (now, bytes)
            return false
        }

        public func send(_ request: DAVRequest, receiving receiver: DAVBodyReceiver) throws -> DAVResponse {
            self.receiver = receiver
            defer { self.receiver = nil }
            return try send(request)
        }

        public func send(_ request: DAVRequest) throws -> DAVResponse {
            var url = request.url
            for _ in 0...Self.maximumRedirects {
                let withCredentials = RedirectPolicy.sendsCredentials(from: request.url, to: url)
                let response = try receivingBody(request.method, url) {
                    try perform(request, at: url, withCredentials: withCredentials)
                }
                if response.status == 401, withCredentials, credentials != nil,
                    let unsupported = AuthChallenge.unsupported(response.header("WWW-Authenticate"))
                {
                    // Not the password's fault: say what the server asked for.
                    throw DAVError.unsupportedAuthentication(unsupported, url: url)
                }
                guard RedirectPolicy.isRedirect(response.status), let location = response.header("Location"),
                    let next = URL(string: location, relativeTo: url)?.absoluteURL,
                    next.scheme == "http" || next.scheme == "https",
                    RedirectPolicy.sendsCredentials(from: request.url, to: next)
                else {
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
            // The request gets its own limit, or what is left of the sync's if that is less.
            let budget = try clock.next()
            let started = Self.uptime()
            // A streamed answer (a listing, a multiget: a first download's is every card in one)
            // grows with the book, and a server may build it whole before its first byte (Radicale:
            // 35 s for 50,000 cards, over 120 s on a loaded host): no limit of its own, only the
            // sync's, with the low-speed floor from its first line on (a stall of
            // CONTACTSBOOK_LOW_SPEED_TIME stops it) and TCP keepalive for a peer that is gone.
            let streamed = receiver != nil
            let timeout = streamed ? clock.left() : budget.timeout
            let byDeadline = streamed || budget.byDeadline
            // Options back to their defaults (the connection, DNS and TLS session caches stay), unless
            // the handle holds this origin's authentication: reset forgets Digest's nonce, and each
            // request would go twice. Every option a request needs is set below either way.
            let origin = RedirectPolicy.origin(url)
            if !withCredentials || credentials == nil || authenticatedOrigin != origin {
                curl_easy_reset(handle)
                authenticatedOrigin = nil
            }
            let received = Received(receiver: receiver, limit: sizeLimits.card)
            if receiver != nil {
                // One more byte than the answer's limit, so that the receiver names the limit.
                let spool = try DAVBodySpool(
                    directory: spoolDirectory,
                    limit: sizeLimits.answer == .max ? .max : sizeLimits.answer + 1)
                received.spool = spool
                onSpool?(spool)
            }
            defer { received.spool?.close() }
            current = received
            window = nil
            tooSlow = false
            let context = Unmanaged.passUnretained(received).toOpaque()
            var headers: UnsafeMutablePointer<curl_slist>?
            defer { curl_slist_free_all(headers) }
            for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
                headers = curl_slist_append(headers, "\(name): \(value)")
            }
            // libcurl asks for `100 Continue` before a body over 1 kB and waits a second for servers
            // that never send it (Radicale); an empty value turns it off.
            headers = curl_slist_append(headers, "Expect:")
            errorBuffer.initialize(to: 0)

            var code = setup(
                url: url, method: request.method, headers: headers, context: context, timeout: timeout)
            if code == CURLE_OK, withCredentials, let credentials {
                code = authenticate(credentials)
                if code == CURLE_OK { authenticatedOrigin = origin }
            }
            let body = request.body ?? Data()
            code =
                code == CURLE_OK
                ? body.withUnsafeBytes { bytes -> CURLcode in
                    var result = CURLE_OK
                    if request.body != nil {
                        // POSTFIELDS with a size sends exactly these bytes (none for an empty body),
                        // under the method CUSTOMREQUEST names; not copied, so set inside this closure.
                        result = ccurl_setopt_pointer(
                            handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                        if result == CURLE_OK {
                            result = ccurl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
                        }
                    }
                    return result == CURLE_OK ? transfer(received) : result
                } : code
            // What stopped the body (its receiver, a limit) says why, not libcurl's "write error".
            if let failure = received.failure { throw failure }
            if received.spool?.overflowed == true {
                throw DAVError.tooLarge(
                    "the answer to \(request.method) \(url.absoluteString) passed "
                        + "\(DAVSizeLimits.words(sizeLimits.answer)), the limit for one answer "
                        + "(\(DAVSizeLimits.Variable.answer) sets it); stopped there, nothing of it was kept")
            }
            guard code == CURLE_OK else {
                throw stopped(
                    code, request.method, url, timeout: timeout, byDeadline: byDeadline,
                    elapsed: Self.uptime() - started)
            }
            var status = 0
            _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            return DAVResponse(status: status, headers: received.headers, body: received.body, url: url)
        }

        /// `curl_easy_perform`; for a streamed answer, on a thread of its own writing the body into
        /// its spool as it comes, while this thread hands the spool's bytes to the receiver at the
        /// receiver's pace. Both are done when this returns.
        private func transfer(_ received: Received) -> CURLcode {
            guard let spool = received.spool, let receiver = received.receiver else { return curl_easy_perform(handle) }
            let outcome = TransferOutcome(handle)
            let thread = Thread {
                let code = curl_easy_perform(outcome.handle)
                outcome.code = code
                spool.finish(code == CURLE_OK ? .complete : .failed)
                outcome.done.signal()
            }
            thread.start()
            do {
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.spoolChunk, alignment: 16)
                defer { buffer.deallocate() }
                // A cancellation is looked for here, on the sync's thread, every tenth of a second
                // while the answer comes or is waited for.
                var looked = Self.uptime()
                reading: while true {
                    switch spool.next(into: buffer, waitingAtMost: Self.cancellationTick) {
                    case .bytes(let count):
                        try receiver.receive(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                        if Self.uptime() - looked >= Self.cancellationTick {
                            looked = Self.uptime()
                            if isCancelled() { throw DAVError.cancelled }
                        }
                    case .nothingYet:
                        looked = Self.uptime()
                        if isCancelled() { throw DAVError.cancelled }
                    case .end:
                        // A cancellation while the last bytes were read stops here, not after the rest is saved.
                        if isCancelled() { throw DAVError.cancelled }
                        break reading
                    }
                }
            } catch {
                spool.abandon()
                outcome.done.wait()
                received.fail(error)
                return outcome.code
            }
            outcome.done.wait()
            return outcome.code
        }

        /// How often the reader of a spooled answer looks for a cancellation.
        static let cancellationTick: TimeInterval = 0.1

        /// Bytes handed to the receiver at a time, as libcurl's own chunks are at most 16 kB.
        static let spoolChunk = 1 << 17

        /// What the transfer's thread leaves for the caller, read after `done`.
        private final class TransferOutcome: @unchecked Sendable {
            /// The transport's handle, used by that thread alone until `done`.
            let handle: UnsafeMutableRawPointer
            var code = CURLE_OK
            init(_ handle: UnsafeMutableRawPointer) { self.handle = handle }
            let done = DispatchSemaphore(value: 0)
        }

        /// An exchange whose body stopped it (its receiver threw, or a body held here passed its
        /// limit; libcurl says only "write error") throws why.
        private func receivingBody(_ method: String, _ url: URL, _ exchange: () throws -> DAVResponse) throws
            -> DAVResponse
        {
            // Nothing of an exchange (its receiver) is kept past it.
            current = nil
            defer { current = nil }
            do { return try exchange() } catch {
                switch current?.failure {
                case nil: throw error
                case is Received.TooLarge:
                    throw DAVError.tooLarge(
                        "the answer to \(method) \(url.absoluteString) passed \(DAVSizeLimits.words(sizeLimits.card)), "
                            + "the limit for an answer held whole (\(DAVSizeLimits.Variable.card) sets it); stopped there"
                    )
                case let failure?: throw failure
                }
            }
        }

        /// Basic or Digest, as the server asks (libcurl picks at the first 401 and keeps it).
        private func authenticate(_ credentials: DAVCredentials) -> CURLcode {
            let steps: [() -> CURLcode] = [
                { ccurl_setopt_long(self.handle, CURLOPT_HTTPAUTH, ccurl_auth_basic | ccurl_auth_digest) },
                { ccurl_setopt_string(self.handle, CURLOPT_USERNAME, credentials.user) },
                { ccurl_setopt_string(self.handle, CURLOPT_PASSWORD, credentials.password) },
            ]
            for step in steps {
                let code = step()
                if code != CURLE_OK { return code }
            }
            return CURLE_OK
        }

        private func setup(
            url: URL, method: String, headers: UnsafeMutablePointer<curl_slist>?,
            context: UnsafeMutableRawPointer, timeout: TimeInterval
        ) -> CURLcode {
            let milliseconds = max(1, Int(timeout * 1000))
            let transport = Unmanaged.passUnretained(self).toOpaque()
            let steps: [() -> CURLcode] = [
                { ccurl_setopt_string(self.handle, CURLOPT_URL, url.absoluteString) },
                // The last request's method and body forgotten (the handle is not always reset).
                { ccurl_setopt_long(self.handle, CURLOPT_HTTPGET, 1) },
                { ccurl_setopt_string(self.handle, CURLOPT_PROTOCOLS_STR, "http,https") },
                { ccurl_setopt_long(self.handle, CURLOPT_NOSIGNAL, 1) },
                { ccurl_setopt_long(self.handle, CURLOPT_SSL_VERIFYPEER, 1) },
                { ccurl_setopt_long(self.handle, CURLOPT_SSL_VERIFYHOST, 2) },
                { ccurl_setopt_long(self.handle, CURLOPT_FOLLOWLOCATION, 0) },
                // The whole exchange within `timeout` (a streamed answer's: the sync's); the low-speed floor is the progress callback's
                // (`shouldStop`), counted from the answer's first line, not libcurl's, counted from
                // the request.
                { ccurl_setopt_long(self.handle, CURLOPT_CONNECTTIMEOUT_MS, min(milliseconds, 30_000)) },
                // A peer that is gone (a server that went down, a network lost) found in about 75 s
                // while a streamed answer waits for its first byte (no limit of its own).
                { ccurl_setopt_long(self.handle, CURLOPT_TCP_KEEPALIVE, 1) },
                { ccurl_setopt_long(self.handle, CURLOPT_TCP_KEEPIDLE, 30) },
                { ccurl_setopt_long(self.handle, CURLOPT_TCP_KEEPINTVL, 5) },
                { ccurl_setopt_long(self.handle, CURLOPT_TIMEOUT_MS, milliseconds) },
                // Called at least once a second while the transfer waits: a cancellation, or a
                // trickle under the floor, stops it there.
                { ccurl_setopt_long(self.handle, CURLOPT_NOPROGRESS, 0) },
                { ccurl_setopt_progress_function(self.handle, curlTransportProgress) },
                { ccurl_setopt_pointer(self.handle, CURLOPT_XFERINFODATA, transport) },
                { ccurl_setopt_slist(self.handle, CURLOPT_HTTPHEADER, headers) },
                { ccurl_setopt_string(self.handle, CURLOPT_CUSTOMREQUEST, method == "GET" ? nil : method) },
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

        /// Why a transfer stopped, in words naming the limit and what sets it.
        private func stopped(
            _ code: CURLcode, _ method: String, _ url: URL, timeout: TimeInterval, byDeadline: Bool,
            elapsed: TimeInterval
        ) -> DAVError {
            if code == CURLE_ABORTED_BY_CALLBACK && tooSlow {
                return .timedOut(
                    "\(method) \(url.absoluteString) received less than \(limits.lowSpeedBytes) bytes a second for "
                        + "\(DAVTimeLimits.seconds(limits.lowSpeedTime)) (\(DAVTimeLimits.Variable.lowSpeedBytes) and "
                        + "\(DAVTimeLimits.Variable.lowSpeedTime) set that floor); stopped")
            }
            if code == CURLE_ABORTED_BY_CALLBACK { return .cancelled }
            guard code == CURLE_OPERATION_TIMEDOUT else { return .network(describe(code)) }
            // A connection not made in time says so in libcurl's words.
            guard elapsed + 0.05 >= timeout else { return .network(describe(code)) }
            return byDeadline ? limits.syncTimedOut() : limits.requestTimedOut(method: method, url: url, after: timeout)
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
            /// The status of the answer being received.
            private(set) var status = 0
            /// Takes the body of an answer it accepts, as it arrives; any other is held in `body`,
            /// up to `limit` bytes.
            let receiver: DAVBodyReceiver?
            let limit: Int
            /// Whether this answer's body goes to `receiver`, decided at its first byte.
            private var streaming: Bool?
            /// Where the body for `receiver` goes as it arrives, when it is read on another thread
            /// (`CurlTransport.transfer`); nil: handed to `receiver` here.
            var spool: DAVBodySpool?
            /// What stopped the transfer: the receiver's error, `TooLarge`, a spool not written.
            private(set) var failure: Error?
            /// The first reason the exchange stopped stays.
            func fail(_ error: Error) { if failure == nil { failure = error } }

            struct TooLarge: Error {}

            init(receiver: DAVBodyReceiver? = nil, limit: Int = .max) { self.receiver = receiver; self.limit = limit }

            /// Bytes of the body; false stops the transfer (`failure` says why).
            func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
                if streaming == nil { streaming = receiver?.accepts(status: status) ?? false }
                do {
                    if streaming == true, let spool {
                        guard spool.append(bytes) else {
                            // Past the limit, or the reader stopped: the reader's side says why.
                            if let why = spool.writeFailure { throw DAVError.network(why) }
                            return false
                        }
                    } else if streaming == true, let receiver {
                        try receiver.receive(bytes)
                    } else {
                        guard body.count + bytes.count <= limit else { throw TooLarge() }
                        body.append(contentsOf: bytes)
                    }
                    return true
                } catch {
                    failure = error
                    return false
                }
            }

            /// One header line as libcurl hands it (with its CRLF); a status line starts a new
            /// response (an interim `100` or a redirect's), whose headers replace the last ones.
            func header(line: String) {
                // A 401 libcurl answers itself (Digest's first round) leaves nothing of its own.
                if line.hasPrefix("HTTP/") {
                    headers = [:]; body = Data(); streaming = nil
                    status = DAVMultistatus.statusCode(line.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
                    return
                }
                guard let colon = line.firstIndex(of: ":") else { return }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
                guard !name.isEmpty else { return }
                headers[name] = headers[name].map { "\($0), \(value)" } ?? value
            }
        }
    }

    private func curlTransportWrite(
        _ data: UnsafeMutablePointer<CChar>, _ size: Int, _ count: Int,
        _ context: UnsafeMutableRawPointer?
    ) -> Int {
        guard let context else { return 0 }
        let received = Unmanaged<CurlTransport.Received>.fromOpaque(context).takeUnretainedValue()
        return received.take(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
    }

    /// Non-zero stops the transfer (CURLE_ABORTED_BY_CALLBACK): the sync was cancelled, or the answer trickles.
    private func curlTransportProgress(
        _ context: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
        _ uploadTotal: curl_off_t, _ uploaded: curl_off_t
    ) -> Int32 {
        guard let context else { return 0 }
        return Unmanaged<CurlTransport>.fromOpaque(context).takeUnretainedValue().shouldStop(
            moved: Int64(downloaded) + Int64(uploaded)) ? 1 : 0
    }

    private func curlTransportHeader(
        _ data: UnsafeMutablePointer<CChar>, _ size: Int, _ count: Int,
        _ context: UnsafeMutableRawPointer?
    ) -> Int {
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

    /// `http://host:port`, lowercased, the default port spelled out.
    static func origin(_ url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(port(url).map(String.init) ?? "")"
    }

    private static func port(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}

/// The challenges of a `WWW-Authenticate` header (RFC 9110 §11.6.1), read far enough to tell
/// whether we can answer one: Basic, or Digest with an algorithm libcurl computes and `qop=auth`.
enum AuthChallenge {
    /// Digest's algorithms libcurl 7.57 and later compute (RFC 7616 §6.1); MD5 when none is named.
    static let digestAlgorithms: Set<String> = [
        "md5", "md5-sess", "sha-256", "sha-256-sess",
        "sha-512-256", "sha-512-256-sess",
    ]

    /// Nil when the server offers a scheme we can do, or says nothing (a bare 401: the password
    /// refused); else what it asks for, in words: `Bearer`, `Digest (algorithm SHA-512)`.
    static func unsupported(_ header: String?) -> String? {
        guard let header else { return nil }
        let offered = challenges(header)
        guard !offered.isEmpty else { return nil }
        var named: [String] = []
        for (scheme, parameters) in offered {
            switch scheme.lowercased() {
            case "basic": return nil
            case "digest":
                let algorithm = parameters["algorithm"] ?? "MD5"
                let qop = parameters["qop"].map {
                    $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                }
                if !digestAlgorithms.contains(algorithm.lowercased()) {
                    named.append("Digest (algorithm \(algorithm))")
                } else if let qop, !qop.contains("auth") {
                    named.append("Digest (qop=\(qop.joined(separator: ",")))")
                } else {
                    return nil
                }
            default: named.append(scheme)
            }
        }
        return TerminalText.sanitize(named.joined(separator: ", "))
    }

    /// Each challenge's scheme and parameters (names lowercased, values unquoted), in order.
    static func challenges(_ header: String) -> [(scheme: String, parameters: [String: String])] {
        var result: [(scheme: String, parameters: [String: String])] = []
        for item in splitOutsideQuotes(header) {
            let text = item.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            // A new challenge starts with a scheme token not followed by `=`.
            let token = text.prefix { !$0.isWhitespace && $0 != "=" }
            let rest = text.dropFirst(token.count)
            var parameter = Substring(text)
            if !token.isEmpty, rest.first != "=", !rest.trimmingCharacters(in: .whitespaces).hasPrefix("=") {
                result.append((String(token), [:]))
                parameter = Substring(rest.trimmingCharacters(in: .whitespaces))
            }
            guard !result.isEmpty, let equals = parameter.firstIndex(of: "=") else { continue }
            let name = parameter[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var value = parameter[parameter.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            result[result.count - 1].parameters[name] = value
        }
        return result
    }

    /// The comma-separated items of a header, a comma inside quotes kept.
    private static func splitOutsideQuotes(_ text: String) -> [String] {
        var items: [String] = [], current = "", quoted = false, escaped = false
        for c in text {
            if escaped { current.append(c); escaped = false; continue }
            if c == "\\" && quoted { current.append(c); escaped = true; continue }
            if c == "\"" { quoted.toggle() }
            if c == ",", !quoted { items.append(current); current = "" } else { current.append(c) }
        }
        items.append(current)
        return items
    }
}

/// The HTTP client a sync uses.
public enum DAVTransports {
    /// libcurl's easy interface on Linux; URLSession on other systems and in a fully static
    /// build, which cannot link libcurl (there, a sync says which build syncs).
    /// - Parameter isCancelled: asked before each request and while one runs; true stops it.
    public static func standard(
        credentials: DAVCredentials?, limits: DAVTimeLimits = .configured(),
        isCancelled: @escaping () -> Bool = { false }
    ) -> DAVTransport {
        #if os(Linux) && !CONTACTSBOOK_NO_LIBCURL
            return CurlTransport(credentials: credentials, limits: limits, isCancelled: isCancelled)
        #else
            return URLSessionTransport(credentials: credentials, limits: limits, isCancelled: isCancelled)
        #endif
    }

    /// Begins loading what `standard`'s first request needs (libcurl with its TLS libraries and
    /// libxml2, then `curl_global_init`) on a thread of its own, so that a `sync` command's ~30 ms
    /// of loading overlaps the book's open instead of following it (bench/FINDINGS.md, issue 32).
    /// A transport made meanwhile waits for it. `wait()` before the process exits: an exit during
    /// libcurl's initialisation would run OpenSSL's clean-up beside it.
    public static func preload() -> DAVPreload {
        #if os(Linux) && !CONTACTSBOOK_NO_LIBCURL
            let loaded = DispatchSemaphore(value: 0)
            Thread {
                CurlTransport.globalInit
                loaded.signal()
            }.start()
            return DAVPreload {
                loaded.wait()
                loaded.signal() // for any later wait
            }
        #else
            return DAVPreload {}
        #endif
    }
}

/// The loading `DAVTransports.preload()` began.
public struct DAVPreload: Sendable {
    private let waiting: @Sendable () -> Void
    init(_ waiting: @escaping @Sendable () -> Void) { self.waiting = waiting }
    /// Returns once the loading is over (at once if it is).
    public func wait() { waiting() }
}
