/// A type whose JSON form is described by a JSON Schema, so introspection (JSON-RPC's
/// `session/describe`, `--api-info`) can tell programs its fields instead of leaving them to guess.
public protocol JSONSchemaDescribed {
    static var jsonSchema: JSONValue { get }
}
