import Foundation
import XCTest

@testable import ContactsApp

final class RedirectPolicyTests: XCTestCase {
    func test_sendsCredentials_onlyToTheSameSchemeHostAndPort() {
        // Given
        let original = URL(string: "https://dav.example.org/.well-known/carddav")!

        // When / Then
        XCTAssertTrue(RedirectPolicy.sendsCredentials(from: original, to: URL(string: "https://dav.example.org/dav/")!))
        XCTAssertTrue(RedirectPolicy.sendsCredentials(from: original, to: URL(string: "https://DAV.example.org:443/")!))
        XCTAssertFalse(RedirectPolicy.sendsCredentials(from: original, to: URL(string: "https://evil.example/")!))
        XCTAssertFalse(RedirectPolicy.sendsCredentials(from: original, to: URL(string: "http://dav.example.org/")!))
        XCTAssertFalse(
            RedirectPolicy.sendsCredentials(from: original, to: URL(string: "https://dav.example.org:8443/")!))
    }

    func test_isRedirect_theFiveRedirectStatuses() {
        XCTAssertEqual(
            [200, 207, 301, 302, 303, 304, 307, 308, 401].filter(RedirectPolicy.isRedirect), [301, 302, 303, 307, 308])
    }
}

#if os(Linux)
    final class CurlTransportTests: XCTestCase {
        func test_received_headerLines_lowercasedNamesAndANewStatusLineStartsOver() {
            // Given
            let sut = CurlTransport.Received()

            // When: an interim answer, then the real one, as libcurl hands the lines
            for line in [
                "HTTP/1.1 100 Continue\r\n", "X-Interim: 1\r\n", "\r\n",
                "HTTP/1.1 207 Multi-Status\r\n", "ETag: \"42\"\r\n", "DAV: 1\r\n", "dav: addressbook\r\n",
                "Content-Type:application/xml\r\n", "\r\n",
            ] {
                sut.header(line: line)
            }

            // Then
            XCTAssertEqual(sut.headers, ["etag": "\"42\"", "dav": "1, addressbook", "content-type": "application/xml"])
        }

        func test_received_a207sBodyGoesToTheReceiver_anyOtherIsHeldUpToItsLimit() {
            // Given
            final class Receiver: DAVBodyReceiver {
                var bytes: [UInt8] = []
                func accepts(status: Int) -> Bool { status == 207 }
                func receive(_ bytes: UnsafeRawBufferPointer) throws { self.bytes += bytes }
            }
            let receiver = Receiver()
            let sut = CurlTransport.Received(receiver: receiver, limit: 8)

            // When: a 401 libcurl goes past, then the 207
            sut.header(line: "HTTP/1.1 401 Unauthorized\r\n")
            "nope".utf8.withContiguousStorageIfAvailable { XCTAssertTrue(sut.take(UnsafeRawBufferPointer($0))) }
            sut.header(line: "HTTP/1.1 207 Multi-Status\r\n")
            for piece in ["<multi", "status/>"] {
                Array(piece.utf8).withUnsafeBytes { XCTAssertTrue(sut.take($0)) }
            }

            // Then
            XCTAssertEqual(String(decoding: receiver.bytes, as: UTF8.self), "<multistatus/>")
            XCTAssertEqual(sut.body, Data())

            // And an answer held here stops past its limit
            let held = CurlTransport.Received(receiver: receiver, limit: 8)
            held.header(line: "HTTP/1.1 500 Oops\r\n")
            Array("12345".utf8).withUnsafeBytes { XCTAssertTrue(held.take($0)) }
            Array("6789".utf8).withUnsafeBytes { XCTAssertFalse(held.take($0)) }
            XCTAssertTrue(held.failure is CurlTransport.Received.TooLarge)
            XCTAssertEqual(held.body, Data("12345".utf8))
        }

        func test_send_nobodyListening_throwsNetworkError() throws {
            // Given: a port that was free a moment ago, nothing listening on it
            let port = try Self.closedPort()
            let sut = CurlTransport(
                credentials: DAVCredentials(user: "ann", password: "secret"),
                limits: DAVTimeLimits(request: 5))

            // When
            XCTAssertThrowsError(
                try sut.send(
                    DAVRequest(
                        method: "PROPFIND", url: URL(string: "http://127.0.0.1:\(port)/")!,
                        headers: ["Depth": "0"], body: Data("<x/>".utf8)))
            ) { error in
                // Then
                guard case .network(let reason) = error as? DAVError else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.contains("connect"), reason)
            }
        }

        func test_preload_aTransportMadeMeanwhileSendsAsWithout_andEveryWaitReturns() throws {
            // Given: the libraries loading on a thread of their own, as a `sync` command begins
            let loading = DAVTransports.preload()
            let port = try Self.closedPort()

            // When: a transport is made and sends before the loading is waited for
            let sut = CurlTransport(credentials: nil, limits: DAVTimeLimits(request: 5))
            XCTAssertThrowsError(
                try sut.send(DAVRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/")!))
            ) { error in
                // Then: libcurl answered (it was loaded and initialised once, whichever thread came first)
                guard case .network(let reason) = error as? DAVError else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.contains("connect"), reason)
            }
            // And waiting returns, the second time at once
            loading.wait()
            loading.wait()
        }

        func test_send_anotherScheme_isRefusedBeforeConnecting() {
            // Given
            let sut = CurlTransport(credentials: nil)

            // When / Then: only http and https are spoken
            XCTAssertThrowsError(try sut.send(DAVRequest(method: "GET", url: URL(string: "file:///etc/passwd")!))) {
                error in
                guard case .network = error as? DAVError else { return XCTFail("\(error)") }
            }
        }

        func test_send_aServerThatNeverAnswers_stopsAtTheRequestLimit_namingTheRequestAndTheLimit() throws {
            // Given: a listener that takes the connection (the kernel's backlog) and never answers
            let (fd, port) = try Self.listening()
            defer { close(fd) }
            let sut = CurlTransport(credentials: nil, limits: DAVTimeLimits(request: 0.5))
            let url = URL(string: "http://127.0.0.1:\(port)/book/")!

            // When / Then
            XCTAssertThrowsError(try sut.send(DAVRequest(method: "REPORT", url: url))) { error in
                XCTAssertEqual(
                    error as? DAVError,
                    .timedOut(
                        "REPORT http://127.0.0.1:\(port)/book/ did not finish within 0.5 s "
                            + "(the limit for one request; CONTACTSBOOK_REQUEST_TIMEOUT sets it); stopped"))
            }
        }

        func test_send_aStreamedAnswer_theServerThinkingPastTheRequestLimit_isWaitedForUntilTheSyncsLimit() throws {
            // Given: a server that takes the request and never answers, a request limit shorter than
            // the sync's. A listing or multiget grows with the book, and a server may build it whole
            // before its first byte (Radicale: 35 s for 50,000 cards, bench/FINDINGS.md), so only
            // the sync's limit bounds that wait.
            let (fd, port) = try Self.listening()
            defer { close(fd) }
            let sut = CurlTransport(credentials: nil, limits: DAVTimeLimits(request: 0.1, sync: 0.6))
            let url = URL(string: "http://127.0.0.1:\(port)/book/")!

            // When / Then
            XCTAssertThrowsError(try sut.send(DAVRequest(method: "REPORT", url: url), receiving: Collector())) {
                error in
                XCTAssertEqual(
                    error as? DAVError,
                    .timedOut(
                        "the server's answers took longer than 0.6 s in all (the limit for one "
                            + "sync; CONTACTSBOOK_SYNC_TIMEOUT sets it); stopped, what was saved before is kept"))
            }
        }

        func test_send_anAnswerHeldWhole_aServerThatNeverAnswers_stillStopsAtTheRequestLimit() throws {
            // Given: the same server, a request whose answer is held whole (a PUT, a GET, discovery)
            let (fd, port) = try Self.listening()
            defer { close(fd) }
            let sut = CurlTransport(credentials: nil, limits: DAVTimeLimits(request: 0.3, sync: 60))
            let url = URL(string: "http://127.0.0.1:\(port)/book/a.vcf")!

            // When / Then
            XCTAssertThrowsError(try sut.send(DAVRequest(method: "GET", url: url))) { error in
                XCTAssertEqual(
                    error as? DAVError,
                    .timedOut(
                        "GET http://127.0.0.1:\(port)/book/a.vcf did not finish within 0.3 s "
                            + "(the limit for one request; CONTACTSBOOK_REQUEST_TIMEOUT sets it); stopped"))
            }
        }

        // MARK: The spool: the answer read at the network's pace

        func test_send_aReceiverHeldUpUntilTheServerIsDone_theServerStillSendsItAll_throughAnUnnamedSpool() throws {
            // Given: a server that gives up a send making no progress for a second (as Radicale's
            // `[server] timeout` does), an answer larger than the socket buffers, and a receiver
            // that takes nothing until the server is done, whole or given up (a first download's
            // savers behind). A receiver paced the transfer before: the server gave up half way.
            let server = try OneAnswerServer(bodyBytes: 32 << 20, sendTimeout: 1)
            let directory = try Self.emptyDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            var entriesDuringTransfer: [String]?
            let receiver = Collector {
                server.finished.wait()
                entriesDuringTransfer = try? FileManager.default.contentsOfDirectory(atPath: directory)
            }
            var spools: [DAVBodySpool] = []
            let sut = CurlTransport(credentials: nil, limits: DAVTimeLimits(request: 60))
            sut.spoolDirectory = directory
            sut.onSpool = { spools.append($0) }

            // When
            let response = try sut.send(
                DAVRequest(method: "REPORT", url: URL(string: "http://127.0.0.1:\(server.port)/book/")!),
                receiving: receiver)

            // Then: the server sent it all, and the receiver got it all
            XCTAssertEqual(server.outcome, .sentAll)
            XCTAssertEqual(response.status, 207)
            XCTAssertEqual(receiver.count, 32 << 20)
            XCTAssertEqual(receiver.tail, server.tail)
            // And the spool had no name while it held the answer, and is closed after
            XCTAssertEqual(entriesDuringTransfer, [])
            XCTAssertEqual(spools.count, 1)
            XCTAssertEqual(spools.first?.fileDescriptor, -1)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
        }

        func test_send_theReceiverThrows_itsErrorStopsTheTransfer_andTheSpoolIsClosed() throws {
            // Given
            let server = try OneAnswerServer(bodyBytes: 16 << 20, sendTimeout: 30)
            let directory = try Self.emptyDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            var spools: [DAVBodySpool] = []
            let sut = CurlTransport(credentials: nil, limits: DAVTimeLimits(request: 60))
            sut.spoolDirectory = directory
            sut.onSpool = { spools.append($0) }
            let receiver = Collector { throw DAVError.malformed("not a card") }

            // When / Then
            XCTAssertThrowsError(
                try sut.send(
                    DAVRequest(method: "REPORT", url: URL(string: "http://127.0.0.1:\(server.port)/book/")!),
                    receiving: receiver)
            ) { error in
                XCTAssertEqual(error as? DAVError, .malformed("not a card"))
            }
            XCTAssertEqual(spools.map(\.fileDescriptor), [-1])
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
            // The transfer was stopped, not read to its end: the server's send failed.
            XCTAssertEqual(server.finished.wait(timeout: .now() + 120), .success)
            XCTAssertEqual(server.outcome, .failed)
        }

        func test_send_cancelledWhileTheAnswerComes_stopsWithCancelled_andTheSpoolIsClosed() throws {
            // Given: the sync is cancelled once the receiver has the first bytes
            let server = try OneAnswerServer(bodyBytes: 16 << 20, sendTimeout: 30)
            let directory = try Self.emptyDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            var spools: [DAVBodySpool] = []
            let cancelled = Locked(false)
            let sut = CurlTransport(
                credentials: nil, limits: DAVTimeLimits(request: 60), isCancelled: { cancelled.value })
            sut.spoolDirectory = directory
            sut.onSpool = { spools.append($0) }
            let receiver = Collector { cancelled.value = true }

            // When / Then
            XCTAssertThrowsError(
                try sut.send(
                    DAVRequest(method: "REPORT", url: URL(string: "http://127.0.0.1:\(server.port)/book/")!),
                    receiving: receiver)
            ) { error in
                XCTAssertEqual(error as? DAVError, .cancelled)
            }
            XCTAssertEqual(spools.map(\.fileDescriptor), [-1])
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
        }

        func test_send_anAnswerPastTheAnswerLimit_stopsThere_namingTheLimit() throws {
            // Given: a transport and a receiver allowing 1 MB, an answer of 4 MB
            let server = try OneAnswerServer(bodyBytes: 4 << 20, sendTimeout: 30)
            let sut = CurlTransport(credentials: nil, limits: DAVTimeLimits(request: 60))
            sut.sizeLimits = DAVSizeLimits(answer: 1 << 20, card: 1 << 20)
            let receiver = Collector()

            // When / Then: the spool keeps one byte past the limit and stops
            let url = "http://127.0.0.1:\(server.port)/book/"
            XCTAssertThrowsError(
                try sut.send(DAVRequest(method: "REPORT", url: URL(string: url)!), receiving: receiver)
            ) {
                error in
                guard case .tooLarge(let reason) = error as? DAVError else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.hasPrefix("the answer to REPORT \(url) passed"), reason)
                XCTAssertTrue(reason.contains("CONTACTSBOOK_SYNC_MAX_ANSWER"), reason)
            }
            XCTAssertEqual(receiver.count, (1 << 20) + 1)
        }

        func test_spool_bothWaysOfMakingIt_leaveNoNameInTheDirectory_andCloseGivesTheFileBack() throws {
            for unnamed in [true, false] {
                // Given
                let directory = try Self.emptyDirectory()
                defer { try? FileManager.default.removeItem(atPath: directory) }
                let sut = try DAVBodySpool(directory: directory, unnamed: unnamed)
                let fd = sut.fileDescriptor

                // When: written whole, then read
                XCTAssertTrue(Array("<multistatus/>".utf8).withUnsafeBytes { sut.append($0) })
                sut.finish(.complete)
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
                defer { buffer.deallocate() }
                let first = sut.next(into: buffer)

                // Then
                XCTAssertEqual(first, .bytes(14))
                XCTAssertEqual(String(decoding: buffer[..<14], as: UTF8.self), "<multistatus/>")
                XCTAssertEqual(sut.next(into: buffer), .end)
                XCTAssertEqual(
                    try FileManager.default.contentsOfDirectory(atPath: directory), [], "unnamed: \(unnamed)")
                let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
                XCTAssertTrue(link.hasSuffix("(deleted)"), link)
                sut.close()
                XCTAssertEqual(sut.fileDescriptor, -1)
                XCTAssertEqual(fcntl(fd, F_GETFD), -1)
            }
        }

        func test_spool_aFailedTransfer_theReaderStopsAtOnce_aLimitPassed_itReadsUpToTheLimit() throws {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
            defer { buffer.deallocate() }
            // Given: bytes written, then the transfer failed
            let failed = try DAVBodySpool(directory: NSTemporaryDirectory())
            XCTAssertTrue(Array("partial".utf8).withUnsafeBytes { failed.append($0) })
            failed.finish(.failed)
            // Then: what is left is not for the reader
            XCTAssertEqual(failed.next(into: buffer), .end)

            // Given: more than the limit offered
            let limited = try DAVBodySpool(directory: NSTemporaryDirectory(), limit: 5)
            XCTAssertFalse(Array("1234567".utf8).withUnsafeBytes { limited.append($0) })
            limited.finish(.failed)
            // Then: the limit's bytes are read, and the spool says it overflowed
            XCTAssertEqual(limited.next(into: buffer), .bytes(5))
            XCTAssertEqual(limited.next(into: buffer), .end)
            XCTAssertTrue(limited.overflowed)

            // Given: a reader that stopped; then the writer's next bytes are refused
            let abandoned = try DAVBodySpool(directory: NSTemporaryDirectory())
            abandoned.abandon()
            XCTAssertFalse(Array("x".utf8).withUnsafeBytes { abandoned.append($0) })
            XCTAssertTrue(abandoned.isAbandoned)
            // And nothing comes while the writer has not written, nor finished
            let waiting = try DAVBodySpool(directory: NSTemporaryDirectory())
            XCTAssertEqual(waiting.next(into: buffer, waitingAtMost: 0), .nothingYet)
        }

        func test_spool_whatWasReadIsGivenBack_asTheRestIsRead() throws {
            // Given: 16 MB written
            let sut = try DAVBodySpool(directory: NSTemporaryDirectory())
            let chunk = [UInt8](repeating: 7, count: 1 << 20)
            for _ in 0..<16 { XCTAssertTrue(chunk.withUnsafeBytes { sut.append($0) }) }
            sut.finish(.complete)
            let full = sut.allocatedBytes
            guard full >= 16 << 20 else { throw XCTSkip("the file system allocates lazily (\(full) bytes)") }

            // When: 12 MB read
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
            defer { buffer.deallocate() }
            for _ in 0..<12 { XCTAssertEqual(sut.next(into: buffer), .bytes(1 << 20)) }

            // Then: the file holds about what is left to read (or all of it, where holes cannot be punched)
            let left = sut.allocatedBytes
            if left >= full { throw XCTSkip("this file system punches no holes") }
            XCTAssertLessThanOrEqual(left, (4 << 20) + DAVBodySpool.releaseEvery)
        }

        func test_spool_aDirectoryThatCannotHoldIt_isNamedInTheError() {
            XCTAssertThrowsError(try DAVBodySpool(directory: "/nonexistent/contactsbook")) { error in
                guard case .network(let reason) = error as? DAVError else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.contains("/nonexistent/contactsbook"), reason)
                XCTAssertTrue(reason.contains("TMPDIR"), reason)
            }
        }

        /// Takes a 207's body, counting its bytes and keeping its last ones; `first` runs once,
        /// with the first bytes.
        final class Collector: DAVBodyReceiver {
            private(set) var count = 0
            private(set) var tail: [UInt8] = []
            private var first: (() throws -> Void)?
            init(first: (() throws -> Void)? = nil) { self.first = first }
            func accepts(status: Int) -> Bool { status == 207 }
            func receive(_ bytes: UnsafeRawBufferPointer) throws {
                if let run = first {
                    first = nil
                    try run()
                }
                count += bytes.count
                tail = Array((tail + bytes.suffix(OneAnswerServer.tailBytes)).suffix(OneAnswerServer.tailBytes))
            }
        }

        /// A value two threads read and write.
        final class Locked<Value>: @unchecked Sendable {
            private let lock = NSLock()
            private var stored: Value
            init(_ value: Value) { stored = value }
            var value: Value {
                get { lock.lock(); defer { lock.unlock() }; return stored }
                set { lock.lock(); stored = newValue; lock.unlock() }
            }
        }

        /// One 207 answer of `bodyBytes` on a loopback port, sent by a thread that gives up when a
        /// send makes no progress for `sendTimeout` seconds (`SO_SNDTIMEO`, as a server's own
        /// timeout). `finished` is signalled once it sent it all or gave up (`outcome`).
        final class OneAnswerServer: @unchecked Sendable {
            enum Outcome: Equatable { case pending, sentAll, failed }
            let port: UInt16
            let finished = DispatchSemaphore(value: 0)
            private let state = Locked(Outcome.pending)
            var outcome: Outcome { state.value }
            /// The body's last bytes, to compare with what was received.
            let tail: [UInt8]
            static let tailBytes = 64

            init(bodyBytes: Int, sendTimeout: Int) throws {
                let (fd, port) = try CurlTransportTests.listening()
                self.port = port
                // A pattern of a prime length, not one repeated byte: a body cut or joined wrong ends
                // with other bytes.
                let pattern = (0..<4093).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) }
                let body = [UInt8](unsafeUninitializedCapacity: bodyBytes) { buffer, count in
                    var at = 0
                    while at < bodyBytes {
                        let n = min(pattern.count, bodyBytes - at)
                        pattern.withUnsafeBufferPointer { _ = memcpy(buffer.baseAddress! + at, $0.baseAddress!, n) }
                        at += n
                    }
                    count = bodyBytes
                }
                tail = Array(body.suffix(Self.tailBytes))
                let head = Array(
                    "HTTP/1.1 207 Multi-Status\r\nContent-Length: \(bodyBytes)\r\nConnection: close\r\n\r\n".utf8)
                let state = self.state, finished = self.finished
                Thread {
                    defer { close(fd) }
                    let client = accept(fd, nil, nil)
                    guard client >= 0 else { state.value = .failed; finished.signal(); return }
                    defer { close(client) }
                    var timeout = timeval(tv_sec: sendTimeout, tv_usec: 0)
                    setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                    var request = [UInt8](repeating: 0, count: 4096)
                    _ = read(client, &request, request.count)
                    var sent = true
                    for part in [head, body] where sent {
                        var done = 0
                        while done < part.count {
                            let n = part.withUnsafeBytes {
                                send(client, $0.baseAddress! + done, part.count - done, Int32(MSG_NOSIGNAL))
                            }
                            if n < 0 && errno == EINTR { continue }
                            guard n > 0 else { sent = false; break }
                            done += n
                        }
                    }
                    state.value = sent ? .sentAll : .failed
                    finished.signal()
                }.start()
            }
        }

        static func emptyDirectory() throws -> String {
            let path = NSTemporaryDirectory() + "/cb-spool-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            return path
        }

        func test_send_aStreamedAnswerItsReceiverHoldsLongerThanTheRequestLimit_isReadToItsEnd() throws {
            // Given: a server that sends the first half of its answer at once and the rest once the
            // receiver has held the first half longer than the request's limit (a first download's
            // pipeline behind the listing)
            let (fd, port) = try Self.listening()
            defer { close(fd) }
            let body = "<multistatus xmlns=\"DAV:\">" + String(repeating: " ", count: 1000) + "</multistatus>"
            let answer = Array("HTTP/1.0 207 Multi-Status\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
            let held = DispatchSemaphore(value: 0)
            let server = Thread {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                defer { close(client) }
                var request = [UInt8](repeating: 0, count: 4096)
                _ = read(client, &request, request.count)
                let half = answer.count - 500
                _ = answer[..<half].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                held.wait()
                _ = answer[half...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            }
            server.start()
            let receiver = SlowReceiver(0.8) { held.signal() }
            let sut = CurlTransport(credentials: nil, limits: DAVTimeLimits(request: 0.3))

            // When
            let response = try sut.send(
                DAVRequest(method: "REPORT", url: URL(string: "http://127.0.0.1:\(port)/book/")!), receiving: receiver)

            // Then: our own time is not the server's
            XCTAssertEqual(response.status, 207)
            XCTAssertEqual(String(decoding: receiver.bytes, as: UTF8.self), body)
        }

        /// Takes `seconds` with the first bytes of a 207's body, as a pipeline that is behind.
        final class SlowReceiver: DAVBodyReceiver {
            var bytes: [UInt8] = []
            let seconds: TimeInterval
            let afterHold: () -> Void
            init(_ seconds: TimeInterval, afterHold: @escaping () -> Void = {}) {
                self.seconds = seconds; self.afterHold = afterHold
            }
            func accepts(status: Int) -> Bool { status == 207 }
            func receive(_ bytes: UnsafeRawBufferPointer) throws {
                if self.bytes.isEmpty {
                    Thread.sleep(forTimeInterval: seconds)
                    afterHold()
                }
                self.bytes += bytes
            }
        }

        func test_send_cancelledWhileWaitingForTheServer_stopsAtOnce() throws {
            // Given: the sync is cancelled once the request is under way (the first look is before it)
            let (fd, port) = try Self.listening()
            defer { close(fd) }
            var looks = 0
            let sut = CurlTransport(
                credentials: nil, limits: DAVTimeLimits(request: 60),
                isCancelled: {
                    looks += 1
                    return looks > 1
                })

            // When / Then: stopped by the progress callback, not by the 60 s limit
            XCTAssertThrowsError(
                try sut.send(DAVRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/a.vcf")!))
            ) { error in
                XCTAssertEqual(error as? DAVError, .cancelled)
            }
        }

        func test_send_afterTheSyncsDeadline_sendsNothing_andSaysWhichLimit() throws {
            // Given: a sync with no time left
            let (fd, port) = try Self.listening()
            defer { close(fd) }
            let sut = CurlTransport(credentials: nil, limits: DAVTimeLimits(sync: 0))

            // When / Then
            XCTAssertThrowsError(
                try sut.send(DAVRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/a.vcf")!))
            ) { error in
                XCTAssertEqual(
                    error as? DAVError,
                    .timedOut(
                        "the server's answers took longer than 0 s in all (the limit for one "
                            + "sync; CONTACTSBOOK_SYNC_TIMEOUT sets it); stopped, what was saved before is kept"))
            }
        }

        /// A loopback socket listening on a free port, which never accepts: connections wait in its backlog.
        static func listening() throws -> (fd: Int32, port: UInt16) {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw XCTSkip("no socket") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> Bool in
                    bind(fd, address, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, address, &length) == 0
                }
            }
            guard bound else { close(fd); throw XCTSkip("could not listen on a loopback port") }
            return (fd, UInt16(bigEndian: address.sin_port))
        }

        /// A loopback port bound and released, so that connecting to it is refused.
        private static func closedPort() throws -> UInt16 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw XCTSkip("no socket") }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> Bool in
                    bind(fd, address, length) == 0 && getsockname(fd, address, &length) == 0
                }
            }
            guard bound else { throw XCTSkip("could not bind a loopback port") }
            return UInt16(bigEndian: address.sin_port)
        }
    }
#endif
