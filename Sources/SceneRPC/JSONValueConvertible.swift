import SceneCore

/// A value that builds its JSON-RPC form itself, without going through an `Encoder`.
///
/// `JSONValueEncoder` uses it when a value adopts it. The core's own small view models and
/// routes adopt it, because one of them is in nearly every result (the stack, the routes, a
/// message); building them by hand is measured several times faster than any `Encoder`. Each
/// conversion must give exactly what the type's `Encodable` conformance gives: the tests compare
/// every one with `JSONValue.encoding`. App view models may adopt it for the same reason.
public protocol JSONValueConvertible {
    var jsonValue: JSONValue { get }
}

extension StackViewModel: JSONValueConvertible {
    public var jsonValue: JSONValue {
        .object(["scenes": .array(scenes.map { .object(["scene": .string($0.scene), "title": .string($0.title)]) })])
    }
}

extension Message: JSONValueConvertible {
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["kind": .string(kind.rawValue), "text": .string(text),
                                            "details": .object(details.mapValues(JSONValue.string))]
        if let code { members["code"] = .string(code.rawValue) }
        return .object(members)
    }
}

extension HelpViewModel: JSONValueConvertible {
    public var jsonValue: JSONValue {
        .object(["scene": .string(scene),
                 "entries": .array(entries.map { .object(["usage": .string($0.usage), "summary": .string($0.summary)]) }),
                 "details": .array(details.map(JSONValue.string))])
    }
}

extension Route: JSONValueConvertible {
    public var jsonValue: JSONValue {
        switch self {
        case .push(let scene): return .object(["route": "push", "scene": .string(scene)])
        case .pop(let scene): return .object(["route": "pop", "scene": .string(scene)])
        case .replace(let old, let new): return .object(["route": "replace", "scene": .string(new), "replaced": .string(old)])
        }
    }
}

extension DataChange: JSONValueConvertible {
    public var jsonValue: JSONValue {
        .object(["topic": .string(topic), "kind": .string(kind), "ids": .array(ids.map(JSONValue.string))])
    }
}
