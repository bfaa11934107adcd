import JSONBytes
import SceneCore

// The core's own small view models and routes build their JSON-RPC form by hand: one of them is
// in nearly every result (`JSONValueConvertible` says why and what they must equal).

extension StackViewModel: JSONValueConvertible {
    public var jsonValue: JSONValue {
        .object(["scenes": .array(scenes.map { .object(["scene": .string($0.scene), "title": .string($0.title)]) })])
    }
}

extension Message: JSONValueConvertible {
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "kind": .string(kind.rawValue), "text": .string(text),
            "details": .object(details.mapValues(JSONValue.string)),
        ]
        if let code { members["code"] = .string(code.rawValue) }
        return .object(members)
    }
}

extension HelpViewModel: JSONValueConvertible {
    public var jsonValue: JSONValue {
        .object([
            "scene": .string(scene),
            "entries": .array(entries.map { .object(["usage": .string($0.usage), "summary": .string($0.summary)]) }),
            "details": .array(details.map(JSONValue.string)),
        ])
    }
}

extension Route: JSONValueConvertible {
    public var jsonValue: JSONValue {
        switch self {
        case .push(let scene): return .object(["route": "push", "scene": .string(scene)])
        case .pop(let scene): return .object(["route": "pop", "scene": .string(scene)])
        case .replace(let old, let new):
            return .object(["route": "replace", "scene": .string(new), "replaced": .string(old)])
        }
    }
}

extension DataChange: JSONValueConvertible {
    public var jsonValue: JSONValue {
        .object([
            "topic": .string(topic), "kind": .string(kind), "ids": .array(ids.map(JSONValue.string)),
            "external": .bool(external),
        ])
    }
}
