import Foundation

/// How long a server may take: one request, a whole sync, a trickle, and a server that keeps
/// truncating its list of changes (507). Past any of them the sync stops with an error naming
/// the account and the limit; what it saved before is kept.
///
/// Defaults are generous for an honest server on a slow link (a 500-card multiget with 25 KB
/// photos is 12.5 MB, about 100 s at 1 Mbit/s); `configured` reads the environment, so a person
/// (and the tests) can set them.
public struct DAVTimeLimits: Equatable, Sendable {
    /// One request, from connecting to the answer's last byte. Not a streamed answer's (a
    /// listing, a multiget): it grows with the book and a server may build it whole before its
    /// first byte, so only `sync` bounds it, and the low-speed floor once it started to come.
    public var request: TimeInterval
    /// Every request of one sync (or of `account add`'s discovery), together.
    public var sync: TimeInterval
    /// A request slower than `lowSpeedBytes` a second for `lowSpeedTime` seconds stops: a
    /// server trickling a few bytes a second cannot hold a request for its whole deadline.
    public var lowSpeedBytes: Int
    public var lowSpeedTime: TimeInterval
    /// The rounds of a sync-collection the server truncates (507) stop after this long, even
    /// if each brings a fresh token.
    public var truncatedRounds: TimeInterval

    public init(
        request: TimeInterval = 120, sync: TimeInterval = 1800, lowSpeedBytes: Int = 1024,
        lowSpeedTime: TimeInterval = 30, truncatedRounds: TimeInterval = 300
    ) {
        self.request = request; self.sync = sync; self.lowSpeedBytes = lowSpeedBytes
        self.lowSpeedTime = lowSpeedTime; self.truncatedRounds = truncatedRounds
    }

    /// The environment variables that set each limit (seconds, bytes a second), named in errors.
    public enum Variable {
        public static let request = "CONTACTSBOOK_REQUEST_TIMEOUT"
        public static let sync = "CONTACTSBOOK_SYNC_TIMEOUT"
        public static let lowSpeedBytes = "CONTACTSBOOK_LOW_SPEED_LIMIT"
        public static let lowSpeedTime = "CONTACTSBOOK_LOW_SPEED_TIME"
    }

    /// The defaults, each replaced by its variable when that holds a positive number.
    public static func configured(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> DAVTimeLimits
    {
        func seconds(_ name: String) -> TimeInterval? {
            environment[name].flatMap(TimeInterval.init).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        }
        var limits = DAVTimeLimits()
        limits.request = seconds(Variable.request) ?? limits.request
        limits.sync = seconds(Variable.sync) ?? limits.sync
        limits.lowSpeedBytes =
            environment[Variable.lowSpeedBytes].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
            ?? limits.lowSpeedBytes
        limits.lowSpeedTime = seconds(Variable.lowSpeedTime) ?? limits.lowSpeedTime
        return limits
    }

    /// `2 s`, `0.5 s`: a limit as errors say it.
    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
