import JSONBytes
import SceneCore
import SceneRPC

/// Tool arguments checked against action declarations, with JSON-RPC's own binder: a wrong
/// argument becomes an `MCPToolFailure` naming it and why, for the agent to correct.
public enum MCPArguments {
    /// The call one action makes of `arguments`.
    public static func bind(_ arguments: JSONValue, to spec: ActionSpec, tool: String) throws -> ActionCall {
        do {
            return try spec.bind(arguments, method: tool)
        } catch let error as RPCError {
            throw failure(error)
        }
    }

    /// An `MCPToolFailure` from the `-32602` error the binder threw: its `data` names the field.
    /// An item's failure names the item too (`phone[1]: 'value' is required`), since many agents
    /// read only the text.
    static func failure(_ error: RPCError, field: String? = nil) -> MCPToolFailure {
        let parameter = error.data?["parameter"].flatMap { value -> String? in
            if case .string(let name) = value { return name }
            return nil
        }
        let message = error.message.replacingPrefix("invalid params: ", with: "")
        let key = [field, parameter].compactMap { $0 }.joined(separator: ".")
        return MCPToolFailure(field.map { "\($0): \(message)" } ?? message, details: key.isEmpty ? [:] : [key: message])
    }

    /// Members of an arguments object (absent arguments are an empty object).
    public static func members(_ arguments: JSONValue) throws -> [String: JSONValue] {
        switch arguments {
        case .object(let members): return members
        case .null: return [:]
        default: throw MCPToolFailure("arguments must be an object, not \(arguments.typeName)")
        }
    }
}

/// A form's actions as one tool's arguments, so an agent sets every field in one call: each
/// single-valued field is a string named as its action, each repeated one (a phone, a tag) an
/// array of its action's parameters. The calls come out in the declarations' order.
public struct MCPFormFields {
    public let single: [ActionSpec]
    public let repeated: [ActionSpec]

    /// - Parameters:
    ///   - single: actions that set a field from their one parameter (`given VALUE`).
    ///   - repeated: actions that add one item each time (`phone [LABEL] VALUE`).
    public init(single: [ActionSpec], repeated: [ActionSpec]) {
        self.single = single; self.repeated = repeated
    }

    public var names: [String] { (single + repeated).map(\.name) }

    /// JSON Schema of each field, by action name.
    public var properties: [String: JSONValue] {
        var properties: [String: JSONValue] = [:]
        for spec in single {
            guard let parameter = spec.parameters.last else { continue }
            var schema = parameter.jsonSchema
            schema = schema.replacing("description", with: .string(spec.summary))
            properties[spec.name] = schema
        }
        for spec in repeated {
            properties[spec.name] = [
                "type": "array", "description": .string(spec.summary + " (one per item)"),
                "items": Self.itemSchema(spec),
            ]
        }
        return properties
    }

    /// One item: the value alone when the action takes one parameter, else its parameters by name.
    private static func itemSchema(_ spec: ActionSpec) -> JSONValue {
        spec.parameters.count == 1 ? spec.parameters[0].jsonSchema : spec.parametersSchema
    }

    /// The calls `arguments` asks for, for the fields among them (other members are left to the
    /// caller). A field set to `""` is a call with an empty value: the caller decides what it means.
    public func calls(from arguments: [String: JSONValue]) throws -> [ActionCall] {
        var calls: [ActionCall] = []
        for spec in single {
            guard let value = arguments[spec.name], value != .null, let parameter = spec.parameters.last else {
                continue
            }
            guard case .string(let text) = value else {
                throw MCPToolFailure(
                    "'\(spec.name)' must be a string, not \(value.typeName)",
                    details: [spec.name: "must be a string"])
            }
            calls.append(ActionCall(spec.name, [parameter.name: .string(text)]))
        }
        for spec in repeated {
            guard let value = arguments[spec.name], value != .null else { continue }
            guard case .array(let items) = value else {
                throw MCPToolFailure(
                    "'\(spec.name)' must be an array, not \(value.typeName)",
                    details: [spec.name: "must be an array"])
            }
            for (index, item) in items.enumerated() {
                let field = "\(spec.name)[\(index)]"
                if spec.parameters.count > 1 && item.isScalar {
                    let members = spec.parameters.map { $0.isRequired ? $0.name : $0.name + "?" }.joined(
                        separator: ", ")
                    throw MCPToolFailure(
                        "'\(field)' must be an object {\(members)}, not \(item.typeName)",
                        details: [field: "must be an object {\(members)}"])
                }
                let params: JSONValue = item.isScalar ? [item] : item
                do {
                    calls.append(try spec.bind(params, method: field))
                } catch let error as RPCError {
                    throw MCPArguments.failure(error, field: field)
                }
            }
        }
        return calls
    }
}

extension JSONValue {
    fileprivate var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    fileprivate func replacing(_ key: String, with value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members[key] = value
        return .object(members)
    }
}

extension String {
    fileprivate func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
