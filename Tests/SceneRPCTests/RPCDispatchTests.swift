import JSONBytes
import SceneCore
import XCTest

@testable import SceneRPC

/// Scene and router methods against the fake two-scene app.
final class RPCDispatchTests: XCTestCase {
    private var fixture: RPCFixture!

    override func setUp() {
        super.setUp()
        fixture = RPCFixture()
        _ = fixture.sendFramed(RPCSeeds.initialize)
    }

    private let listAndItem: JSONValue = [["scene": "list", "title": "All items"], ["scene": "item", "title": "Ann"]]

    func test_sceneAction_thatPushes_returnsWhatWasDisplayedAndTheNewStack() {
        // When
        let out = fixture.sendFramed(RPCSeeds.request(1, "list/open", "{\"name\":\"Ann\"}"))
        // Then: the stack notification comes before the response
        XCTAssertEqual(out.count, 2)
        XCTAssertEqual(
            out.first,
            [
                "jsonrpc": "2.0", "method": "session/stackChanged",
                "params": ["routes": [["route": "push", "scene": "item"]], "stack": listAndItem],
            ])
        XCTAssertEqual(
            out.last?["result"],
            [
                "displayed": [["kind": "item", "value": ["name": "Ann"]]],
                "routes": [["route": "push", "scene": "item"]], "stack": listAndItem,
            ])
    }

    func test_sceneAction_thatPops_announcesTheStack() {
        // Given
        _ = fixture.sendFramed(RPCSeeds.request(1, "list/open", "{\"name\":\"Ann\"}"))
        // When
        let out = fixture.sendFramed(RPCSeeds.request(2, "item/close"))
        // Then
        XCTAssertEqual(out.first?["params"]?["routes"], [["route": "pop", "scene": "item"]])
        XCTAssertEqual(out.last?["result"]?["stack"], [["scene": "list", "title": "All items"]])
        XCTAssertEqual(out.last?["result"]?["displayed"], [])
    }

    func test_actionOfASceneUnderTheActiveOne_leavesTheScenesAbove_thenRuns() {
        // Given
        _ = fixture.sendFramed(RPCSeeds.request(1, "list/open", "{\"name\":\"Ann\"}"))
        // When
        let out = fixture.sendFramed(RPCSeeds.request(2, "list/find", "{\"query\":\"x\"}"))
        // Then: the pop is announced and shown in the result, with what the action displayed
        XCTAssertEqual(out.first?["method"], "session/stackChanged")
        XCTAssertEqual(out.last?["result"]?["routes"], [["route": "pop", "scene": "item"]])
        XCTAssertEqual(out.last?["result"]?["displayed"], [["kind": "list", "value": ["items": ["Ann", "Bob"]]]])
        XCTAssertEqual(out.last?["result"]?["stack"], [["scene": "list", "title": "All items"]])
        XCTAssertEqual(fixture.listSpy.performedCalls.map(\.name), ["open", "find"])
    }

    func test_actionOfASceneNotOnTheStack_isSceneNotActiveShowingTheStack() {
        // When
        let out = fixture.sendFramed(RPCSeeds.request(2, "item/rename", "{\"name\":\"x\"}"))
        // Then: the error message is also sent as a notification, before the response
        XCTAssertEqual(out.first?["method"], "session/message")
        let failure = out.last?["error"]
        XCTAssertEqual(failure?["code"], .integer(ErrorCode.sceneNotActive.rpcCode))
        XCTAssertEqual(failure?["data"]?["code"], "scene_not_active")
        XCTAssertEqual(failure?["data"]?["stack"], [["scene": "list", "title": "All items"]])
        XCTAssertEqual(failure?["data"]?["details"], ["active": "list", "stack": "list"])
        XCTAssertEqual(fixture.listSpy.performedCalls.map(\.name), [])
    }

    func test_messages_areNotifiedInDisplayOrderBeforeTheResult() {
        // Given
        _ = fixture.sendFramed(RPCSeeds.request(1, "list/open", "{\"name\":\"Ann\"}"))
        // When
        let out = fixture.sendFramed(RPCSeeds.request(2, "item/rename", "{\"name\":\"Anna Lee\"}"))
        // Then
        XCTAssertEqual(
            out.first,
            [
                "jsonrpc": "2.0", "method": "session/message",
                "params": ["kind": "success", "text": "renamed", "details": [:]],
            ])
        XCTAssertEqual(
            out.last?["result"]?["displayed"],
            [
                ["kind": "message", "value": ["kind": "success", "text": "renamed", "details": [:]]],
                ["kind": "item", "value": ["name": "Anna Lee"]],
            ])
    }

    func test_dataChangesPostedByTheApp_areNotified() {
        // When
        let out = fixture.sendFramed(RPCSeeds.request(1, "list/touch"))
        // Then
        XCTAssertEqual(out.map { $0["method"] }, ["session/dataChanged", "session/message", nil])
        XCTAssertEqual(out.first?["params"], ["topic": "items", "kind": "updated", "ids": ["7"], "external": false])
    }

    func test_sessionBack_popsAndAtTheRootIsInvalidState() {
        // Given
        _ = fixture.sendFramed(RPCSeeds.request(1, "list/open", "{\"name\":\"Ann\"}"))
        // When
        let back = fixture.sendFramed(RPCSeeds.request(2, "session/back"))
        let again = fixture.sendFramed(RPCSeeds.request(3, "session/back"))
        // Then
        XCTAssertEqual(back.last?["result"]?["routes"], [["route": "pop", "scene": "item"]])
        XCTAssertEqual(again.last?["error"]?["code"], .integer(ErrorCode.invalidState.rpcCode))
    }

    func test_sessionPopTo_popsToTheSceneOrIsNotFound() {
        // Given
        _ = fixture.sendFramed(RPCSeeds.request(1, "list/open", "{\"name\":\"Ann\"}"))
        // When
        let missing = fixture.sendFramed(RPCSeeds.request(2, "session/popTo", "{\"scene\":\"nowhere\"}"))
        let popped = fixture.sendFramed(RPCSeeds.request(3, "session/popTo", "{\"scene\":\"list\"}"))
        // Then
        XCTAssertEqual(missing.last?["error"]?["code"], .integer(ErrorCode.notFound.rpcCode))
        XCTAssertEqual(popped.last?["result"]?["routes"], [["route": "pop", "scene": "item"]])
        XCTAssertEqual(fixture.session.stack.scenes.map(\.descriptor.id), ["list"])
    }

    func test_sessionStackAndHelp_displayCoreViewModels() {
        // When
        let out = fixture.sendFramed(
            RPCSeeds.request(1, "session/stack"), RPCSeeds.request(2, "session/help", "{\"action\":\"page\"}"))
        // Then
        XCTAssertEqual(
            out.first?["result"]?["displayed"],
            [["kind": "stack", "value": ["scenes": [["scene": "list", "title": "All items"]]]]])
        XCTAssertEqual(out.last?["result"]?["displayed"]?.arrayFirst?["kind"], "help")
    }

    func test_sessionStack_asTheStackMoves_displaysTheStackOfThatMoment() {
        // Given: the stack's JSON is kept between requests while the stack is unchanged
        let before = fixture.sendFramed(RPCSeeds.request(1, "session/stack"), RPCSeeds.request(2, "session/stack"))
        // When
        _ = fixture.sendFramed(RPCSeeds.request(3, "list/open", "{\"name\":\"Ann\"}"))
        let pushed = fixture.sendFramed(RPCSeeds.request(4, "session/stack"))
        _ = fixture.sendFramed(RPCSeeds.request(5, "session/back"))
        let back = fixture.sendFramed(RPCSeeds.request(6, "session/stack"))
        // Then: each displays the stack it was asked in, the same as the result's `stack`
        let list: JSONValue = [["scene": "list", "title": "All items"]]
        XCTAssertEqual(
            before.map { $0["result"]?["displayed"] },
            [
                [["kind": "stack", "value": ["scenes": list]]],
                [["kind": "stack", "value": ["scenes": list]]],
            ])
        XCTAssertEqual(pushed.last?["result"]?["displayed"], [["kind": "stack", "value": ["scenes": listAndItem]]])
        XCTAssertEqual(pushed.last?["result"]?["stack"], listAndItem)
        XCTAssertEqual(back.last?["result"]?["displayed"], [["kind": "stack", "value": ["scenes": list]]])
    }

    func test_aMethodAskedAgain_bindsItsOwnParams_andIsCheckedAgainstTheLifecycle() {
        // When: the same methods in a row (one lookup kept), then after `shutdown`
        let out = fixture.sendFramed(
            RPCSeeds.request(1, "list/find", "{\"query\":\"ann\"}"),
            RPCSeeds.request(2, "list/find", "{\"query\":\"bo\"}"),
            RPCSeeds.request(3, "list/find", "{\"query\":3}"), RPCSeeds.request(4, "list/find"),
            RPCSeeds.request(5, "session/stack"), RPCSeeds.request(6, "session/stack"), RPCSeeds.request(7, "shutdown"),
            RPCSeeds.request(8, "session/stack"))
        // Then
        XCTAssertEqual(
            fixture.listSpy.performedCalls,
            [ActionCall("find", ["query": .string("ann")]), ActionCall("find", ["query": .string("bo")])])
        XCTAssertEqual(out.map { $0["id"] }, [1, 2, 3, 4, 5, 6, 7, 8])
        XCTAssertEqual(out[2]["error"]?["message"], "invalid params: 'query' must be a string")
        XCTAssertEqual(out[3]["error"]?["message"], "invalid params: 'query' is required (a string)")
        XCTAssertEqual(out[4]["result"], out[5]["result"])
        XCTAssertEqual(out[6]["result"], .null)
        XCTAssertEqual(out[7]["error"]?["code"], -32600)
    }

    func test_sessionStack_answersTheSameBytesAsTheResultObject() {
        // When: the stack alone, written from its kept text, at the root and with a scene pushed
        let atRoot = fixture.sut.receive(RPCSeeds.contentLengthFrame(RPCSeeds.request(1, "session/stack")))
        _ = fixture.sendFramed(RPCSeeds.request(2, "list/open", #"{"name":"Zoë \"Ann\""}"#))
        let pushed = fixture.sut.receive(RPCSeeds.contentLengthFrame(RPCSeeds.request(3, "session/stack")))
        // Then
        let list: JSONValue = ["scene": "list", "title": "All items"]
        let stacks: [JSONValue] = [[list], [list, ["scene": "item", "title": "Zoë \"Ann\""]]]
        for (frames, stack) in zip([atRoot, pushed], stacks) {
            XCTAssertEqual(frames.count, 1)
            let message = RPCSeeds.messages(frames).first
            let expected: JSONValue = [
                "displayed": [["kind": "stack", "value": ["scenes": stack]]], "routes": [], "stack": stack,
            ]
            XCTAssertEqual(message?["result"], expected)
            XCTAssertEqual(
                frames.first,
                message.map { RPCSeeds.contentLengthFrame(String(decoding: $0.serialized(), as: UTF8.self)) })
        }
    }

    func test_quit_isNotAMethod() {
        XCTAssertEqual(fixture.sendFramed(RPCSeeds.request(1, "session/quit")).last?["error"]?["code"], -32601)
    }

    func test_methodSentAsNotification_runsWithoutAResponse() {
        // When
        let out = fixture.sendFramed(RPCSeeds.notification("list/open", "{\"name\":\"Bo\"}"))
        // Then: its notifications still go out
        XCTAssertEqual(out.map { $0["method"] }, ["session/stackChanged"])
    }
}

extension JSONValue {
    var arrayFirst: JSONValue? {
        if case .array(let values) = self { return values.first }
        return nil
    }
}
