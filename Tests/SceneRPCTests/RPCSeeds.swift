import JSONBytes
import Logging
import SceneCore
import XCTest

@testable import SceneRPC

/// Fixtures: a fake two-scene app ("list" pushes "item"), and helpers to speak bytes.
enum RPCSeeds {
    static let info = RPCServerInfo(name: "fakebook", version: "9.9")

    static let listKind = SceneDescriptor(
        id: "list", summary: "the list",
        actions: [
            ActionSpec(
                "find", summary: "find items", parameters: [ParameterSpec("query", .text, help: "words to find")]),
            ActionSpec(
                "page", summary: "show a page",
                parameters: [
                    ParameterSpec("number", .integer(min: 1, max: 50), help: "the page"),
                    ParameterSpec("sort", .choice(["first", "last"]), required: false, help: "sort order"),
                    ParameterSpec("verbose", .boolean, required: false, help: "more columns"),
                ]),
            ActionSpec(
                "open", summary: "open an item",
                parameters: [
                    ParameterSpec(
                        "name", .string, help: "which: its number or name",
                        acceptsNumber: true)
                ]),
            ActionSpec("fail", summary: "fails validation"),
            ActionSpec("touch", summary: "changes data"),
        ])

    static let itemKind = SceneDescriptor(
        id: "item", summary: "one item",
        actions: [
            ActionSpec("rename", summary: "rename it", parameters: [ParameterSpec("name", .text, help: "new name")]),
            ActionSpec("close", summary: "go back to the list"),
        ], displays: [ItemViewModel.self])

    struct ListViewModel: ViewModel, Equatable {
        static let kind = "list"
        let items: [String]
        var layout: DisplayLayout { .lines(items) }
    }

    struct ItemViewModel: ViewModel, Equatable, JSONSchemaDescribed {
        static let kind = "item"
        static let jsonSchema: JSONValue = ["type": "object", "properties": ["name": ["type": "string"]]]
        let name: String
        var layout: DisplayLayout { .lines([name]) }
    }

    static let validationError = Message.error(
        "name is required", code: .validationFailed,
        details: ["name": "is required"])

    // MARK: bytes

    static func contentLengthFrame(_ body: String) -> [UInt8] {
        Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    }

    static func line(_ body: String) -> [UInt8] { Array("\(body)\n".utf8) }

    static func request(_ id: Int, _ method: String, _ params: String? = nil) -> String {
        let params = params.map { ",\"params\":\($0)" } ?? ""
        return "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"\(method)\"\(params)}"
    }

    static func notification(_ method: String, _ params: String? = nil) -> String {
        let params = params.map { ",\"params\":\($0)" } ?? ""
        return "{\"jsonrpc\":\"2.0\",\"method\":\"\(method)\"\(params)}"
    }

    static let initialize = request(0, "initialize", "{\"clientInfo\":{\"name\":\"tests\"}}")

    /// The messages in written frames, whatever their framing.
    static func messages(_ frames: [[UInt8]], file: StaticString = #filePath, line: UInt = #line) -> [JSONValue] {
        frames.compactMap { frame in
            var body = ArraySlice(frame)
            if let end = body.firstRange(of: Array("\r\n\r\n".utf8)) {
                body = body[end.upperBound...]
            } else if body.last == 0x0A {
                body = body.dropLast()
            }
            do { return try JSONValue.parse(Array(body)) } catch {
                XCTFail("not JSON: \(String(decoding: frame, as: UTF8.self))", file: file, line: line)
                return nil
            }
        }
    }
}

/// Captures diagnostics instead of writing them to stderr.
final class LogSpy {
    private(set) var lines: [String] = []
    private(set) var levels: [Logger.Level] = []
    func log(_ level: Logger.Level, _ text: String) { lines.append(text); levels.append(level) }
}

/// The fake list scene: records each call and displays or routes as its action says.
final class ListSceneSpy: Scene {
    let descriptor = RPCSeeds.listKind
    let title = "All items"
    private(set) var performedCalls: [ActionCall] = []
    private let context: SceneContext
    private let changes: ChangeNotifier

    init(context: SceneContext, changes: ChangeNotifier) { self.context = context; self.changes = changes }

    func perform(_ call: ActionCall) {
        performedCalls.append(call)
        switch call.name {
        case "find", "page": context.display.display(RPCSeeds.ListViewModel(items: ["Ann", "Bob"]))
        case "open":
            let name = call.string("name") ?? ""
            context.navigator.push(ItemSceneSpy(context: context, name: name))
            context.display.display(RPCSeeds.ItemViewModel(name: name))
        case "fail": context.display.display(RPCSeeds.validationError)
        case "touch":
            changes.post(DataChange(topic: "items", kind: "updated", ids: ["7"]))
            context.display.display(Message.success("touched"))
        default: break
        }
    }
}

/// The fake item scene.
final class ItemSceneSpy: Scene {
    let descriptor = RPCSeeds.itemKind
    let title: String
    private let context: SceneContext

    init(context: SceneContext, name: String) { self.context = context; self.title = name }

    func perform(_ call: ActionCall) {
        switch call.name {
        case "rename":
            context.display.display(Message.success("renamed"))
            context.display.display(RPCSeeds.ItemViewModel(name: call.string("name") ?? ""))
        case "close": context.navigator.pop()
        default: break
        }
    }
}

/// A server over the fake app, with its spies.
struct RPCFixture {
    let sut: RPCServer
    let session: Session
    let logSpy: LogSpy
    let listSpy: ListSceneSpy

    init(limits: FrameLimits = FrameLimits()) {
        let hub = ChangeHub()
        var root: ListSceneSpy?
        session = Session(sceneKinds: [RPCSeeds.listKind, RPCSeeds.itemKind]) { context in
            let scene = ListSceneSpy(context: context, changes: hub)
            root = scene
            return scene
        }
        listSpy = root!
        let logSpy = LogSpy()
        self.logSpy = logSpy
        sut = RPCServer(session: session, info: RPCSeeds.info, limits: limits, changes: hub, log: logSpy.log)
    }

    /// Sends newline-delimited JSON texts in one read and returns the messages written.
    func send(_ texts: String..., file: StaticString = #filePath, line: UInt = #line) -> [JSONValue] {
        RPCSeeds.messages(sut.receive(texts.flatMap(RPCSeeds.line)), file: file, line: line)
    }

    /// Sends Content-Length frames in one read and returns the messages written.
    func sendFramed(_ texts: String..., file: StaticString = #filePath, line: UInt = #line) -> [JSONValue] {
        RPCSeeds.messages(sut.receive(texts.flatMap(RPCSeeds.contentLengthFrame)), file: file, line: line)
    }
}
