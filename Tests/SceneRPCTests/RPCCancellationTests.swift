import Foundation
import JSONBytes
import SceneCore
import XCTest

@testable import SceneRPC

/// Long work that looks for a cancellation after each step, as the app's import and export do.
final class CancellableWorkSceneSpy: Scene {
    static let kind = SceneDescriptor(
        id: "jobs", summary: "long work",
        actions: [
            ActionSpec(
                "import", summary: "import things",
                parameters: [ParameterSpec("count", .integer(min: 1, max: 10), help: "how many")])
        ])

    let descriptor = CancellableWorkSceneSpy.kind
    let title = "Jobs"
    private let context: SceneContext
    private let progress: ProgressReporter
    /// Runs after each step is reported, while the work goes on (a client writing meanwhile).
    var duringWork: (_ step: Int) -> Void = { _ in }
    private(set) var stepsDone = 0

    init(context: SceneContext, progress: ProgressReporter) { self.context = context; self.progress = progress }

    func perform(_ call: ActionCall) {
        let count = call.integer("count") ?? 1
        progress.begin("Importing", total: count)
        defer { progress.end(nil) }
        for step in 1...count {
            progress.report(completed: step - 1, of: count, message: nil)
            duringWork(step)
            if progress.isCancelled {
                return context.display.display(Message.error("stopped: nothing imported", code: .invalidState))
            }
            stepsDone = step
        }
        context.display.display(Message.success("Imported \(count)"))
    }
}

/// A cancellation that arrives while a request runs: the server reads it without waiting when
/// the work asks, answers the request with -32800, then answers what else was read meanwhile.
final class RPCCancellationTests: XCTestCase {
    private var sut: RPCServer!
    private var scene: CancellableWorkSceneSpy!
    private var input: (read: Int32, write: Int32) = (-1, -1)
    private var output: (read: Int32, write: Int32) = (-1, -1)

    override func setUpWithError() throws {
        try super.setUpWithError()
        let progress = ProgressHub()
        var root: CancellableWorkSceneSpy?
        let session = Session(sceneKinds: [CancellableWorkSceneSpy.kind]) { context in
            let scene = CancellableWorkSceneSpy(context: context, progress: progress)
            root = scene
            return scene
        }
        scene = root!
        sut = RPCServer(session: session, info: RPCSeeds.info, progress: progress, log: LogSpy().log)
        input = try pipePair()
        output = try pipePair()
    }

    private func pipePair() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EIO) }
        return (fds[0], fds[1])
    }

    private func write(_ lines: String...) {
        XCTAssertTrue(RPCServer.writeWhole(lines.flatMap(RPCSeeds.line), to: input.write))
    }

    /// Runs the server until the input ends; returns its status and every message written (one a line).
    private func runToTheEnd() -> (status: Int32, messages: [JSONValue]) {
        let status = sut.run(input: input.read, output: output.write)
        close(input.read); close(output.write)
        var written: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let count = read(output.read, &chunk, chunk.count), count > 0 { written += chunk[0..<count] }
        close(output.read)
        let lines = written.split(separator: 0x0A).map { Array($0) + [0x0A] }
        return (status, RPCSeeds.messages(lines))
    }

    func test_aCancellationSentWhileTheWorkRuns_stopsIt_andTheRequestIsAnsweredCancelled() {
        // Given: the client cancels during step 2, sends another request, and closes its input
        write(RPCSeeds.request(1, "jobs/import", #"{"count":5,"_meta":{"progressToken":"p"}}"#))
        scene.duringWork = { [self] step in
            guard step == 2 else { return }
            write(
                #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
                RPCSeeds.request(2, "session/stack"))
            close(input.write)
        }
        // When
        let (status, out) = runToTheEnd()
        // Then
        XCTAssertEqual(status, 0)
        XCTAssertEqual(scene.stepsDone, 1)
        let responses = out.filter { $0["method"] == nil }
        XCTAssertEqual(responses.map { $0["id"] }, [1, 2])
        XCTAssertEqual(responses[0]["error"]?["code"], .integer(RPCError.requestCancelledCode))
        XCTAssertNotNil(responses[1]["result"])
    }

    func test_anLSPCancelRequest_stopsTheWorkToo() {
        // Given
        write(RPCSeeds.request(7, "jobs/import", #"{"count":3}"#))
        scene.duringWork = { [self] step in
            guard step == 1 else { return }
            write(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}"#)
            close(input.write)
        }
        // When
        let (_, out) = runToTheEnd()
        // Then
        XCTAssertEqual(scene.stepsDone, 0)
        XCTAssertEqual(out.last?["error"]?["code"], .integer(RPCError.requestCancelledCode))
    }

    func test_otherInputReadDuringTheWork_doesNotStopIt_andARequestIsAnsweredBusyAtOnce() {
        // Given: a cancellation naming another request, and a request, sent during step 1
        write(RPCSeeds.request(1, "jobs/import", #"{"count":3}"#))
        var written: [UInt8] = []
        scene.duringWork = { [self] step in
            if step == 2 {
                // What the client has read by now, while the work still runs.
                var chunk = [UInt8](repeating: 0, count: 4096)
                var waiting = pollfd(fd: output.read, events: Int16(POLLIN), revents: 0)
                while poll(&waiting, 1, 0) > 0, case let count = read(output.read, &chunk, chunk.count), count > 0 {
                    written += chunk[0..<count]
                }
            }
            guard step == 1 else { return }
            write(
                #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}"#,
                RPCSeeds.request(2, "session/stack"))
            close(input.write)
        }
        // When
        let (status, out) = runToTheEnd()
        // Then: request 2 was answered busy before the work went on to step 2, naming request 1
        XCTAssertEqual(status, 0)
        XCTAssertEqual(scene.stepsDone, 3)
        let early = RPCSeeds.messages(written.split(separator: 0x0A).map { Array($0) + [0x0A] })
        XCTAssertEqual(
            early.filter { $0["method"] == nil },
            [
                [
                    "jsonrpc": "2.0", "id": 2,
                    "error": [
                        "code": .integer(RPCError.busyCode), "data": ["running": 1],
                        "message":
                            "busy: request 1 is still running; send this again once it is answered, or cancel that one first",
                    ],
                ]
            ])
        let responses = out.filter { $0["method"] == nil }
        XCTAssertEqual(responses.map { $0["id"] }, [1])
        XCTAssertNotNil(responses[0]["result"])
    }

    func test_aRequestReadWithTheCancellationOfTheWork_waitsForItToStop_andIsAnsweredNext() {
        // Given
        write(RPCSeeds.request(1, "jobs/import", #"{"count":3}"#))
        scene.duringWork = { [self] step in
            guard step == 1 else { return }
            write(
                #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#, RPCSeeds.request(2, "session/stack")
            )
            close(input.write)
        }
        // When
        let (_, out) = runToTheEnd()
        // Then
        let responses = out.filter { $0["method"] == nil }
        XCTAssertEqual(responses.map { $0["id"] }, [1, 2])
        XCTAssertEqual(responses[0]["error"]?["code"], .integer(RPCError.requestCancelledCode))
        XCTAssertNotNil(responses[1]["result"])
    }

    func test_fedByHand_theServerReadsNothingItself_andSeesACancellationOnlyInWhatItsDriverHandsIt() {
        // Given: no descriptor at all; a driver whose input holds a cancellation once step 1 runs
        var waiting: [WaitingInput] = []
        var asked = 0
        sut.waitingInput = {
            asked += 1
            return waiting.isEmpty ? .nothing : waiting.removeFirst()
        }
        scene.duringWork = { step in
            guard step == 1 else { return }
            waiting = [
                .bytes(ArraySlice(RPCSeeds.line(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":4}}"#)))
            ]
        }
        // When
        let out = RPCSeeds.messages(sut.receive(RPCSeeds.line(RPCSeeds.request(4, "jobs/import", #"{"count":3}"#))))
        // Then: asked between steps, stopped before step 1 counted, answered cancelled
        XCTAssertGreaterThan(asked, 0)
        XCTAssertEqual(scene.stepsDone, 0)
        XCTAssertEqual(
            out.filter { $0["method"] == nil }.map { $0["error"]?["code"] }, [.integer(RPCError.requestCancelledCode)])
    }

    func test_fedByHand_withoutADriver_theWorkRunsToItsEnd() {
        // When: nothing can be waiting, so nothing is read
        let out = RPCSeeds.messages(sut.receive(RPCSeeds.line(RPCSeeds.request(5, "jobs/import", #"{"count":2}"#))))
        // Then
        XCTAssertEqual(scene.stepsDone, 2)
        XCTAssertNotNil(out.first { $0["method"] == nil }?["result"])
    }
}
