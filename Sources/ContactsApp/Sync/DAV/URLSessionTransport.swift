import Foundation

// Linux syncs through libcurl directly (`CurlTransport`); URLSession serves other systems (Apple's
// own HTTP stack) and the fully static build, which cannot link libcurl.
#if !os(Linux) || CONTACTSBOOK_NO_LIBCURL
    #if CONTACTSBOOK_NO_URLSESSION
        /// The fully static executable (`CONTACTSBOOK_STATIC_EXECUTABLE=1`) cannot link libcurl, so it
        /// has no HTTP client: every request fails with a message saying which build syncs.
        public final class URLSessionTransport: DAVTransport {
            public init(
                credentials: DAVCredentials?, limits: DAVTimeLimits = .configured(),
                isCancelled: @escaping () -> Bool = { false }
            ) {}

            public func send(_ request: DAVRequest) throws -> DAVResponse {
                throw DAVError.network(
                    "this contactsbook is a fully static executable, which cannot link libcurl; "
                        + "a plain `swift build -c release` (or a debug build) syncs")
            }
        }
    #else
        #if canImport(FoundationNetworking)
            import FoundationNetworking
        #endif

        /// HTTP through the toolchain's URLSession (FoundationNetworking, libcurl underneath).
        ///
        /// Chosen over swift-server's async-http-client: it ships with the toolchain, so it adds no
        /// package to build (async-http-client and NIO add 2.5 to 4.5 minutes to a first build on these
        /// machines), and a sync is a few sequential requests on one kept-alive connection, where an
        /// event loop gains nothing. Certificates are verified (URLSession's default, never turned off);
        /// credentials go in each request's `Authorization` header and are dropped on a redirect to
        /// another host (`RedirectGuard`). The time limits are `DAVTimeLimits`' (each request's, the
        /// sync's) and a cancellation stops a request while it waits (`DAVRequestClock`); the low-speed
        /// floor is libcurl's, so here only the request's own limit bounds a trickle.
        public final class URLSessionTransport: DAVTransport {
            private let session: URLSession
            private let credentials: DAVCredentials?
            private let clock: DAVRequestClock
            private let guardian = RedirectGuard()

            public init(
                credentials: DAVCredentials?, limits: DAVTimeLimits = .configured(),
                isCancelled: @escaping () -> Bool = { false }
            ) {
                self.credentials = credentials
                clock = DAVRequestClock(limits: limits, isCancelled: isCancelled)
                let configuration = URLSessionConfiguration.ephemeral
                // URLSession's own limits past ours: the error then names ours (`DAVRequestClock.wait`).
                configuration.timeoutIntervalForRequest = limits.request + 1
                configuration.timeoutIntervalForResource = limits.request + 1
                configuration.httpCookieStorage = nil
                configuration.urlCache = nil
                session = URLSession(configuration: configuration, delegate: guardian, delegateQueue: nil)
            }

            deinit { session.finishTasksAndInvalidate() }

            public func send(_ request: DAVRequest) throws -> DAVResponse {
                let budget = try clock.next()
                var urlRequest = URLRequest(
                    url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
                    timeoutInterval: budget.timeout + 1)
                urlRequest.httpMethod = request.method
                urlRequest.httpBody = request.body
                for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
                // libcurl asks for `100 Continue` before a body over 1 kB and waits a second for servers
                // that never send it (Radicale): a multiget took a second longer. An empty value turns it off.
                urlRequest.setValue("", forHTTPHeaderField: "Expect")
                if let credentials {
                    let token = Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
                    urlRequest.setValue("Basic \(token)", forHTTPHeaderField: "Authorization")
                }
                // The session is synchronous (one request at a time, on the thread handling a command):
                // wait for the task here, within the request's limit, cancelling it past that.
                let done = DispatchSemaphore(value: 0)
                let box = ResultBox()
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    box.set(data: data, response: response, error: error)
                    done.signal()
                }
                task.resume()
                try clock.wait(for: done, budget, method: request.method, url: request.url, stop: task.cancel)
                let (data, response, error) = box.get()
                if guardian.wasRefused(task) { return DAVResponse(status: 401, url: request.url) }
                if let error { throw DAVError.network(error.localizedDescription) }
                guard let http = response as? HTTPURLResponse else { throw DAVError.network("no HTTP response") }
                var headers: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name] = value }
                }
                return DAVResponse(status: http.statusCode, headers: headers, body: data ?? Data(), url: http.url)
            }

            private final class ResultBox: @unchecked Sendable {
                private let lock = NSLock()
                private var value: (Data?, URLResponse?, Error?) = (nil, nil, nil)
                func set(data: Data?, response: URLResponse?, error: Error?) {
                    lock.lock(); value = (data, response, error); lock.unlock()
                }
                func get() -> (Data?, URLResponse?, Error?) { lock.lock(); defer { lock.unlock() }; return value }
            }
        }

        /// Follows a redirect only within the same scheme, host and port when the request carries
        /// credentials; to anywhere else, without the `Authorization` header. Also ends a task the
        /// server answered with 401.
        final class RedirectGuard: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
            func urlSession(
                _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
            ) {
                // Another origin is not followed: the 3xx comes back to `OriginGuardTransport`.
                guard let from = task.originalRequest?.url, let to = request.url,
                    RedirectPolicy.sendsCredentials(from: from, to: to)
                else { return completionHandler(nil) }
                completionHandler(Self.redirect(from: task.originalRequest, to: request))
            }

            /// A 401 ends the task: our credentials were in the request already. FoundationNetworking's
            /// default handling of the challenge never completed the task (the sync hung), so the
            /// challenge is cancelled and the refusal remembered for `send` to report as the 401 it was.
            func urlSession(
                _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
            ) {
                lock.lock(); refused.insert(task.taskIdentifier); lock.unlock()
                completionHandler(.cancelAuthenticationChallenge, nil)
            }

            private let lock = NSLock()
            private var refused: Set<Int> = []

            /// Whether the server refused the credentials of `task` (and forgets it).
            func wasRefused(_ task: URLSessionTask) -> Bool {
                lock.lock(); defer { lock.unlock() }
                return refused.remove(task.taskIdentifier) != nil
            }

            /// The request to follow: `next` as it is on the same origin, else without credentials.
            static func redirect(from original: URLRequest?, to next: URLRequest) -> URLRequest {
                guard let from = original?.url, let to = next.url else { return next }
                var request = next
                // URLSession turns the method into GET on 301/302; a DAV request keeps its own.
                if let original {
                    request.httpMethod = original.httpMethod
                    request.httpBody = original.httpBody
                    for (name, value) in original.allHTTPHeaderFields ?? [:]
                    where request.value(forHTTPHeaderField: name) == nil {
                        request.setValue(value, forHTTPHeaderField: name)
                    }
                }
                if from.scheme != to.scheme || from.host != to.host || from.port != to.port {
                    request.setValue(nil, forHTTPHeaderField: "Authorization")
                }
                return request
            }
        }
    #endif
#endif
