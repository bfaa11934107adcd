import Foundation
import GRDB
import GRDBSQLite

/// Mapping between `Contact` and the `contact` table, search index upkeep and error messages.
extension SQLiteContactStore {
    /// The columns a save writes. `id` and `version` are left out on purpose: the store
    /// manages them. `extra` holds `Contact.extraProperties` as a JSON array of strings.
    static let savedColumns = [
        "uid", "given", "family", "nickname", "organization", "title", "notes",
        "phones", "emails", "addresses", "tags", "birthday", "created_at", "updated_at",
        "sort_first", "sort_last", "extra",
    ]

    /// A contact's sort keys in both orders, computed once per save.
    struct SortKeys {
        var first: String
        var last: String
        init(_ contact: Contact) {
            first = ContactKeys.sortKey(contact, .first)
            last = ContactKeys.sortKey(contact, .last)
        }
    }

    /// Everything a save writes that follows from a contact's own fields: its columns but the
    /// uid and dates, its sort keys and its three index texts. An import works it out on the
    /// thread reading the file (`prepareForImport`), so the saving thread only binds and steps:
    /// at 100k cards this work was a third of that thread's time.
    final class PreparedRow: PreparedContact {
        let keys: SortKeys
        /// given, family, nickname, organization, title, notes, phones, emails, addresses,
        /// tags, birthday, extra: `savedColumns` without uid, dates and sort keys, in order.
        let columns: [String?]
        /// The word index's text (`ContactSearch.indexedText`).
        let text: String
        /// Every phone's digits, space-separated: the trigram index's text.
        let digits: String
        /// The digit-gram index's text (`ContactSearch.digitGramText`).
        let grams: String

        init(_ contact: Contact) {
            keys = SortKeys(contact)
            columns = [
                contact.givenName, contact.familyName, contact.nickname, contact.organization, contact.title,
                contact.notes, ContactJSON.encode(contact.phones), ContactJSON.encode(contact.emails),
                ContactJSON.encode(contact.addresses), ContactJSON.encode(contact.tags), contact.birthday?.isoString,
                ContactJSON.encode(contact.extraProperties),
            ]
            // `indexedText` of `searchText`, in one pass.
            text = ContactSearch.scanWords(ContactKeys.foldedText(contact), addingPairs: true)
            let phoneDigits = contact.phoneDigits
            digits = phoneDigits.joined(separator: " ")
            grams = ContactSearch.digitGramText(phoneDigits)
        }
    }

    /// Runs a cached statement that returns no rows, its values bound through SQLite's C API
    /// by `bind`: an import runs four per card, and GRDB's `StatementArguments` (each value
    /// boxed and converted on the way) cost the saving thread about a second at 100k cards.
    static func run(_ sql: String, _ db: Database, _ bind: (inout Binder) -> Void) throws {
        let statement = try db.cachedStatement(sql: sql)
        let raw = statement.sqliteStatement
        var binder = Binder(raw: raw)
        bind(&binder)
        let code = sqlite3_step(raw)
        let message = code == SQLITE_DONE ? nil : db.lastErrorMessage
        sqlite3_reset(raw)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
        }
    }

    /// Binds values to a statement's parameters, in order, each copied by SQLite.
    struct Binder {
        let raw: OpaquePointer
        private var index: Int32 = 1
        init(raw: OpaquePointer) { self.raw = raw }

        /// SQLite's `SQLITE_TRANSIENT`: the value is copied before the call returns.
        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        private static let empty: StaticString = ""

        mutating func text(_ value: String?) {
            if var value {
                value.withUTF8 { bytes in
                    // An empty buffer may have no address, which SQLite would bind as NULL.
                    let start = UnsafeRawPointer(bytes.baseAddress ?? Self.empty.utf8Start)
                    _ = sqlite3_bind_text(raw, index, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                                          Self.transient)
                }
            } else {
                sqlite3_bind_null(raw, index)
            }
            index += 1
        }

        mutating func real(_ value: Double) { sqlite3_bind_double(raw, index, value); index += 1 }
        mutating func integer(_ value: Int64) { sqlite3_bind_int64(raw, index, value); index += 1 }
    }

    /// Binds `savedColumns`, in order, for a contact and what was prepared from it.
    static func bindSaved(_ contact: Contact, _ row: PreparedRow, _ binder: inout Binder) {
        let c = row.columns
        binder.text(contact.uid)
        for column in c[0...10] { binder.text(column) }
        binder.real(contact.createdAt.timeIntervalSince1970)
        binder.real(contact.updatedAt.timeIntervalSince1970)
        binder.text(row.keys.first)
        binder.text(row.keys.last)
        binder.text(c[11])
    }

    /// The columns `contact(fromColumns:)` reads by position (by name, GRDB looks each
    /// column up in every row).
    static let readColumns = "id, uid, given, family, nickname, organization, title, phones, emails, "
        + "addresses, birthday, notes, tags, created_at, updated_at, version, extra"

    static func contact(from row: Row) throws -> Contact {
        Contact(
            id: row["id"], uid: row["uid"], givenName: row["given"], familyName: row["family"],
            nickname: row["nickname"], organization: row["organization"], title: row["title"],
            phones: try labeledValues(row["phones"]), emails: try labeledValues(row["emails"]),
            addresses: try addresses(row["addresses"]),
            birthday: (row["birthday"] as String?).flatMap(Birthday.init(parsing:)),
            notes: row["notes"], tags: try strings(row["tags"]),
            createdAt: Date(timeIntervalSince1970: row["created_at"]),
            updatedAt: Date(timeIntervalSince1970: row["updated_at"]),
            version: row["version"], extraProperties: try strings(row["extra"]))
    }

    /// A row selected with `readColumns`, read by position.
    static func contact(fromColumns row: Row) throws -> Contact {
        Contact(
            id: row[0], uid: row[1], givenName: row[2], familyName: row[3],
            nickname: row[4], organization: row[5], title: row[6],
            phones: try labeledValues(row[7]), emails: try labeledValues(row[8]),
            addresses: try addresses(row[9]),
            birthday: (row[10] as String?).flatMap(Birthday.init(parsing:)),
            notes: row[11], tags: try strings(row[12]),
            createdAt: Date(timeIntervalSince1970: row[13]),
            updatedAt: Date(timeIntervalSince1970: row[14]),
            version: row[15], extraProperties: try strings(row[16]))
    }

    private static func labeledValues(_ text: String) throws -> [LabeledValue] {
        try ContactJSON.decodeLabeledValues(text) ?? decode(text)
    }

    private static func addresses(_ text: String) throws -> [PostalAddress] {
        try ContactJSON.decodeAddresses(text) ?? decode(text)
    }

    private static func strings(_ text: String) throws -> [String] {
        try ContactJSON.decodeStrings(text) ?? decode(text)
    }

    /// Rewrites the contact's entries in the three FTS5 tables; call inside the write transaction
    /// that saves the row, so the index can never disagree with the table.
    static func index(_ row: PreparedRow, id: Int64, _ db: Database, isNew: Bool = false) throws {
        if !isNew { try unindex(id: id, db) }
        try run("INSERT INTO contact_text(rowid, text) VALUES (?, ?)", db) { $0.integer(id); $0.text(row.text) }
        try run("INSERT INTO contact_phone(rowid, digits) VALUES (?, ?)", db) { $0.integer(id); $0.text(row.digits) }
        try indexDigitGrams(row.grams, id: id, db)
    }

    static func unindex(id: Int64, _ db: Database) throws {
        // The digit-gram index keeps no copy of its text (it would double its size), so FTS5
        // removes an entry given the text it indexed: rebuilt from the phone index's digits.
        if let digits = try String.fetchOne(
            db.cachedStatement(sql: "SELECT digits FROM contact_phone WHERE rowid = ?"), arguments: [id]) {
            let grams = ContactSearch.digitGramText(digits.split(separator: " ").map(String.init))
            if !grams.isEmpty {
                try db.cachedStatement(sql: """
                    INSERT INTO contact_phone_gram(contact_phone_gram, rowid, grams) VALUES ('delete', ?, ?)
                    """).execute(arguments: [id, grams])
            }
        }
        try db.cachedStatement(sql: "DELETE FROM contact_text WHERE rowid = ?").execute(arguments: [id])
        try db.cachedStatement(sql: "DELETE FROM contact_phone WHERE rowid = ?").execute(arguments: [id])
    }

    /// Adds a contact's phones' grams (`ContactSearch.digitGramText`) to the digit-gram index
    /// (nothing for phones shorter than a gram).
    static func indexDigitGrams(_ grams: String, id: Int64, _ db: Database) throws {
        guard !grams.isEmpty else { return }
        try run("INSERT INTO contact_phone_gram(rowid, grams) VALUES (?, ?)", db) { $0.integer(id); $0.text(grams) }
    }

    /// Every failure leaves the store as a `ContactStoreError`, worded for the person using it.
    static func storageError(_ error: Error) -> Error {
        if error is ContactStoreError { return error }
        guard let error = error as? DatabaseError else {
            return ContactStoreError.storage("The contacts database failed: \(error.localizedDescription)")
        }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return ContactStoreError.storage("The contacts database is busy in another program; try again.")
        case .SQLITE_CONSTRAINT where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE:
            return ContactStoreError.storage("Another contact already has this UID.")
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return ContactStoreError.storage("The file is not a contacts database, or it is damaged.")
        default:
            return ContactStoreError.storage(
                "The contacts database failed: \(error.message ?? "\(error.resultCode)")")
        }
    }

    private static func decode<T: Decodable>(_ text: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }
}
