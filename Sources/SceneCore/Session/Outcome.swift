/// Everything that happened while one input was handled, in order.
public struct Outcome {
    /// Every ViewModel displayed, in the order displayed.
    public var displayed: [any ViewModel] = []
    /// Every change of the scene stack.
    public var routes: [Route] = []
    /// Set when the input could not become an action (unknown, ambiguous, bad parameters).
    public var dispatchError: DispatchError?
    /// The user asked to leave.
    public var quit = false

    public init() {}

    /// The first error message displayed, if any: the input failed.
    public var error: Message? {
        displayed.lazy.compactMap { $0 as? Message }.first { $0.kind == .error }
    }

    public var succeeded: Bool { error == nil && dispatchError == nil }
}
