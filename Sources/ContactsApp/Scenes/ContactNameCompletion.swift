import SceneCore

/// Contact names for Tab, as the list and a contact's detail both offer them: the front end asks
/// and waits (`Scene.completions`), the ViewController starts the normal cycle (Interactor →
/// Presenter → `displayCompletions`), and this keeps the cycle's answer to return.
final class ContactNameCompletion {
    private var candidates: [String] = []

    /// The candidates for a `contact` parameter (none for another source), from `complete`'s cycle.
    /// `complete` starts the scene's cycle for the prefix typed.
    func candidates(for source: String, prefix: String, complete: (String) -> Void) -> [String] {
        guard source == "contact" else { return [] }
        candidates = []
        complete(prefix)
        return candidates
    }

    /// The cycle's answer, from the ViewController's display of its completions.
    func answer(_ candidates: [String]) {
        self.candidates = candidates
    }
}
