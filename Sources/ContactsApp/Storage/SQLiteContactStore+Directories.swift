import Foundation
import GRDB

/// Where the directory sources are kept: the book's file (issue 31).
public protocol DirectorySourceStore: AnyObject {
    func directorySources() throws -> [DirectorySource]
    func addDirectorySource(_ source: DirectorySource) throws
    /// False when there was none of that name.
    func removeDirectorySource(named name: String) throws -> Bool
}

/// The directory sources in the book's own file, in a table made by the first `directory add`
/// rather than by a migration: directories are settings, not contacts, and a book that never
/// had one (most) keeps its schema, while `query` looks for the table in the one read it
/// already does. No password column: a command prints it when a search needs it.
extension SQLiteContactStore: DirectorySourceStore {
    static let directoryTable = """
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
        """

    public func directorySources() throws -> [DirectorySource] {
        try guarded {
            try writer.read { db in
                guard try db.tableExists("directory_source") else { return [] }
                return try Row.fetchAll(db, sql: "SELECT * FROM directory_source ORDER BY name").map { row in
                    DirectorySource(name: row["name"], server: row["server"], baseDN: row["base_dn"], bindDN: row["bind_dn"],
                                    passwordCommand: row["password_command"], filter: row["filter"],
                                    security: DirectorySource.Security(rawValue: row["security"]) ?? .startTLS,
                                    caFile: row["ca_file"], sizeLimit: row["size_limit"], timeLimit: row["time_limit"])
                }
            }
        }
    }

    public func addDirectorySource(_ source: DirectorySource) throws {
        try guarded {
            try write { db, _ in
                try db.execute(sql: Self.directoryTable)
                if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM directory_source WHERE name = ?)",
                                     arguments: [source.name]) == true {
                    throw ContactStoreError.storage("There is already a directory named \(source.name).")
                }
                try db.execute(sql: """
                    INSERT INTO directory_source (name, server, base_dn, bind_dn, password_command, filter, security,
                                                  ca_file, size_limit, time_limit)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [source.name, source.server, source.baseDN, source.bindDN, source.passwordCommand,
                                     source.filter, source.security.rawValue, source.caFile, source.sizeLimit,
                                     source.timeLimit])
            }
        }
    }

    public func removeDirectorySource(named name: String) throws -> Bool {
        try guarded {
            try write { db, _ in
                guard try db.tableExists("directory_source") else { return false }
                try db.execute(sql: "DELETE FROM directory_source WHERE name = ?", arguments: [name])
                return db.changesCount > 0
            }
        }
    }
}
