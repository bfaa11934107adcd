import JSONBytes
import SceneCore

/// Running scene and router methods, and shaping their outcome as results and errors.
extension RPCDispatcher {
    /// Runs the call and returns `{displayed, routes, stack}`; an error message displayed makes
    /// it an application error carrying the same members (plus `code` and `details`) as `data`.
    func perform(_ call: ActionCall, _ target: MethodCatalog.Target) throws -> ActionResult {
        let outcome: Outcome
        switch target {
        case .sceneAction(let scene): outcome = session.run(call, reaching: scene)
        case .globalAction: outcome = session.run(call)
        case .popTo: outcome = session.pop(to: call.string("scene") ?? "")
        }
        announce(outcome)
        return try Self.result(of: outcome, stack: stackJSON())
    }

    /// `{displayed, routes, stack}` for an outcome, or the application error it ends in.
    static func result(of outcome: Outcome, stack: StackJSON) throws(RPCError) -> ActionResult {
        let result = ActionResult(displayed: outcome.displayed.map(Self.displayed),
                                  routes: outcome.routes.map { (try? JSONValueEncoder.encode($0)) ?? .null },
                                  stack: stack)
        guard let failure = outcome.error else { return result }
        guard case .object(var body) = result.json else { preconditionFailure("a result is an object") }
        body["code"] = failure.code.map { .string($0.rawValue) } ?? .null
        body["details"] = .object(failure.details.mapValues { .string($0) })
        throw RPCError(code: failure.code?.rpcCode ?? RPCError.applicationErrorCode, message: failure.text,
                       data: .object(body))
    }

    /// The stack as JSON-RPC shows it.
    static func stackJSON(of session: Session) -> StackJSON {
        StackJSON((try? JSONValueEncoder.encode(session.stackViewModel))?["scenes"] ?? [])
    }

    /// `session/message` for each message, then `session/stackChanged` if the stack moved.
    private func announce(_ outcome: Outcome) {
        for case let message as Message in outcome.displayed {
            notify("session/message", Self.value(of: message))
        }
        if !outcome.routes.isEmpty {
            notify("session/stackChanged", ["routes": .array(outcome.routes.map { (try? JSONValueEncoder.encode($0)) ?? .null }),
                                            "stack": stackJSON().value])
        }
    }

    /// The stack as JSON, with its text. Every result and stack notification carries it, and it
    /// changes only when the stack moves, so the last one is kept while the stack is equal.
    func stackJSON() -> StackJSON {
        let model = session.stackViewModel
        if let cached = stackCache, cached.model == model { return cached.json }
        let json = Self.stackJSON(of: session)
        stackCache = (model, json)
        return json
    }

    static func displayed(_ viewModel: any ViewModel) -> JSONValue {
        ["kind": .string(type(of: viewModel).kind), "value": value(of: viewModel)]
    }

    /// A ViewModel's JSON form. Encoding a ViewModel is not expected to fail; if one does, the
    /// client still learns its kind and the rest of the result.
    static func value(of viewModel: any ViewModel) -> JSONValue {
        (try? JSONValueEncoder.encode(viewModel)) ?? ["error": "this view model could not be encoded"]
    }
}

/// The stack's JSON and its compact text, made once per stack.
struct StackJSON: Equatable {
    let value: JSONValue
    let text: [UInt8]

    init(_ value: JSONValue) { self.value = value; text = value.serialized() }
}

/// The result of a scene or router method, `{displayed, routes, stack}`, kept apart from its JSON
/// object until written (like `OutgoingMessage`): the writer puts the members in key order and
/// copies the stack's text, instead of building, sorting and writing them for every request.
struct ActionResult: Equatable {
    let displayed: [JSONValue]
    let routes: [JSONValue]
    let stack: StackJSON

    var json: JSONValue { ["displayed": .array(displayed), "routes": .array(routes), "stack": stack.value] }

    /// Appends the same bytes as `json.serialized()`.
    func appendCompact(to out: inout [UInt8]) {
        JSONWriter.appendRaw(#"{"displayed":"#, to: &out)
        JSONValue.array(displayed).appendCompact(to: &out)
        JSONWriter.appendRaw(#","routes":"#, to: &out)
        JSONValue.array(routes).appendCompact(to: &out)
        JSONWriter.appendRaw(#","stack":"#, to: &out)
        out.append(contentsOf: stack.text)
        out.append(UInt8(ascii: "}"))
    }
}
