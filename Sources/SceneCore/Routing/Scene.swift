/// A scene as the core sees it: its ViewController.
///
/// The ViewController turns an `ActionCall` into its scene's Request and hands it to the
/// Interactor; it renders ViewModels by passing them to its `DisplaySink`.
public protocol Scene: AnyObject {
    /// What kind of scene this is: its id (also the JSON-RPC method prefix) and its actions.
    var descriptor: SceneDescriptor { get }
    /// Where the user is, for the prompt and `stack` ("Ann Lee", "new contact").
    var title: String { get }
    /// Builds the Request for a checked action and runs the VIP cycle.
    func perform(_ call: ActionCall)
    /// Called when the scene becomes active, on push or when the scene above it is popped.
    func sceneDidBecomeActive(_ reason: ActivationReason)
    /// Completion candidates for a named source (contact names, field labels, ...).
    func completions(for source: String, prefix: String) -> [String]
    /// What to ask before the program ends with this scene on the stack (unsaved changes),
    /// or nil when nothing would be lost. Its `confirmed` call is not run: yes means quit.
    func confirmationBeforeQuitting() -> ConfirmationRequest?
}

extension Scene {
    public func sceneDidBecomeActive(_ reason: ActivationReason) {}
    public func completions(for source: String, prefix: String) -> [String] { [] }
    public func confirmationBeforeQuitting() -> ConfirmationRequest? { nil }
}

/// Why a scene became active.
public enum ActivationReason: Equatable, Sendable {
    case pushed
    /// A scene above it was popped.
    case returned
}

/// The declaration of a kind of scene: its id, a summary, its actions and the kinds of
/// ViewModel it displays (which front ends may describe, as JSON-RPC's introspection does).
public struct SceneDescriptor: Equatable, Sendable {
    public let id: String
    public let summary: String
    public let actions: [ActionSpec]
    public let displays: [any ViewModel.Type]

    public init(id: String, summary: String, actions: [ActionSpec], displays: [any ViewModel.Type] = []) {
        self.id = id; self.summary = summary; self.actions = actions; self.displays = displays
    }

    public static func == (lhs: SceneDescriptor, rhs: SceneDescriptor) -> Bool {
        lhs.id == rhs.id && lhs.summary == rhs.summary && lhs.actions == rhs.actions
            && lhs.displays.map(ObjectIdentifier.init) == rhs.displays.map(ObjectIdentifier.init)
    }
}

/// Where a ViewController sends what it displays. The session implements it.
public protocol DisplaySink: AnyObject {
    func display(_ viewModel: any ViewModel)
}
