import SceneCore
import XCTest

@testable import ContactsApp

/// A sync stops between two requests once its client asked to stop.
final class CancellableTransportTests: XCTestCase {
    /// Says whether the client asked to stop, as a test sets it.
    final class ProgressReporterSpy: ProgressReporter {
        var cancelled = false
        private(set) var cancellationChecks = 0
        func post(_ event: ProgressEvent) {}
        var isCancelled: Bool {
            cancellationChecks += 1
            return cancelled
        }
    }

    private var transport: DAVTransportSpy!
    private var progress: ProgressReporterSpy!
    private var sut: CancellableTransport!

    override func setUp() {
        super.setUp()
        transport = DAVTransportSpy()
        progress = ProgressReporterSpy()
        sut = CancellableTransport(transport, progress: progress)
    }

    func test_aRequest_goesThrough_whileNobodyAskedToStop() throws {
        // Given
        transport.responses = [DAVResponse(status: 207)]
        let request = DAVRequest(method: "REPORT", url: Seeds.CardDAV.book)
        // When
        let response = try sut.send(request)
        // Then
        XCTAssertEqual(response.status, 207)
        XCTAssertEqual(transport.requests, [request])
        XCTAssertEqual(progress.cancellationChecks, 1)
    }

    func test_onceTheClientAskedToStop_noFurtherRequestIsSent() {
        // Given
        progress.cancelled = true
        // When
        XCTAssertThrowsError(try sut.send(DAVRequest(method: "PUT", url: Seeds.CardDAV.book))) { error in
            // Then
            XCTAssertEqual(error as? DAVError, .cancelled)
            XCTAssertEqual("\(error)", "sync cancelled: what was pulled and pushed before is kept; sync again to go on")
        }
        XCTAssertEqual(transport.requests, [])
    }
}
