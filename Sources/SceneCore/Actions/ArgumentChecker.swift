/// Why an input could not become an `ActionCall`.
public enum DispatchError: Error, Equatable, Sendable {
    case unknownAction(String, available: [String])
    case ambiguousAction(String, candidates: [String])
    case missingParameter(action: String, parameter: String, usage: String)
    case invalidParameter(action: String, parameter: String, expected: String, got: String)
    case unexpectedParameter(action: String, parameter: String, usage: String)
    case unbalancedQuote

    /// The sentence a person reads.
    public var message: String {
        switch self {
        case .unknownAction(let name, let available):
            let near = Suggestion.nearest(to: name, among: available)
            guard near.isEmpty else {
                return
                    "unknown command '\(name)'; did you mean \(near.joined(separator: " or "))? (help lists them all)"
            }
            return "unknown command '\(name)'; here you can use: \(available.joined(separator: ", "))"
        case .ambiguousAction(let name, let candidates):
            return "'\(name)' is ambiguous: \(candidates.joined(separator: ", "))"
        case .missingParameter(_, let parameter, let usage):
            return "missing \(parameter.uppercased()); usage: \(usage)"
        case .invalidParameter(_, let parameter, let expected, let got):
            return "\(parameter.uppercased()) must be \(expected), not '\(got)'"
        case .unexpectedParameter(_, let parameter, let usage):
            return "unexpected '\(parameter)'; usage: \(usage)"
        case .unbalancedQuote:
            return "a quote is not closed"
        }
    }
}

/// Type checks one raw parameter value; shared by the command parser and the JSON-RPC front.
public enum ArgumentChecker {
    public static func check(_ raw: String, as spec: ParameterSpec, action: String) throws -> ArgumentValue {
        func invalid(_ expected: String) -> DispatchError {
            .invalidParameter(action: action, parameter: spec.name, expected: expected, got: raw)
        }
        switch spec.type {
        case .string, .text:
            return .string(raw)
        case .integer:
            guard let value = Int(raw) else { throw invalid(describe(spec.type)) }
            return try checkRange(value, spec: spec, action: action)
        case .choice(let choices):
            if choices.contains(raw) { return .string(raw) }
            let matches = choices.filter { $0.hasPrefix(raw) }
            guard !raw.isEmpty, matches.count == 1 else { throw invalid(describe(spec.type)) }
            return .string(matches[0])
        case .boolean:
            switch raw.lowercased() {
            case "yes", "true", "on", "1": return .boolean(true)
            case "no", "false", "off", "0": return .boolean(false)
            default: throw invalid(describe(spec.type))
            }
        }
    }

    /// Checks an integer's bounds (JSON-RPC passes integers without a string form).
    public static func checkRange(_ value: Int, spec: ParameterSpec, action: String) throws -> ArgumentValue {
        if case .integer(let min, let max) = spec.type,
            (min.map { value < $0 } ?? false) || (max.map { value > $0 } ?? false)
        {
            throw DispatchError.invalidParameter(
                action: action, parameter: spec.name, expected: describe(spec.type), got: String(value))
        }
        return .integer(value)
    }

    /// "an integer from 1 to 500", "one of: first, last", ...
    public static func describe(_ type: ParameterType) -> String {
        switch type {
        case .string: return "a word"
        case .text: return "text"
        case .integer(let min?, let max?): return "an integer from \(min) to \(max)"
        case .integer(let min?, nil): return "an integer of at least \(min)"
        case .integer(nil, let max?): return "an integer of at most \(max)"
        case .integer: return "an integer"
        case .choice(let choices): return "one of: \(choices.joined(separator: ", "))"
        case .boolean: return "yes or no"
        }
    }
}
