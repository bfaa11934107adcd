import JSONBytes
import SceneCore

/// The JSON side of an action declaration, for other protocols spoken over this layer (MCP's
/// tools): the same schema and the same checks as the session's own JSON-RPC methods.
extension ActionSpec {
    /// JSON Schema of the parameters, as `session/describe` gives it, without the progress-token
    /// members every JSON-RPC method also takes.
    public var parametersSchema: JSONValue {
        RPCSchema.object(
            Dictionary(uniqueKeysWithValues: parameters.map { ($0.name, $0.jsonSchema) }),
            required: parameters.filter(\.isRequired).map(\.name), closed: true)
    }

    /// Checks JSON params (an object by name, or an array by position) into a call, or throws
    /// the `-32602` error a JSON-RPC method would answer (its `data` names the parameter and why).
    public func bind(_ params: JSONValue?, method: String) throws -> ActionCall {
        try ParamsBinder.bind(params, to: self, method: method)
    }
}

extension ParameterSpec {
    /// This parameter's JSON Schema (type, range or choices, and its help as the description).
    public var jsonSchema: JSONValue { RPCSchema.property(self) }
}
