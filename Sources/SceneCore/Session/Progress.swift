/// One step of long work (an import, say) that front ends may show: JSON-RPC sends it as
/// `$/progress` (or MCP's `notifications/progress`) when the client asked for progress.
public enum ProgressEvent: Equatable, Sendable {
    /// The work starts. `total` is the number of units when known.
    case begin(title: String, total: Int?)
    /// `completed` units of `total` are done.
    case report(completed: Int, total: Int?, message: String?)
    /// The work is over (done, failed or stopped).
    case end(message: String?)
}

/// Where the app reports the progress of long work. Workers hold this protocol (tests pass a
/// spy), as they hold `ChangeNotifier`; the core never knows what the work is.
///
/// Report from the thread that handles the request: the session is synchronous, and front ends
/// send each event as it is posted, while the request is still running.
public protocol ProgressReporter: AnyObject {
    func post(_ event: ProgressEvent)
    /// Whether the client that asked for this work has since asked to stop it. Long work looks
    /// between two steps (right after a report) and stops without keeping anything half-done.
    var isCancelled: Bool { get }
}

extension ProgressReporter {
    /// Nobody asked to stop: reporters that cannot be told to (a terminal's progress line).
    public var isCancelled: Bool { false }

    public func begin(_ title: String, total: Int? = nil) { post(.begin(title: title, total: total)) }

    public func report(completed: Int, of total: Int? = nil, message: String? = nil) {
        post(.report(completed: completed, total: total, message: message))
    }

    public func end(_ message: String? = nil) { post(.end(message: message)) }
}

/// The composition root's reporter: hands each event to every observer (the JSON-RPC front).
/// Events nobody asked for are simply dropped by the observers.
public final class ProgressHub: ProgressReporter {
    private var observers: [(ProgressEvent) -> Void] = []
    private var cancellationChecks: [() -> Bool] = []

    public init() {}

    public func observe(_ observer: @escaping (ProgressEvent) -> Void) { observers.append(observer) }

    /// Adds a front end's answer to "has the work been cancelled?" (JSON-RPC's, for the request
    /// being handled).
    public func observeCancellation(_ check: @escaping () -> Bool) { cancellationChecks.append(check) }

    public func post(_ event: ProgressEvent) { observers.forEach { $0(event) } }

    public var isCancelled: Bool { cancellationChecks.contains { $0() } }
}
