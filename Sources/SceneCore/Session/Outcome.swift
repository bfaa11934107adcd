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
    /// The stack as the input left it, when the session displayed its model as the input's last
    /// step (the `stack` action): the last of `displayed`. A front end that shows the stack after
    /// every input takes it here instead of asking `Session.stackViewModel` again (JSON-RPC made
    /// it twice a request, issue 32).
    public var finalStack: StackViewModel?

    public init() {}

    /// The first error message displayed, if any: the input failed. A confirmation nobody
    /// answered counts by its refusal.
    public var error: Message? {
        for viewModel in displayed {
            if let message = Self.errorMessage(viewModel) { return message }
        }
        return nil
    }

    /// A question waiting for the person's answer (only where the session can ask).
    public var confirmation: ConfirmationRequest? {
        displayed.lazy.compactMap { $0 as? ConfirmationRequest }.first
    }

    /// The same outcome without its question, for a front end that asks it itself.
    public var withoutConfirmation: Outcome {
        var outcome = self
        outcome.displayed.removeAll { $0 is ConfirmationRequest }
        return outcome
    }

    /// The error a ViewModel shows, if it is one: an error message, or an unanswered
    /// confirmation's refusal. Front ends send these to their error stream.
    public static func errorMessage(_ viewModel: any ViewModel) -> Message? {
        // Both are structs, so their type says it before a cast: asked of every view model of
        // every answer, the two dynamic casts were 5 % of a pipelined request (issue 32).
        let type = ObjectIdentifier(Swift.type(of: viewModel))
        if type == ObjectIdentifier(Message.self), let message = viewModel as? Message {
            return message.kind == .error ? message : nil
        }
        guard type == ObjectIdentifier(ConfirmationRequest.self) else { return nil }
        return (viewModel as? ConfirmationRequest)?.refusal
    }

    public var succeeded: Bool { error == nil && dispatchError == nil }
}
