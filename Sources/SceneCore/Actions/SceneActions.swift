/// A scene's actions as values the compiler checks: one case per action, its raw value the word a
/// person types and the name programs send (`contacts/search`).
///
/// Adding an action is adding a case: `declaration` and the ViewController's dispatch are
/// `switch`es without `default:`, so the build names both places; help, completion, JSON-RPC's
/// methods and MCP's tools read the declarations. A misspelt action is a compile error, not a
/// command that silently does nothing.
public protocol SceneActions: RawRepresentable, CaseIterable, Sendable where RawValue == String {
    /// The action's one declaration (summary, parameters, help): a `switch self` over every case.
    var declaration: ActionSpec { get }
}

extension SceneDescriptor {
    /// A scene whose actions are the cases of `Actions`, declared in the order of `allCases`.
    /// Inlinable, so the app's module specializes it for its enum: unspecialized, every session's
    /// start walked `allCases` through witness tables and a key path (~0.1M instructions a scene).
    @inlinable
    public init<Actions: SceneActions>(
        id: String, summary: String, actions: Actions.Type,
        displays: [any ViewModel.Type] = []
    ) {
        self.init(id: id, summary: summary, actions: Actions.allCases.map { $0.declaration }, displays: displays)
    }
}

extension ActionSpec {
    /// The declaration of `action`, under its raw value.
    public init<Action: SceneActions>(
        _ action: Action, aliases: [String] = [], summary: String,
        parameters: [ParameterSpec] = [], details: String = ""
    ) {
        self.init(action.rawValue, aliases: aliases, summary: summary, parameters: parameters, details: details)
    }
}

extension ActionCall {
    /// A call of `action` with these arguments.
    public init<Action: SceneActions>(_ action: Action, _ arguments: [String: ArgumentValue] = [:]) {
        self.init(action.rawValue, arguments)
    }

    /// The call's action among `Action`'s cases; nil for an action of another scene (or a global one).
    public func action<Action: SceneActions>(of _: Action.Type) -> Action? {
        Action(rawValue: name)
    }
}

/// The actions every scene has, which the session answers itself (`Session.globalActions`).
public enum GlobalAction: String, SceneActions {
    case help, back, stack, quit

    public var declaration: ActionSpec {
        switch self {
        case .help:
            ActionSpec(
                self, aliases: ["?"], summary: "list the commands here, or explain one",
                parameters: [
                    ParameterSpec(
                        "action", .string, required: false, help: "the command to explain",
                        completion: .named("action"))
                ])
        case .back: ActionSpec(self, summary: "go back to the previous screen")
        case .stack: ActionSpec(self, summary: "show where you are: the screens from the first to this one")
        case .quit: ActionSpec(self, aliases: ["exit"], summary: "leave the program")
        }
    }
}
