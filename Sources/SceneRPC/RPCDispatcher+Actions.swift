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
        let stack = stackJSON()
        return try Self.result(of: outcome, stack: stack, stackModel: stackCache?.model)
    }

    /// `{displayed, routes, stack}` for an outcome, or the application error it ends in.
    /// A displayed stack equal to `stackModel` (the one `stack` was made from) takes its JSON
    /// from `stack`: `session/stack`, asked by clients in a loop, then builds no JSON of its own
    /// (building it again was a fifth of a pipelined request; bench/FINDINGS.md, issue 32).
    static func result(of outcome: Outcome, stack: StackJSON, stackModel: StackViewModel? = nil) throws(RPCError)
        -> ActionResult
    {
        var stackShownAt: [Int] = []
        var displayed: [JSONValue] = []
        displayed.reserveCapacity(outcome.displayed.count)
        for viewModel in outcome.displayed {
            if let stackModel, ObjectIdentifier(type(of: viewModel)) == ObjectIdentifier(StackViewModel.self),
                let shown = viewModel as? StackViewModel, shown == stackModel
            {
                stackShownAt.append(displayed.count)
                displayed.append(stack.shown)
            } else {
                displayed.append(Self.displayed(viewModel))
            }
        }
        let result = ActionResult(
            displayed: displayed,
            routes: outcome.routes.map { (try? JSONValueEncoder.encode($0)) ?? .null },
            stack: stack, stackShownAt: stackShownAt)
        guard let failure = outcome.error else { return result }
        guard case .object(var body) = result.json else { preconditionFailure("a result is an object") }
        body["code"] = failure.code.map { .string($0.rawValue) } ?? .null
        body["details"] = .object(failure.details.mapValues { .string($0) })
        throw RPCError(
            code: failure.code?.rpcCode ?? RPCError.applicationErrorCode, message: failure.text,
            data: .object(body))
    }

    /// The stack as JSON-RPC shows it.
    static func stackJSON(of session: Session) -> StackJSON {
        // What `JSONValueEncoder.encode` returns for it, without that function's run-time check
        // (`as? JSONValueConvertible`): a scan of every conformance in the binary the first
        // time, a tenth of `--rpc`'s way to `initialize` after the loader (bench/FINDINGS.md).
        StackJSON(session.stackViewModel.jsonValue["scenes"] ?? [])
    }

    /// `session/message` for each message, then `session/stackChanged` if the stack moved.
    private func announce(_ outcome: Outcome) {
        for case let message as Message in outcome.displayed {
            notify("session/message", Self.value(of: message))
        }
        if !outcome.routes.isEmpty {
            notify(
                "session/stackChanged",
                [
                    "routes": .array(outcome.routes.map { (try? JSONValueEncoder.encode($0)) ?? .null }),
                    "stack": stackJSON().value,
                ])
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
    /// The stack as `displayed` shows it, `{"kind":"stack","value":{"scenes":value}}`.
    let shown: JSONValue

    init(_ value: JSONValue) {
        self.value = value; text = value.serialized()
        shown = ["kind": .string(StackViewModel.kind), "value": .object(["scenes": value])]
    }
}

/// The result of a scene or router method, `{displayed, routes, stack}`, kept apart from its JSON
/// object until written (like `OutgoingMessage`): the writer puts the members in key order and
/// copies the stack's text, instead of building, sorting and writing them for every request.
struct ActionResult: Equatable {
    let displayed: [JSONValue]
    let routes: [JSONValue]
    let stack: StackJSON
    /// The positions in `displayed` that are the stack (`StackJSON.shown`), written from its text.
    var stackShownAt: [Int] = []

    var json: JSONValue { ["displayed": .array(displayed), "routes": .array(routes), "stack": stack.value] }

    /// Appends the same bytes as `json.serialized()`.
    func appendCompact(to out: inout [UInt8]) {
        JSONWriter.appendRaw(#"{"displayed":"#, to: &out)
        if stackShownAt.isEmpty {
            JSONValue.array(displayed).appendCompact(to: &out)
        } else {
            // Members in key order, as the writer puts them: "kind", then "value".
            out.append(UInt8(ascii: "["))
            for (index, value) in displayed.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if stackShownAt.contains(index) {
                    JSONWriter.appendRaw(#"{"kind":"stack","value":{"scenes":"#, to: &out)
                    out.append(contentsOf: stack.text)
                    JSONWriter.appendRaw("}}", to: &out)
                } else {
                    value.appendCompact(to: &out)
                }
            }
            out.append(UInt8(ascii: "]"))
        }
        JSONWriter.appendRaw(#","routes":"#, to: &out)
        JSONValue.array(routes).appendCompact(to: &out)
        JSONWriter.appendRaw(#","stack":"#, to: &out)
        out.append(contentsOf: stack.text)
        out.append(UInt8(ascii: "}"))
    }
}
