import JSONBytes
import SceneCore
import SceneMCP
import SceneRPC
import XCTest

final class MCPHandshakeTests: XCTestCase {
    private var fixture: MCPFixture!

    override func setUp() {
        super.setUp()
        fixture = MCPFixture()
    }

    func test_initialize_agreesOnTheVersionAsked_andListsToolsAndResources() {
        // When
        let out = fixture.send(MCPSeeds.initialize, MCPSeeds.notification("notifications/initialized"))
        // Then
        XCTAssertEqual(out.count, 1)
        XCTAssertEqual(out[0]["result"]?["protocolVersion"], "2025-11-25")
        XCTAssertEqual(out[0]["result"]?["serverInfo"], ["name": "fakebook", "version": "9.9"])
        XCTAssertEqual(
            out[0]["result"]?["capabilities"],
            ["tools": ["listChanged": false], "resources": ["subscribe": true, "listChanged": false]])
        XCTAssertNil(out[0]["result"]?["resultType"])
    }

    func test_initialize_withAVersionItDoesNotSpeak_answersItsNewest() {
        // When
        let out = fixture.send(
            MCPSeeds.request(1, "initialize", #"{"protocolVersion":"1999-01-01","capabilities":{}}"#))
        // Then
        XCTAssertEqual(out[0]["result"]?["protocolVersion"], "2025-11-25")
    }

    func test_aRequestBeforeAnyHandshake_isRefusedNamingBothWays_andTheServerGoesOn() {
        // When
        let out = fixture.send(
            MCPSeeds.request(1, "tools/list"), MCPSeeds.initialize, MCPSeeds.request(2, "tools/list"))
        // Then
        XCTAssertEqual(out[0]["error"]?["code"], .integer(RPCError.invalidRequestCode))
        XCTAssertEqual(out[0]["error"]?["message"].map { $0.text.contains("_meta") }, true)
        XCTAssertEqual(out[2]["result"]?["tools"]?.arrayCount, 1)
    }

    func test_serverDiscover_listsBothGenerations_withResultTypeAndCaching_andSubscriptions() {
        // When
        let out = fixture.send(MCPSeeds.request(1, "server/discover", "{\(MCPSeeds.modernMeta)}"))
        // Then
        let result = out[0]["result"]
        XCTAssertEqual(
            result?["supportedVersions"], ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
        XCTAssertEqual(result?["resultType"], "complete")
        XCTAssertEqual(result?["ttlMs"], 0)
        XCTAssertEqual(result?["cacheScope"], "private")
        XCTAssertEqual(result?["_meta"]?["io.modelcontextprotocol/serverInfo"], ["name": "fakebook", "version": "9.9"])
        XCTAssertEqual(result?["capabilities"]?["resources"]?["subscribe"], true)
    }

    func test_aModernRequest_needsNoHandshake_andItsResultCarriesResultType() {
        // When
        let out = fixture.send(
            MCPSeeds.request(
                1, "tools/call", #"{"name":"write","arguments":{"text":"hi"},"# + MCPSeeds.modernMeta + "}"))
        // Then
        XCTAssertEqual(out[0]["result"]?["resultType"], "complete")
        XCTAssertEqual(out[0]["result"]?["isError"], false)
        XCTAssertNil(out[0]["result"]?["ttlMs"])
        XCTAssertEqual(fixture.scene.written, ["hi"])
    }

    func test_aModernRequestAtAnUnknownVersion_getsUnsupportedVersionWithTheSupportedOnes() {
        // When
        let out = fixture.send(
            MCPSeeds.request(1, "tools/list", #"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01"}}"#))
        // Then
        XCTAssertEqual(out[0]["error"]?["code"], .integer(MCPServer.unsupportedProtocolVersionCode))
        XCTAssertEqual(out[0]["error"]?["data"]?["supported"]?.arrayCount, 5)
        XCTAssertEqual(out[0]["error"]?["data"]?["requested"], "2099-01-01")
    }

    func test_initializeTwice_isRefused() {
        // When
        let out = fixture.send(MCPSeeds.initialize, MCPSeeds.initialize)
        // Then
        XCTAssertEqual(out[1]["error"]?["code"], .integer(RPCError.invalidRequestCode))
    }

    func test_malformedInput_getsJSONRPCErrors_andTheServerKeepsAnswering() {
        // When
        let out = fixture.send(
            "{not json", #"{"jsonrpc":"2.0","id":3}"#, MCPSeeds.initialize,
            MCPSeeds.request(4, "no/such"), MCPSeeds.request(5, "ping"))
        // Then
        XCTAssertEqual(out.map { $0["error"]?["code"] }, [-32700, -32600, nil, -32601, nil])
        XCTAssertEqual(out[4]["result"], [:])
    }
}

final class MCPToolCallTests: XCTestCase {
    private var fixture: MCPFixture!

    override func setUp() {
        super.setUp()
        fixture = MCPFixture()
        _ = fixture.send(MCPSeeds.initialize)
    }

    func test_toolsList_givesSchemasFromTheActionDeclaration_andAnnotations() {
        // When
        let tool = fixture.send(MCPSeeds.request(2, "tools/list"))[0]["result"]?["tools"]?[index: 0]
        // Then
        XCTAssertEqual(tool?["name"], "write")
        XCTAssertEqual(
            tool?["inputSchema"],
            [
                "type": "object", "additionalProperties": false, "required": ["text"],
                "properties": [
                    "text": ["type": "string", "description": "what to write"],
                    "pages": ["type": "integer", "minimum": 1, "maximum": 5, "description": "how many pages of work"],
                ],
            ])
        XCTAssertEqual(tool?["outputSchema"], MCPSeeds.echoOutput)
        XCTAssertEqual(
            tool?["annotations"],
            [
                "readOnlyHint": false, "destructiveHint": false, "idempotentHint": false,
                "openWorldHint": false,
            ])
    }

    func test_aCall_givesStructuredContentAndAShortText() {
        // When
        let out = fixture.send(MCPSeeds.request(2, "tools/call", #"{"name":"write","arguments":{"text":"hello"}}"#))
        // Then
        XCTAssertEqual(
            out[0]["result"],
            [
                "content": [["type": "text", "text": "written"]], "isError": false,
                "structuredContent": ["text": "hello"],
            ])
    }

    func test_aCallTheSceneRefuses_isAnErrorResultNamingTheField() {
        // When
        let out = fixture.send(MCPSeeds.request(2, "tools/call", #"{"name":"write","arguments":{"text":""}}"#))
        // Then
        XCTAssertEqual(out[0]["result"]?["isError"], true)
        XCTAssertEqual(out[0]["result"]?["content"]?[index: 0]?["text"], "text is empty")
        XCTAssertEqual(
            out[0]["result"]?["structuredContent"], ["error": "text is empty", "details": ["text": "is empty"]])
    }

    func test_anArgumentOfTheWrongType_isAnErrorResultSayingWhatItMustBe() {
        // When
        let out = fixture.send(
            MCPSeeds.request(2, "tools/call", #"{"name":"write","arguments":{"text":"a","pages":9}}"#))
        // Then
        XCTAssertEqual(out[0]["result"]?["isError"], true)
        XCTAssertEqual(out[0]["result"]?["content"]?[index: 0]?["text"], "'pages' must be an integer from 1 to 5")
        XCTAssertEqual(
            out[0]["result"]?["structuredContent"]?["details"], ["pages": "'pages' must be an integer from 1 to 5"])
        XCTAssertEqual(fixture.scene.written, [])
    }

    func test_anUnknownTool_orNoName_isAJSONRPCError_andTheNextCallWorks() {
        // When
        let out = fixture.send(
            MCPSeeds.request(2, "tools/call", #"{"name":"nope"}"#),
            MCPSeeds.request(3, "tools/call", #"{"arguments":{}}"#),
            MCPSeeds.request(4, "tools/call", #"{"name":"write","arguments":{"text":"ok"}}"#))
        // Then
        XCTAssertEqual(out[0]["error"]?["code"], .integer(RPCError.invalidParamsCode))
        XCTAssertEqual(out[0]["error"]?["data"]?["tools"], ["write"])
        XCTAssertEqual(out[1]["error"]?["code"], .integer(RPCError.invalidParamsCode))
        XCTAssertEqual(out[2]["result"]?["isError"], false)
    }

    func test_aCallWithAProgressToken_sendsIncreasingProgressBeforeItsResult() {
        // When
        let out = fixture.send(
            MCPSeeds.request(
                2, "tools/call",
                #"{"name":"write","arguments":{"text":"a","pages":2},"_meta":{"progressToken":"p"}}"#))
        // Then
        XCTAssertEqual(
            out.map { $0["method"] ?? "response" },
            [
                "notifications/progress", "notifications/progress",
                "notifications/progress", "response",
            ])
        XCTAssertEqual(out.dropLast().map { $0["params"]?["progress"] }, [0, 1, 2])
        XCTAssertEqual(out[0]["params"]?["progressToken"], "p")
        XCTAssertEqual(out[0]["params"]?["total"], 2)
    }

    func test_aCallCancelledInTheSameRead_isNotRun() {
        // When
        let out = fixture.send(
            MCPSeeds.request(2, "tools/call", #"{"name":"write","arguments":{"text":"a"}}"#),
            #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#)
        // Then
        XCTAssertEqual(out[0]["error"]?["code"], .integer(RPCError.requestCancelledCode))
        XCTAssertEqual(fixture.scene.written, [])
    }
}

final class MCPResourceTests: XCTestCase {
    private var fixture: MCPFixture!

    override func setUp() {
        super.setUp()
        fixture = MCPFixture()
        fixture.resources.notes = ["first"]
        _ = fixture.send(MCPSeeds.initialize)
    }

    func test_templatesListAndRead() {
        // When
        let out = fixture.send(
            MCPSeeds.request(2, "resources/templates/list"), MCPSeeds.request(3, "resources/list"),
            MCPSeeds.request(4, "resources/read", #"{"uri":"note://1"}"#))
        // Then
        XCTAssertEqual(out[0]["result"]?["resourceTemplates"]?[index: 0]?["uriTemplate"], "note://{n}")
        XCTAssertEqual(
            out[1]["result"]?["resources"], [["uri": "note://1", "name": "first", "mimeType": "text/plain"]])
        XCTAssertEqual(out[2]["result"]?["contents"], [["uri": "note://1", "mimeType": "text/plain", "text": "first"]])
    }

    func test_readingWhatIsNotThere_isResourceNotFound() {
        // When
        let out = fixture.send(
            MCPSeeds.request(2, "resources/read", #"{"uri":"note://9"}"#),
            MCPSeeds.request(3, "resources/read", #"{}"#))
        // Then
        XCTAssertEqual(out[0]["error"]?["code"], -32002)
        XCTAssertEqual(out[0]["error"]?["data"], ["uri": "note://9"])
        XCTAssertEqual(out[1]["error"]?["code"], .integer(RPCError.invalidParamsCode))
    }

    func test_aSubscribedResource_isAnnouncedWhenTheAppChangesIt_untilUnsubscribed() {
        // Given
        _ = fixture.send(MCPSeeds.request(2, "resources/subscribe", #"{"uri":"note://1"}"#))
        // When
        let changed = fixture.send(MCPSeeds.request(3, "tools/call", #"{"name":"write","arguments":{"text":"b"}}"#))
        _ = fixture.send(MCPSeeds.request(4, "resources/unsubscribe", #"{"uri":"note://1"}"#))
        fixture.resources.notes = []
        let after = fixture.send(MCPSeeds.request(5, "tools/call", #"{"name":"write","arguments":{"text":"c"}}"#))
        // Then
        XCTAssertEqual(changed.first?["method"], "notifications/resources/updated")
        XCTAssertEqual(changed.first?["params"], ["uri": "note://1"])
        XCTAssertEqual(after.compactMap { $0["method"] }, [])
    }
}

final class MCPChangesElsewhereTests: XCTestCase {
    private var fixture: MCPFixture!

    override func setUp() {
        super.setUp()
        fixture = MCPFixture()
        fixture.resources.notes = ["first", "second"]
        _ = fixture.send(MCPSeeds.initialize)
    }

    func test_aSubscribedResourceAnotherProcessChanged_isAnnounced_andNoOtherIs() {
        // Given
        _ = fixture.send(MCPSeeds.request(2, "resources/subscribe", #"{"uri":"note://2"}"#))
        // When: what the book's watch found, handed to the server as its fd loop does
        let out = MCPSeeds.messages(
            fixture.sut.announce([
                DataChange(topic: "notes", kind: "updated", ids: ["1"], external: true),
                DataChange(topic: "notes", kind: "deleted", ids: ["2"], external: true),
            ]))
        // Then: MCP's notice for the one subscribed, never JSON-RPC's session/dataChanged
        XCTAssertEqual(
            out, [["jsonrpc": "2.0", "method": "notifications/resources/updated", "params": ["uri": "note://2"]]])
    }

    func test_aChangeElsewhereNamingNoRecords_announcesEverySubscribedResource() {
        // Given
        _ = fixture.send(
            MCPSeeds.request(2, "resources/subscribe", #"{"uri":"note://1"}"#),
            MCPSeeds.request(3, "resources/subscribe", #"{"uri":"note://2"}"#))
        // When: a large import elsewhere ("read everything again")
        let out = MCPSeeds.messages(
            fixture.sut.announce([DataChange(topic: "notes", kind: "reload", ids: [], external: true)]))
        // Then
        XCTAssertEqual(out.map { $0["params"]?["uri"] }, ["note://1", "note://2"])
    }

    func test_changesElsewhere_withNoSubscription_sayNothing() {
        // When
        let out = fixture.sut.announce([DataChange(topic: "notes", kind: "updated", ids: ["1"], external: true)])
        // Then
        XCTAssertEqual(out, [])
    }
}

/// 2026-07-28's `subscriptions/listen`: the request stays open, its frames are notifications
/// stamped with its id, and the client's cancellation ends it without a response.
final class MCPListenTests: XCTestCase {
    private var fixture: MCPFixture!

    override func setUp() {
        super.setUp()
        fixture = MCPFixture()
        fixture.resources.notes = ["first"]
    }

    private func listen(_ id: String, _ filter: String) -> [JSONValue] {
        fixture.send(
            #"{"jsonrpc":"2.0","id":"\#(id)","method":"subscriptions/listen","params":{"notifications":\#(filter),\#(MCPSeeds.modernMeta)}}"#
        )
    }

    private func write(_ id: Int, _ text: String) -> [JSONValue] {
        fixture.send(
            MCPSeeds.request(
                id, "tools/call", #"{"name":"write","arguments":{"text":"\#(text)"},"# + MCPSeeds.modernMeta + "}"))
    }

    func test_listen_isAcknowledgedWithTheResourcesHonoured_andNotAnswered() {
        // When: one resource that exists, one that does not, and a kind this server never sends
        let out = listen("listen-1", #"{"resourceSubscriptions":["note://1","note://9"],"toolsListChanged":true}"#)
        // Then: the acknowledgement alone, stamped with the request's id
        XCTAssertEqual(
            out,
            [
                [
                    "jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                    "params": [
                        "notifications": ["resourceSubscriptions": ["note://1"]],
                        "_meta": ["io.modelcontextprotocol/subscriptionId": "listen-1"],
                    ],
                ]
            ])
    }

    func test_aChange_toAListenedResource_comesOnTheStream_beforeTheCallsResult() {
        // Given
        _ = listen("listen-1", #"{"resourceSubscriptions":["note://1"]}"#)
        // When: the first note written is the app's change of record 1
        let out = write(2, "b")
        // Then
        XCTAssertEqual(out.count, 2)
        XCTAssertEqual(out[0]["method"], "notifications/resources/updated")
        XCTAssertEqual(
            out[0]["params"], ["uri": "note://1", "_meta": ["io.modelcontextprotocol/subscriptionId": "listen-1"]])
        XCTAssertEqual(out[1]["id"], 2)
    }

    func test_aChangeElsewhere_comesOnEveryStreamListeningToIt() {
        // Given
        _ = listen("a", #"{"resourceSubscriptions":["note://1"]}"#)
        _ = listen("b", #"{"resourceSubscriptions":["note://1"]}"#)
        // When
        let out = MCPSeeds.messages(
            fixture.sut.announce([DataChange(topic: "notes", kind: "deleted", ids: ["1"], external: true)]))
        // Then
        XCTAssertEqual(out.map { $0["params"]?["_meta"]?["io.modelcontextprotocol/subscriptionId"] }, ["a", "b"])
    }

    func test_cancellingTheListen_endsTheStreamWithoutAResponse() {
        // Given
        _ = listen("listen-1", #"{"resourceSubscriptions":["note://1"]}"#)
        // When
        let cancelled = fixture.send(
            #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"listen-1"}}"#)
        let after = write(2, "b")
        // Then
        XCTAssertEqual(cancelled, [])
        XCTAssertEqual(after.map { $0["id"] }, [2])
    }

    func test_listenStreamsBeyondTheLimit_areRefused_untilOneIsCancelled() {
        // Given
        for n in 1...MCPServer.maximumListenStreams { _ = listen("\(n)", "{}") }
        // When
        let refused = listen("more", "{}")
        _ = fixture.send(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"1"}}"#)
        let accepted = listen("again", "{}")
        // Then
        XCTAssertEqual(refused.map { $0["error"]?["code"] }, [.integer(RPCError.internalErrorCode)])
        XCTAssertEqual(accepted.map { $0["method"] }, ["notifications/subscriptions/acknowledged"])
    }

    func test_listenOnA2025Connection_isMethodNotFoundNamingResourcesSubscribe() {
        // Given
        _ = fixture.send(MCPSeeds.initialize)
        // When
        let out = fixture.send(
            MCPSeeds.request(2, "subscriptions/listen", #"{"notifications":{}}"#), MCPSeeds.request(3, "ping"))
        // Then
        XCTAssertEqual(out[0]["error"]?["code"], .integer(RPCError.methodNotFoundCode))
        XCTAssertEqual(out[0]["error"]?["message"].map { $0.text.contains("resources/subscribe") }, true)
        XCTAssertEqual(out[1]["result"], [:])
    }

    func test_aMalformedFilter_isInvalidParamsNamingIt_andNoStreamOpens() {
        // When
        let missing = fixture.send(MCPSeeds.request(1, "subscriptions/listen", "{\(MCPSeeds.modernMeta)}"))
        let wrong = listen("2", #"{"resourceSubscriptions":"note://1"}"#)
        let after = write(3, "b")
        // Then
        XCTAssertEqual(missing[0]["error"]?["data"]?["parameter"], "notifications")
        XCTAssertEqual(wrong[0]["error"]?["code"], .integer(RPCError.invalidParamsCode))
        XCTAssertEqual(wrong[0]["error"]?["data"]?["parameter"], "notifications.resourceSubscriptions")
        XCTAssertEqual(after.map { $0["id"] }, [3])
    }
}

extension JSONValue {
    subscript(index index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    var arrayCount: Int? {
        guard case .array(let elements) = self else { return nil }
        return elements.count
    }
}
