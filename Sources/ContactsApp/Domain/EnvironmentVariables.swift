import Foundation

/// The process's environment variables among `names` that are set, read with `getenv`: what a
/// worker's configured default needs, where `ProcessInfo.processInfo.environment` builds a
/// dictionary of every variable each time (0.35M instructions; two of them were a twentieth of a
/// session's start-up, bench/STARTUP.md).
public func environmentVariables(_ names: [String]) -> [String: String] {
    var found: [String: String] = [:]
    for name in names {
        if let value = getenv(name) { found[name] = String(cString: value) }
    }
    return found
}
