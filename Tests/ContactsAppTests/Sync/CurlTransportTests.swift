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

        func test_send_aStreamedAnswer_aServerThatNeverAnswers_stillStopsAtTheRequestLimit() throws {
            // Given: a receiver waiting for a body that never comes (libcurl then holds only the
            // sync's limit; the request's is checked in the progress callback)
            let (fd, port) = try Self.listening()
            defer { close(fd) }
            let sut = CurlTransport(credentials: nil, limits: DAVTimeLimits(request: 0.5))
            let url = URL(string: "http://127.0.0.1:\(port)/book/")!

            // When / Then: the same limit and words as for an answer held here
            XCTAssertThrowsError(try sut.send(DAVRequest(method: "REPORT", url: url), receiving: SlowReceiver(0))) {
                error in
                XCTAssertEqual(
                    error as? DAVError,
                    .timedOut(
                        "REPORT http://127.0.0.1:\(port)/book/ did not finish within 0.5 s "
                            + "(the limit for one request; CONTACTSBOOK_REQUEST_TIMEOUT sets it); stopped"))
            }
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
        private static func listening() throws -> (fd: Int32, port: UInt16) {
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
