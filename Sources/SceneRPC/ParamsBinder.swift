import JSONBytes
import SceneCore

/// Turns JSON params into a checked `ActionCall`, from the same `ParameterSpec`s the command
/// parser uses, but with JSON's types: integers must be JSON integers, booleans JSON booleans,
/// choices exact (no prefixes: a program should say what it means). A parameter that names a
/// record (`acceptsNumber`) takes its number as a JSON integer too, passed on as decimal text.
///
/// Params may be an object (by name) or an array (by position, in declaration order).
/// A `null` member counts as absent, because many clients send optional fields as null.
enum ParamsBinder {
    static func bind(_ params: JSONValue?, to spec: ActionSpec, method: String) throws -> ActionCall {
        let named = try byName(params, spec: spec, method: method)
        var arguments: [String: ArgumentValue] = [:]
        for parameter in spec.parameters {
            guard let value = named[parameter.name], value != .null else {
                if parameter.isRequired {
                    throw invalid(method, parameter, reason: "missing", got: nil)
                }
                continue
            }
            arguments[parameter.name] = try check(value, as: parameter, method: method)
        }
        return ActionCall(spec.name, arguments)
    }

    private static func byName(_ params: JSONValue?, spec: ActionSpec, method: String) throws -> [String: JSONValue] {
        switch params {
        case nil: return [:]
        case .object(let members)?:
            let known = Set(spec.parameters.map(\.name))
            if let unexpected = members.keys.sorted().first(where: { !known.contains($0) }) {
                throw RPCError(
                    code: RPCError.invalidParamsCode, message: "invalid params: unexpected parameter '\(unexpected)'",
                    data: [
                        "method": .string(method), "parameter": .string(unexpected), "reason": "unexpected",
                        "expected": .string(expectedNames(spec)),
                    ])
            }
            return members
        case .array(let values)?:
            guard values.count <= spec.parameters.count else {
                throw RPCError(
                    code: RPCError.invalidParamsCode,
                    message: "invalid params: \(values.count) positional params, at most \(spec.parameters.count)",
                    data: [
                        "method": .string(method), "reason": "unexpected",
                        "expected": .string(expectedNames(spec)),
                    ])
            }
            return Dictionary(uniqueKeysWithValues: zip(spec.parameters.map(\.name), values))
        case let other?:
            // IncomingMessage refuses these before dispatch; kept total for safety.
            throw RPCError.invalidRequest("\"params\" must be an object or an array, not \(other.typeName)")
        }
    }

    private static func check(_ value: JSONValue, as parameter: ParameterSpec, method: String) throws -> ArgumentValue {
        func wrongType() -> RPCError { invalid(method, parameter, reason: "invalid", got: value) }
        switch (parameter.type, value) {
        case (.string, .string(let text)), (.text, .string(let text)):
            return .string(text)
        case (.string, .integer(let number)) where parameter.acceptsNumber,
            (.text, .integer(let number)) where parameter.acceptsNumber:
            return .string(String(number))
        case (.integer, .integer(let number)):
            do { return try ArgumentChecker.checkRange(number, spec: parameter, action: method) } catch {
                throw wrongType()
            }
        case (.choice(let choices), .string(let text)) where choices.contains(text):
            return .string(text)
        case (.boolean, .bool(let flag)):
            return .boolean(flag)
        default:
            throw wrongType()
        }
    }

    /// What a parameter accepts, in JSON terms.
    static func expected(_ parameter: ParameterSpec) -> String {
        switch parameter.type {
        case .string, .text: return parameter.acceptsNumber ? "a string or an integer" : "a string"
        case .boolean: return "true or false"
        case .integer, .choice: return ArgumentChecker.describe(parameter.type)
        }
    }

    private static func expectedNames(_ spec: ActionSpec) -> String {
        spec.parameters.isEmpty ? "no params" : "params: " + spec.parameters.map(\.name).joined(separator: ", ")
    }

    private static func invalid(_ method: String, _ parameter: ParameterSpec, reason: String, got: JSONValue?)
        -> RPCError
    {
        let expected = expected(parameter)
        var data: JSONValue = [
            "method": .string(method), "parameter": .string(parameter.name),
            "reason": .string(reason), "expected": .string(expected),
        ]
        if case .object(var members) = data, let got { members["got"] = got; data = .object(members) }
        let message =
            reason == "missing"
            ? "invalid params: '\(parameter.name)' is required (\(expected))"
            : "invalid params: '\(parameter.name)' must be \(expected)"
        return RPCError(code: RPCError.invalidParamsCode, message: message, data: data)
    }
}
