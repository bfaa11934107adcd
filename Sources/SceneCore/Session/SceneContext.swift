/// What a Configurator needs from the core to wire a scene into the running app.
public struct SceneContext {
    /// Where the scene's ViewController sends its ViewModels.
    public let display: DisplaySink
    /// Where the scene's Router pushes and pops. Routers must hold it weakly:
    /// the stack owns the scenes, which own their Routers.
    public unowned let navigator: SceneNavigating & AnyObject

    public init(display: DisplaySink, navigator: SceneNavigating & AnyObject) {
        self.display = display; self.navigator = navigator
    }
}
