import JSONBytes
import SceneCore

/// JSON Schema (draft 2020-12 subset) generated from the action declarations, and the whole
/// `session/describe` document built from it.
enum RPCSchema {
    static func params(_ spec: ActionSpec) -> JSONValue {
        var properties = Dictionary(uniqueKeysWithValues: spec.parameters.map { ($0.name, property($0)) })
        // Progress tokens (LSP and MCP) are accepted by every method and never reach the action.
        properties["workDoneToken"] = [
            "type": ["integer", "string"],
            "description": "LSP: send $/progress for long work under this token",
        ]
        properties["_meta"] = [
            "type": "object", "description": "MCP: progressToken asks for notifications/progress",
            "properties": ["progressToken": ["type": ["integer", "string"]]],
        ]
        return [
            "type": "object", "properties": .object(properties),
            "required": .array(spec.parameters.filter(\.isRequired).map { .string($0.name) }),
            "additionalProperties": false,
        ]
    }

    static func property(_ parameter: ParameterSpec) -> JSONValue {
        var schema: [String: JSONValue] = ["description": .string(parameter.help)]
        switch parameter.type {
        case .string, .text: schema["type"] = parameter.acceptsNumber ? ["string", "integer"] : "string"
        case .boolean: schema["type"] = "boolean"
        case .integer(let min, let max):
            schema["type"] = "integer"
            if let min { schema["minimum"] = .integer(min) }
            if let max { schema["maximum"] = .integer(max) }
        case .choice(let choices):
            schema["type"] = "string"
            schema["enum"] = .array(choices.map { .string($0) })
        }
        return .object(schema)
    }

    static let any: JSONValue = [:]
    static let stack: JSONValue = [
        "type": "array", "description": "the scenes from the root to the active one",
        "items": ["type": "object", "properties": ["scene": ["type": "string"], "title": ["type": "string"]]],
    ]
    static let routes: JSONValue = [
        "type": "array", "description": "stack changes, in order",
        "items": [
            "type": "object",
            "properties": [
                "route": ["type": "string", "enum": ["push", "pop", "replace"]],
                "scene": ["type": "string"], "replaced": ["type": "string"],
            ],
        ],
    ]
    static let displayed: JSONValue = [
        "type": "array", "description": "the ViewModels displayed, in order",
        "items": [
            "type": "object", "required": ["kind", "value"],
            "properties": [
                "kind": ["type": "string"],
                "value": [
                    "type": "object",
                    "description": "its schema is viewModels[kind], where described",
                ],
            ],
        ],
    ]

    /// The result of every scene and router method (and the `data` of their errors).
    static let actionResult: JSONValue = [
        "type": "object", "required": ["displayed", "routes", "stack"],
        "properties": ["displayed": displayed, "routes": routes, "stack": stack],
    ]

    static func object(_ properties: [String: JSONValue], required: [String] = [], closed: Bool = false) -> JSONValue {
        var schema: [String: JSONValue] = [
            "type": "object", "properties": .object(properties),
            "required": .array(required.map { .string($0) }),
        ]
        if closed { schema["additionalProperties"] = false }
        return .object(schema)
    }
}
