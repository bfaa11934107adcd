import SceneCore

/// Every method the server dispatches to the session, built once from the scene declarations,
/// so dispatch, validation and `session/describe` read the same table.
struct MethodCatalog {
    /// What a method runs.
    enum Target: Equatable {
        /// A scene's action, run in that scene whichever is on top (`Session.run(_:reaching:)`);
        /// refused when the scene is not on the stack.
        case sceneAction(scene: String)
        /// A global action of the session (help, back, stack), run wherever the user is.
        case globalAction
        /// Pops to a scene on the stack.
        case popTo
    }

    /// A class: a lookup hands out one reference, where the struct copied (and retained) each
    /// member of its declaration.
    final class Entry {
        let name: String
        let spec: ActionSpec
        let target: Target

        init(name: String, spec: ActionSpec, target: Target) {
            self.name = name; self.spec = spec; self.target = target
        }
    }

    static let sessionPrefix = "session"

    /// The router's methods: the session's global actions (minus `quit`: clients use
    /// `shutdown`/`exit`) and `popTo`.
    static let sessionActions: [ActionSpec] =
        Session.globalActions.filter { $0.name != "quit" } + [
            ActionSpec(
                "popTo", summary: "go back to a screen on the stack, closing the ones above it",
                parameters: [ParameterSpec("scene", .string, help: "the id of a scene on the stack")])
        ]

    let entries: [Entry]
    private let byName: [String: Entry]

    init(sceneKinds: [SceneDescriptor]) {
        let scenes = sceneKinds.flatMap { kind in
            kind.actions.map { Entry(name: "\(kind.id)/\($0.name)", spec: $0, target: .sceneAction(scene: kind.id)) }
        }
        let session = Self.sessionActions.map { spec in
            Entry(
                name: "\(Self.sessionPrefix)/\(spec.name)", spec: spec,
                target: spec.name == "popTo" ? .popTo : .globalAction)
        }
        entries = session + scenes
        // A scene named "session" would shadow router methods; the first declaration wins.
        byName = Dictionary(entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    subscript(method: String) -> Entry? { byName[method] }
}
