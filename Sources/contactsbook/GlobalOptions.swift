import ArgumentParser
import Foundation
import Logging

/// The options every command takes, before or after its name: `contactsbook --db B query ann`
/// and `contactsbook query ann --db B` are one command. The root and each subcommand declare
/// this group; ArgumentParser decodes it once and hands the root's value to the subcommand.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The database file, or :memory: for a book that lives only for this run.",
                                            valueName: "path"))
    var db: String?

    @Option(name: .long, help: "Log level on stderr: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .warning

    func validate() throws {
        if let db, db.isEmpty { throw ValidationError("--db needs a path") }
    }

    /// Sends the log to stderr at `--log-level` (stdout carries answers and protocol frames only).
    func bootstrapLogging() -> Logger {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "contactsbook")
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
