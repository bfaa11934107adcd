import JSONBytes
import Logging
import SceneCore
import XCTest

@testable import SceneRPC

/// Every error path of JSON-RPC 2.0, over newline-delimited JSON (initialize optional there).
final class RPCConformanceTests: XCTestCase {
    private var fixture: RPCFixture!

    override func setUp() {
        super.setUp()
        fixture = RPCFixture(limits: FrameLimits(maxHeaderBytes: 256, maxBodyBytes: 512))
    }

    private func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
        let out = fixture.send(text, file: file, line: line)
        XCTAssertEqual(out.count, 1, "\(out)", file: file, line: line)
        return out.last?["error"]
    }

    private func assertError(
        _ text: String, code: Int, id: JSONValue, file: StaticString = #filePath, line: UInt = #line
    ) {
        let out = fixture.send(text, file: file, line: line)
        XCTAssertEqual(out.count, 1, "\(out)", file: file, line: line)
        XCTAssertEqual(out.last?["error"]?["code"], .integer(code), "\(out)", file: file, line: line)
        XCTAssertEqual(out.last?["id"], id, file: file, line: line)
        XCTAssertEqual(out.last?["jsonrpc"], "2.0", file: file, line: line)
    }

    func test_unparsableJSON_isParseErrorWithNullID() {
        assertError("{\"jsonrpc\":\"2.0\",\"id\":1,", code: -32700, id: .null)
        assertError("hello", code: -32700, id: .null)
        assertError(#"{"jsonrpc":"2.0","id":1,"method":"\ud800"}"#, code: -32700, id: .null)
        // Then: the message says what and where
        XCTAssertEqual(error("[1,]")?["message"], "parse error: unexpected ']' at byte 3")
    }

    func test_invalidUTF8_isParseError() {
        // When
        let out = RPCSeeds.messages(fixture.sut.receive([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D, 0x0A]))
        // Then
        XCTAssertEqual(out.first?["error"]?["code"], -32700)
        XCTAssertEqual(out.first?["id"], .null)
    }

    func test_invalidRequests_areRefusedWithTheIDWhenRecoverable() {
        assertError("{\"id\":1,\"method\":\"session/stack\"}", code: -32600, id: 1)
        assertError("{\"jsonrpc\":\"1.0\",\"id\":\"a\",\"method\":\"session/stack\"}", code: -32600, id: "a")
        assertError("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":7}", code: -32600, id: 2)
        assertError("{\"jsonrpc\":\"2.0\",\"id\":3}", code: -32600, id: 3)
        assertError("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"session/stack\",\"params\":\"x\"}", code: -32600, id: 4)
        assertError("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"session/stack\"}", code: -32600, id: .null)
        assertError("42", code: -32600, id: .null)
    }

    func test_ids_areEchoedWithTheirType() {
        for id in ["7", "\"seven\"", "null", "-3"] {
            // When
            let out = fixture.send("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"session/stack\"}")
            // Then
            XCTAssertEqual(out.last?["id"], try JSONValue.parse(Array(id.utf8)))
            XCTAssertNotNil(out.last?["result"])
        }
    }

    func test_unknownMethod_isMethodNotFoundNamingIt() {
        // When
        let failure = error(RPCSeeds.request(1, "list/fly"))
        // Then
        XCTAssertEqual(failure?["code"], -32601)
        XCTAssertEqual(failure?["data"]?["method"], "list/fly")
    }

    func test_badParams_nameTheParameterAndWhatWasExpected() {
        let cases: [(params: String, parameter: JSONValue?, reason: String, expected: JSONValue?)] = [
            ("{}", "number", "missing", "an integer from 1 to 50"),
            ("{\"number\":\"2\"}", "number", "invalid", "an integer from 1 to 50"),
            ("{\"number\":1.5}", "number", "invalid", "an integer from 1 to 50"),
            ("{\"number\":51}", "number", "invalid", "an integer from 1 to 50"),
            ("{\"number\":2,\"sort\":\"fi\"}", "sort", "invalid", "one of: first, last"),
            ("{\"number\":2,\"verbose\":\"yes\"}", "verbose", "invalid", "true or false"),
            ("{\"number\":2,\"colour\":\"red\"}", "colour", "unexpected", "params: number, sort, verbose"),
            ("[1,\"first\",true,4]", nil, "unexpected", "params: number, sort, verbose"),
        ]
        for (params, parameter, reason, expected) in cases {
            // When
            let failure = error(RPCSeeds.request(1, "list/page", params))
            // Then
            XCTAssertEqual(failure?["code"], -32602, params)
            XCTAssertEqual(failure?["data"]?["parameter"], parameter, params)
            XCTAssertEqual(failure?["data"]?["reason"], .string(reason), params)
            XCTAssertEqual(failure?["data"]?["expected"], expected, params)
            XCTAssertEqual(failure?["data"]?["method"], "list/page", params)
        }
        XCTAssertEqual(fixture.listSpy.performedCalls, [])
    }

    func test_parameterNamingARecord_takesANumberAsItsText_othersStillWantAString() {
        // When
        let opened = fixture.send(RPCSeeds.request(1, "list/open", #"{"name":3}"#)).last
        let notText = error(RPCSeeds.request(2, "list/find", #"{"query":3}"#))
        // Then
        XCTAssertNotNil(opened?["result"], "\(String(describing: opened))")
        XCTAssertEqual(fixture.listSpy.performedCalls, [ActionCall("open", ["name": .string("3")])])
        XCTAssertEqual(notText?["message"], "invalid params: 'query' must be a string")
        XCTAssertEqual(fixture.session.stackViewModel.scenes.map(\.title), ["All items", "3"])
    }

    func test_parameterNamingARecord_refusesOtherTypesSayingBoth() {
        for params in [#"{"name":1.5}"#, #"{"name":true}"#, #"{"name":[3]}"#] {
            // When
            let failure = error(RPCSeeds.request(1, "list/open", params))
            // Then
            XCTAssertEqual(failure?["code"], -32602, params)
            XCTAssertEqual(failure?["message"], "invalid params: 'name' must be a string or an integer", params)
            XCTAssertEqual(failure?["data"]?["expected"], "a string or an integer", params)
        }
        XCTAssertEqual(fixture.listSpy.performedCalls, [])
    }

    func test_goodParams_byNameOrPosition_reachTheSceneTyped() {
        // When
        _ = fixture.send(
            RPCSeeds.request(1, "list/page", "{\"number\":2,\"sort\":\"last\",\"verbose\":true}"),
            RPCSeeds.request(2, "list/page", "[3,null,false]"))
        // Then
        XCTAssertEqual(
            fixture.listSpy.performedCalls,
            [
                ActionCall("page", ["number": .integer(2), "sort": .string("last"), "verbose": .boolean(true)]),
                ActionCall("page", ["number": .integer(3), "verbose": .boolean(false)]),
            ])
    }

    func test_appError_mapsItsCodeAndCarriesDetailsAndDisplayed() {
        // When
        let out = fixture.send(RPCSeeds.request(1, "list/fail"))
        // Then: the message is notified first, then the error response
        XCTAssertEqual(out.first?["method"], "session/message")
        let failure = out.last?["error"]
        XCTAssertEqual(failure?["code"], .integer(ErrorCode.validationFailed.rpcCode))
        XCTAssertEqual(failure?["message"], "name is required")
        XCTAssertEqual(failure?["data"]?["code"], "validation_failed")
        XCTAssertEqual(failure?["data"]?["details"], ["name": "is required"])
        XCTAssertEqual(
            failure?["data"]?["displayed"],
            [["kind": "message", "value": try JSONValueEncoder.referenceValue(RPCSeeds.validationError)]])
    }

    func test_errorCodes_areDistinctAndInTheApplicationRange() {
        let codes = ErrorCode.allCases.map(\.rpcCode)
        XCTAssertEqual(Set(codes).count, codes.count)
        XCTAssertTrue(codes.allSatisfy { (-32099 ... -32003).contains($0) }, "\(codes)")
    }

    // MARK: notifications and batches

    func test_unknownNotification_isIgnored() {
        XCTAssertEqual(fixture.send(RPCSeeds.notification("$/somethingNew", "{}")), [])
    }

    func test_clientResponse_isLoggedAndNotAnswered() {
        XCTAssertEqual(fixture.send("{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":null}"), [])
        XCTAssertEqual(fixture.logSpy.lines.count, 1)
        XCTAssertEqual(fixture.logSpy.levels, [.notice])
    }

    func test_emptyBatch_isOneInvalidRequest() {
        // When
        let out = fixture.send("[]")
        // Then
        XCTAssertEqual(out.count, 1)
        XCTAssertEqual(out.first?["error"]?["code"], -32600)
        XCTAssertEqual(out.first?["id"], .null)
    }

    func test_batch_answersEachRequestInOneArray() {
        // When
        let out = fixture.send(
            "[\(RPCSeeds.request(1, "session/stack")),1,\(RPCSeeds.notification("x/y")),\(RPCSeeds.request(2, "nope"))]"
        )
        // Then
        guard out.count == 1, case .array(let responses) = out[0] else { return XCTFail("\(out)") }
        XCTAssertEqual(responses.map { $0["id"] }, [1, .null, 2])
        XCTAssertEqual(responses.map { $0["error"]?["code"] }, [nil, -32600, -32601])
    }

    func test_batchOverTheLengthLimit_isRefusedWhole_andTheSessionGoesOn() {
        // Given: batches of at most 3 messages
        fixture = RPCFixture(limits: FrameLimits(maxBatchLength: 3))
        let find = RPCSeeds.request(1, "list/find", "{\"query\":\"a\"}")
        // When: a batch of 4, then one of 3
        let refused = fixture.send(
            "[\(find),\(find),\(find),\(RPCSeeds.notification("list/find", "{\"query\":\"b\"}"))]")
        let calledAfterRefusal = fixture.listSpy.performedCalls.count
        let answered = fixture.send("[\(find),\(find),\(find)]")
        // Then: one error for the whole first batch, saying how long and what the limit is, and
        // none of its messages run (the notification neither); the next batch is answered
        XCTAssertEqual(refused.count, 1, "\(refused)")
        XCTAssertEqual(refused.first?["id"], .null)
        XCTAssertEqual(refused.first?["error"]?["code"], -32600)
        XCTAssertEqual(
            refused.first?["error"]?["message"], "invalid request: a batch of 4 messages exceeds the limit of 3")
        XCTAssertEqual(refused.first?["error"]?["data"], ["length": 4, "limit": 3])
        XCTAssertEqual(calledAfterRefusal, 0)
        guard answered.count == 1, case .array(let responses) = answered[0] else { return XCTFail("\(answered)") }
        XCTAssertEqual(responses.count, 3)
        XCTAssertEqual(fixture.listSpy.performedCalls.count, 3)
    }

    func test_batchOfNotifications_getsNoResponse() {
        XCTAssertEqual(fixture.send("[\(RPCSeeds.notification("x/y")),\(RPCSeeds.notification("initialized"))]"), [])
    }

    func test_oversizedMessage_isInvalidRequestAndTheNextIsAnswered() {
        // Given
        let huge = RPCSeeds.request(1, "list/find", "{\"query\":\"\(String(repeating: "a", count: 600))\"}")
        // When
        let out = fixture.send(huge, RPCSeeds.request(2, "session/stack"))
        // Then
        XCTAssertEqual(out.map { $0["id"] }, [.null, 2])
        XCTAssertEqual(out.first?["error"]?["code"], -32600)
        XCTAssertEqual(out.first?["error"]?["data"]?["limit"], 512)
    }

    // MARK: cancellation

    func test_cancelOfAQueuedRequest_answersRequestCancelledWithoutRunningIt() {
        // When: both arrive in one read, so the request is still queued when the cancel is read
        let out = fixture.send(
            RPCSeeds.request(1, "list/find", "{\"query\":\"a\"}"),
            RPCSeeds.notification("$/cancelRequest", "{\"id\":1}"),
            RPCSeeds.request(2, "list/find", "{\"query\":\"b\"}"),
            RPCSeeds.notification("notifications/cancelled", "{\"requestId\":2}"))
        // Then
        XCTAssertEqual(out.map { $0["error"]?["code"] }, [-32800, -32800])
        XCTAssertEqual(out.map { $0["id"] }, [1, 2])
        XCTAssertEqual(fixture.listSpy.performedCalls, [])
    }

    func test_cancelOfAnAnsweredRequest_isIgnored() {
        // Given
        _ = fixture.send(RPCSeeds.request(1, "list/find", "{\"query\":\"a\"}"))
        // When
        let out = fixture.send(RPCSeeds.notification("$/cancelRequest", "{\"id\":1}"))
        // Then
        XCTAssertEqual(out, [])
        XCTAssertEqual(fixture.listSpy.performedCalls.count, 1)
    }

    // MARK: lost framing

    func test_lostFraming_logsToStderrAndEnds() {
        // When
        let out = fixture.sut.receive(Array("Content-Length: nope\r\n\r\n{}".utf8))
        // Then
        XCTAssertEqual(out, [])
        XCTAssertTrue(fixture.sut.isFinished)
        XCTAssertEqual(fixture.sut.exitStatus, 1)
        XCTAssertEqual(fixture.logSpy.lines.count, 1)
        XCTAssertTrue(fixture.logSpy.lines[0].hasPrefix("framing lost: "), fixture.logSpy.lines[0])
        XCTAssertEqual(fixture.logSpy.levels, [.error])
    }
}
