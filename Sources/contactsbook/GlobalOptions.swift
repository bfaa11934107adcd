import ArgumentParser
import Foundation
import Logging

/// The options every command takes, before or after its name: `contactsbook --db B query ann`
/// and `contactsbook query ann --db B` are one command. The root and each subcommand declare
/// this group; ArgumentParser decodes it once and hands the root's value to the subcommand.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: GlobalOptions.dbHelp, completion: .file())
    var db: String?

    @Flag(name: .long, help: GlobalOptions.createHelp)
    var create = false

    // A string checked in `validate()` rather than `Logger.Level` itself: an enum option's value
    // list and default are described through reflection and generic conformance look-ups, a
    // tenth of a mail client's whole `query` (bench/FINDINGS.md).
    @Option(name: .long, help: GlobalOptions.logLevelHelp)
    var logLevel: String?

    // Declared here once for this group and for `MailQueryArguments`, which repeats the three options.
    static let dbHelp = ArgumentHelp(
        "The database file, or :memory: for a book that lives only for this run.",
        valueName: "path")
    static let createHelp = ArgumentHelp(
        "Make a new book at --db PATH if there is none, for a session or import (its folder must exist; query never makes one)."
    )
    static let logLevelHelp = ArgumentHelp(
        "Log level on stderr: trace, debug, info, notice, warning (the default), error, critical.", valueName: "level")

    /// The parsed values as a plain value: what the commands use, built by hand too on the
    /// command line's fast path (`FastCommandLine`), which never reflects over this group.
    var book: BookOptions { BookOptions(db: db, create: create, logLevel: logLevel) }

    /// `--log-level`, warning when not given.
    var level: Logger.Level { book.level }

    func validate() throws {
        try Self.validate(db: db, logLevel: logLevel)
    }

    /// The checks of `validate()`, for `MailQueryArguments` too.
    static func validate(db: String?, logLevel: String?) throws {
        if let db, db.isEmpty { throw ValidationError("--db needs a path") }
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
    }

    /// Sends the log to stderr at `--log-level` (stdout carries answers and protocol frames only).
    func bootstrapLogging() -> Logger { book.bootstrapLogging() }
}

/// `GlobalOptions`' values (`--db`, `--create`, `--log-level`), already parsed and validated.
struct BookOptions {
    var db: String?
    var create = false
    var logLevel: String?

    /// `--log-level`, warning when not given.
    var level: Logger.Level { logLevel.flatMap(Logger.Level.init(rawValue:)) ?? .warning }

    /// Sends the log to stderr at `--log-level` (stdout carries answers and protocol frames only).
    func bootstrapLogging() -> Logger {
        let level = self.level
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "contactsbook")
    }
}
