import Foundation
import GRDB
import GRDBSQLite

/// Where the directory sources are kept: the book's file (issue 31).
public protocol DirectorySourceStore: AnyObject {
    func directorySources() throws -> [DirectorySource]
    /// Whether there is any: what `!directorySources().isEmpty` says.
    func hasDirectorySources() throws -> Bool
    func addDirectorySource(_ source: DirectorySource) throws
    /// False when there was none of that name.
    func removeDirectorySource(named name: String) throws -> Bool
}

extension DirectorySourceStore {
    public func hasDirectorySources() throws -> Bool { try !directorySources().isEmpty }
}

/// The directory sources in the book's own file (migration `addDirectorySources`). No password
/// column: a command prints it when a search needs it.
extension SQLiteContactStore: DirectorySourceStore {
    /// Frozen. Until this migration, the first `directory add` made the table with this same SQL
    /// (`IF NOT EXISTS`): in a book where it did, the table and its directories stay as they are.
    static let addDirectorySources = Migration(name: "add directory sources", legacyIdentifier: nil) { db, _ in
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS directory_source (
                    name TEXT PRIMARY KEY,
                    server TEXT NOT NULL,            -- ldap[s]://host[:port]
                    base_dn TEXT NOT NULL,
                    bind_dn TEXT,                    -- NULL: anonymous
                    password_command TEXT,           -- run at each search that needs it; never the password
                    filter TEXT,                     -- NULL: inetOrgPerson or person
                    security TEXT NOT NULL,          -- starttls | ldaps | plaintext
                    ca_file TEXT,
                    size_limit INTEGER NOT NULL,
                    time_limit REAL NOT NULL
                )
                """)
    }

    /// Marks, in SQLite's header, the books that have directory sources, so that `query` can
    /// start loading libldap before it opens one (`mayHaveDirectorySources`); books with sources
    /// from before the mark get it here.
    static let markDirectorySourcesInHeader = Migration(
        name: "mark books with directory sources in the header", legacyIdentifier: nil
    ) { db, _ in
        try markDirectorySources(db)
    }

    /// Bit 0 of the book's `user_version` in SQLite's header (otherwise unused): set while the
    /// book has directory sources. `directory add` and `directory remove` keep it in step in the
    /// transaction that changes them.
    static let directorySourcesMark: Int32 = 1

    /// Whether the header of the book at `path` says it has directory sources: its first 100
    /// bytes, read before SQLite opens it (an `open` and a `pread`; a second SQLite connection
    /// cost `query` 0.6 ms of CPU, bench/FINDINGS.md). A hint, never what is asked: while another
    /// process holds the book open, the header in the file can be behind its WAL, so `query`
    /// asks only the sources the book itself lists; a stale mark costs a needless load of
    /// libldap, a missing one the head start.
    public static func mayHaveDirectorySources(atPath path: String) -> Bool {
        // Non-blocking: a `--db` naming a FIFO must not hang here (the open that follows says what it is).
        let file = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard file >= 0 else { return false }
        defer { closeFile(file) }
        var header = [UInt8](repeating: 0, count: 100)
        guard pread(file, &header, header.count, 0) == header.count,
            header.starts(with: "SQLite format 3\0".utf8)
        else { return false }
        let version = header[60..<64].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Int32(bitPattern: version) & directorySourcesMark != 0
    }

    /// Sets or clears `directorySourcesMark` to say whether the book has directory sources now.
    static func markDirectorySources(_ db: Database) throws {
        let any = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM directory_source)") ?? false
        let version = try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let marked = any ? version | directorySourcesMark : version & ~directorySourcesMark
        if marked != version { try db.execute(sql: "PRAGMA user_version = \(marked)") }
    }

    public func directorySources() throws -> [DirectorySource] {
        try guarded {
            // One SELECT, in SQLite's own transaction (as `hasDirectorySources`): `query` asks
            // at every keystroke, and GRDB's read transaction is four statements more.
            try reader.unsafeRead { db in
                // Stepped through SQLite's C API: GRDB's `Row.fetchAll` instantiates its generic
                // cursor types on first use, which `query` paid at every keystroke (bench/DIRECTORY.md).
                let sql =
                    "SELECT name, server, base_dn, bind_dn, password_command, filter, security, ca_file, size_limit, "
                    + "time_limit FROM directory_source ORDER BY name"
                let statement = try db.makeStatement(sql: sql)
                // The statement object finalizes its SQLite statement when released: kept until the last row.
                return try withExtendedLifetime(statement) {
                    let raw = statement.sqliteStatement
                    defer { sqlite3_reset(raw) }
                    func text(_ column: Int32) -> String? {
                        sqlite3_column_text(raw, column).map { String(cString: $0) }
                    }
                    var sources: [DirectorySource] = []
                    while true {
                        let code = sqlite3_step(raw)
                        if code == SQLITE_DONE { return sources }
                        guard code == SQLITE_ROW else {
                            throw DatabaseError(
                                resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: sql)
                        }
                        sources.append(
                            DirectorySource(
                                name: text(0) ?? "", server: text(1) ?? "", baseDN: text(2) ?? "", bindDN: text(3),
                                passwordCommand: text(4), filter: text(5),
                                security: DirectorySource.Security(rawValue: text(6) ?? "") ?? .startTLS,
                                caFile: text(7), sizeLimit: Int(sqlite3_column_int64(raw, 8)),
                                timeLimit: sqlite3_column_double(raw, 9)))
                    }
                }
            }
        }
    }

    /// Asked at every search: one number, in SQLite's own transaction, instead of every source's
    /// ten columns in GRDB's read transaction (bench/FINDINGS.md, `pipe9`).
    public func hasDirectorySources() throws -> Bool {
        try guarded {
            try reader.unsafeRead { db in
                try Self.integer(db, sql: "SELECT EXISTS (SELECT 1 FROM directory_source)") == 1
            }
        }
    }

    public func addDirectorySource(_ source: DirectorySource) throws {
        try guarded {
            try write { db, _ in
                if try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM directory_source WHERE name = ?)",
                    arguments: [source.name]) == true
                {
                    throw ContactStoreError.storage("There is already a directory named \(source.name).")
                }
                try db.execute(
                    sql: """
                        INSERT INTO directory_source (name, server, base_dn, bind_dn, password_command, filter, security,
                                                      ca_file, size_limit, time_limit)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        source.name, source.server, source.baseDN, source.bindDN, source.passwordCommand,
                        source.filter, source.security.rawValue, source.caFile, source.sizeLimit,
                        source.timeLimit,
                    ])
                try Self.markDirectorySources(db)
            }
        }
    }

    public func removeDirectorySource(named name: String) throws -> Bool {
        try guarded {
            try write { db, _ in
                try db.execute(sql: "DELETE FROM directory_source WHERE name = ?", arguments: [name])
                let removed = db.changesCount > 0
                try Self.markDirectorySources(db)
                return removed
            }
        }
    }
}

/// The C library's `close`, which the store's own `close()` hides inside its extensions.
private func closeFile(_ descriptor: Int32) {
    close(descriptor)
}
