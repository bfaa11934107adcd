import JSONBytes
import XCTest

@testable import SceneRPC

final class RPCIntrospectionTests: XCTestCase {
    private var fixture: RPCFixture!

    override func setUp() {
        super.setUp()
        fixture = RPCFixture()
    }

    private func describe() -> JSONValue? { fixture.send(RPCSeeds.request(1, "session/describe")).last?["result"] }

    private func method(_ name: String, in document: JSONValue?) -> JSONValue? {
        guard case .array(let methods)? = document?["methods"] else { return nil }
        return methods.first { $0["name"] == .string(name) }
    }

    func test_describe_givesJSONSchemaForASampleAction() {
        // When
        let page = method("list/page", in: describe())
        // Then
        XCTAssertEqual(page?["scene"], "list")
        XCTAssertEqual(
            page?["params"],
            [
                "type": "object", "additionalProperties": false, "required": ["number"],
                "properties": [
                    "number": ["type": "integer", "minimum": 1, "maximum": 50, "description": "the page"],
                    "sort": ["type": "string", "enum": ["first", "last"], "description": "sort order"],
                    "verbose": ["type": "boolean", "description": "more columns"],
                    "workDoneToken": [
                        "type": ["integer", "string"],
                        "description": "LSP: send $/progress for long work under this token",
                    ],
                    "_meta": [
                        "type": "object", "description": "MCP: progressToken asks for notifications/progress",
                        "properties": ["progressToken": ["type": ["integer", "string"]]],
                    ],
                ],
            ])
        XCTAssertEqual(page?["result"]?["required"], ["displayed", "routes", "stack"])
    }

    func test_describe_listsEveryMethodAndNotification() {
        // When
        let document = describe()
        // Then
        guard case .array(let methods)? = document?["methods"],
            case .array(let notifications)? = document?["notifications"]
        else { return XCTFail("\(String(describing: document))") }
        XCTAssertEqual(
            methods.compactMap { $0["name"] },
            [
                "initialize", "shutdown", "session/describe", "session/help", "session/back", "session/stack",
                "session/popTo",
                "list/find", "list/page", "list/open", "list/fail", "list/touch", "item/rename", "item/close",
            ])
        XCTAssertEqual(
            notifications.compactMap { $0["name"] },
            [
                "initialized", "exit", "$/cancelRequest", "notifications/cancelled",
                "session/stackChanged", "session/message", "session/dataChanged", "$/progress",
                "notifications/progress",
            ])
        XCTAssertEqual(method("item/rename", in: document)?["params"]?["properties"]?["name"]?["type"], "string")
    }

    func test_describe_parameterNamingARecord_isAStringOrAnInteger() {
        XCTAssertEqual(
            method("list/open", in: describe())?["params"]?["properties"]?["name"],
            ["type": ["string", "integer"], "description": "which: its number or name"])
    }

    func test_describe_viewModels_givesTheSchemaOfEachDescribedKind() {
        // When
        let viewModels = describe()?["viewModels"]
        // Then: the item's own schema; the list's view model does not describe itself
        XCTAssertEqual(viewModels, ["item": RPCSeeds.ItemViewModel.jsonSchema])
    }

    func test_rpcDiscover_isTheSameDocument() {
        XCTAssertEqual(fixture.send(RPCSeeds.request(2, "rpc.discover")).last?["result"], describe())
    }

    func test_apiInfo_printsTheDescribeDocument() throws {
        // When
        let text = RPCServer.apiInfo(sceneKinds: [RPCSeeds.listKind, RPCSeeds.itemKind], info: RPCSeeds.info)
        // Then
        XCTAssertEqual(try JSONValue.parse(Array(text.utf8)), describe())
        XCTAssertTrue(text.contains("\n"), "pretty-printed for people")
    }
}
