import JSONBytes
import SceneCore
import SceneMCP
import SceneRPC

/// Fixtures: a fake one-scene app ("notes"), its tools and resources, and helpers to speak lines.
enum MCPSeeds {
    static let info = RPCServerInfo(name: "fakebook", version: "9.9")
    static let modernMeta =
        #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#

    static let notesKind = SceneDescriptor(
        id: "notes", summary: "notes",
        actions: [
            ActionSpec(
                "write", summary: "write a note",
                parameters: [
                    ParameterSpec("text", .text, help: "what to write"),
                    ParameterSpec("pages", .integer(min: 1, max: 5), required: false, help: "how many pages of work"),
                ])
        ])

    static let echoOutput: JSONValue = [
        "type": "object", "required": ["text"], "properties": ["text": ["type": "string"]],
    ]

    static func request(_ id: Int, _ method: String, _ params: String? = nil) -> String {
        let params = params.map { ",\"params\":\($0)" } ?? ""
        return "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"\(method)\"\(params)}"
    }

    static func notification(_ method: String) -> String { "{\"jsonrpc\":\"2.0\",\"method\":\"\(method)\"}" }

    static let initialize = request(
        1, "initialize", #"{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}"#)

    static func messages(_ frames: [[UInt8]]) -> [JSONValue] {
        frames.compactMap { try? JSONValue.parse(Array($0.dropLast())) }
    }
}

/// Records the notes the `write` action is asked for and reports progress for each page.
final class NotesSceneSpy: Scene {
    let descriptor = MCPSeeds.notesKind
    let title = "notes"
    private let context: SceneContext
    private let progress: ProgressReporter
    private let changes: ChangeNotifier
    private(set) var written: [String] = []

    init(context: SceneContext, progress: ProgressReporter, changes: ChangeNotifier) {
        self.context = context; self.progress = progress; self.changes = changes
    }

    func perform(_ call: ActionCall) {
        let text = call.string("text") ?? ""
        guard !text.isEmpty else {
            return context.display.display(
                Message.error("text is empty", code: .validationFailed, details: ["text": "is empty"]))
        }
        let pages = call.integer("pages") ?? 1
        progress.begin("Writing", total: pages)
        for page in 1...pages { progress.report(completed: page, of: pages, message: nil) }
        progress.end(nil)
        written.append(text)
        changes.post(DataChange(topic: "notes", kind: "created", ids: ["\(written.count)"]))
        context.display.display(Message.success("wrote \(text)"))
    }
}

/// Serves `note://N` for the notes written so far.
final class MCPResourceProviderSpy: MCPResourceProvider {
    var notes: [String] = []
    private(set) var readURIs: [String] = []

    var templates: [MCPResourceTemplate] {
        [MCPResourceTemplate(uriTemplate: "note://{n}", name: "note", description: "one note", mimeType: "text/plain")]
    }

    func list(cursor: String?) throws -> (resources: [MCPResource], nextCursor: String?) {
        (notes.indices.map { MCPResource(uri: "note://\($0 + 1)", name: notes[$0], mimeType: "text/plain") }, nil)
    }

    func read(uri: String) throws -> MCPResourceContents? {
        readURIs.append(uri)
        guard let index = index(uri) else { return nil }
        return MCPResourceContents(uri: uri, mimeType: "text/plain", text: notes[index])
    }

    func changeID(of uri: String) throws -> String? { index(uri).map { String($0 + 1) } }

    private func index(_ uri: String) -> Int? {
        guard uri.hasPrefix("note://"), let n = Int(uri.dropFirst(7)), notes.indices.contains(n - 1) else { return nil }
        return n - 1
    }
}

/// The server over the fake app, wired as the composition root wires the book.
final class MCPFixture {
    let sut: RPCServer
    let mcp: MCPServer
    let scene: NotesSceneSpy
    let resources = MCPResourceProviderSpy()

    init() {
        let progress = ProgressHub()
        let changes = ChangeHub()
        var root: NotesSceneSpy?
        let session = Session(sceneKinds: [MCPSeeds.notesKind]) { context in
            let scene = NotesSceneSpy(context: context, progress: progress, changes: changes)
            root = scene
            return scene
        }
        scene = root!
        let spec = MCPSeeds.notesKind.actions[0]
        let write = MCPTool(
            name: "write", title: "Write", description: "write a note", inputSchema: spec.parametersSchema,
            outputSchema: MCPSeeds.echoOutput, annotations: MCPToolAnnotations()
        ) { arguments in
            let call = try MCPArguments.bind(arguments, to: spec, tool: "write")
            let outcome = session.run(call, inScene: "notes")
            if let error = outcome.error { throw MCPToolFailure(error.text, details: error.details) }
            return MCPToolResult(["text": .string(call.string("text") ?? "")], text: "written")
        }
        mcp = MCPServer(name: "fakebook", version: "9.9", instructions: "notes", tools: [write], resources: resources)
        sut = RPCServer(
            session: session, info: MCPSeeds.info, progress: progress, log: { _, _ in }, protocolHandler: mcp)
        mcp.attach(to: sut, changes: changes)
    }

    func send(_ lines: String...) -> [JSONValue] {
        MCPSeeds.messages(sut.receive(lines.flatMap { Array("\($0)\n".utf8) }))
    }
}
