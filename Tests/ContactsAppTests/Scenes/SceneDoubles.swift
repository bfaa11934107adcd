import SceneCore

@testable import ContactsApp

/// Records what a ViewController displays: the front end's side of `DisplaySink`.
final class DisplaySinkSpy: DisplaySink {
    private(set) var displayed: [any ViewModel] = []
    func display(_ viewModel: any ViewModel) { displayed.append(viewModel) }
}

/// Records what Routers ask of the scene stack, without activating any scene.
final class SceneNavigatingSpy: SceneNavigating {
    var scenes: [Scene] = []
    private(set) var pushed: [Scene] = []
    private(set) var popCalled = 0
    private(set) var poppedTo: [String] = []
    private(set) var replacedWith: [Scene] = []

    func push(_ scene: Scene) { pushed.append(scene); scenes.append(scene) }
    @discardableResult func pop() -> Bool { popCalled += 1; return true }
    @discardableResult func pop(to sceneID: String) -> Bool { poppedTo.append(sceneID); return true }
    func replace(with scene: Scene) {
        replacedWith.append(scene)
        if !scenes.isEmpty { scenes.removeLast() }
        scenes.append(scene)
    }
}

/// A scene factory whose scenes display into a spy and navigate a spy.
final class SceneFactoryFixture {
    let display = DisplaySinkSpy()
    let navigator = SceneNavigatingSpy()
    let store: InMemoryContactStore
    let factory: ContactsSceneFactory

    init(store: InMemoryContactStore = Seeds.book()) {
        self.store = store
        factory = ContactsSceneFactory(environment: Seeds.environment(store: store))
        factory.context = SceneContext(display: display, navigator: navigator)
    }

    var context: SceneContext { SceneContext(display: display, navigator: navigator) }
}
