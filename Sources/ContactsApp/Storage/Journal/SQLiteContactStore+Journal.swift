import Foundation
import GRDB

/// The change journal in the book (schema: `addChangeJournalAndTrash`). Every write of the
/// store goes through `journalled`, so the change set is in the transaction of the change.
extension SQLiteContactStore: ContactJournal {
    // MARK: - Recording

    public func recordChangeSet<T>(
        kind: ChangeKind, summary: String, origin: String?,
        _ body: (JournalWriter) throws -> T
    ) throws -> T {
        try guarded {
            try write { db, anchors in
                try journalled(kind, origin: origin, db, anchors: anchors) { recorder in
                    recorder.summary = summary
                    return try body(recorder)
                }
            }
        }
    }

    /// Opens a change set in the current transaction, runs `body` with its recorder, and closes
    /// it: with its summary, or dropped when nothing was changed.
    func journalled<T>(
        _ kind: ChangeKind, origin: String?, _ db: Database, anchors: AnchorKeeper?,
        _ body: (JournalRecorder) throws -> T
    ) throws -> T {
        let seq = try Self.tick(db)
        try db.cachedStatement(
            sql: """
                INSERT INTO change_set (seq, at, origin, session, kind, summary) VALUES (?, ?, ?, ?, ?, '')
                """
        ).execute(arguments: [
            seq, journalClock().timeIntervalSince1970, origin ?? journalOrigin,
            journalSession, kind.rawValue,
        ])
        let recorder = JournalRecorder(setID: db.lastInsertedRowID, db: db, anchors: anchors, at: journalClock())
        defer { recorder.db = nil }
        let result = try body(recorder)
        if recorder.entryCount == 0 && recorder.addedIDs == nil {
            try db.cachedStatement(sql: "DELETE FROM change_set WHERE id = ?").execute(arguments: [recorder.setID])
        } else {
            try db.cachedStatement(
                sql: "UPDATE change_set SET summary = ?, added_first = ?, added_last = ? WHERE id = ?"
            )
            .execute(arguments: [
                recorder.summary, recorder.addedIDs?.lowerBound, recorder.addedIDs?.upperBound,
                recorder.setID,
            ])
            if recorder.setID % max(1, journalRetention.pruneEvery) == 0 { try prune(db) }
        }
        return result
    }

    /// Moves the journal's clock on and returns the new time.
    static func tick(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "UPDATE journal_clock SET seq = seq + 1 WHERE one = 1 RETURNING seq"))
            ?? 0
    }

    /// Drops the change sets beyond the retention (older than its days, or beyond its number),
    /// their entries with them (ON DELETE CASCADE). The trash is kept until purged.
    func prune(_ db: Database) throws {
        let cutoff = journalClock().timeIntervalSince1970 - Double(journalRetention.days) * 86_400
        try db.execute(
            sql: """
                DELETE FROM change_set WHERE id <= (SELECT MAX(id) FROM change_set) - ? OR at < ?
                """, arguments: [journalRetention.changeSets, cutoff])
    }

    static func importSummary(added: Int, updated: Int) -> String {
        let total = added + updated
        return "imported \(total == 1 ? "1 contact" : "\(total) contacts") (\(added) added, \(updated) updated)"
    }

    // MARK: - Undo and redo

    public func undo(changeSet: Int64? = nil) throws -> ChangeSetRecord {
        try guarded {
            try write { db, anchors in
                let chosen =
                    changeSet.map { ("undone = 0 AND id = ?", StatementArguments([$0])) }
                    ?? ("undone = 0 ORDER BY id DESC LIMIT 1", [])
                guard let target = try Self.changeSets(where: chosen.0, chosen.1, db).first else {
                    throw changeSet.map(JournalRefusal.noSuchChange) ?? JournalRefusal.nothingToUndo
                }
                try Self.refuseIfChangedLater(target, db)
                let entries = try Self.entriesForUndo(target, db)
                for entry in entries.reversed() {
                    try Self.transition(
                        entry.contactID, from: entry.after, to: entry.before,
                        toTrash: target.kind == .restore, at: journalClock(), change: target,
                        anchors: anchors, db)
                }
                try Self.transitionGroups(of: target, undoing: true, db)
                try Self.transitionBooks(of: target, undoing: true, db)
                // The undoing session's now: the others (the one that made it too) are told.
                try db.execute(
                    sql: "UPDATE change_set SET undone = 1, seq = ?, session = ? WHERE id = ?",
                    arguments: [try Self.tick(db), journalSession, target.id])
                return target.with(entries: entries, undone: true)
            }
        }
    }

    public func redo() throws -> ChangeSetRecord {
        try guarded {
            try write { db, anchors in
                guard let target = try Self.changeSets(where: "undone = 1 ORDER BY seq DESC LIMIT 1", [], db).first
                else { throw JournalRefusal.nothingToRedo }
                try Self.refuseIfChangedLater(target, db)
                for entry in target.entries {
                    try Self.transition(
                        entry.contactID, from: entry.before, to: entry.after,
                        toTrash: target.kind == .delete, at: journalClock(), change: target,
                        anchors: anchors, db)
                }
                try Self.transitionGroups(of: target, undoing: false, db)
                try Self.transitionBooks(of: target, undoing: false, db)
                try db.execute(
                    sql: "UPDATE change_set SET undone = 0, seq = ?, session = ? WHERE id = ?",
                    arguments: [try Self.tick(db), journalSession, target.id])
                return target.with(entries: target.entries, undone: false)
            }
        }
    }

    /// Nothing is overwritten silently: a change set is not undone or redone when a later one,
    /// still in force, touched one of its contacts.
    static func refuseIfChangedLater(_ target: ChangeSetRecord, _ db: Database) throws {
        let touched: String
        var arguments: [DatabaseValueConvertible] = [target.id]
        touched =
            "(e.contact_id BETWEEN ? AND ? OR e.contact_id IN (SELECT contact_id FROM change_entry WHERE change_set = ?))"
        arguments += [target.addedIDs?.lowerBound ?? 1, target.addedIDs?.upperBound ?? 0, target.id]
        if let later = try changeSets(
            where: """
                undone = 0 AND id > ? AND EXISTS (SELECT 1 FROM change_entry e WHERE e.change_set = change_set.id AND \(touched))
                ORDER BY id LIMIT 1
                """, StatementArguments(arguments), db
        ).first {
            throw JournalRefusal.changedLater(change: target, later: later)
        }
        if let later = try laterGroupChange(after: target, db) {
            throw JournalRefusal.changedLater(change: target, later: later)
        }
        if let later = try laterBookChange(after: target, db) {
            throw JournalRefusal.changedLater(change: target, later: later)
        }
    }

    /// The entries an undo works from: an import recorded only the range of ids it added, so
    /// their images are taken now (and kept, for a redo); the first undo does it.
    static func entriesForUndo(_ target: ChangeSetRecord, _ db: Database) throws -> [ChangeEntry] {
        guard let range = target.addedIDs,
            !target.entries.contains(where: { range.contains($0.contactID) })
        else { return target.entries }
        let rows = try Row.fetchCursor(
            db, sql: "SELECT \(readColumns) FROM contact WHERE id BETWEEN ? AND ? ORDER BY id",
            arguments: [range.lowerBound, range.upperBound])
        var entries = target.entries
        while let row = try rows.next() {
            let contact = try contact(from: row)
            let entry = ChangeEntry(contactID: contact.id!, uid: contact.uid, before: nil, after: contact)
            try writeEntry(entry, setID: target.id, db)
            entries.append(entry)
        }
        return entries
    }

    /// Takes a contact from the state `from` to `to` (nil: absent), refused when it is not as
    /// `from` says now (changed outside the journal).
    static func transition(
        _ id: Int64, from: Contact?, to: Contact?, toTrash: Bool, at: Date, change: ChangeSetRecord,
        anchors: AnchorKeeper?, _ db: Database
    ) throws {
        let current = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(readColumns) FROM contact WHERE id = ?"), arguments: [id]
        ).map(contact(from:))
        guard sameContent(current, from) else { throw JournalRefusal.changedSince(change: change, contactID: id) }
        switch (current, to) {
        case (nil, nil): break
        case (nil, let to?):
            _ = try insertKeepingID(to, anchors: anchors, db)
            try db.cachedStatement(sql: "DELETE FROM contact_trash WHERE id = ?").execute(arguments: [id])
        case (let current?, nil):
            _ = try deleteRow(id: id, expectedVersion: current.version, anchors: anchors, db)
            if toTrash { try trash(current, at: at, db) }
        case (let current?, var to?):
            to.version = current.version
            _ = try update(to, anchors: anchors, db)
        }
    }

    /// Equal but for the version, which every save moves on, and for the dates' last digits
    /// (an image made in memory against one read back from the REAL column).
    static func sameContent(_ a: Contact?, _ b: Contact?) -> Bool {
        guard var a, var b else { return a == nil && b == nil }
        func normalized(_ contact: Contact) -> Contact {
            var contact = contact
            contact.version = 0
            contact.createdAt = Date(
                timeIntervalSince1970: (contact.createdAt.timeIntervalSince1970 * 1000).rounded() / 1000)
            contact.updatedAt = Date(
                timeIntervalSince1970: (contact.updatedAt.timeIntervalSince1970 * 1000).rounded() / 1000)
            return contact
        }
        a = normalized(a); b = normalized(b)
        return a == b
    }

    static func trash(_ contact: Contact, at: Date, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO contact_trash (id, uid, image, deleted_at) VALUES (?, ?, ?, ?)
                """
        ).execute(arguments: [
            contact.id, contact.uid, JournalImage.encode(contact),
            at.timeIntervalSince1970,
        ])
    }

    // MARK: - Reading

    public func history(contactID: Int64?, limit: Int) throws -> [ChangeSetRecord] {
        try guarded {
            try reader.read { db in
                guard let id = contactID else {
                    return try Self.changeSets(where: "1 ORDER BY id DESC LIMIT ?", [limit], db)
                }
                return try Self.changeSets(
                    where: """
                        (id IN (SELECT change_set FROM change_entry WHERE contact_id = ?)
                         OR id IN (SELECT change_set FROM book_change_entry WHERE contact_id = ?)
                         OR (? BETWEEN added_first AND added_last)) ORDER BY id DESC LIMIT ?
                        """, [id, id, id, limit], db)
            }
        }
    }

    public func trash() throws -> [TrashedContact] {
        try guarded {
            try reader.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT image, deleted_at FROM contact_trash ORDER BY deleted_at DESC, id DESC"
                )
                .map {
                    TrashedContact(
                        contact: try JournalImage.decode($0[0]), deletedAt: Date(timeIntervalSince1970: $0[1]))
                }
            }
        }
    }

    public func restore(id: Int64) throws -> Contact {
        try guarded {
            try write { db, anchors in
                guard
                    let image = try String.fetchOne(
                        db, sql: "SELECT image FROM contact_trash WHERE id = ?", arguments: [id])
                else { throw JournalRefusal.notInTrash("#\(id)") }
                let contact = try JournalImage.decode(image)
                return try journalled(.restore, origin: nil, db, anchors: anchors) { recorder in
                    recorder.summary = "restored \(contact.fullName)"
                    return try recorder.insert(contact, keepingID: true)
                }
            }
        }
    }

    public func purge(id: Int64?) throws -> Int {
        try guarded {
            try write { db, _ in
                let ids = try Int64.fetchAll(
                    db, sql: "SELECT id FROM contact_trash WHERE ? IS NULL OR id = ?",
                    arguments: [id, id])
                if let id, ids.isEmpty { throw JournalRefusal.notInTrash("#\(id)") }
                for purged in ids {
                    try db.execute(sql: "DELETE FROM contact_trash WHERE id = ?", arguments: [purged])
                    // Its images leave the journal too, and the change sets that were only about it.
                    let sets = try Int64.fetchAll(
                        db, sql: "SELECT change_set FROM change_entry WHERE contact_id = ?",
                        arguments: [purged])
                    let moveSets = try Int64.fetchAll(
                        db, sql: "SELECT change_set FROM book_change_entry WHERE contact_id = ?",
                        arguments: [purged])
                    try db.execute(sql: "DELETE FROM change_entry WHERE contact_id = ?", arguments: [purged])
                    try db.execute(sql: "DELETE FROM book_change_entry WHERE contact_id = ?", arguments: [purged])
                    for set in sets + moveSets {
                        try db.execute(
                            sql: """
                                DELETE FROM change_set WHERE id = ? AND added_first IS NULL
                                    AND NOT EXISTS (SELECT 1 FROM change_entry WHERE change_set = ?)
                                    AND NOT EXISTS (SELECT 1 FROM book_change_entry WHERE change_set = ?)
                                    AND NOT EXISTS (SELECT 1 FROM group_change_entry WHERE change_set = ?)
                                """, arguments: [set, set, set, set])
                    }
                }
                return ids.count
            }
        }
    }

    /// Read on the writer's connection, as the open's checks are: a session asks this once at
    /// start-up (`JournalNotices`), before it needs a reader connection, if it ever does. A
    /// store that has not written yet (`openReadingFirst`) reads it on its one connection.
    public func lastSequence() throws -> Int64 {
        let read = { (db: Database) in try Int64.fetchOne(db, sql: "SELECT seq FROM journal_clock") ?? 0 }
        return try guarded {
            if case .readingFirst(let book) = connection, !book.hasWritten { return try book.queue.read(read) }
            return try writer.writeWithoutTransaction(read)
        }
    }

    /// Past this many contacts, a change set is announced as `reload` without ids.
    static let noticeIDLimit = ContactLimits.maximumNoticeIDs

    public func changes(after sequence: Int64) throws -> (changes: [JournalChange], sequence: Int64) {
        try guarded {
            try reader.read { db in
                let now = try Int64.fetchOne(db, sql: "SELECT seq FROM journal_clock") ?? 0
                guard now > sequence else { return ([], sequence) }
                let sets = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, undone, added_first, added_last FROM change_set WHERE seq > ? AND session <> ? ORDER BY seq
                        """, arguments: [sequence, journalSession])
                var changes: [JournalChange] = []
                for set in sets {
                    let setID: Int64 = set[0], undone: Bool = set[1]
                    let rows = try Row.fetchAll(
                        db,
                        sql: """
                            SELECT contact_id, before IS NULL, after IS NULL FROM change_entry WHERE change_set = ? LIMIT ?
                            """, arguments: [setID, Self.noticeIDLimit + 1])
                    if rows.count > Self.noticeIDLimit {
                        changes.append(JournalChange(kind: "reload", ids: [])); continue
                    }
                    // The range an import added, not yet taken into entries by an undo.
                    if let first: Int64 = set[2], let last: Int64 = set[3],
                        !rows.contains(where: { (first...last).contains($0[0] as Int64) })
                    {
                        changes.append(
                            last - first < Int64(Self.noticeIDLimit)
                                ? JournalChange(kind: "created", ids: Array(first...last))
                                : JournalChange(kind: "reload", ids: []))
                        if rows.isEmpty { continue }
                    }
                    var byKind: [String: [Int64]] = [:]
                    // A contact moved to another book: updated (its book is shown).
                    let moved = try Int64.fetchAll(
                        db,
                        sql: """
                            SELECT contact_id FROM book_change_entry WHERE change_set = ? LIMIT ?
                            """, arguments: [setID, Self.noticeIDLimit])
                    if !moved.isEmpty { byKind["updated"] = moved }
                    for row in rows {
                        var (noBefore, noAfter): (Bool, Bool) = (row[1], row[2])
                        if undone { swap(&noBefore, &noAfter) }
                        byKind[noBefore ? "created" : noAfter ? "deleted" : "updated", default: []].append(row[0])
                    }
                    for kind in ["created", "updated", "deleted"] {
                        if let ids = byKind[kind] { changes.append(JournalChange(kind: kind, ids: ids)) }
                    }
                }
                return (changes, now)
            }
        }
    }

    /// Change sets chosen by `clause` (after WHERE), with their entries.
    static func changeSets(where clause: String, _ arguments: StatementArguments, _ db: Database) throws
        -> [ChangeSetRecord]
    {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, at, origin, kind, summary, undone, added_first, added_last FROM change_set WHERE \(clause)
                """, arguments: arguments
        ).map { row in
            let id: Int64 = row[0]
            let entries = try Row.fetchAll(
                db,
                sql: """
                    SELECT contact_id, uid, before, after FROM change_entry WHERE change_set = ? ORDER BY contact_id
                    """, arguments: [id]
            ).map { entry in
                ChangeEntry(
                    contactID: entry[0], uid: entry[1],
                    before: try (entry[2] as String?).map(JournalImage.decode),
                    after: try (entry[3] as String?).map(JournalImage.decode))
            }
            let first: Int64? = row[6], last: Int64? = row[7]
            return ChangeSetRecord(
                id: id, at: Date(timeIntervalSince1970: row[1]), origin: row[2],
                kind: ChangeKind(rawValue: row[3]) ?? .edit, summary: row[4], undone: row[5], entries: entries,
                addedIDs: first.flatMap { first in last.map { first...$0 } }, moves: try bookChanges(of: id, db))
        }
    }

    static func writeEntry(_ entry: ChangeEntry, setID: Int64, _ db: Database) throws {
        // One entry per contact per change set: a second save keeps the first before-image.
        try db.cachedStatement(
            sql: """
                INSERT INTO change_entry (change_set, contact_id, uid, before, after) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (change_set, contact_id) DO UPDATE SET after = excluded.after
                """
        ).execute(arguments: [
            setID, entry.contactID, entry.uid, entry.before.map(JournalImage.encode),
            entry.after.map(JournalImage.encode),
        ])
    }
}

extension ChangeSetRecord {
    func with(entries: [ChangeEntry], undone: Bool) -> ChangeSetRecord {
        ChangeSetRecord(
            id: id, at: at, origin: origin, kind: kind, summary: summary, undone: undone,
            entries: entries, addedIDs: addedIDs, moves: moves)
    }
}

/// A contact as the journal keeps it: JSON of every field.
enum JournalImage {
    static func encode(_ contact: Contact) -> String {
        // Encoding a plain struct of strings, numbers and arrays cannot fail.
        String(decoding: (try? JSONEncoder().encode(contact)) ?? Data(), as: UTF8.self)
    }

    static func decode(_ text: String) throws -> Contact {
        try JSONDecoder().decode(Contact.self, from: Data(text.utf8))
    }
}

/// The writes of one change set, each recorded with its images (`JournalWriter`).
final class JournalRecorder: JournalWriter {
    let setID: Int64
    var db: Database?
    let anchors: AnchorKeeper?
    var summary = ""
    var entryCount = 0
    /// Set by an import into an empty book instead of entries.
    var addedIDs: ClosedRange<Int64>?

    /// The change set's time, the trash's too.
    let at: Date

    init(setID: Int64, db: Database, anchors: AnchorKeeper?, at: Date) {
        self.setID = setID; self.db = db; self.anchors = anchors; self.at = at
    }

    private func database() throws -> Database {
        guard let db else { throw ContactStoreError.storage("The change set has ended.") }
        return db
    }

    func record(_ id: Int64, uid: String, before: Contact?, after: Contact?) throws {
        try SQLiteContactStore.writeEntry(
            ChangeEntry(contactID: id, uid: uid, before: before, after: after),
            setID: setID, try database())
        entryCount += 1
    }

    func insert(_ contact: Contact, keepingID: Bool) throws -> Contact {
        let db = try database()
        let saved =
            keepingID
            ? try SQLiteContactStore.insertKeepingID(contact, anchors: anchors, db)
            : try SQLiteContactStore.insert(
                contact, SQLiteContactStore.PreparedRow(contact), anchors: anchors,
                counting: true, db)
        if keepingID {
            try db.cachedStatement(sql: "DELETE FROM contact_trash WHERE id = ?").execute(arguments: [saved.id])
        }
        try record(saved.id!, uid: saved.uid, before: nil, after: saved)
        return saved
    }

    /// Inserts a new contact and records it in the change set's range of added ids, without an
    /// image (as an import does; `entriesForUndo` reads them back). For many inserts in one
    /// transaction, whose ids are consecutive; an id out of step gets its own entry.
    func insertAddingToRange(_ contact: Contact, prepared: SQLiteContactStore.PreparedRow? = nil) throws -> Contact {
        let db = try database()
        let saved = try SQLiteContactStore.insert(
            contact, prepared ?? SQLiteContactStore.PreparedRow(contact),
            anchors: anchors, counting: true, db)
        guard let id = saved.id else { return saved }
        if let range = addedIDs, range.upperBound + 1 == id {
            addedIDs = range.lowerBound...id
        } else if addedIDs == nil {
            addedIDs = id...id
        } else {
            try record(id, uid: saved.uid, before: nil, after: saved)
        }
        return saved
    }

    func update(_ contact: Contact) throws -> Contact {
        let db = try database()
        let before = try contact.id.flatMap { try self.contact(id: $0) }
        let saved = try SQLiteContactStore.update(contact, anchors: anchors, db)
        try record(saved.id!, uid: saved.uid, before: before, after: saved)
        return saved
    }

    func delete(id: Int64, expectedVersion: Int?, toTrash: Bool) throws -> Contact {
        let db = try database()
        let removed = try SQLiteContactStore.deleteRow(id: id, expectedVersion: expectedVersion, anchors: anchors, db)
        if toTrash { try SQLiteContactStore.trash(removed, at: at, db) }
        try record(id, uid: removed.uid, before: removed, after: nil)
        return removed
    }

    func contact(id: Int64) throws -> Contact? {
        try Row.fetchOne(
            try database().cachedStatement(sql: "SELECT \(SQLiteContactStore.readColumns) FROM contact WHERE id = ?"),
            arguments: [id]
        ).map(SQLiteContactStore.contact(from:))
    }
}
