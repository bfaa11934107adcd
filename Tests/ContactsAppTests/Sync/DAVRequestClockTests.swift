import Foundation
import XCTest

@testable import ContactsApp

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 26, item 7, for the URLSession transport (macOS, the fully static build): its requests
/// keep `DAVTimeLimits` and stop at a cancellation through `DAVRequestClock`. Linux syncs through
/// libcurl and does not build that transport, so these drive URLSession tasks through the clock
/// as `URLSessionTransport.send` does, against loopback servers that never answer.
final class DAVRequestClockTests: XCTestCase {
    private var session: URLSession!
    private var listener: (fd: Int32, port: UInt16)!

    override func setUpWithError() throws {
        try super.setUpWithError()
        session = URLSession(configuration: .ephemeral)
        listener = try Self.listening()
    }

    override func tearDown() {
        session.invalidateAndCancel()
        close(listener.fd)
        super.tearDown()
    }

    /// One exchange as `URLSessionTransport.send` makes it: the task started, waited for through the clock.
    private func exchange(_ clock: DAVRequestClock, _ url: URL) throws -> URLSessionTask {
        let budget = try clock.next()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: URLRequest(url: url, timeoutInterval: budget.timeout + 1)) { _, _, _ in
            done.signal()
        }
        task.resume()
        try clock.wait(for: done, budget, method: "GET", url: url, stop: task.cancel)
        return task
    }

    private var url: URL { URL(string: "http://127.0.0.1:\(listener.port)/a.vcf")! }

    func test_aServerThatNeverAnswers_isStoppedAtTheRequestLimit_namingTheRequestAndTheLimit() throws {
        // Given
        let sut = DAVRequestClock(limits: DAVTimeLimits(request: 0.5))
        let started = Date()

        // When / Then
        XCTAssertThrowsError(try exchange(sut, url)) { error in
            XCTAssertEqual(
                error as? DAVError,
                .timedOut(
                    "GET \(url.absoluteString) did not finish within 0.5 s "
                        + "(the limit for one request; CONTACTSBOOK_REQUEST_TIMEOUT sets it); stopped"))
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    func test_cancelledWhileWaiting_stopsAtOnce_andTheTaskIsCancelled() throws {
        // Given: cancelled once the request is under way (the first look is before it)
        var looks = 0
        let sut = DAVRequestClock(
            limits: DAVTimeLimits(request: 60),
            isCancelled: {
                looks += 1
                return looks > 2
            })
        let started = Date()
        let budget = try sut.next()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: URLRequest(url: url)) { _, _, _ in done.signal() }
        task.resume()

        // When / Then: stopped well before the 60 s limit
        XCTAssertThrowsError(try sut.wait(for: done, budget, method: "GET", url: url, stop: task.cancel)) { error in
            XCTAssertEqual(error as? DAVError, .cancelled)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        XCTAssertNotEqual(task.state, .running)
        // And nothing more starts
        XCTAssertThrowsError(try sut.next()) { XCTAssertEqual($0 as? DAVError, .cancelled) }
    }

    func test_theSyncsDeadline_stopsTheRequestUnderWay_andNoneStartsAfter() throws {
        // Given: a sync of 0.5 s, each request allowed 60
        let sut = DAVRequestClock(limits: DAVTimeLimits(request: 60, sync: 0.5))
        let expected = DAVError.timedOut(
            "the server's answers took longer than 0.5 s in all (the limit for one sync; "
                + "CONTACTSBOOK_SYNC_TIMEOUT sets it); stopped, what was saved before is kept")

        // When / Then
        XCTAssertThrowsError(try exchange(sut, url)) { XCTAssertEqual($0 as? DAVError, expected) }
        XCTAssertThrowsError(try sut.next()) { XCTAssertEqual($0 as? DAVError, expected) }
    }

    func test_next_givesTheRequestsLimit_orWhatIsLeftOfTheSyncs() throws {
        // Given: a clock that moves only when told
        var now: TimeInterval = 1_000
        let sut = DAVRequestClock(limits: DAVTimeLimits(request: 120, sync: 300), now: { now })

        // Then
        XCTAssertEqual(try sut.next(), .init(timeout: 120, byDeadline: false))
        now += 250
        XCTAssertEqual(try sut.next(), .init(timeout: 50, byDeadline: true))
        now += 50
        XCTAssertThrowsError(try sut.next())
    }

    func test_anAnswerInTime_isWaitedFor_andNothingStopped() throws {
        // Given: the transfer is done already
        let sut = DAVRequestClock(limits: DAVTimeLimits(request: 0.2))
        let done = DispatchSemaphore(value: 0)
        done.signal()
        var stopped = false

        // When
        try sut.wait(for: done, try sut.next(), method: "GET", url: url) { stopped = true }

        // Then
        XCTAssertFalse(stopped)
    }

    /// A loopback socket listening on a free port, which never accepts: connections wait in its backlog.
    private static func listening() throws -> (fd: Int32, port: UInt16) {
        #if os(Linux)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
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
}
