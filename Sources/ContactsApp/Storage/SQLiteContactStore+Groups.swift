import Foundation
import GRDB

/// Groups in the book (schema: `addGroups`): each group's card in `contact_group`, its members'
/// UIDs in `group_member` (read from the card, kept in step by every save), and the journal's
/// images of groups in `group_change_entry`, beside the contacts' `change_entry`.
extension SQLiteContactStore: ContactGroupStore {
    static let addGroups = Migration(name: "add groups with their members and journal images", legacyIdentifier: nil) {
        db, _ in
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS contact_group (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused, as contact ids
                    uid TEXT NOT NULL,
                    name TEXT NOT NULL,
                    card TEXT NOT NULL,                   -- the group's vCard lines joined by LF, as kept
                    version INTEGER NOT NULL,
                    created_at REAL NOT NULL,
                    updated_at REAL NOT NULL
                );
                CREATE INDEX IF NOT EXISTS contact_group_uid ON contact_group(uid);
                CREATE TABLE IF NOT EXISTS group_member (
                    group_id INTEGER NOT NULL REFERENCES contact_group(id) ON DELETE CASCADE,
                    member TEXT NOT NULL,                 -- a member's UID, urn:uuid: taken off
                    PRIMARY KEY (group_id, member)
                ) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS group_member_by_member ON group_member(member, group_id);
                CREATE TABLE IF NOT EXISTS group_change_entry (
                    change_set INTEGER NOT NULL REFERENCES change_set(id) ON DELETE CASCADE,
                    group_id INTEGER NOT NULL,
                    before TEXT,                          -- JSON ContactGroup, or NULL: it did not exist
                    after TEXT,                           -- JSON ContactGroup, or NULL: deleted
                    PRIMARY KEY (change_set, group_id)
                );
                CREATE INDEX IF NOT EXISTS group_change_entry_group ON group_change_entry(group_id, change_set);
                CREATE TABLE IF NOT EXISTS group_sync (
                    account TEXT NOT NULL,
                    href TEXT NOT NULL,
                    uid TEXT NOT NULL,                    -- the group's UID
                    etag TEXT NOT NULL,
                    base TEXT NOT NULL,                   -- the card as the server last had it (the merge's base)
                    card TEXT NOT NULL,                   -- our card as it was then: changed since, it is pushed
                    PRIMARY KEY (account, href)
                );
                """)
    }

    /// Each group's members by contact row (`group_contact`), with the row's sort keys, kept by
    /// the store in the transaction of every save of a group or a contact (`linkMember`,
    /// `linkContact`): a group's page walks (group, sort key, id) and stops at its 50 rows,
    /// where joining members to contacts by UID cost two UID look-ups per member for every
    /// page (72 ms for a group of 10,000 in a 1M book, bench/FINDINGS.md). Filled from the
    /// member index, the contacts found by UID as the join found them; the member index
    /// drives the join (CROSS JOIN), so a book's cost is its members', not its contacts'.
    static let addGroupRowsByContact = Migration(
        name: "add group members by contact row with their sort keys", legacyIdentifier: nil
    ) { db, _ in
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS group_contact (
                    group_id INTEGER NOT NULL,            -- contact_group.id
                    contact_id INTEGER NOT NULL,          -- contact.id of a card a member's UID names
                    sort_first TEXT NOT NULL,             -- the contact's sort keys, as in contact
                    sort_last TEXT NOT NULL,
                    PRIMARY KEY (group_id, contact_id)
                ) WITHOUT ROWID;
                INSERT OR IGNORE INTO group_contact (group_id, contact_id, sort_first, sort_last)
                    SELECT m.group_id, c.id, c.sort_first, c.sort_last
                    FROM group_member m CROSS JOIN contact c
                    ON c.uid IN (m.member, 'urn:uuid:' || m.member, 'URN:UUID:' || m.member);
                CREATE INDEX IF NOT EXISTS group_contact_first ON group_contact(group_id, sort_first, contact_id);
                CREATE INDEX IF NOT EXISTS group_contact_last ON group_contact(group_id, sort_last, contact_id);
                CREATE INDEX IF NOT EXISTS group_contact_by_contact ON group_contact(contact_id);
                """)
    }

    // MARK: - Reading

    public func groups() throws -> [GroupSummary] {
        try guarded {
            try reader.read { db in
                let counts = try Row.fetchAll(
                    db, sql: "SELECT group_id, COUNT(*) FROM group_contact GROUP BY group_id"
                ).reduce(into: [Int64: Int]()) { $0[$1[0]] = $1[1] }
                return try Self.groupRows(where: "1", [], db).map {
                    GroupSummary(group: $0, inBook: counts[$0.id ?? 0] ?? 0)
                }
            }
        }
    }

    public func groupNames() throws -> [(id: Int64, name: String)] {
        try guarded {
            // One SELECT is its own transaction in SQLite: GRDB's read transaction would add four
            // statements to every `query` (bench/FINDINGS.md, session 21).
            try reader.unsafeRead { db in
                try Row.fetchAll(db, sql: "SELECT id, name FROM contact_group ORDER BY name COLLATE NOCASE, id").map {
                    ($0[0], $0[1])
                }
            }
        }
    }

    public func groups(containing uid: String) throws -> [ContactGroup] {
        try guarded {
            try reader.read { db in
                try Self.groupRows(
                    where: "id IN (SELECT group_id FROM group_member WHERE member = ?)", [GroupCard.memberUID(uid)], db)
            }
        }
    }

    static func groupRows(where clause: String, _ arguments: StatementArguments, _ db: Database) throws
        -> [ContactGroup]
    {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, uid, name, card, version, created_at, updated_at FROM contact_group WHERE \(clause)
                ORDER BY name COLLATE NOCASE, id
                """, arguments: arguments
        ).map(group(from:))
    }

    static func group(from row: Row) -> ContactGroup {
        let card = VCardRecord(text: row[3])
        let read = GroupCard.read(card)
        return ContactGroup(
            id: row[0], uid: row[1], name: row[2], members: read?.members ?? [], card: card,
            version: row[4], createdAt: Date(timeIntervalSince1970: row[5]),
            updatedAt: Date(timeIntervalSince1970: row[6]))
    }

    static func groupRow(id: Int64, _ db: Database) throws -> ContactGroup? {
        try groupRows(where: "id = ?", [id], db).first
    }

    // MARK: - Writing

    public func saveGroup(_ group: ContactGroup, kind: ChangeKind, summary: String) throws -> ContactGroup {
        try guarded {
            try write { db, anchors in
                try journalled(kind, origin: nil, db, anchors: anchors) { recorder in
                    recorder.summary = summary
                    guard let id = group.id else {
                        let saved = try Self.insertGroup(group, keepingID: false, db)
                        try recorder.recordGroup(saved.id!, before: nil, after: saved)
                        return saved
                    }
                    guard let before = try Self.groupRow(id: id, db) else { throw ContactStoreError.notFound(id: id) }
                    guard before.version == group.version else {
                        throw ContactStoreError.staleVersion(id: id, expected: group.version, actual: before.version)
                    }
                    let saved = try Self.updateGroup(group, db)
                    try recorder.recordGroup(id, before: before, after: saved)
                    return saved
                }
            }
        }
    }

    public func deleteGroup(_ group: ContactGroup, summary: String) throws {
        guard let id = group.id else { return }
        try guarded {
            try write { db, anchors in
                try journalled(.delete, origin: nil, db, anchors: anchors) { recorder in
                    recorder.summary = summary
                    guard let before = try Self.groupRow(id: id, db) else { throw ContactStoreError.notFound(id: id) }
                    guard before.version == group.version else {
                        throw ContactStoreError.staleVersion(id: id, expected: group.version, actual: before.version)
                    }
                    try Self.deleteGroupRow(id: id, db)
                    try recorder.recordGroup(id, before: before, after: nil)
                }
            }
        }
    }

    public func importGroups(_ groups: [ContactGroup], summary: String) throws -> (added: Int, updated: Int) {
        guard !groups.isEmpty else { return (0, 0) }
        return try guarded {
            try write { db, anchors in
                try journalled(.import, origin: nil, db, anchors: anchors) { recorder in
                    recorder.summary = summary
                    var added = 0, updated = 0
                    for group in groups {
                        if let stored = try Self.groupRows(where: "uid = ?", [group.uid], db).first {
                            guard stored.card != group.card else { continue }
                            var changed = group
                            changed.id = stored.id; changed.version = stored.version;
                            changed.createdAt = stored.createdAt
                            let saved = try Self.updateGroup(changed, db)
                            try recorder.recordGroup(stored.id!, before: stored, after: saved)
                            updated += 1
                        } else {
                            let saved = try Self.insertGroup(group, keepingID: false, db)
                            try recorder.recordGroup(saved.id!, before: nil, after: saved)
                            added += 1
                        }
                    }
                    return (added, updated)
                }
            }
        }
    }

    static func insertGroup(_ group: ContactGroup, keepingID: Bool, _ db: Database) throws -> ContactGroup {
        var saved = group
        if !keepingID { saved.id = nil; saved.version = 1 }
        try db.execute(
            sql: """
                INSERT INTO contact_group (id, uid, name, card, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                saved.id, saved.uid, saved.name, saved.card.text, saved.version,
                saved.createdAt.timeIntervalSince1970, saved.updatedAt.timeIntervalSince1970,
            ])
        saved.id = saved.id ?? db.lastInsertedRowID
        try writeMembers(saved, db)
        return saved
    }

    static func updateGroup(_ group: ContactGroup, _ db: Database) throws -> ContactGroup {
        guard let id = group.id else { throw ContactStoreError.notFound(id: 0) }
        var saved = group
        saved.version += 1
        try db.execute(
            sql: """
                UPDATE contact_group SET uid = ?, name = ?, card = ?, version = ?, updated_at = ? WHERE id = ?
                """,
            arguments: [
                saved.uid, saved.name, saved.card.text, saved.version, saved.updatedAt.timeIntervalSince1970, id,
            ])
        try writeMembers(saved, db)
        return saved
    }

    static func deleteGroupRow(id: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM group_member WHERE group_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM group_contact WHERE group_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM contact_group WHERE id = ?", arguments: [id])
    }

    /// The member index follows the card: every member the card names, once. Only the members
    /// added or removed are written, with their rows in `group_contact`: adding one member to a
    /// group of 10,000 rewrote all of them (two UID look-ups each).
    static func writeMembers(_ group: ContactGroup, _ db: Database) throws {
        guard let id = group.id else { return }
        let stored = Set(
            try String.fetchAll(
                db.cachedStatement(sql: "SELECT member FROM group_member WHERE group_id = ?"), arguments: [id]))
        var wanted: [String] = []
        var seen = Set<String>()
        for member in GroupCard.read(group.card)?.members ?? group.members where seen.insert(member).inserted {
            wanted.append(member)
        }
        let removing = stored.subtracting(seen)
        let deleteMember = try db.cachedStatement(sql: "DELETE FROM group_member WHERE group_id = ? AND member = ?")
        let unlink = try db.cachedStatement(
            sql: """
                DELETE FROM group_contact WHERE group_id = ? AND contact_id IN
                    (SELECT id FROM contact WHERE uid IN (?, 'urn:uuid:' || ?, 'URN:UUID:' || ?))
                """)
        for member in removing.sorted() {
            try deleteMember.execute(arguments: [id, member])
            try unlink.execute(arguments: [id, member, member, member])
        }
        let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO group_member (group_id, member) VALUES (?, ?)")
        for member in wanted where !stored.contains(member) {
            try insert.execute(arguments: [id, member])
            try linkMember(member, group: id, db)
        }
    }

    /// The contacts a member names (its UID with or without `urn:uuid:`, as cards write it), put
    /// in the group's rows of `group_contact`: resolved once here, so a page of the group reads
    /// its members by contact row and sort key, not by UID.
    static func linkMember(_ member: String, group id: Int64, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO group_contact (group_id, contact_id, sort_first, sort_last)
                SELECT ?, id, sort_first, sort_last FROM contact WHERE uid IN (?, 'urn:uuid:' || ?, 'URN:UUID:' || ?)
                """
        ).execute(arguments: [id, member, member, member])
    }

    /// Keeps `group_contact` in step with a contact row: called by every insert, update and
    /// delete of one (`SQLiteContactStore.insert`, `update`, `deleteRow`, `insertKeepingID`).
    /// A new row joins the groups whose members name its UID (one look-up in the member index).
    static func linkContact(id: Int64, uid: String, keys: SortKeys, _ db: Database) throws {
        try run(
            """
            INSERT OR IGNORE INTO group_contact (group_id, contact_id, sort_first, sort_last)
            SELECT group_id, ?, ?, ? FROM group_member WHERE member = ?
            """, db
        ) {
            $0.integer(id); $0.text(keys.first); $0.text(keys.last); $0.text(GroupCard.memberUID(uid))
        }
    }

    /// A row whose UID or sort keys changed: its memberships found again, or their keys moved.
    static func relinkContact(id: Int64, uid: String, keys: SortKeys, uidChanged: Bool, _ db: Database) throws {
        if uidChanged {
            try unlinkContact(id: id, db)
            try linkContact(id: id, uid: uid, keys: keys, db)
        } else {
            try run("UPDATE group_contact SET sort_first = ?, sort_last = ? WHERE contact_id = ?", db) {
                $0.text(keys.first); $0.text(keys.last); $0.integer(id)
            }
        }
    }

    static func unlinkContact(id: Int64, _ db: Database) throws {
        try run("DELETE FROM group_contact WHERE contact_id = ?", db) { $0.integer(id) }
    }

    // MARK: - The journal's part

    /// Takes the groups a change set touched from one image to the other (undo: after to before).
    static func transitionGroups(of change: ChangeSetRecord, undoing: Bool, _ db: Database) throws {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT group_id, before, after FROM group_change_entry WHERE change_set = ? ORDER BY group_id \(undoing ? "DESC" : "")
                """, arguments: [change.id])
        for row in rows {
            let id: Int64 = row[0]
            let before = try (row[1] as String?).map(GroupImage.decode)
            let after = try (row[2] as String?).map(GroupImage.decode)
            let (from, to) = undoing ? (after, before) : (before, after)
            let current = try groupRow(id: id, db)
            guard sameGroup(current, from) else { throw JournalRefusal.changedSince(change: change, contactID: id) }
            switch (current, to) {
            case (nil, nil): break
            case (nil, let to?): _ = try insertGroup(to, keepingID: true, db)
            case (_?, nil): try deleteGroupRow(id: id, db)
            case (let current?, var to?):
                to.version = current.version
                _ = try updateGroup(to, db)
            }
        }
    }

    /// Whether a later change set still in force touched one of this one's groups.
    static func laterGroupChange(after change: ChangeSetRecord, _ db: Database) throws -> ChangeSetRecord? {
        try changeSets(
            where: """
                undone = 0 AND id > ? AND EXISTS (SELECT 1 FROM group_change_entry e WHERE e.change_set = change_set.id
                    AND e.group_id IN (SELECT group_id FROM group_change_entry WHERE change_set = ?))
                ORDER BY id LIMIT 1
                """, [change.id, change.id], db
        ).first
    }

    static func sameGroup(_ a: ContactGroup?, _ b: ContactGroup?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.uid == b.uid && a.name == b.name && a.card == b.card
    }
}

/// A group as the journal keeps it: JSON of the whole group, its card among it.
enum GroupImage {
    static func encode(_ group: ContactGroup) -> String {
        String(decoding: (try? JSONEncoder().encode(group)) ?? Data(), as: UTF8.self)
    }

    static func decode(_ text: String) throws -> ContactGroup {
        try JSONDecoder().decode(ContactGroup.self, from: Data(text.utf8))
    }
}

extension JournalRecorder {
    /// Records a group's images in the change set (one entry per group: a second save keeps
    /// the first before-image).
    func recordGroup(_ id: Int64, before: ContactGroup?, after: ContactGroup?) throws {
        guard let db else { throw ContactStoreError.storage("The change set has ended.") }
        try db.cachedStatement(
            sql: """
                INSERT INTO group_change_entry (change_set, group_id, before, after) VALUES (?, ?, ?, ?)
                ON CONFLICT (change_set, group_id) DO UPDATE SET after = excluded.after
                """
        ).execute(arguments: [setID, id, before.map(GroupImage.encode), after.map(GroupImage.encode)])
        entryCount += 1
    }
}

extension SQLiteContactStore {
    /// A page of a group's members, or of the contacts in no group, in sort order; with a
    /// search, only those it matches. A group's page walks its rows of `group_contact` in the
    /// order's (group, sort key, id) index: 50 entries and their rows, and the count from the
    /// group's own entries, never a UID look-up per member. The contacts in no group are the
    /// book's count less the distinct members, and a page walks the sort index skipping members.
    func groupPage(_ query: ContactQuery, _ filter: GroupFilter) throws -> ContactPage {
        let parsed = ContactSearch(query.search)
        let column = Self.sortColumn(query.sort)
        return try guarded {
            try reader.read { db in
                var searched: String?
                if !parsed.isEmpty {
                    let search = try ResolvedSearch(parsed, db)
                    let (sql, searchArguments) = Self.matchingIDs(search)
                    var ids: [Int64] = []
                    try Self.steppingIDs(db, sql: sql, arguments: searchArguments) {
                        ids.append($0); return true
                    }
                    searched = ResolvedSearch.list(ids)
                }
                let columns = Self.readColumnList.map { "contact." + $0.name }.joined(separator: ", ")
                let total: Int, rows: [Row]
                switch filter {
                case .members(let id):
                    let within = searched.map { " AND g.contact_id IN (\($0))" } ?? ""
                    total =
                        try Int.fetchOne(
                            db, sql: "SELECT COUNT(*) FROM group_contact g WHERE g.group_id = ?\(within)",
                            arguments: [id]
                        ) ?? 0
                    let (limit, offset) = query.window(total: total)
                    rows = try Row.fetchAll(
                        db,
                        sql: """
                            SELECT \(columns) FROM group_contact g CROSS JOIN contact ON contact.id = g.contact_id
                            WHERE g.group_id = ?\(within) ORDER BY g.\(column), g.contact_id LIMIT ? OFFSET ?
                            """, arguments: [id, limit, offset])
                case .ungrouped:
                    let outside = "NOT EXISTS (SELECT 1 FROM group_contact g WHERE g.contact_id = contact.id)"
                    if let searched {
                        total =
                            try Int.fetchOne(
                                db, sql: "SELECT COUNT(*) FROM contact WHERE contact.id IN (\(searched)) AND \(outside)"
                            )
                            ?? 0
                    } else {
                        // The kept count less the distinct members (read from the member rows'
                        // contact index): a NOT EXISTS per contact counted the whole book.
                        total =
                            try Int.fetchOne(
                                db,
                                sql: """
                                    SELECT (SELECT n FROM contact_count WHERE one = 1)
                                         - (SELECT COUNT(DISTINCT contact_id) FROM group_contact)
                                    """) ?? 0
                    }
                    let (limit, offset) = query.window(total: total)
                    let within = searched.map { "contact.id IN (\($0)) AND " } ?? ""
                    rows = try Row.fetchAll(
                        db,
                        sql: """
                            SELECT \(columns) FROM contact WHERE \(within)\(outside)
                            ORDER BY contact.\(column), contact.id LIMIT ? OFFSET ?
                            """, arguments: [limit, offset])
                }
                let contacts = try rows.map(Self.contact(from:))
                return ContactPage(
                    contacts: contacts, total: total,
                    matches: query.locatesMatches ? parsed.matches(on: contacts) : [:])
            }
        }
    }

    /// A group's members as a mail line needs them (`MailQueryWorker.groupMatches`), in
    /// last-name order, read in one statement: id, the name's parts, organisation and emails,
    /// nothing else (a group of 10,000 read whole was 16x the time of a person's query).
    public func mailContacts(inGroup id: Int64) throws -> [Contact] {
        try guarded {
            try reader.read { db in
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT c.id, c.uid, c.given, c.family, c.organization, c.formatted_name, c.name_order, c.emails
                        FROM group_contact g CROSS JOIN contact c ON c.id = g.contact_id
                        WHERE g.group_id = ? ORDER BY g.sort_last, g.contact_id
                        """, arguments: [id])
                var found: [Contact] = []
                while let row = try rows.next() {
                    var contact = Contact(uid: row[1])
                    contact.id = row[0]
                    contact.givenName = row[2]
                    contact.familyName = row[3]
                    contact.organization = row[4]
                    contact.formattedName = row[5]
                    contact.nameOrder = NameOrder(rawValue: row[6]) ?? .givenFirst
                    contact.emails = try Self.labeledValues(row[7])
                    found.append(contact)
                }
                return found
            }
        }
    }
}

extension SQLiteContactStore: GroupSyncStore {
    public func groupLinks(account: String) throws -> [GroupLink] {
        try guarded {
            try reader.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT href, uid, etag, base, card FROM group_sync WHERE account = ? ORDER BY href",
                    arguments: [account]
                ).map {
                    GroupLink(account: account, href: $0[0], uid: $0[1], etag: $0[2], base: $0[3], card: $0[4])
                }
            }
        }
    }

    public func linkGroup(_ link: GroupLink) throws {
        try guarded {
            try write { db, _ in
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO group_sync (account, href, uid, etag, base, card) VALUES (?, ?, ?, ?, ?, ?)
                        """, arguments: [link.account, link.href, link.uid, link.etag, link.base, link.card])
            }
        }
    }

    public func allGroupUIDs() throws -> [String] {
        try guarded { try reader.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT uid FROM group_sync") } }
    }

    public func groupBooks(uid: String) throws -> [String] {
        try guarded {
            try reader.read { db in
                try String.fetchAll(
                    db, sql: "SELECT DISTINCT account FROM group_sync WHERE uid = ? ORDER BY account", arguments: [uid])
            }
        }
    }

    public func setGroupBook(uid: String, book: String) throws {
        try guarded {
            try write { db, _ in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO group_book (uid, book) VALUES (?, ?)", arguments: [uid, book])
            }
        }
    }

    public func chosenGroupBooks() throws -> [String: String] {
        try guarded {
            try reader.read { db in
                try Row.fetchAll(db, sql: "SELECT uid, book FROM group_book").reduce(into: [String: String]()) {
                    $0[$1[0]] = $1[1]
                }
            }
        }
    }

    public func forgetGroup(account: String, href: String) throws {
        try guarded {
            try write { db, _ in
                try db.execute(
                    sql: "DELETE FROM group_sync WHERE account = ? AND href = ?", arguments: [account, href])
            }
        }
    }
}
