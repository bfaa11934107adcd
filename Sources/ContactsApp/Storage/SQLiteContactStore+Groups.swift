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

    // MARK: - Reading

    public func groups() throws -> [GroupSummary] {
        try guarded {
            try writer.read { db in
                let counts = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT m.group_id, COUNT(*) FROM group_member m
                        WHERE EXISTS (SELECT 1 FROM contact c WHERE c.uid IN (m.member, 'urn:uuid:' || m.member)) GROUP BY m.group_id
                        """
                ).reduce(into: [Int64: Int]()) { $0[$1[0]] = $1[1] }
                return try Self.groupRows(where: "1", [], db).map {
                    GroupSummary(group: $0, inBook: counts[$0.id ?? 0] ?? 0)
                }
            }
        }
    }

    public func groupNames() throws -> [(id: Int64, name: String)] {
        try guarded {
            try writer.read { db in
                try Row.fetchAll(db, sql: "SELECT id, name FROM contact_group ORDER BY name COLLATE NOCASE, id").map {
                    ($0[0], $0[1])
                }
            }
        }
    }

    public func groups(containing uid: String) throws -> [ContactGroup] {
        try guarded {
            try writer.read { db in
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
        try db.execute(sql: "DELETE FROM contact_group WHERE id = ?", arguments: [id])
    }

    /// The member index follows the card: every member the card names, once.
    static func writeMembers(_ group: ContactGroup, _ db: Database) throws {
        guard let id = group.id else { return }
        try db.execute(sql: "DELETE FROM group_member WHERE group_id = ?", arguments: [id])
        let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO group_member (group_id, member) VALUES (?, ?)")
        for member in GroupCard.read(group.card)?.members ?? group.members {
            try insert.execute(arguments: [id, member])
        }
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
    /// search, only those it matches. A group's members are read through the member index
    /// (10k members: 10k look-ups and one sort), never by walking the book.
    func groupPage(_ query: ContactQuery, _ filter: GroupFilter) throws -> ContactPage {
        let parsed = ContactSearch(query.search)
        let column = Self.sortColumn(query.sort)
        return try guarded {
            try writer.read { db in
                var from: String, arguments: StatementArguments
                switch filter {
                case .members(let id):
                    // A member is kept without `urn:uuid:` (GroupCard.memberUID); a contact's UID may have it.
                    from =
                        "group_member m CROSS JOIN contact ON contact.uid IN (m.member, 'urn:uuid:' || m.member) WHERE m.group_id = ?"
                    arguments = [id]
                case .ungrouped:
                    from = """
                        contact WHERE NOT EXISTS (SELECT 1 FROM group_member m WHERE m.member =
                            CASE WHEN contact.uid LIKE 'urn:uuid:%' THEN substr(contact.uid, 10) ELSE contact.uid END)
                        """
                    arguments = []
                }
                if !parsed.isEmpty {
                    let search = try ResolvedSearch(parsed, db)
                    let (sql, searchArguments) = Self.matchingIDs(search)
                    var ids: [Int64] = []
                    try Self.steppingIDs(db, sql: sql, arguments: searchArguments) {
                        ids.append($0); return true
                    }
                    from += " AND contact.id IN (\(ResolvedSearch.list(ids)))"
                }
                let columns = Self.readColumnList.map { "contact." + $0.name }.joined(separator: ", ")
                let total: Int, rows: [Row]
                if case .members = filter {
                    // One pass over the members: their ids sorted by the sort key alone (the count is
                    // their number), then the page's rows. Sorting whole rows (cards and all) to keep
                    // 50, and counting in a second pass, read every member twice (bench/groups.py).
                    let ids = try Int64.fetchAll(
                        db, sql: "SELECT contact.id FROM \(from) ORDER BY contact.\(column), contact.id",
                        arguments: arguments)
                    total = ids.count
                    let (limit, offset) = query.window(total: total)
                    let page = ids.dropFirst(min(offset, ids.count)).prefix(limit)
                    rows =
                        page.isEmpty
                        ? []
                        : try Row.fetchAll(
                            db,
                            sql: """
                                SELECT \(columns) FROM contact WHERE contact.id IN (\(page.map(String.init).joined(separator: ",")))
                                ORDER BY contact.\(column), contact.id
                                """)
                } else {
                    total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(from)", arguments: arguments) ?? 0
                    let (limit, offset) = query.window(total: total)
                    rows = try Row.fetchAll(
                        db,
                        sql: """
                            SELECT \(columns) FROM \(from) ORDER BY contact.\(column), contact.id LIMIT ? OFFSET ?
                            """, arguments: arguments + [limit, offset])
                }
                let contacts = try rows.map(Self.contact(from:))
                return ContactPage(
                    contacts: contacts, total: total,
                    matches: query.locatesMatches ? parsed.matches(on: contacts) : [:])
            }
        }
    }
}

extension SQLiteContactStore: GroupSyncStore {
    public func groupLinks(account: String) throws -> [GroupLink] {
        try guarded {
            try writer.read { db in
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
        try guarded { try writer.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT uid FROM group_sync") } }
    }

    public func groupBooks(uid: String) throws -> [String] {
        try guarded {
            try writer.read { db in
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
            try writer.read { db in
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
