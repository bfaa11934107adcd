import JSONBytes
import XCTest

@testable import SceneRPC

/// The envelope is written without building its object; the bytes must be the object's.
final class OutgoingMessageTests: XCTestCase {
    private func assertSameBytesAsTheObject(_ sut: OutgoingMessage, file: StaticString = #filePath, line: UInt = #line)
    {
        var out: [UInt8] = []
        sut.appendCompact(to: &out)
        let expected = sut.json.serialized()
        XCTAssertEqual(
            String(decoding: out, as: UTF8.self), String(decoding: expected, as: UTF8.self), file: file, line: line)
        // Through the frame writer, in both framings, doubles included.
        for framing in [Framing.newlineDelimited, .contentLength] {
            var frame: [UInt8] = [1, 2]
            FrameWriter(framing: framing).append(sut, to: &frame)
            XCTAssertEqual(
                Array(frame.dropFirst(2)), FrameWriter(framing: framing).frame(expected), file: file, line: line)
        }
    }

    func test_appendCompact_everyKindOfMessage_writesTheObjectsBytes() {
        let result: JSONValue = [
            "displayed": [["kind": "stack", "value": ["scenes": []]]], "routes": [], "stack": ["é\n\"x\""],
        ]
        let error = RPCError(code: -32010, message: "not \"saved\"", data: ["details": ["a": "b"], "code": "x"])
        var cases: [OutgoingMessage] = [
            .result(id: 1, result), .result(id: "s-1", nil), .result(id: nil, []), .result(id: -7, ["a": true]),
            .error(id: 2, error), .error(id: nil, RPCError(code: -32700, message: "parse error")),
            .error(id: "ü", .requestCancelled),
            .notification("session/message", ["kind": "info", "text": "Ünal"]), .notification("$/progress", [:]),
            .batch([.result(id: 1, 1), .error(id: 2, .requestCancelled)]), .batch([.result(id: 3, "x")]),
            .result(id: .double(1.5), 1), .result(id: 1, ["n": .double(2.25)]),
            .batch([.result(id: 1, 1), .result(id: .double(0.5), nil)]),
            .actionResult(
                id: 5,
                ActionResult(
                    displayed: [["kind": "stack", "value": ["scenes": []]]],
                    routes: [["route": "push", "scene": "x"]],
                    stack: StackJSON([["scene": "list", "title": "Zoë \"x\"\n"]]))),
            .actionResult(id: "a", ActionResult(displayed: [], routes: [], stack: StackJSON([]))),
            .actionResult(id: 6, ActionResult(displayed: [["n": .double(0.25)]], routes: [], stack: StackJSON([]))),
            .batch([
                .actionResult(id: 7, ActionResult(displayed: [], routes: [], stack: StackJSON(["s"]))),
                .result(id: 8, 1),
            ]),
        ]
        // The stack displayed, written from the stack's own text, alone and among other view models.
        let stack = StackJSON([["scene": "list", "title": "Zoë \"x\"\n"], ["scene": "item", "title": "<Ann>"]])
        cases.append(
            .actionResult(id: 9, ActionResult(displayed: [stack.shown], routes: [], stack: stack, stackShownAt: [0])))
        cases.append(
            .actionResult(
                id: 10,
                ActionResult(
                    displayed: [["kind": "message", "value": ["text": "é"]], stack.shown, ["n": 1]],
                    routes: [["route": "pop", "scene": "item"]], stack: stack,
                    stackShownAt: [1])))
        // The stack alone again (its text kept from the first time), and with a route beside it.
        cases.append(
            .actionResult(
                id: 11, ActionResult(displayed: stack.shownAlone, routes: [], stack: stack, stackShownAt: [0])))
        cases.append(
            .actionResult(
                id: 12,
                ActionResult(
                    displayed: [stack.shown], routes: [["route": "pop", "scene": "item"]], stack: stack,
                    stackShownAt: [0])))
        // Bodies whose lengths take two digits and six in the Content-Length header.
        cases += [.result(id: nil, 1), .result(id: 1, .string(String(repeating: "é", count: 61_728)))]
        for message in cases { assertSameBytesAsTheObject(message) }
    }
}
