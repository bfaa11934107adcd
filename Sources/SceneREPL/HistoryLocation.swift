/// Where the REPL keeps its history file, for a program named `program` ("contactsbook").
///
/// `<PROGRAM>_HISTORY` (`CONTACTSBOOK_HISTORY`) moves it (tests, shared machines) and an empty
/// value disables it; otherwise it follows the XDG base directory spec:
/// `${XDG_STATE_HOME:-~/.local/state}/<program>/history`.
public enum HistoryLocation {
    /// The environment variable that overrides the location; empty disables history.
    public static func overrideVariable(program: String) -> String {
        program.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined() + "_HISTORY"
    }

    /// The history file's path, or nil when history is disabled or no home is known.
    public static func path(program: String, environment: [String: String]) -> String? {
        if let override = environment[overrideVariable(program: program)] {
            return override.isEmpty ? nil : override
        }
        // The XDG spec says relative values are invalid and must be ignored.
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return join(state, "\(program)/history")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return join(home, ".local/state/\(program)/history")
    }

    /// The folder that must exist before the file can be saved.
    public static func directory(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func join(_ base: String, _ tail: String) -> String {
        base.hasSuffix("/") ? base + tail : base + "/" + tail
    }
}
