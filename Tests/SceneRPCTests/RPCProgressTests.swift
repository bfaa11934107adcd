import JSONBytes
import SceneCore
import XCTest

@testable import SceneRPC

/// A fake long action: reports progress through the core's `ProgressReporter`, posts a data
/// change in the middle, and runs a probe while the work goes on.
final class LongWorkSceneSpy: Scene {
    static let kind = SceneDescriptor(
        id: "jobs", summary: "long work",
        actions: [
            ActionSpec(
                "import", summary: "import things",
                parameters: [
                    ParameterSpec("count", .integer(min: 0, max: 10), help: "how many")
                ])
        ])

    let descriptor = LongWorkSceneSpy.kind
    let title = "Jobs"
    private let context: SceneContext
    private let progress: ProgressReporter
    private let changes: ChangeNotifier
    /// Runs after each report, while the action is still running.
    var duringWork: () -> Void = {}

    init(context: SceneContext, progress: ProgressReporter, changes: ChangeNotifier) {
        self.context = context; self.progress = progress; self.changes = changes
    }

    func perform(_ call: ActionCall) {
        let count = call.integer("count") ?? 0
        progress.begin("Importing", total: count)
        for done in stride(from: 1, through: count, by: 1) {
            changes.post(DataChange(topic: "things", kind: "created", ids: ["\(done)"]))
            progress.report(completed: done, of: count, message: "\(done) of \(count)")
            duringWork()
        }
        progress.end("Imported \(count)")
        context.display.display(Message.success("Imported \(count)"))
    }
}

/// A server over the one-scene fake app, with the progress hub wired as the composition root does.
struct ProgressFixture {
    let sut: RPCServer
    let scene: LongWorkSceneSpy
    let hub: ProgressHub

    init() {
        let progress = ProgressHub()
        let changes = ChangeHub()
        var root: LongWorkSceneSpy?
        let session = Session(sceneKinds: [LongWorkSceneSpy.kind]) { context in
            let scene = LongWorkSceneSpy(context: context, progress: progress, changes: changes)
            root = scene
            return scene
        }
        scene = root!
        hub = progress
        sut = RPCServer(
            session: session, info: RPCSeeds.info, changes: changes, progress: progress,
            log: LogSpy().log)
    }

    func send(_ texts: String...) -> [JSONValue] {
        RPCSeeds.messages(sut.receive(texts.flatMap(RPCSeeds.line)))
    }
}

final class RPCProgressTests: XCTestCase {
    private var fixture: ProgressFixture!

    override func setUp() {
        super.setUp()
        fixture = ProgressFixture()
    }

    func test_withAWorkDoneToken_sendsBeginReportEndBeforeTheResponse_inEventOrder() {
        // When
        let out = fixture.send(RPCSeeds.request(1, "jobs/import", #"{"count":2,"workDoneToken":"t1"}"#))
        // Then
        XCTAssertEqual(
            out.map { $0["method"] ?? "response" },
            [
                "$/progress", "session/dataChanged", "$/progress", "session/dataChanged", "$/progress",
                "$/progress", "session/message", "response",
            ])
        let values = out.filter { $0["method"] == "$/progress" }.map { $0["params"] }
        XCTAssertEqual(
            values,
            [
                [
                    "token": "t1",
                    "value": ["kind": "begin", "title": "Importing", "cancellable": false, "percentage": 0],
                ],
                ["token": "t1", "value": ["kind": "report", "percentage": 50, "message": "1 of 2"]],
                ["token": "t1", "value": ["kind": "report", "percentage": 100, "message": "2 of 2"]],
                ["token": "t1", "value": ["kind": "end", "message": "Imported 2"]],
            ])
        XCTAssertEqual(out.last?["id"], 1)
        XCTAssertNotNil(out.last?["result"])
    }

    func test_withAnMCPProgressToken_sendsIncreasingNotificationsProgress() {
        // When
        let out = fixture.send(RPCSeeds.request(1, "jobs/import", #"{"count":2,"_meta":{"progressToken":7}}"#))
        // Then: no end notification (the response ends it), progress only increases
        let progress = out.filter { $0["method"] == "notifications/progress" }.map { $0["params"] }
        XCTAssertEqual(
            progress,
            [
                ["progressToken": 7, "progress": 0, "total": 2, "message": "Importing"],
                ["progressToken": 7, "progress": 1, "total": 2, "message": "1 of 2"],
                ["progressToken": 7, "progress": 2, "total": 2, "message": "2 of 2"],
            ])
        XCTAssertFalse(out.contains { $0["method"] == "$/progress" })
        XCTAssertNotNil(out.last?["result"])
    }

    func test_anMCPToken_goesOnIncreasingWhenTheWorkCountsAgainFromZero() {
        // Given: a sync's shape, 3 downloads then 2 uploads counted from 0
        var sut = ProgressToken(value: 7, style: .mcp)
        let events: [ProgressEvent] = [
            .begin(title: "Syncing", total: nil),
            .report(completed: 1, total: 3, message: "down 1"), .report(completed: 3, total: 3, message: "down 3"),
            .report(completed: 0, total: 2, message: "up 0"), .report(completed: 1, total: 2, message: "up 1"),
            .report(completed: 2, total: 2, message: "up 2"), .end(message: "done"),
        ]
        // When
        let sent = events.compactMap { sut.notification(for: $0)?.params }
        // Then: no upload report is dropped after the first, and progress never exceeds its total
        XCTAssertEqual(
            sent,
            [
                ["progressToken": 7, "progress": 0, "message": "Syncing"],
                ["progressToken": 7, "progress": 1, "total": 3, "message": "down 1"],
                ["progressToken": 7, "progress": 3, "total": 3, "message": "down 3"],
                ["progressToken": 7, "progress": 4, "total": 5, "message": "up 1"],
                ["progressToken": 7, "progress": 5, "total": 5, "message": "up 2"],
            ])
    }

    func test_withoutAToken_sendsNoProgress() {
        // When
        let out = fixture.send(RPCSeeds.request(1, "jobs/import", #"{"count":2}"#))
        // Then
        XCTAssertEqual(
            out.map { $0["method"] ?? "response" },
            ["session/dataChanged", "session/dataChanged", "session/message", "response"])
    }

    func test_progressOfOneRequest_doesNotLeakIntoTheNext() {
        // Given
        _ = fixture.send(RPCSeeds.request(1, "jobs/import", #"{"count":1,"workDoneToken":"t1"}"#))
        // When: the app reports outside any request, then a request without a token runs
        fixture.hub.begin("stray")
        let out = fixture.send(RPCSeeds.request(2, "jobs/import", #"{"count":1}"#))
        // Then
        XCTAssertFalse(out.contains { $0["method"] == "$/progress" })
    }

    func test_progressFrames_areEmittedWhileTheRequestIsStillRunning() {
        // Given: a probe that counts the frames written so far at each report
        var emitted: [[UInt8]] = []
        var seenDuringWork: [Int] = []
        fixture.scene.duringWork = { seenDuringWork.append(emitted.count) }
        // When
        fixture.sut.receive(RPCSeeds.line(RPCSeeds.request(1, "jobs/import", #"{"count":2,"workDoneToken":3}"#))) {
            emitted.append($0)
        }
        // Then: begin + change + report by the first probe, two more by the second
        XCTAssertEqual(seenDuringWork, [3, 5])
        XCTAssertEqual(RPCSeeds.messages(emitted).last?["id"], 1)
    }

    func test_tokens_areTakenOutOfTheParams_beforeTheyAreChecked() {
        // When: the action has no such parameters, yet the call is accepted
        let out = fixture.send(RPCSeeds.request(1, "jobs/import", #"{"count":0,"workDoneToken":"a","_meta":{}}"#))
        // Then
        XCTAssertNotNil(out.last?["result"], "\(out)")
    }

    func test_initialize_announcesProgress() {
        // When
        let out = fixture.send(RPCSeeds.initialize)
        // Then
        XCTAssertEqual(out.last?["result"]?["capabilities"]?["progress"], true)
    }

    func test_describe_listsBothProgressNotifications() {
        // When
        let out = fixture.send(RPCSeeds.request(1, "session/describe"))
        // Then
        guard case .array(let notifications)? = out.last?["result"]?["notifications"] else {
            return XCTFail("no notifications in \(out)")
        }
        let names = notifications.compactMap { $0["name"] }
        XCTAssertTrue(names.contains("$/progress"))
        XCTAssertTrue(names.contains("notifications/progress"))
    }
}
