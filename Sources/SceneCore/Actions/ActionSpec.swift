/// The one declaration of something a scene can do.
///
/// It drives command parsing, abbreviations, `help`, completion and (for JSON-RPC) parameter
/// validation and JSON Schema, so a REPL command and an RPC method can never disagree.
public struct ActionSpec: Equatable, Sendable {
    public let name: String
    /// Other spellings that dispatch to the same action (`done` for `save`).
    public let aliases: [String]
    public let summary: String
    public let parameters: [ParameterSpec]
    /// Longer help: details and an example, shown by `help ACTION`.
    public let details: String

    public init(
        _ name: String, aliases: [String] = [], summary: String,
        parameters: [ParameterSpec] = [], details: String = ""
    ) {
        self.name = name; self.aliases = aliases; self.summary = summary
        self.parameters = parameters; self.details = details
    }

    /// `name PARAM [OPTIONAL]`, as help shows it.
    public var usage: String {
        ([name]
            + parameters.map { p in
                if p.isFlag { return p.type == .boolean ? "[--\(p.name)]" : "[--\(p.name) \(p.name.uppercased())]" }
                let word = p.type == .text ? "\(p.name.uppercased())..." : p.name.uppercased()
                return p.isRequired ? word : "[\(word)]"
            }).joined(separator: " ")
    }
}

/// One parameter of an action.
public struct ParameterSpec: Equatable, Sendable {
    public let name: String
    public let type: ParameterType
    public let isRequired: Bool
    public let help: String
    /// Where completion finds candidate values (beyond the choices of a `.choice` type).
    public let completion: CompletionSource
    /// A `.string` or `.text` parameter that names a record by its number or by text: programs
    /// may then send the number as a number (JSON-RPC passes it on as its decimal text).
    public let acceptsNumber: Bool
    /// Given on a command line by its name, anywhere after the action's (`list --group Family`,
    /// `list --ungrouped` for a boolean), never by position: a filter that would otherwise take
    /// the place of the positional words. Optional; only for actions without a `.text` parameter.
    public let isFlag: Bool

    public init(
        _ name: String, _ type: ParameterType, required: Bool = true, help: String,
        completion: CompletionSource = .none, acceptsNumber: Bool = false, flag: Bool = false
    ) {
        self.name = name; self.type = type; self.isRequired = required && !flag; self.help = help
        self.completion = completion; self.acceptsNumber = acceptsNumber; self.isFlag = flag
    }
}

/// The types a parameter can have. Kept small: each maps to a JSON Schema type.
public enum ParameterType: Equatable, Sendable {
    /// One word (quote it to include spaces).
    case string
    /// The rest of the command line, spaces and all; only as the last parameter.
    case text
    case integer(min: Int?, max: Int?)
    /// One of a fixed set of words; any unique prefix is accepted on the command line.
    case choice([String])
    case boolean

    public static let integer = ParameterType.integer(min: nil, max: nil)
}

/// Where a front end finds completion candidates for a parameter.
public enum CompletionSource: Equatable, Sendable {
    case none
    /// Values the active scene supplies by this name (see `Scene.completions(for:prefix:)`).
    case named(String)
    /// Like `named`, for a `.text` parameter that holds several values, one word each (`merge 3
    /// "ann lee"`): each word completes on its own, quoted when the value holds spaces.
    case namedWords(String)
    /// Paths on this machine: a file to read or write (`import ~/book.vcf`).
    case files
}

/// A parameter value after parsing and type checking.
public enum ArgumentValue: Equatable, Sendable, Encodable {
    case string(String)
    case integer(Int)
    case boolean(Bool)

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .boolean(let value): try container.encode(value)
        }
    }
}

/// An action to run with its checked arguments: what a ViewController turns into a Request.
public struct ActionCall: Equatable, Sendable {
    public let name: String
    public let arguments: [String: ArgumentValue]

    public init(_ name: String, _ arguments: [String: ArgumentValue] = [:]) {
        self.name = name; self.arguments = arguments
    }

    public func string(_ key: String) -> String? {
        if case .string(let value)? = arguments[key] { return value }
        return nil
    }

    public func integer(_ key: String) -> Int? {
        if case .integer(let value)? = arguments[key] { return value }
        return nil
    }

    public func boolean(_ key: String) -> Bool? {
        if case .boolean(let value)? = arguments[key] { return value }
        return nil
    }
}
