import Foundation
import GRDB

/// The sync state (`SyncStateStore`) in the book's own file: accounts and per-contact links,
/// written in the same transactions as the contacts they describe.
extension SQLiteContactStore: SyncStateStore {
    /// CardDAV accounts and the link of each synced contact to its card on the server. A link
    /// outlives its contact (no foreign key): a contact deleted here is found by its link and
    /// deleted on the server at the next sync. `IF NOT EXISTS`: a book that lost the record of
    /// its migrations (rebuilt from v1 to v3, as the upgrade tests make one) keeps its accounts.
    static let addSyncState = Migration(name: "add sync accounts and items", legacyIdentifier: nil) { db, _ in
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS sync_account (
                    name TEXT PRIMARY KEY,
                    server_url TEXT NOT NULL,
                    book_url TEXT NOT NULL,
                    user TEXT NOT NULL,
                    password_command TEXT,           -- run at each sync; the password is never stored
                    vcard4 INTEGER NOT NULL DEFAULT 0,
                    sync_token TEXT,
                    is_default INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE IF NOT EXISTS sync_item (
                    account TEXT NOT NULL,
                    href TEXT NOT NULL,
                    contact_id INTEGER NOT NULL,
                    etag TEXT NOT NULL,
                    base TEXT NOT NULL,              -- the vCard last synced, base of the three-way merge
                    synced_version INTEGER NOT NULL, -- contact.version when last synced
                    on_server INTEGER NOT NULL DEFAULT 1,
                    PRIMARY KEY (account, href)
                );
                CREATE UNIQUE INDEX IF NOT EXISTS sync_item_contact ON sync_item(contact_id);
                """)
    }

    /// Who wins a field changed on both sides, per account (issue 15: a setting; the server by default).
    static let addSyncConflictSetting = Migration(
        name: "add the sync accounts' conflict setting", legacyIdentifier: nil
    ) { db, _ in
        guard try !db.columns(in: "sync_account").contains(where: { $0.name == "conflicts" }) else { return }
        try db.execute(sql: "ALTER TABLE sync_account ADD COLUMN conflicts TEXT NOT NULL DEFAULT 'server'")
    }

    public func accounts() throws -> [SyncAccount] {
        try guarded {
            try reader.read { db in
                // The account's own book (named as it), else its first: the URL, token and
                // default an account had before it had several books.
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT a.name, a.server_url, a.user, a.password_command, a.conflicts,
                               (SELECT url FROM address_book WHERE account = a.name ORDER BY name != account, name LIMIT 1) AS book_url,
                               (SELECT vcard4 FROM address_book WHERE account = a.name ORDER BY name != account, name LIMIT 1) AS vcard4,
                               (SELECT sync_token FROM address_book WHERE account = a.name ORDER BY name != account, name LIMIT 1)
                                   AS sync_token,
                               EXISTS (SELECT 1 FROM address_book d WHERE d.account = a.name AND d.is_default) AS is_default
                        FROM sync_account a
                        ORDER BY a.name
                        """
                ).map(Self.account(from:))
            }
        }
    }

    public func addAccount(_ account: SyncAccount) throws {
        try addAccount(
            account,
            books: [
                AddressBook(
                    name: account.name, account: account.name, url: account.bookURL,
                    acceptsVCard4: account.acceptsVCard4, syncToken: account.syncToken)
            ])
    }

    public func addAccount(_ account: SyncAccount, books: [AddressBook]) throws {
        try guarded {
            try write { db, _ in
                if try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM sync_account WHERE name = ?)",
                    arguments: [account.name]) == true
                {
                    throw ContactStoreError.storage("There is already an account named \(account.name).")
                }
                for book in books
                where try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM address_book WHERE name = ?)",
                    arguments: [book.name]) == true
                {
                    throw ContactStoreError.storage("There is already a book named \(book.name).")
                }
                try db.execute(
                    sql: """
                        INSERT INTO sync_account (name, server_url, book_url, user, password_command, vcard4, sync_token,
                                                  is_default, conflicts)
                        VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)
                        """,
                    arguments: [
                        account.name, account.serverURL, books.first?.url ?? account.bookURL, account.user,
                        account.passwordCommand, books.first?.acceptsVCard4 ?? false, nil,
                        account.conflicts.rawValue,
                    ])
                try insertBooks(books, of: account, db)
            }
        }
    }

    public func updateAccount(named name: String, conflicts: ConflictWinner?, makeDefault: Bool) throws {
        try guarded {
            try write { db, _ in
                guard
                    try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM sync_account WHERE name = ?)",
                        arguments: [name]) == true
                else {
                    throw ContactStoreError.storage("There is no account named \(name).")
                }
                if let conflicts {
                    try db.execute(
                        sql: "UPDATE sync_account SET conflicts = ? WHERE name = ?",
                        arguments: [conflicts.rawValue, name])
                }
                if makeDefault {
                    // Its own book (named as it), else its first writable one.
                    try db.execute(
                        sql: """
                            UPDATE address_book SET is_default = (name = (SELECT name FROM address_book WHERE account = ?
                                                                          ORDER BY read_only OR server_read_only, name != ?, name
                                                                          LIMIT 1))
                            """, arguments: [name, name])
                }
            }
        }
    }

    public func removeAccount(named name: String) throws -> Int {
        try guarded {
            try write { db, _ in
                try db.execute(sql: "DELETE FROM sync_account WHERE name = ?", arguments: [name])
                guard db.changesCount == 1 else {
                    throw ContactStoreError.storage("There is no account named \(name).")
                }
                let linked =
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM sync_item WHERE account IN (SELECT name FROM address_book WHERE account = ?)
                            """, arguments: [name]) ?? 0
                // Its groups' links too (kept by book name, as sync_item): the groups stay, linked to no account.
                try db.execute(
                    sql: """
                        DELETE FROM group_sync WHERE account = ? OR account IN (SELECT name FROM address_book WHERE account = ?)
                        """, arguments: [name, name])
                try deleteBooks(ofAccount: name, db)
                return linked
            }
        }
    }

    public func itemsWithoutBase(account: String) throws -> [SyncItem] {
        try guarded {
            try reader.read { db in
                // Read by position: by column name, GRDB's lookups cost 21,000 instructions a
                // row, most of a sync with nothing to do (callgrind, 5,000 links). In table order,
                // as `changedContacts` (callers key them by href or contact).
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT href, contact_id, etag, synced_version, on_server FROM sync_item NOT INDEXED WHERE account = ?
                        """, arguments: [account]
                ).map { row in
                    SyncItem(
                        account: account, href: row[0], contactID: row[1], etag: row[2], base: "",
                        syncedVersion: row[3], onServer: row[4])
                }
            }
        }
    }

    public func base(account: String, href: String) throws -> String? {
        try guarded {
            try reader.read { db in
                try String.fetchOne(
                    db, sql: "SELECT base FROM sync_item WHERE account = ? AND href = ?", arguments: [account, href])
            }
        }
    }

    public func changedContacts(account: String) throws -> [Contact] {
        // A join inside the subquery, not a reference to the outer `contact.version`: correlated,
        // SQLite ran it once per contact, reading every link each time (28 s for a 5,000-card book).
        // The links in table order, not through the (account, href) key: each link found by the
        // key is a second descent into the table; the scan halved what every sync pays here
        // before it pushes (23 M → 12 M instructions at 5,000 links, bench/FINDINGS.md).
        try contacts(
            where: """
                id IN (SELECT i.contact_id FROM sync_item i NOT INDEXED JOIN contact c ON c.id = i.contact_id
                       WHERE i.account = ? AND (i.synced_version != c.version OR NOT i.on_server))
                """, [account])
    }

    public func unlinkedContacts(book: String, isDefault: Bool) throws -> [Contact] {
        // Moved to this book, or in no book of its own while this one is the default.
        try contacts(
            where: """
                id NOT IN (SELECT contact_id FROM sync_item)
                AND (id IN (SELECT contact_id FROM book_pin WHERE book = ?) OR (? AND id NOT IN (SELECT contact_id FROM book_pin)))
                """, [book, isDefault])
    }

    public func syncToken(book: String) throws -> String? {
        try guarded {
            try reader.read { db in
                try String.fetchOne(db, sql: "SELECT sync_token FROM address_book WHERE name = ?", arguments: [book])
            }
        }
    }

    public func movingHrefs(book: String) throws -> Set<String> {
        try guarded {
            try reader.read { db in
                Set(try String.fetchAll(db, sql: "SELECT href FROM book_move WHERE from_book = ?", arguments: [book]))
            }
        }
    }

    public func holders(uids: [String]) throws -> [UIDHolder] {
        try guarded {
            try reader.read { db in
                let contacts = try Self.contacts(uids: uids, db)
                var links: [Int64: (account: String, href: String)] = [:]
                let ids = contacts.compactMap(\.id)
                for start in stride(from: 0, to: ids.count, by: 500) {
                    let chunk = Array(ids[start..<min(start + 500, ids.count)])
                    let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                    for row in try Row.fetchAll(
                        db, sql: "SELECT contact_id, account, href FROM sync_item WHERE contact_id IN (\(marks))",
                        arguments: StatementArguments(chunk))
                    {
                        links[row[0]] = (row[1], row[2])
                    }
                }
                return contacts.map { contact in
                    let link = contact.id.flatMap { links[$0] }
                    return UIDHolder(contact: contact, account: link?.account, href: link?.href)
                }
            }
        }
    }

    public func orphanedItems(account: String) throws -> [SyncItem] {
        try guarded {
            try reader.read { db in
                // Through the two small indexes on ids, then the few orphans' rows: scanning the
                // links (each with its base vCard) and looking up each contact's row read both
                // tables whole, 1,831 pages at 5,000 links against 112 (6.6 → 4.4 ms of CPU in the
                // sqlite3 shell, bench/FINDINGS.md, issue 32). A book without one of those indexes
                // (they are dropped only inside an import's transaction) is read the plain way.
                let indexed =
                    (try? Row.fetchAll(
                        db,
                        sql: """
                            SELECT * FROM sync_item WHERE rowid IN (
                                SELECT s.rowid FROM sync_item s INDEXED BY sync_item_contact
                                WHERE NOT EXISTS (SELECT 1 FROM contact c INDEXED BY contact_id_sorts WHERE c.id = s.contact_id)
                            ) AND +account = ?
                            """, arguments: [account]))
                let rows =
                    try indexed
                    ?? Row.fetchAll(
                        db,
                        sql: "SELECT * FROM sync_item WHERE account = ? AND contact_id NOT IN (SELECT id FROM contact)",
                        arguments: [account])
                return rows.map(Self.item(from:))
            }
        }
    }

    @discardableResult
    public func apply(_ pull: SyncPull) throws -> SyncedChanges {
        try apply(account: pull.account, token: { pull.token }, large: pull.writes.count >= Self.largePull) { write in
            try write(pull.writes, [])
        }
    }

    public var readsDuringWrites: Bool {
        switch connection {
        case .open(let writer): return writer is DatabasePool
        case .opening(let opening): return opening.writer is DatabasePool
        // Its writes go to a pool (`ReadingFirst`), opened by the first.
        case .readingFirst: return true
        }
    }

    public func prepareForInsert(_ contact: Contact) -> PreparedContact? { PreparedRow(contact) }

    public func apply(
        account: String, token: () -> String?, large: Bool,
        _ body: (_ write: ([SyncPull.Write], [PreparedContact?]) throws -> Void) throws -> Void
    ) throws -> SyncedChanges {
        // A first sync of thousands of cards is an import: the page anchors kept in memory and,
        // below, a larger page cache and the import's journal range instead of an image per card.
        try guarded {
            try write(cachingAnchors: large) { db, anchors in
                let cacheSize = large ? try Int.fetchOne(db, sql: "PRAGMA cache_size") : nil
                if large { try db.execute(sql: "PRAGMA cache_size = -\(Self.pullCacheKiB)") }
                defer { if let cacheSize { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") } }
                var changes = SyncedChanges()
                // One change set per pull (ChangeKind.sync): `undo` takes back what a sync changed here.
                try journalled(.sync, origin: "sync", db, anchors: anchors) { recorder in
                    recorder.summary = "synced \(account)"
                    func save(_ change: SyncPull.Write, _ prepared: PreparedContact?) throws {
                        switch change {
                        case .insert(let contact, let href, let etag, let base):
                            let saved = try recorder.insertAddingToRange(contact, prepared: prepared as? PreparedRow)
                            changes.created.append(saved.id ?? 0)
                            try Self.saveLink(
                                SyncItem(
                                    account: account, href: href, contactID: saved.id ?? 0, etag: etag,
                                    base: base, syncedVersion: saved.version), db)
                        case .update(let contact, let href, let etag, let base, let pushPending):
                            let saved = try recorder.update(contact)
                            changes.updated.append(saved.id ?? 0)
                            try Self.saveLink(
                                SyncItem(
                                    account: account, href: href, contactID: saved.id ?? 0, etag: etag,
                                    base: base, syncedVersion: pushPending ? -1 : saved.version), db)
                        case .delete(let id, let version, let href):
                            _ = try recorder.delete(id: id, expectedVersion: version, toTrash: true)
                            changes.deleted.append(id)
                            try Self.forgetLink(account: account, href: href, db)
                        case .link(let item):
                            try Self.saveLink(item, db)
                        case .forget(let href):
                            try Self.forgetLink(account: account, href: href, db)
                        }
                    }
                    try body { writes, prepared in
                        for (index, change) in writes.enumerated() {
                            try save(change, index < prepared.count ? prepared[index] : nil)
                        }
                    }
                }
                try db.execute(
                    sql: "UPDATE address_book SET sync_token = ? WHERE name = ?",
                    arguments: [token(), account])
                return changes
            }
        }
    }

    /// Past this many writes, a pull is written as an import is.
    static let largePull = 100

    /// The page cache of a large pull: an eighth of the import's. The pull's one transaction
    /// keeps its dirty pages there until the cache is full, so with the import's 64 MiB the
    /// peak memory of a first sync grew with the book (71 MiB at 5,000 cards, 150 at 50,000);
    /// past this, SQLite writes them to the WAL as it goes. At 16 MiB a pull of 5,000 cards
    /// (10 MB of pages) still left it part empty, so memory grew 8 MB more to 50,000; at 8 MiB
    /// both fill it, for the same CPU (bench/FINDINGS.md, issue 32, sync3 and sync5).
    static let pullCacheKiB = 8_192

    public func link(_ item: SyncItem) throws {
        try guarded { try write { db, _ in try Self.saveLink(item, db) } }
    }

    public func forget(account: String, href: String) throws {
        try guarded { try write { db, _ in try Self.forgetLink(account: account, href: href, db) } }
    }

    private func contacts(where filter: String, _ arguments: [DatabaseValueConvertible]) throws -> [Contact] {
        try guarded {
            try reader.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT \(Self.readColumns) FROM contact WHERE \(filter) ORDER BY id",
                    arguments: StatementArguments(arguments)
                ).map(Self.contact(from:))
            }
        }
    }

    private static func saveLink(_ item: SyncItem, _ db: Database) throws {
        // One link per contact: a contact moving to another href (created again) drops its old one.
        // Cached statements: a first sync saves thousands of links, and parsing both statements
        // again for each was 5 % of the pull's writing (perf, 5,000 cards).
        try db.cachedStatement(sql: "DELETE FROM sync_item WHERE contact_id = ? AND NOT (account = ? AND href = ?)")
            .execute(arguments: [item.contactID, item.account, item.href])
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO sync_item (account, href, contact_id, etag, base, synced_version, on_server)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            item.account, item.href, item.contactID, item.etag, item.base, item.syncedVersion,
            item.onServer,
        ])
    }

    private static func forgetLink(account: String, href: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_item WHERE account = ? AND href = ?", arguments: [account, href])
    }

    private static func account(from row: Row) -> SyncAccount {
        SyncAccount(
            name: row["name"], serverURL: row["server_url"], bookURL: row["book_url"] ?? "", user: row["user"],
            passwordCommand: row["password_command"], acceptsVCard4: row["vcard4"] ?? false,
            syncToken: row["sync_token"], isDefault: row["is_default"] ?? false,
            conflicts: ConflictWinner(rawValue: row["conflicts"] ?? "") ?? .server)
    }

    private static func item(from row: Row) -> SyncItem {
        SyncItem(
            account: row["account"], href: row["href"], contactID: row["contact_id"], etag: row["etag"],
            base: row["base"], syncedVersion: row["synced_version"], onServer: row["on_server"])
    }
}
