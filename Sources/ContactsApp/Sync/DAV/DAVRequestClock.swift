import Foundation

/// The time limits of one transport's requests (one sync, or one `account add` discovery),
/// whatever sends them: each request gets its own limit, or what is left of the sync's if that is
/// less; none starts once the sync's time is up or it was cancelled; and a wait for an answer
/// ends at its limit or at a cancellation, naming which.
///
/// `CurlTransport` hands the limit to libcurl and looks for a cancellation in libcurl's progress
/// callback; the URLSession transport, whose tasks run on URLSession's threads, waits here
/// (`wait`) and cancels its task when the wait ends early.
final class DAVRequestClock {
    let limits: DAVTimeLimits
    /// When every request must be done, on `now`'s clock.
    private let deadline: TimeInterval
    private let isCancelled: () -> Bool
    private let now: () -> TimeInterval
    /// How often a wait looks for a cancellation: a Ctrl-C is answered within it.
    private let tick: TimeInterval

    /// The limit of one request, and whether it is the sync's deadline rather than its own.
    struct Budget: Equatable {
        var timeout: TimeInterval
        var byDeadline: Bool
    }

    /// - Parameter now: seconds on a monotonic clock (a changed wall clock moves no deadline).
    init(
        limits: DAVTimeLimits, isCancelled: @escaping () -> Bool = { false }, tick: TimeInterval = 0.1,
        now: @escaping () -> TimeInterval = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.limits = limits
        self.isCancelled = isCancelled
        self.tick = tick
        self.now = now
        deadline = now() + limits.sync
    }

    /// Before a request: its limit, or why it may not start (cancelled, or the sync's time is up).
    func next() throws -> Budget {
        if isCancelled() { throw DAVError.cancelled }
        let left = deadline - now()
        guard left > 0 else { throw limits.syncTimedOut() }
        return Budget(timeout: min(limits.request, left), byDeadline: left < limits.request)
    }

    /// Seconds left of the sync's limit.
    func left() -> TimeInterval { deadline - now() }

    /// Waits until `done` is signalled (the answer came, or the transfer failed), or until the
    /// budget is spent or the sync cancelled: then `stop` ends the transfer and the error naming
    /// why is thrown.
    func wait(for done: DispatchSemaphore, _ budget: Budget, method: String, url: URL, stop: () -> Void) throws {
        let end = now() + budget.timeout
        while done.wait(timeout: .now() + min(tick, max(0, end - now()))) == .timedOut {
            if isCancelled() {
                stop()
                throw DAVError.cancelled
            }
            if now() >= end {
                stop()
                throw budget.byDeadline
                    ? limits.syncTimedOut() : limits.requestTimedOut(method: method, url: url, after: budget.timeout)
            }
        }
    }
}

extension DAVTimeLimits {
    /// A request that did not finish within its own limit.
    func requestTimedOut(method: String, url: URL, after timeout: TimeInterval) -> DAVError {
        .timedOut(
            "\(method) \(url.absoluteString) did not finish within \(Self.seconds(timeout)) "
                + "(the limit for one request; \(Variable.request) sets it); stopped")
    }

    /// The sync's requests together took longer than its limit.
    func syncTimedOut() -> DAVError {
        .timedOut(
            "the server's answers took longer than \(Self.seconds(sync)) in all "
                + "(the limit for one sync; \(Variable.sync) sets it); stopped, what was saved before is kept")
    }
}
