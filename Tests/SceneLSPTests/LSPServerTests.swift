import JSONBytes
import SceneCore
import XCTest

@testable import SceneLSP
@testable import SceneRPC

final class LSPDocumentTests: XCTestCase {
    func test_positionsCountInTheEncoding_pastTheBMP() {
        // Given a line with a two-byte letter and a four-byte emoji (two UTF-16 units)
        let sut = LSPDocument(uri: "u", languageID: "mail", version: 1, text: "To: é😀x\n")
        // Then the column of "x" is 8 bytes, 5 UTF-16 units, 4 scalars
        XCTAssertEqual(sut.utf8Column(of: LSPPosition(line: 0, character: 7), encoding: .utf16), 10)
        XCTAssertEqual(sut.utf8Column(of: LSPPosition(line: 0, character: 10), encoding: .utf8), 10)
        XCTAssertEqual(sut.utf8Column(of: LSPPosition(line: 0, character: 6), encoding: .utf32), 10)
        XCTAssertEqual(sut.position(line: 0, utf8Column: 10, encoding: .utf16), LSPPosition(line: 0, character: 7))
        XCTAssertEqual(sut.position(line: 0, utf8Column: 10, encoding: .utf32), LSPPosition(line: 0, character: 6))
    }

    func test_positionsInsideACharacterOrPastTheLineAreClamped() {
        let sut = LSPDocument(uri: "u", languageID: "", version: 1, text: "😀ab\r\nx")
        // Half a surrogate pair counts from the emoji's start; a byte inside it too
        XCTAssertEqual(sut.utf8Column(of: LSPPosition(line: 0, character: 1), encoding: .utf16), 0)
        XCTAssertEqual(sut.utf8Column(of: LSPPosition(line: 0, character: 2), encoding: .utf8), 0)
        // Past the end of a line is its end (before CRLF); past the last line is the document's end
        XCTAssertEqual(sut.utf8Column(of: LSPPosition(line: 0, character: 99), encoding: .utf16), 6)
        XCTAssertEqual(sut.offset(of: LSPPosition(line: 7, character: 0), encoding: .utf16), 9)
        XCTAssertEqual(sut.lines, ["😀ab", "x"])
    }

    func test_incrementalEditsApplyInOrder() {
        var sut = LSPDocument(uri: "u", languageID: "", version: 1, text: "To: j\n\nbody")
        sut.apply(
            "os", in: LSPRange(start: LSPPosition(line: 0, character: 5), end: LSPPosition(line: 0, character: 5)),
            encoding: .utf16)
        sut.apply(
            "Cc: x\n", in: LSPRange(start: LSPPosition(line: 1, character: 0), end: LSPPosition(line: 1, character: 0)),
            encoding: .utf16)
        sut.apply(
            "", in: LSPRange(start: LSPPosition(line: 0, character: 0), end: LSPPosition(line: 0, character: 4)),
            encoding: .utf16)
        XCTAssertEqual(sut.text, "jos\nCc: x\n\nbody")
        sut.apply("whole", in: nil, encoding: .utf16)
        XCTAssertEqual(sut.lines, ["whole"])
    }
}

final class LSPServerTests: XCTestCase {
    var sut: LSPServer!
    var features: LSPFeaturesSpy!
    var sent: [(String, JSONValue)] = []

    override func setUp() {
        super.setUp()
        features = LSPFeaturesSpy()
        sut = LSPServer(name: "test", version: "1", features: features, log: { _, _ in })
    }

    func test_requestsBeforeInitializeAreRefused_notificationsDropped() {
        XCTAssertThrowsError(try sut.answer(method: "textDocument/hover", params: [:])) { error in
            XCTAssertEqual((error as? RPCError)?.code, RPCError.serverNotInitializedCode)
        }
        sut.receive(notification: "textDocument/didOpen", params: Self.open("To: x"))
        XCTAssertNil(sut.document("file:///d"))
        XCTAssertEqual(features.changed, [])
    }

    func test_initializeChoosesUTF8OnlyWhenOffered_andDeclaresIncrementalSync() throws {
        let result = try sut.answer(
            method: "initialize", params: ["capabilities": ["general": ["positionEncodings": ["utf-16", "utf-8"]]]])
        XCTAssertEqual(result["capabilities"]?["positionEncoding"], "utf-8")
        XCTAssertEqual(result["capabilities"]?["textDocumentSync"], ["openClose": true, "change": 2])
        XCTAssertEqual(result["capabilities"]?["hoverProvider"], true, "the features' own capabilities")
        XCTAssertEqual(sut.encoding, .utf8)
        XCTAssertThrowsError(try sut.answer(method: "initialize", params: [:]), "only once")
    }

    func test_utf16IsTheDefault() throws {
        _ = try sut.answer(
            method: "initialize", params: ["capabilities": ["general": ["positionEncodings": ["utf-32"]]]])
        XCTAssertEqual(sut.encoding, .utf16)
    }

    func test_shutdownThenExitEndsWithZero_exitAloneWithOne() throws {
        _ = try sut.answer(method: "initialize", params: [:])
        XCTAssertNil(sut.exitStatus)
        XCTAssertEqual(try sut.answer(method: "shutdown", params: nil), .null)
        XCTAssertThrowsError(try sut.answer(method: "textDocument/hover", params: [:])) { error in
            XCTAssertEqual((error as? RPCError)?.code, RPCError.invalidRequestCode)
        }
        sut.receive(notification: "exit", params: nil)
        XCTAssertEqual(sut.exitStatus, 0)

        setUp()
        _ = try sut.answer(method: "initialize", params: [:])
        sut.receive(notification: "exit", params: nil)
        XCTAssertEqual(sut.exitStatus, 1)
    }

    func test_documentsFollowOpenChangeAndClose_andTheFeaturesAreTold() throws {
        _ = try sut.answer(method: "initialize", params: [:])
        sut.receive(notification: "textDocument/didOpen", params: Self.open("To: j"))
        sut.receive(
            notification: "textDocument/didChange",
            params: [
                "textDocument": ["uri": "file:///d", "version": 2],
                "contentChanges": [
                    [
                        "range": ["start": ["line": 0, "character": 5], "end": ["line": 0, "character": 5]],
                        "text": "os",
                    ]
                ],
            ])
        XCTAssertEqual(sut.document("file:///d")?.text, "To: jos")
        XCTAssertEqual(sut.document("file:///d")?.version, 2)
        // A change list with one bad change is refused whole
        sut.receive(
            notification: "textDocument/didChange",
            params: [
                "textDocument": ["uri": "file:///d", "version": 3],
                "contentChanges": [["text": "x"], ["range": ["start": 1], "text": "y"]],
            ])
        XCTAssertEqual(sut.document("file:///d")?.text, "To: jos")
        sut.receive(notification: "textDocument/didClose", params: ["textDocument": ["uri": "file:///d"]])
        XCTAssertNil(sut.document("file:///d"))
        XCTAssertEqual(features.changed, ["To: j", "To: jos"])
        XCTAssertEqual(features.closed, ["file:///d"])
    }

    func test_otherRequestsGoToTheFeatures_badParamsAreInvalidParams() throws {
        _ = try sut.answer(method: "initialize", params: [:])
        XCTAssertEqual(try sut.answer(method: "x/answer", params: [:]), "answered x/answer")
        XCTAssertThrowsError(try sut.openDocument("file:///nothing")) { error in
            XCTAssertEqual((error as? RPCError)?.code, RPCError.invalidParamsCode)
        }
        XCTAssertThrowsError(try LSPParams.documentPosition(["textDocument": ["uri": "u"], "position": ["line": 0]])) {
            error in
            XCTAssertEqual((error as? RPCError)?.code, RPCError.invalidParamsCode)
        }
    }

    func test_changesElsewhereReachTheFeaturesOnlyOnceRunning() throws {
        sut.receive(changesElsewhere: [DataChange(topic: "t", kind: "created", ids: ["1"], external: true)])
        XCTAssertEqual(features.dataChanges, 0)
        _ = try sut.answer(method: "initialize", params: [:])
        sut.receive(changesElsewhere: [DataChange(topic: "t", kind: "created", ids: ["1"], external: true)])
        XCTAssertEqual(features.dataChanges, 1)
    }

    static func open(_ text: String) -> JSONValue {
        ["textDocument": ["uri": "file:///d", "languageId": "mail", "version": 1, "text": .string(text)]]
    }
}

final class LSPFeaturesSpy: LSPFeatures {
    var changed: [String] = []
    var closed: [String] = []
    var dataChanges = 0

    var capabilities: [String: JSONValue] { ["hoverProvider": true] }

    func answer(method: String, params: JSONValue?, server: LSPServer) throws -> JSONValue {
        .string("answered \(method)")
    }

    func documentChanged(_ document: LSPDocument, server: LSPServer) { changed.append(document.text) }
    func documentClosed(uri: String, server: LSPServer) { closed.append(uri) }
    func dataChanged(_ changes: [DataChange], server: LSPServer) { dataChanges += 1 }
}
