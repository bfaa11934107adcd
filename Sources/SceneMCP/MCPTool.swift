import JSONBytes

/// One MCP tool: one call does one whole task (an agent does not walk a form screen by screen).
///
/// The app declares its tools from its scenes' action declarations, so `inputSchema` speaks the
/// same words as the REPL and JSON-RPC; the core only lists, checks and calls them.
public struct MCPTool {
    public let name: String
    public let title: String
    public let description: String
    /// JSON Schema of `arguments` (an object).
    public let inputSchema: JSONValue
    /// JSON Schema of `structuredContent` on success.
    public let outputSchema: JSONValue
    public let annotations: MCPToolAnnotations
    /// Runs the task. Throw `MCPToolFailure` for a failure the agent can act on; any other error
    /// becomes a failed result with its description.
    public let run: (_ arguments: JSONValue) throws -> MCPToolResult

    public init(
        name: String, title: String, description: String, inputSchema: JSONValue, outputSchema: JSONValue,
        annotations: MCPToolAnnotations, run: @escaping (_ arguments: JSONValue) throws -> MCPToolResult
    ) {
        self.name = name; self.title = title; self.description = description
        self.inputSchema = inputSchema; self.outputSchema = outputSchema
        self.annotations = annotations; self.run = run
    }

    /// The tool as `tools/list` lists it.
    var listing: JSONValue {
        [
            "name": .string(name), "title": .string(title), "description": .string(description),
            "inputSchema": inputSchema, "outputSchema": outputSchema, "annotations": annotations.json,
        ]
    }
}

/// Hints for the client about what a tool does (MCP's ToolAnnotations).
public struct MCPToolAnnotations: Equatable, Sendable {
    /// Changes nothing.
    public var readOnly: Bool
    /// May delete or overwrite what is there (meaningful only when not read-only).
    public var destructive: Bool
    /// Calling it again with the same arguments changes nothing more.
    public var idempotent: Bool
    /// Reaches beyond the book (files, the network).
    public var openWorld: Bool

    public init(readOnly: Bool = false, destructive: Bool = false, idempotent: Bool = false, openWorld: Bool = false) {
        self.readOnly = readOnly; self.destructive = destructive; self.idempotent = idempotent;
        self.openWorld = openWorld
    }

    public static let read = MCPToolAnnotations(readOnly: true, idempotent: true)

    var json: JSONValue {
        [
            "readOnlyHint": .bool(readOnly), "destructiveHint": .bool(!readOnly && destructive),
            "idempotentHint": .bool(idempotent), "openWorldHint": .bool(openWorld),
        ]
    }
}

/// What a tool call gives back: structured content matching the tool's output schema, and a
/// short text for clients that show only text.
public struct MCPToolResult: Equatable, Sendable {
    public let structuredContent: JSONValue?
    public let text: String
    public let isError: Bool

    public init(_ structuredContent: JSONValue, text: String) {
        self.structuredContent = structuredContent; self.text = text; isError = false
    }

    /// A failed call: the text says what to change; `details` (by field) go in `structuredContent`.
    public static func failure(_ text: String, details: [String: String] = [:]) -> MCPToolResult {
        MCPToolResult(failure: text, details: details)
    }

    private init(failure message: String, details: [String: String]) {
        // The text names each field and why too: many agents read only the text.
        let reasons = details.sorted { $0.key < $1.key }.filter { !message.contains($0.value) }
        text =
            reasons.isEmpty
            ? message : message + "\n" + reasons.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
        isError = true
        structuredContent =
            details.isEmpty
            ? nil
            : ["error": .string(message), "details": .object(details.mapValues { .string($0) })]
    }

    var json: JSONValue {
        var members: [String: JSONValue] = [
            "content": [["type": "text", "text": .string(text)]], "isError": .bool(isError),
        ]
        if let structuredContent { members["structuredContent"] = structuredContent }
        return .object(members)
    }
}

/// A failure a tool throws: becomes a result with `isError: true`, never a JSON-RPC error, so
/// the agent reads why and can correct its call.
public struct MCPToolFailure: Error, Equatable {
    public let message: String
    public let details: [String: String]

    public init(_ message: String, details: [String: String] = [:]) { self.message = message; self.details = details }
}
