import Foundation
import GRDB

/// The address books (issue 30) in the book's own file. A contact's book is the book of its
/// sync link (`sync_item.account` names the book), else the one it was moved to
/// (`book_pin`), else the default book.
extension SQLiteContactStore: AddressBookStore {
    /// The local book and each account's book. Each account had one book; it is named as the
    /// account, so its links (`sync_item.account`) name it already and nothing else is rewritten.
    static let addAddressBooks = Migration(name: "add address books", legacyIdentifier: nil) { db, _ in
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS address_book (
                name TEXT PRIMARY KEY,
                account TEXT,                    -- NULL: the local book
                url TEXT,
                display_name TEXT NOT NULL DEFAULT '',
                vcard4 INTEGER NOT NULL DEFAULT 0,
                sync_token TEXT,
                server_read_only INTEGER NOT NULL DEFAULT 0,
                read_only INTEGER NOT NULL DEFAULT 0,   -- marked by the person
                is_default INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE IF NOT EXISTS book_pin (
                contact_id INTEGER PRIMARY KEY,
                book TEXT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS book_move (
                contact_id INTEGER NOT NULL,
                from_book TEXT NOT NULL,
                href TEXT NOT NULL,
                etag TEXT NOT NULL,
                to_book TEXT NOT NULL,
                PRIMARY KEY (from_book, href)
            );
            """)
        guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM address_book") == 0 else { return }
        let accounts = try Row.fetchAll(db, sql: "SELECT name, book_url, vcard4, sync_token, is_default FROM sync_account")
        let names = Set(accounts.map { $0["name"] as String })
        let local = names.contains("local") ? "this-file" : "local"
        let anyDefault = accounts.contains { $0["is_default"] as Bool }
        try db.execute(sql: "INSERT INTO address_book (name, account, is_default) VALUES (?, NULL, ?)",
                       arguments: [local, !anyDefault])
        for row in accounts {
            try db.execute(sql: """
                INSERT INTO address_book (name, account, url, vcard4, sync_token, is_default) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [row["name"] as String, row["name"] as String, row["book_url"] as String,
                                 row["vcard4"] as Bool, row["sync_token"] as String?, row["is_default"] as Bool])
        }
    }

    /// The book of the contact row `contact` as SQL (see the type's comment).
    static let bookOfContact = """
        COALESCE((SELECT account FROM sync_item WHERE contact_id = contact.id),
                 (SELECT book FROM book_pin WHERE contact_id = contact.id),
                 (SELECT name FROM address_book WHERE is_default))
        """

    public func addressBooks(counting: Bool) throws -> [AddressBook] {
        try guarded {
            try writer.read { db in
                var counts: [String: Int] = [:]
                if counting {
                    for row in try Row.fetchAll(db, sql: "SELECT \(Self.bookOfContact) AS b, COUNT(*) FROM contact GROUP BY b") {
                        if let name: String = row[0] { counts[name] = row[1] }
                    }
                }
                return try Self.books(db).map { book in
                    var book = book
                    book.count = counts[book.name] ?? 0
                    return book
                }
            }
        }
    }

    static func books(_ db: Database) throws -> [AddressBook] {
        try Row.fetchAll(db, sql: "SELECT * FROM address_book ORDER BY account IS NOT NULL, name").map { row in
            AddressBook(name: row["name"], account: row["account"], url: row["url"], displayName: row["display_name"],
                        acceptsVCard4: row["vcard4"], syncToken: row["sync_token"], serverReadOnly: row["server_read_only"],
                        markedReadOnly: row["read_only"], isDefault: row["is_default"])
        }
    }

    public func bookNames(of ids: [Int64]) throws -> [Int64: String] {
        try guarded {
            try writer.read { db in
                var names: [Int64: String] = [:]
                for start in stride(from: 0, to: ids.count, by: 500) {
                    let chunk = Array(ids[start..<min(start + 500, ids.count)])
                    let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                    for row in try Row.fetchAll(db, sql: "SELECT id, \(Self.bookOfContact) FROM contact WHERE id IN (\(marks))",
                                                arguments: StatementArguments(chunk)) {
                        if let name: String = row[1] { names[row[0]] = name }
                    }
                }
                return names
            }
        }
    }

    public func setBookReadOnly(_ name: String, _ readOnly: Bool) throws {
        try guarded {
            try write { db, _ in
                try db.execute(sql: "UPDATE address_book SET read_only = ? WHERE name = ?", arguments: [readOnly, name])
                guard db.changesCount == 1 else { throw ContactStoreError.storage("There is no book named \(name).") }
            }
        }
    }

    public func setServerReadOnly(_ name: String, _ readOnly: Bool) throws {
        try guarded {
            try write { db, _ in
                try db.execute(sql: "UPDATE address_book SET server_read_only = ? WHERE name = ?", arguments: [readOnly, name])
            }
        }
    }

    public func setDefaultBook(_ name: String) throws {
        try guarded {
            try write { db, _ in
                guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM address_book WHERE name = ?)",
                                        arguments: [name]) == true else {
                    throw ContactStoreError.storage("There is no book named \(name).")
                }
                try db.execute(sql: "UPDATE address_book SET is_default = (name = ?)", arguments: [name])
            }
        }
    }

    public func move(_ ids: [Int64], to book: String) throws {
        try guarded {
            try write { db, _ in
                guard let target = try Self.books(db).first(where: { $0.name == book }) else {
                    throw ContactStoreError.storage("There is no book named \(book).")
                }
                for id in ids {
                    // Moved back before the card left: its link there again (the edit, if any, pushed
                    // over its ETag), and nothing to delete.
                    if let back = try Row.fetchOne(db, sql: "SELECT href, etag FROM book_move WHERE contact_id = ? AND from_book = ?",
                                                   arguments: [id, target.name]) {
                        try db.execute(sql: "DELETE FROM sync_item WHERE contact_id = ?", arguments: [id])
                        try db.execute(sql: """
                            INSERT OR REPLACE INTO sync_item (account, href, contact_id, etag, base, synced_version, on_server)
                            VALUES (?, ?, ?, ?, '', -1, 1)
                            """, arguments: [target.name, back["href"] as String, id, back["etag"] as String])
                        try db.execute(sql: "DELETE FROM book_move WHERE contact_id = ? AND from_book = ?", arguments: [id, target.name])
                        try db.execute(sql: "UPDATE book_move SET to_book = ? WHERE contact_id = ?", arguments: [target.name, id])
                        try db.execute(sql: "DELETE FROM book_pin WHERE contact_id = ?", arguments: [id])
                        continue
                    }
                    // A move still pending goes on to the new book.
                    try db.execute(sql: "UPDATE book_move SET to_book = ? WHERE contact_id = ?", arguments: [target.name, id])
                    let link = try Row.fetchOne(db, sql: "SELECT account, href, etag, on_server FROM sync_item WHERE contact_id = ?",
                                                arguments: [id])
                    if let link, (link["account"] as String) == target.name { continue }
                    if let link {
                        // The card stays on the old server until the new book holds the contact.
                        if link["on_server"] as Bool {
                            try db.execute(sql: """
                                INSERT OR REPLACE INTO book_move (contact_id, from_book, href, etag, to_book) VALUES (?, ?, ?, ?, ?)
                                """, arguments: [id, link["account"] as String, link["href"] as String,
                                                 link["etag"] as String, target.name])
                        }
                        try db.execute(sql: "DELETE FROM sync_item WHERE contact_id = ?", arguments: [id])
                    }
                    try db.execute(sql: "INSERT OR REPLACE INTO book_pin (contact_id, book) VALUES (?, ?)",
                                   arguments: [id, target.name])
                }
            }
        }
    }

    public func pendingMoves(account: String) throws -> [BookMove] {
        try guarded {
            try writer.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT m.* FROM book_move m JOIN address_book b ON b.name = m.from_book WHERE b.account = ?
                    ORDER BY m.contact_id
                    """, arguments: [account]).map {
                    BookMove(contactID: $0["contact_id"], fromBook: $0["from_book"], href: $0["href"], etag: $0["etag"],
                             toBook: $0["to_book"])
                }
            }
        }
    }

    public func moveIsReady(_ move: BookMove) throws -> Bool {
        try guarded {
            try writer.read { db in
                try Bool.fetchOne(db, sql: """
                    SELECT NOT EXISTS (SELECT 1 FROM contact WHERE id = ?)
                        OR EXISTS (SELECT 1 FROM address_book WHERE name = ? AND account IS NULL)
                        OR EXISTS (SELECT 1 FROM sync_item WHERE contact_id = ? AND account = ? AND on_server)
                    """, arguments: [move.contactID, move.toBook, move.contactID, move.toBook]) ?? false
            }
        }
    }

    public func finishMove(_ move: BookMove) throws {
        try guarded {
            try write { db, _ in
                try db.execute(sql: "DELETE FROM book_move WHERE from_book = ? AND href = ?", arguments: [move.fromBook, move.href])
            }
        }
    }

    /// Adds the account with its books, in one transaction.
    func insertBooks(_ books: [AddressBook], of account: SyncAccount, _ db: Database) throws {
        let remoteDefault = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM address_book WHERE is_default AND account IS NOT NULL)") ?? false
        let makeDefault = account.isDefault || !remoteDefault
        if makeDefault { try db.execute(sql: "UPDATE address_book SET is_default = 0") }
        for (index, book) in books.enumerated() {
            try db.execute(sql: """
                INSERT INTO address_book (name, account, url, display_name, vcard4, sync_token, server_read_only, read_only,
                                          is_default)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [book.name, account.name, book.url, book.displayName, book.acceptsVCard4, book.syncToken,
                                 book.serverReadOnly, book.markedReadOnly,
                                 // The first writable book takes new contacts.
                                 makeDefault && index == (books.firstIndex { !$0.isReadOnly } ?? -1)])
        }
        if makeDefault, try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM address_book WHERE is_default)") == true {
            try db.execute(sql: "UPDATE address_book SET is_default = 1 WHERE account IS NULL")
        }
    }

    /// The account's books and what pointed at them go; its contacts stay, in the default book.
    func deleteBooks(ofAccount name: String, _ db: Database) throws {
        let books = try String.fetchAll(db, sql: "SELECT name FROM address_book WHERE account = ?", arguments: [name])
        for book in books {
            try db.execute(sql: "DELETE FROM book_pin WHERE book = ?", arguments: [book])
            try db.execute(sql: "DELETE FROM book_move WHERE from_book = ? OR to_book = ?", arguments: [book, book])
            try db.execute(sql: "DELETE FROM sync_item WHERE account = ?", arguments: [book])
        }
        try db.execute(sql: "DELETE FROM address_book WHERE account = ?", arguments: [name])
        if try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM address_book WHERE is_default)") == true {
            try db.execute(sql: "UPDATE address_book SET is_default = 1 WHERE account IS NULL")
        }
    }
}
