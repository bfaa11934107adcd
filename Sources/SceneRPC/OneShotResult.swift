import JSONBytes
import SceneCore

/// What JSON-RPC answers for one action's outcome, for a one-shot command that prints it
/// (`contactsbook search TEXT --json`): the very result a `contacts/search` request returns,
/// `{displayed, routes, stack}`, or, when the action failed, `{"error": {code, message, data}}`
/// with the error object JSON-RPC sends.
public enum OneShotResult {
    /// The JSON, and whether the action succeeded.
    public static func json(of outcome: Outcome, in session: Session) -> (json: JSONValue, succeeded: Bool) {
        do {
            return (try RPCDispatcher.result(of: outcome, stack: RPCDispatcher.stackJSON(of: session)).json, true)
        } catch {
            return (["error": error.json], false)
        }
    }
}
