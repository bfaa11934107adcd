/// Decides whether a stream gets ANSI colours.
///
/// Colours only make sense on a terminal, and people who set `NO_COLOR` (no-color.org) or
/// run a `dumb` terminal (Emacs shell buffers, some CI logs) must never see escape codes.
/// The environment is injected so the rule is testable without a terminal.
public struct ColorPolicy: Sendable {
    /// The process environment (or a test's): `NO_COLOR` and `TERM` are read from it.
    public let environment: [String: String]

    /// A policy reading the given environment.
    public init(environment: [String: String]) { self.environment = environment }

    /// Whether a stream that is (or is not) a terminal may be coloured.
    ///
    /// `NO_COLOR` counts only when non-empty, as no-color.org specifies. A missing or empty
    /// `TERM` is treated as `dumb`: nothing says the terminal understands escapes.
    public func allowsColors(isTerminal: Bool) -> Bool {
        guard isTerminal else { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        let term = environment["TERM"] ?? ""
        return !term.isEmpty && term != "dumb"
    }
}
