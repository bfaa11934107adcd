import Foundation
import GRDB

/// The address books (issue 30) in the book's own file. A contact's book is the book of its
/// sync link (`sync_item.account` names the book), else the one it was moved to
/// (`book_pin`), else the default book.
extension SQLiteContactStore: AddressBookStore {
    /// The local book and each account's book. Each account had one book; it is named as the
    /// account, so its links (`sync_item.account`) name it already and nothing else is rewritten.
    static let addAddressBooks = Migration(name: "add address books", legacyIdentifier: nil) { db, _ in
        try db.execute(
            sql: """
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
        let accounts = try Row.fetchAll(
            db, sql: "SELECT name, book_url, vcard4, sync_token, is_default FROM sync_account")
        let names = Set(accounts.map { $0["name"] as String })
        let local = names.contains("local") ? "this-file" : "local"
        let anyDefault = accounts.contains { $0["is_default"] as Bool }
        try db.execute(
            sql: "INSERT INTO address_book (name, account, is_default) VALUES (?, NULL, ?)",
            arguments: [local, !anyDefault])
        for row in accounts {
            try db.execute(
                sql: """
                    INSERT INTO address_book (name, account, url, vcard4, sync_token, is_default) VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    row["name"] as String, row["name"] as String, row["book_url"] as String,
                    row["vcard4"] as Bool, row["sync_token"] as String?, row["is_default"] as Bool,
                ])
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
            try reader.read { db in
                var counts: [String: Int] = [:]
                if counting {
                    for row in try Row.fetchAll(
                        db, sql: "SELECT \(Self.bookOfContact) AS b, COUNT(*) FROM contact GROUP BY b")
                    {
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

    /// One count, in SQLite's own transaction: GRDB's read transaction is four statements more.
    public func hasSeveralBooks() throws -> Bool {
        try guarded {
            try reader.unsafeRead { db in try Self.integer(db, sql: "SELECT COUNT(*) > 1 FROM address_book") == 1 }
        }
    }

    static func books(_ db: Database) throws -> [AddressBook] {
        try Row.fetchAll(db, sql: "SELECT * FROM address_book ORDER BY account IS NOT NULL, name").map { row in
            AddressBook(
                name: row["name"], account: row["account"], url: row["url"], displayName: row["display_name"],
                acceptsVCard4: row["vcard4"], syncToken: row["sync_token"], serverReadOnly: row["server_read_only"],
                markedReadOnly: row["read_only"], isDefault: row["is_default"])
        }
    }

    public func bookNames(of ids: [Int64]) throws -> [Int64: String] {
        try guarded {
            try reader.read { db in
                var names: [Int64: String] = [:]
                for start in stride(from: 0, to: ids.count, by: 500) {
                    let chunk = Array(ids[start..<min(start + 500, ids.count)])
                    let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                    for row in try Row.fetchAll(
                        db, sql: "SELECT id, \(Self.bookOfContact) FROM contact WHERE id IN (\(marks))",
                        arguments: StatementArguments(chunk))
                    {
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
                try db.execute(
                    sql: "UPDATE address_book SET read_only = ? WHERE name = ?", arguments: [readOnly, name])
                guard db.changesCount == 1 else { throw ContactStoreError.storage("There is no book named \(name).") }
            }
        }
    }

    public func setServerReadOnly(_ name: String, _ readOnly: Bool) throws {
        try guarded {
            try write { db, _ in
                try db.execute(
                    sql: "UPDATE address_book SET server_read_only = ? WHERE name = ?", arguments: [readOnly, name])
            }
        }
    }

    public func setDefaultBook(_ name: String) throws {
        try guarded {
            try write { db, _ in
                guard
                    try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM address_book WHERE name = ?)",
                        arguments: [name]) == true
                else {
                    throw ContactStoreError.storage("There is no book named \(name).")
                }
                try db.execute(sql: "UPDATE address_book SET is_default = (name = ?)", arguments: [name])
            }
        }
    }

    public func move(_ ids: [Int64], to book: String, summary: String?) throws {
        try guarded {
            try write { db, anchors in
                guard
                    try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM address_book WHERE name = ?)",
                        arguments: [book]) == true
                else {
                    throw ContactStoreError.storage("There is no book named \(book).")
                }
                guard let summary else { return try Self.moveRows(ids, to: book, db) }
                // Journalled: each contact's book before and after, so `undo` moves it back.
                try journalled(.move, origin: nil, db, anchors: anchors) { recorder in
                    recorder.summary = summary
                    for id in ids {
                        guard let from = try Self.placement(of: id, db), from.book != book else { continue }
                        try Self.moveRows([id], to: book, db)
                        try recorder.recordMove(
                            BookChange(contactID: id, from: from.book, to: book, fromPinned: from.pinned))
                    }
                }
            }
        }
    }

    /// The copies are the change set's inserts; their book is a pin (`moveRows`), not a move of
    /// the journal's: an undo deletes them (the pin of an id never given again is inert), a
    /// redo puts them back under their ids, where the pin still places them.
    public func insertCopies(_ contacts: [Contact], into book: String, summary: String) throws -> [Contact] {
        try guarded {
            try write { db, anchors in
                guard
                    try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM address_book WHERE name = ?)", arguments: [book]) == true
                else { throw ContactStoreError.storage("There is no book named \(book).") }
                return try journalled(.add, origin: nil, db, anchors: anchors) { recorder in
                    recorder.summary = summary
                    let saved = try contacts.map { try recorder.insert($0, keepingID: false) }
                    try Self.moveRows(saved.compactMap(\.id), to: book, db)
                    return saved
                }
            }
        }
    }

    /// The book a contact is in and whether a pin put it there (nil: no such contact).
    static func placement(of id: Int64, _ db: Database) throws -> (book: String, pinned: Bool)? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT \(bookOfContact), EXISTS (SELECT 1 FROM book_pin WHERE contact_id = contact.id)
                        AND NOT EXISTS (SELECT 1 FROM sync_item WHERE contact_id = contact.id) FROM contact WHERE id = ?
                    """, arguments: [id]), let book: String = row[0]
        else { return nil }
        return (book, row[1])
    }

    /// Puts the contacts in `book` (which exists): see `AddressBookStore.move`.
    static func moveRows(_ ids: [Int64], to book: String, _ db: Database) throws {
        for id in ids {
            let link = try Row.fetchOne(
                db,
                sql: """
                    SELECT account, href, etag, on_server, base, synced_version FROM sync_item WHERE contact_id = ?
                    """, arguments: [id])
            if let link, (link["account"] as String) == book {
                try db.execute(sql: "UPDATE book_move SET to_book = ? WHERE contact_id = ?", arguments: [book, id])
                continue
            }
            // The card it has on the server of the book it leaves stays there until the new book holds the contact.
            if let link, link["on_server"] as Bool {
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO book_move (contact_id, from_book, href, etag, to_book, base, synced_version)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        id, link["account"] as String, link["href"] as String, link["etag"] as String, book,
                        link["base"] as String, link["synced_version"] as Int64,
                    ])
            }
            if link != nil { try db.execute(sql: "DELETE FROM sync_item WHERE contact_id = ?", arguments: [id]) }
            // Moved back before its card left: its link there again (the edit, if any, pushed over
            // its ETag), and nothing to delete there.
            if let back = try Row.fetchOne(
                db,
                sql: """
                    SELECT href, etag, base, synced_version FROM book_move WHERE contact_id = ? AND from_book = ?
                    """, arguments: [id, book])
            {
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO sync_item (account, href, contact_id, etag, base, synced_version, on_server)
                        VALUES (?, ?, ?, ?, ?, ?, 1)
                        """,
                    arguments: [
                        book, back["href"] as String, id, back["etag"] as String, back["base"] as String,
                        back["synced_version"] as Int64,
                    ])
                try db.execute(
                    sql: "DELETE FROM book_move WHERE contact_id = ? AND from_book = ?", arguments: [id, book])
                try db.execute(sql: "UPDATE book_move SET to_book = ? WHERE contact_id = ?", arguments: [book, id])
                try db.execute(sql: "DELETE FROM book_pin WHERE contact_id = ?", arguments: [id])
                continue
            }
            // A move still pending goes on to the new book.
            try db.execute(sql: "UPDATE book_move SET to_book = ? WHERE contact_id = ?", arguments: [book, id])
            try db.execute(
                sql: "INSERT OR REPLACE INTO book_pin (contact_id, book) VALUES (?, ?)", arguments: [id, book])
        }
    }

    public func pendingMoves(account: String) throws -> [BookMove] {
        try guarded {
            try reader.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT m.* FROM book_move m JOIN address_book b ON b.name = m.from_book WHERE b.account = ?
                        ORDER BY m.contact_id
                        """, arguments: [account]
                ).map {
                    BookMove(
                        contactID: $0["contact_id"], fromBook: $0["from_book"], href: $0["href"], etag: $0["etag"],
                        toBook: $0["to_book"])
                }
            }
        }
    }

    public func moveIsReady(_ move: BookMove) throws -> Bool {
        try guarded {
            try reader.read { db in
                try Bool.fetchOne(
                    db,
                    sql: """
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
                try db.execute(
                    sql: "DELETE FROM book_move WHERE from_book = ? AND href = ?",
                    arguments: [move.fromBook, move.href])
            }
        }
    }

    /// Adds the account with its books, in one transaction.
    func insertBooks(_ books: [AddressBook], of account: SyncAccount, _ db: Database) throws {
        let remoteDefault =
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM address_book WHERE is_default AND account IS NOT NULL)") ?? false
        let makeDefault = account.isDefault || !remoteDefault
        if makeDefault { try db.execute(sql: "UPDATE address_book SET is_default = 0") }
        for (index, book) in books.enumerated() {
            try db.execute(
                sql: """
                    INSERT INTO address_book (name, account, url, display_name, vcard4, sync_token, server_read_only, read_only,
                                              is_default)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    book.name, account.name, book.url, book.displayName, book.acceptsVCard4, book.syncToken,
                    book.serverReadOnly, book.markedReadOnly,
                    // The first writable book takes new contacts.
                    makeDefault && index == (books.firstIndex { !$0.isReadOnly } ?? -1),
                ])
        }
        if makeDefault,
            try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM address_book WHERE is_default)") == true
        {
            try db.execute(sql: "UPDATE address_book SET is_default = 1 WHERE account IS NULL")
        }
    }

    /// The account's books and what pointed at them go; its contacts stay, in the default book.
    func deleteBooks(ofAccount name: String, _ db: Database) throws {
        let books = try String.fetchAll(db, sql: "SELECT name FROM address_book WHERE account = ?", arguments: [name])
        for book in books {
            try db.execute(sql: "DELETE FROM book_pin WHERE book = ?", arguments: [book])
            try db.execute(sql: "DELETE FROM group_book WHERE book = ?", arguments: [book])
            try db.execute(sql: "DELETE FROM book_move WHERE from_book = ? OR to_book = ?", arguments: [book, book])
            try db.execute(sql: "DELETE FROM sync_item WHERE account = ?", arguments: [book])
        }
        try db.execute(sql: "DELETE FROM address_book WHERE account = ?", arguments: [name])
        if try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM address_book WHERE is_default)") == true {
            try db.execute(sql: "UPDATE address_book SET is_default = 1 WHERE account IS NULL")
        }
    }
}

// MARK: - The journal's part (issue 30): moves undone and redone

extension SQLiteContactStore {
    /// Moves journalled (`book_change_entry`: each contact's book before and after) and the book
    /// a new group is made for (`group_book`, until its first push links it there).
    static let addBookJournalAndGroupBooks = Migration(
        name: "add moves to the journal and books of new groups",
        legacyIdentifier: nil
    ) { db, _ in
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS book_change_entry (
                    change_set INTEGER NOT NULL REFERENCES change_set(id) ON DELETE CASCADE,
                    contact_id INTEGER NOT NULL,
                    from_book TEXT NOT NULL,
                    from_pinned INTEGER NOT NULL,         -- a pin had put it there (else its link, or the default book)
                    to_book TEXT NOT NULL,
                    PRIMARY KEY (change_set, contact_id)
                );
                CREATE INDEX IF NOT EXISTS book_change_entry_contact ON book_change_entry(contact_id, change_set);
                CREATE TABLE IF NOT EXISTS group_book (
                    uid TEXT PRIMARY KEY,                 -- a group's UID
                    book TEXT NOT NULL                    -- where its first push sends it (else the default book)
                );
                """)
        // The link's base and synced version, kept with a move so a move taken back (undo) before
        // the sync links the card again as it was: nothing to push when nothing else changed.
        let columns = Set(try db.columns(in: "book_move").map(\.name))
        if !columns.contains("base") {
            try db.execute(sql: "ALTER TABLE book_move ADD COLUMN base TEXT NOT NULL DEFAULT ''")
        }
        if !columns.contains("synced_version") {
            try db.execute(sql: "ALTER TABLE book_move ADD COLUMN synced_version INTEGER NOT NULL DEFAULT -1")
        }
    }

    static func bookChanges(of changeSet: Int64, _ db: Database) throws -> [BookChange] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT contact_id, from_book, to_book, from_pinned FROM book_change_entry WHERE change_set = ? ORDER BY contact_id
                    """), arguments: [changeSet]
        ).map { BookChange(contactID: $0[0], from: $0[1], to: $0[2], fromPinned: $0[3]) }
    }

    /// Takes the contacts a move moved back (undo) or again (redo) through the move's own rows
    /// (`moveRows`), so what waits for the server stays coherent: a move not yet synced is
    /// simply taken back (its link again, no DELETE, no PUT); one synced is a move of its own
    /// (a PUT to the book it goes to, then a DELETE from the one it leaves).
    static func transitionBooks(of change: ChangeSetRecord, undoing: Bool, _ db: Database) throws {
        guard !change.moves.isEmpty else { return }
        let books = try Self.books(db)
        for move in undoing ? Array(change.moves.reversed()) : change.moves {
            let (from, to) = undoing ? (move.to, move.from) : (move.from, move.to)
            guard let now = try placement(of: move.contactID, db), now.book == from else {
                throw JournalRefusal.changedSince(change: change, contactID: move.contactID)
            }
            // Into or out of a book that is read-only now, or gone: nothing moves.
            for name in [from, to] {
                guard let book = books.first(where: { $0.name == name }) else {
                    throw JournalRefusal.bookUnavailable(change: change, book: name, readOnly: false)
                }
                if book.isReadOnly { throw JournalRefusal.bookUnavailable(change: change, book: name, readOnly: true) }
            }
            try moveRows([move.contactID], to: to, db)
            // It was in the default book by no pin of its own: so again, if that is still the default.
            if undoing && !move.fromPinned, books.first(where: \.isDefault)?.name == to {
                try db.execute(
                    sql: """
                        DELETE FROM book_pin WHERE contact_id = ? AND NOT EXISTS (SELECT 1 FROM sync_item WHERE contact_id = ?)
                        """, arguments: [move.contactID, move.contactID])
            }
        }
    }

    /// A later change set still in force that moved one of this one's contacts again, or
    /// deleted one it moved.
    static func laterBookChange(after change: ChangeSetRecord, _ db: Database) throws -> ChangeSetRecord? {
        try changeSets(
            where: """
                undone = 0 AND id > ? AND (
                    EXISTS (SELECT 1 FROM book_change_entry e WHERE e.change_set = change_set.id
                        AND e.contact_id IN (SELECT contact_id FROM book_change_entry WHERE change_set = ?))
                    OR EXISTS (SELECT 1 FROM change_entry e WHERE e.change_set = change_set.id AND e.after IS NULL
                        AND e.contact_id IN (SELECT contact_id FROM book_change_entry WHERE change_set = ?)))
                ORDER BY id LIMIT 1
                """, [change.id, change.id, change.id], db
        ).first
    }
}

extension JournalRecorder {
    func recordMove(_ move: BookChange) throws {
        guard let db else { throw ContactStoreError.storage("The change set has ended.") }
        try db.cachedStatement(
            sql: """
                INSERT INTO book_change_entry (change_set, contact_id, from_book, from_pinned, to_book) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (change_set, contact_id) DO UPDATE SET to_book = excluded.to_book
                """
        ).execute(arguments: [setID, move.contactID, move.from, move.fromPinned, move.to])
        entryCount += 1
    }
}
