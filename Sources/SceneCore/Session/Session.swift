/// The session: takes one input at a time, finds the action in the active scene (or a global
/// one), has the scene's ViewController run its VIP cycle, and returns everything displayed.
///
/// Every front end (line session, REPL, JSON-RPC) drives the app through this one type,
/// so parsing and dispatch exist once.
public final class Session {
    public let stack = SceneStack()
    /// Every kind of scene the app has, for introspection and help: made when first asked for
    /// (`initialize`, `help`), as building every scene's declarations is work a piped command
    /// that stays in the root scene never needs.
    public private(set) lazy var sceneKinds: [SceneDescriptor] = makeSceneKinds()
    private let makeSceneKinds: () -> [SceneDescriptor]
    private let recorder = Recorder()
    /// Whether the front end puts a scene's `ConfirmationRequest` to the person (the REPL).
    /// When false, the session answers it by the request's `otherwise`.
    public var canAsk = false

    /// The actions every scene has, handled by the session itself.
    public static let globalActions: [ActionSpec] = GlobalAction.allCases.map(\.declaration)

    /// - Parameters:
    ///   - sceneKinds: declarations of every scene of the app.
    ///   - makeRoot: builds the root scene with the context its VIP cycle needs.
    public init(sceneKinds: @autoclosure @escaping () -> [SceneDescriptor], makeRoot: (SceneContext) -> Scene) {
        makeSceneKinds = sceneKinds
        stack.observer = recorder
        stack.start(with: makeRoot(context))
    }

    /// The context scenes are configured with.
    public var context: SceneContext { SceneContext(display: recorder, navigator: stack) }

    /// The actions available now: the active scene's, then the global ones.
    /// A scene action shadows a global one of the same name (a form's `back` may mean cancel).
    public var availableActions: [ActionSpec] {
        let sceneActions = stack.active.descriptor.actions
        let taken = Set(sceneActions.flatMap { [$0.name] + $0.aliases })
        return sceneActions + Self.globalActions.filter { !taken.contains($0.name) }
    }

    /// Handles one command line. A blank line does nothing.
    public func handle(line: String) -> Outcome {
        let call: ActionCall?
        do {
            call = try CommandLineParser.parse(line, actions: availableActions)
        } catch let error as DispatchError {
            return failed(error)
        } catch {
            return failed(.unbalancedQuote)
        }
        guard let call else { return Outcome() }
        return run(call)
    }

    /// Runs a checked action in the active scene, or a global action.
    /// - Parameter sceneID: when given, the action must belong to this scene and it must be active.
    public func run(_ call: ActionCall, inScene sceneID: String? = nil) -> Outcome {
        recorder.begin()
        var quit = false
        if let sceneID, sceneID != stack.active.descriptor.id {
            let where_ = stack.scenes.map(\.descriptor.id).joined(separator: " > ")
            recorder.display(
                Message.error(
                    "'\(call.name)' belongs to the \(sceneID) screen, but you are on \(stack.active.descriptor.id) (\(where_))",
                    code: .sceneNotActive, details: ["active": stack.active.descriptor.id, "stack": where_]))
        } else if stack.activeActionsContain(call.name) {
            performInActiveScene(call)
        } else if sceneID == nil, let global = globalAction(named: call.name) {
            quit = runGlobal(global, call)
        } else {
            let error = DispatchError.unknownAction(call.name, available: availableActions.map(\.name))
            recorder.display(Message.error(error.message, code: .badInput))
            var outcome = recorder.end()
            outcome.dispatchError = error
            return outcome
        }
        var outcome = recorder.end()
        outcome.quit = quit
        return outcome
    }

    /// Runs an action of the scene `sceneID` whichever scene is on top, so a program needs no
    /// knowledge of the screens to make two calls in a row: the scenes above it are left first
    /// (`reach(_:)`), and the outcome shows their messages and routes before the action's. A scene
    /// not on the stack refuses as `run(_:inScene:)` does; so does one under a scene that stays.
    public func run(_ call: ActionCall, reaching sceneID: String) -> Outcome {
        let leaving = reach(sceneID)
        // A person asked whether to leave answers first; the action is not run behind the question.
        if canAsk, leaving.confirmation != nil { return leaving }
        var outcome = run(call, inScene: sceneID)
        // Mostly nothing was left: then the arrays are kept, not copied into new ones.
        if !leaving.displayed.isEmpty { outcome.displayed = leaving.displayed + outcome.displayed }
        if !leaving.routes.isEmpty { outcome.routes = leaving.routes + outcome.routes }
        return outcome
    }

    /// Leaves the scenes above the last `sceneID` of the stack, top first, each as its own `back`
    /// leaves it (a form's `back` cancels it out loud, saying what it drops), or by a pop when it
    /// declares none. Stops at a scene that stays (it asked, or refused); does nothing when
    /// `sceneID` is active or not on the stack.
    public func reach(_ sceneID: String) -> Outcome {
        recorder.begin()
        if stack.scenes.contains(where: { $0.descriptor.id == sceneID }) {
            while stack.active.descriptor.id != sceneID {
                let top = stack.active
                let back = top.descriptor.actions.first { spec in
                    let word = GlobalAction.back.rawValue
                    return (spec.name == word || spec.aliases.contains(word))
                        && !spec.parameters.contains(where: \.isRequired)
                }
                if let back { performInActiveScene(ActionCall(back.name)) } else { stack.pop() }
                if stack.active === top { break }
            }
        }
        return recorder.end()
    }

    /// Pops scenes until `sceneID` is active, recording the routes like any input
    /// (front ends offer it as a router command, e.g. JSON-RPC's `session/popTo`).
    public func pop(to sceneID: String) -> Outcome {
        recorder.begin()
        if !stack.pop(to: sceneID) {
            let where_ = stack.scenes.map(\.descriptor.id).joined(separator: " > ")
            recorder.display(
                Message.error(
                    "there is no \(sceneID) screen to go back to (\(where_))",
                    code: .notFound, details: ["scene": sceneID, "stack": where_]))
        }
        return recorder.end()
    }

    /// What to ask before the program ends, from the topmost scene that would lose something
    /// (a form with unsaved changes); nil when quitting loses nothing. For front ends that can
    /// ask: elsewhere quitting goes ahead as it always did.
    public func confirmationBeforeQuitting() -> ConfirmationRequest? {
        stack.scenes.reversed().lazy.compactMap { $0.confirmationBeforeQuitting() }.first
    }

    /// The stack as a ViewModel, from the root to the active scene.
    public var stackViewModel: StackViewModel {
        // The last one made while its scenes and titles are the same: a new array each time was
        // 5 % of a pipelined `session/stack` (issue 32). Each title is still asked (a scene's
        // can change without a route), in a plain loop: `zip` copied every pair.
        let ids = stack.ids
        let scenes = stack.scenes
        if let last = lastStackViewModel, last.scenes.count == ids.count {
            var same = true
            for index in ids.indices {
                let entry = last.scenes[index]
                if entry.scene != ids[index] || entry.title != scenes[index].title {
                    same = false
                    break
                }
            }
            if same { return last }
        }
        let model = StackViewModel(scenes: zip(ids, scenes).map { .init(scene: $0, title: $1.title) })
        lastStackViewModel = model
        return model
    }
    private var lastStackViewModel: StackViewModel?

    /// The global action of this name: `GlobalAction`'s cases are declared under their raw values.
    /// The last one found is kept (a pipelining client sends one again and again: matching the
    /// name against each case was 3 % of a pipelined request, issue 32).
    private func globalAction(named name: String) -> GlobalAction? {
        if let lastGlobal, lastGlobal.name == name { return lastGlobal.action }
        guard let action = GlobalAction(rawValue: name) else { return nil }
        lastGlobal = (name, action)
        return action
    }
    private var lastGlobal: (name: String, action: GlobalAction)?

    /// Runs a checked action of the active scene; where nobody can be asked, a question that
    /// goes ahead when unanswered is answered yes at once.
    private func performInActiveScene(_ call: ActionCall) {
        stack.active.perform(call)
        if !canAsk, let request = recorder.takeConfirmation(proceeding: .proceed) {
            stack.active.perform(request.confirmed)
        }
    }

    private func runGlobal(_ action: GlobalAction, _ call: ActionCall) -> Bool {
        switch action {
        case .help: recorder.display(help(for: call.string("action")))
        case .back:
            if !stack.pop() {
                recorder.display(Message.error("you are at the first screen already", code: .invalidState))
            }
        case .stack:
            // The input's last step: the outcome keeps the model as the stack it ends with.
            let model = stackViewModel
            recorder.display(model)
            recorder.finalStack = model
        case .quit: return true
        }
        return false
    }

    private func help(for name: String?) -> any ViewModel {
        let scene = stack.active.descriptor
        func entry(_ spec: ActionSpec) -> HelpViewModel.Entry { .init(usage: spec.usage, summary: spec.summary) }
        guard let name else {
            return HelpViewModel(scene: scene.id, entries: availableActions.map(entry), details: [])
        }
        do {
            let spec = try CommandLineParser.resolve(name, in: availableActions)
            var details = spec.parameters.map { p in
                "  \(p.name.uppercased()): \(p.help) (\(ArgumentChecker.describe(p.type))\(p.isRequired ? "" : ", optional"))"
            }
            if !spec.aliases.isEmpty { details.append("  also: \(spec.aliases.joined(separator: ", "))") }
            if !spec.details.isEmpty { details.append(spec.details) }
            return HelpViewModel(scene: scene.id, entries: [entry(spec)], details: details)
        } catch let error as DispatchError {
            return Message.error(error.message, code: .badInput)
        } catch {
            return Message.error("\(error)", code: .badInput)
        }
    }

    private func failed(_ error: DispatchError) -> Outcome {
        recorder.begin()
        recorder.display(Message.error(error.message, code: .badInput))
        var outcome = recorder.end()
        outcome.dispatchError = error
        return outcome
    }

    /// Collects what one input displays and routes.
    private final class Recorder: DisplaySink, SceneStackObserver {
        private var outcome = Outcome()

        func begin() { outcome = Outcome() }
        func end() -> Outcome {
            // Moved out, not copied: a copy retained each member only to release it at once.
            var ended = Outcome()
            swap(&ended, &outcome)
            return ended
        }
        func display(_ viewModel: any ViewModel) { outcome.displayed.append(viewModel) }
        /// Set by the input's last step when it made the stack's model (`Outcome.finalStack`).
        var finalStack: StackViewModel? {
            get { outcome.finalStack }
            set { outcome.finalStack = newValue }
        }
        /// Removes and returns the question displayed, if nobody is asked and it goes ahead so.
        func takeConfirmation(proceeding: ConfirmationRequest.Otherwise) -> ConfirmationRequest? {
            guard
                let index = outcome.displayed.firstIndex(where: {
                    ($0 as? ConfirmationRequest)?.otherwise == proceeding
                })
            else { return nil }
            return outcome.displayed.remove(at: index) as? ConfirmationRequest
        }
        func sceneStack(_ stack: SceneStack, didRoute route: Route) { outcome.routes.append(route) }
    }
}
