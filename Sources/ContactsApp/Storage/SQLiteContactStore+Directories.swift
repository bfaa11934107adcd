import Foundation
import GRDB
import GRDBSQLite

/// Where the directory sources are kept: the book's file (issue 31).
public protocol DirectorySourceStore: AnyObject {
    func directorySources() throws -> [DirectorySource]
    func addDirectorySource(_ source: DirectorySource) throws
    /// False when there was none of that name.
    func removeDirectorySource(named name: String) throws -> Bool
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

    public func directorySources() throws -> [DirectorySource] {
        try guarded {
            try writer.read { db in
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
            }
        }
    }

    public func removeDirectorySource(named name: String) throws -> Bool {
        try guarded {
            try write { db, _ in
                try db.execute(sql: "DELETE FROM directory_source WHERE name = ?", arguments: [name])
                return db.changesCount > 0
            }
        }
    }
}
