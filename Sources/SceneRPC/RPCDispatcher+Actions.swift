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
        // The stack the session made as the input's last step is the one it ends with: not made again.
        let stack = stackJSON(outcome.finalStack)
        // That stack alone (`session/stack`): no message or route to announce, no error, and the
        // result's arrays are the stack's own, made once.
        if outcome.finalStack != nil, outcome.displayed.count == 1, outcome.routes.isEmpty {
            return ActionResult(displayed: stack.shownAlone, routes: [], stack: stack, stackShownAt: Self.first)
        }
        announce(outcome)
        return try Self.result(of: outcome, stack: stack, stackModel: stackCacheModel)
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

    private static let first = [0]

    /// The stack as JSON-RPC shows it.
    static func stackJSON(of session: Session) -> StackJSON { stackJSON(of: session.stackViewModel) }

    static func stackJSON(of model: StackViewModel) -> StackJSON {
        // What `JSONValueEncoder.encode` returns for it, without that function's run-time check
        // (`as? JSONValueConvertible`): a scan of every conformance in the binary the first
        // time, a tenth of `--rpc`'s way to `initialize` after the loader (bench/FINDINGS.md).
        StackJSON(model.jsonValue["scenes"] ?? [])
    }

    /// `session/message` for each message, then `session/stackChanged` if the stack moved.
    private func announce(_ outcome: Outcome) {
        // A message is a struct: only a value of that very type casts, so the type is asked
        // first (a failed cast of each other view model was 2 % of a pipelined request).
        for viewModel in outcome.displayed
        where ObjectIdentifier(type(of: viewModel)) == ObjectIdentifier(Message.self) {
            if let message = viewModel as? Message { notify("session/message", Self.value(of: message)) }
        }
        if !outcome.routes.isEmpty {
            notify(
                "session/stackChanged",
                [
                    "routes": .array(outcome.routes.map { (try? JSONValueEncoder.encode($0)) ?? .null }),
                    "stack": stackJSON(outcome.finalStack).value,
                ])
        }
    }

    /// The stack as JSON, with its text. Every result and stack notification carries it, and it
    /// changes only when the stack moves, so the last one is kept while the stack is equal.
    /// - Parameter known: the stack's model when the caller has it (`Outcome.finalStack`).
    func stackJSON(_ known: StackViewModel? = nil) -> StackJSON {
        let model = known ?? session.stackViewModel
        if let json = stackCacheJSON, stackCacheModel == model { return json }
        let json = Self.stackJSON(of: model)
        stackCacheModel = model
        stackCacheJSON = json
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

/// The stack's JSON and its compact text, made once per stack. A class: every result holds it,
/// and copying the struct it was retained each of its members.
final class StackJSON: Equatable {
    let value: JSONValue
    let text: [UInt8]
    /// The stack as `displayed` shows it, `{"kind":"stack","value":{"scenes":value}}`.
    let shown: JSONValue
    /// `[shown]`: what a result that displays the stack and nothing else displays (`session/stack`).
    let shownAlone: [JSONValue]
    /// The text of that result, `{"displayed":[shown],"routes":[],"stack":value}`, written once.
    private(set) lazy var aloneResultText: [UInt8] = {
        var out: [UInt8] = []
        ActionResult(displayed: shownAlone, routes: [], stack: self, stackShownAt: [0]).appendMembers(to: &out)
        return out
    }()

    init(_ value: JSONValue) {
        self.value = value; text = value.serialized()
        shown = ["kind": .string(StackViewModel.kind), "value": .object(["scenes": value])]
        shownAlone = [shown]
    }

    static func == (lhs: StackJSON, rhs: StackJSON) -> Bool { lhs === rhs || lhs.value == rhs.value }
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
        // The stack alone: the same members each time while the stack stays, written once.
        if displayed.count == 1, stackShownAt.count == 1, routes.isEmpty {
            return out.append(contentsOf: stack.aloneResultText)
        }
        appendMembers(to: &out)
    }

    /// Appends the same bytes as `json.serialized()`, member by member.
    fileprivate func appendMembers(to out: inout [UInt8]) {
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
