import JSONBytes
import Logging
import XCTest

@testable import SceneRPC

final class RPCLifecycleTests: XCTestCase {
    private var fixture: RPCFixture!
    private var sut: RPCServer { fixture.sut }

    override func setUp() {
        super.setUp()
        fixture = RPCFixture()
    }

    func test_contentLength_requestBeforeInitialize_isServerNotInitialized() {
        // When
        let out = fixture.sendFramed(RPCSeeds.notification("list/touch"), RPCSeeds.request(1, "session/stack"))
        // Then: the notification is dropped, the request refused
        XCTAssertEqual(out.map { $0["error"]?["code"] }, [-32002])
        XCTAssertEqual(fixture.listSpy.performedCalls, [])
        XCTAssertEqual(sut.lifecycle, .awaitingInitialize)
    }

    func test_contentLength_answersInContentLengthFraming() {
        // When
        let frames = sut.receive(RPCSeeds.contentLengthFrame(RPCSeeds.initialize))
        // Then
        XCTAssertEqual(frames.count, 1)
        XCTAssertTrue(String(decoding: frames[0], as: UTF8.self).hasPrefix("Content-Length: "))
    }

    func test_receive_byteAtATime_answersOnTheLastByteOnly() {
        // Given
        let bytes = RPCSeeds.contentLengthFrame(RPCSeeds.initialize)
        // When
        let answers = bytes.map { sut.receive([$0]).count }
        // Then
        XCTAssertEqual(answers.dropLast().reduce(0, +), 0)
        XCTAssertEqual(answers.last, 1)
    }

    func test_initialize_returnsServerInfoCapabilitiesAndScenes() {
        // When
        let result = fixture.sendFramed(RPCSeeds.initialize, RPCSeeds.notification("initialized")).first?["result"]
        // Then
        XCTAssertEqual(result?["serverInfo"], ["name": "fakebook", "version": "9.9"])
        XCTAssertEqual(result?["protocolVersion"], .string(RPCServerInfo.protocolVersion))
        XCTAssertEqual(result?["capabilities"]?["framing"], "contentLength")
        XCTAssertEqual(result?["capabilities"]?["cancelRequest"], true)
        XCTAssertEqual(
            result?["scenes"],
            [
                [
                    "id": "list", "summary": "the list",
                    "methods": ["list/find", "list/page", "list/open", "list/fail", "list/touch"],
                ],
                ["id": "item", "summary": "one item", "methods": ["item/rename", "item/close"]],
            ])
        XCTAssertEqual(result?["stack"], [["scene": "list", "title": "All items"]])
        XCTAssertEqual(sut.lifecycle, .running)
        XCTAssertEqual(fixture.logSpy.lines, ["client: {\"name\":\"tests\"}"])
        XCTAssertEqual(fixture.logSpy.levels, [.info])
    }

    func test_initializeTwice_isInvalidRequest() {
        // When
        let out = fixture.sendFramed(RPCSeeds.initialize, RPCSeeds.initialize)
        // Then
        XCTAssertNotNil(out.first?["result"])
        XCTAssertEqual(out.last?["error"]?["code"], -32600)
    }

    func test_shutdownThenExit_endsWithStatusZeroAndIgnoresTheRest() {
        // Given
        _ = fixture.sendFramed(RPCSeeds.initialize)
        // When
        let out = fixture.sendFramed(
            RPCSeeds.request(1, "shutdown"), RPCSeeds.request(2, "session/stack"),
            RPCSeeds.notification("exit"), RPCSeeds.request(3, "session/stack"))
        // Then
        XCTAssertEqual(out.map { $0["id"] }, [1, 2])
        XCTAssertEqual(out.first?["result"], .null)
        XCTAssertEqual(out.last?["error"]?["code"], -32600)
        XCTAssertTrue(sut.isFinished)
        XCTAssertEqual(sut.lifecycle, .exited(status: 0))
        XCTAssertEqual(sut.exitStatus, 0)
        XCTAssertEqual(sut.receive(RPCSeeds.contentLengthFrame(RPCSeeds.request(4, "session/stack"))), [])
    }

    func test_exitWithoutShutdown_endsWithStatusOne() {
        // When
        _ = fixture.sendFramed(RPCSeeds.initialize, RPCSeeds.notification("exit"))
        // Then
        XCTAssertTrue(sut.isFinished)
        XCTAssertEqual(sut.exitStatus, 1)
    }

    func test_endOfInput_answersAnUnterminatedLastLineAndEndsCleanly() {
        // Given
        let pushed = sut.receive(Array(RPCSeeds.request(1, "session/stack").utf8))
        // When
        let out = RPCSeeds.messages(sut.endOfInput())
        // Then
        XCTAssertEqual(pushed, [])
        XCTAssertEqual(out.map { $0["id"] }, [1])
        XCTAssertTrue(sut.isFinished)
        XCTAssertEqual(sut.exitStatus, 0)
    }

    func test_newlineDelimited_mayUseMethodsWithoutInitialize() {
        // When
        let out = fixture.send(RPCSeeds.request(1, "session/stack"), RPCSeeds.initialize)
        // Then: and may still initialize once
        XCTAssertNotNil(out.first?["result"])
        XCTAssertEqual(out.last?["result"]?["capabilities"]?["framing"], "newlineDelimited")
    }

    func test_handleLine_answersOneLineAndNothingForNotifications() {
        // When
        let answer = sut.handleLine(RPCSeeds.request(1, "session/stack"))
        let silence = sut.handleLine(RPCSeeds.notification("initialized"))
        // Then
        XCTAssertEqual(answer.map { try? JSONValue.parse(Array($0.utf8)) }??["id"], 1)
        XCTAssertEqual(answer?.contains("\n"), false)
        XCTAssertNil(silence)
    }

    func test_handleLine_putsNotificationsOnLinesBeforeTheResponse() throws {
        // When
        let answer = try XCTUnwrap(sut.handleLine(RPCSeeds.request(1, "list/open", "{\"name\":\"Ann\"}")))
        // Then
        let lines = try answer.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
        XCTAssertEqual(lines.map { $0["method"] }, ["session/stackChanged", nil])
        XCTAssertEqual(lines.last?["id"], 1)
    }
}
