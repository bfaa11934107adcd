/// A change of the scene stack: navigation as data, so tests and front ends can see it.
public enum Route: Equatable, Sendable, Encodable {
    case push(String)
    case pop(String)
    case replace(String, with: String)

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case .push(let scene): try container.encode("push", forKey: .route); try container.encode(scene, forKey: .scene)
        case .pop(let scene): try container.encode("pop", forKey: .route); try container.encode(scene, forKey: .scene)
        case .replace(let old, let new):
            try container.encode("replace", forKey: .route); try container.encode(new, forKey: .scene)
            try container.encode(old, forKey: .replaced)
        }
    }

    private enum Keys: String, CodingKey { case route, scene, replaced }
}

/// What app Routers use to move between scenes. It does not show them the stack: data goes back
/// to the scene below through the DataStore its Router was handed when it opened the scene above.
public protocol SceneNavigating: AnyObject {
    func push(_ scene: Scene)
    /// Pops the active scene; false at the root.
    @discardableResult func pop() -> Bool
    /// Pops until a scene with this id is active; false if there is none.
    @discardableResult func pop(to sceneID: String) -> Bool
    /// Replaces the active scene.
    func replace(with scene: Scene)
}

/// Observes stack changes (the session records them per request).
public protocol SceneStackObserver: AnyObject {
    func sceneStack(_ stack: SceneStack, didRoute route: Route)
}

/// The Router's scene stack. The active scene is the top; the root is never popped.
///
/// The stack owns its scenes (each ViewController owns its VIP cycle), so popping a scene
/// releases its Interactor, Presenter and Router.
public final class SceneStack: SceneNavigating {
    public private(set) var scenes: [Scene] {
        // The ids kept beside the scenes: `Session.stackViewModel`, asked twice by every JSON-RPC
        // request, then copies no descriptor (issue 32).
        didSet {
            ids = scenes.map(\.descriptor.id)
            activeActions = scenes.last?.descriptor.actions ?? []
            activeActionNames = nil
            lastAsked = nil
        }
    }
    /// Each scene's `descriptor.id`, root first.
    public private(set) var ids: [String] = []
    /// The active scene's `descriptor.actions` (a descriptor is its scene kind's, as `ids` takes it):
    /// `Session.run` looks every call up here without retaining the scene, a view controller whose
    /// count its presenter's weak reference keeps in a side table (bench/FINDINGS.md, export5).
    public private(set) var activeActions: [ActionSpec] = []
    /// The names of `activeActions`, made when first asked after the stack moved, and the last
    /// name asked with its answer (a pipelining client asks one name again and again).
    private var activeActionNames: Set<String>?
    private var lastAsked: (name: String, found: Bool)?
    public weak var observer: SceneStackObserver?

    /// An empty stack; `start(with:)` sets its root.
    public init() { scenes = [] }

    /// Sets the root scene (without an activation: nothing is displayed at start).
    public func start(with root: Scene) {
        precondition(scenes.isEmpty, "the stack has a root already")
        scenes = [root]
    }

    public var active: Scene { scenes[scenes.count - 1] }

    /// Whether the active scene declares an action of this name (aliases aside), as
    /// `activeActions.contains { $0.name == name }` says. `Session.run` asks it of every call:
    /// hashing the name once replaces comparing it with each of the list's 29 actions (5 % of a
    /// pipelined request, issue 32).
    public func activeActionsContain(_ name: String) -> Bool {
        if let lastAsked, lastAsked.name == name { return lastAsked.found }
        let names = activeActionNames ?? Set(activeActions.lazy.map(\.name))
        activeActionNames = names
        let found = names.contains(name)
        lastAsked = (name, found)
        return found
    }

    public func push(_ scene: Scene) {
        scenes.append(scene)
        observer?.sceneStack(self, didRoute: .push(scene.descriptor.id))
        scene.sceneDidBecomeActive(.pushed)
    }

    @discardableResult public func pop() -> Bool {
        guard scenes.count > 1 else { return false }
        let popped = scenes.removeLast()
        observer?.sceneStack(self, didRoute: .pop(popped.descriptor.id))
        active.sceneDidBecomeActive(.returned)
        return true
    }

    @discardableResult public func pop(to sceneID: String) -> Bool {
        guard let index = scenes.lastIndex(where: { $0.descriptor.id == sceneID }) else { return false }
        guard index < scenes.count - 1 else { return true }
        while scenes.count > index + 1 {
            let popped = scenes.removeLast()
            observer?.sceneStack(self, didRoute: .pop(popped.descriptor.id))
        }
        active.sceneDidBecomeActive(.returned)
        return true
    }

    public func replace(with scene: Scene) {
        guard !scenes.isEmpty else { return start(with: scene) }
        let old = scenes.removeLast()
        scenes.append(scene)
        observer?.sceneStack(self, didRoute: .replace(old.descriptor.id, with: scene.descriptor.id))
        scene.sceneDidBecomeActive(.pushed)
    }
}
