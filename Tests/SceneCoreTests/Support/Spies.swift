@testable import SceneCore

/// A scene that records what the core asks of it and does what its test stubs.
final class SceneSpy: Scene {
    let descriptor: SceneDescriptor
    var title: String
    private(set) var performedCalls: [ActionCall] = []
    private(set) var activations: [ActivationReason] = []
    /// Runs after a call is recorded: display, route, whatever the test needs.
    var performStub: ((ActionCall) -> Void)?

    init(_ descriptor: SceneDescriptor, title: String) {
        self.descriptor = descriptor
        self.title = title
    }

    func perform(_ call: ActionCall) {
        performedCalls.append(call)
        performStub?(call)
    }

    func sceneDidBecomeActive(_ reason: ActivationReason) {
        activations.append(reason)
    }
}

final class SceneStackObserverSpy: SceneStackObserver {
    private(set) var routes: [Route] = []
    /// The ids of the stack at each notification, to check it is reported after the change.
    private(set) var stacksSeen: [[String]] = []

    func sceneStack(_ stack: SceneStack, didRoute route: Route) {
        routes.append(route)
        stacksSeen.append(stack.scenes.map(\.descriptor.id))
    }
}

final class TextStreamsSpy: TextStreams {
    private(set) var output = ""
    private(set) var error = ""

    func writeOutput(_ text: String) { output += text }
    func writeError(_ text: String) { error += text }
}
