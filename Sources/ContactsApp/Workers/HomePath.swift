import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `~` in a path a person typed (`export ~/book.vcf`, `--db=~/book.sqlite`): the home folder
/// is `$HOME`, as in a shell, and the passwd entry only when HOME is unset or empty.
public enum HomePath {
    /// `~` and `~/…` become the home folder; `~name/…` that user's home folder; anything else,
    /// and a `~` whose home cannot be found, is returned as it is.
    public static func expanding(
        _ path: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        guard path.hasPrefix("~") else { return path }
        let slash = path.firstIndex(of: "/") ?? path.endIndex
        let user = path[path.index(after: path.startIndex)..<slash]
        let home = user.isEmpty ? currentHome(environment) : passwdHome(of: String(user))
        guard let home, !home.isEmpty else { return path }
        let rest = path[slash...]
        return home.hasSuffix("/") && rest.hasPrefix("/") ? home + rest.dropFirst() : home + rest
    }

    private static func currentHome(_ environment: [String: String]) -> String? {
        if let home = environment["HOME"], !home.isEmpty { return home }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    private static func passwdHome(of user: String) -> String? {
        guard let entry = getpwnam(user), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }
}
