import Foundation
import GRDB
import GRDBSQLite

/// Mapping between `Contact` and the `contact` table, search index upkeep and error messages.
extension SQLiteContactStore {
    /// One column of the `contact` table as the store maps it: its name, how a save binds it
    /// (nil for the columns the store manages itself, `id` and `version`) and how a read sets
    /// it on a contact. Every insert, update and read is derived from `columns`, so a field
    /// that is not mapped here is caught by one test (`ContactRowTests`).
    struct Column: Sendable {
        let name: String
        let bind: (@Sendable (Contact, PreparedRow, inout Binder) -> Void)?
        /// Nil for the columns derived from the fields, which a read does not select.
        let read: (@Sendable (Row, Int, inout Contact) throws -> Void)?
    }

    /// The `contact` table's columns, each declared once. Reads select them in this order and
    /// read by position (by name, GRDB looks each column up in every row).
    static let columns: [Column] = [
        Column(name: "id", bind: nil) { row, at, contact in contact.id = row[at] },
        Column(name: "uid", bind: { contact, _, binder in binder.text(contact.uid) }) { row, at, contact in
            contact.uid = row[at]
        },
        Column(name: "given", bind: { _, row, binder in binder.text(row.givenName) }) { row, at, contact in
            contact.givenName = row[at]
        },
        Column(name: "family", bind: { _, row, binder in binder.text(row.familyName) }) { row, at, contact in
            contact.familyName = row[at]
        },
        Column(name: "nickname", bind: { _, row, binder in binder.text(row.nickname) }) { row, at, contact in
            contact.nickname = row[at]
        },
        Column(name: "organization", bind: { _, row, binder in binder.text(row.organization) }) { row, at, contact in
            contact.organization = row[at]
        },
        Column(name: "title", bind: { _, row, binder in binder.text(row.title) }) { row, at, contact in
            contact.title = row[at]
        },
        Column(name: "notes", bind: { _, row, binder in binder.text(row.notes) }) { row, at, contact in
            contact.notes = row[at]
        },
        Column(name: "phones", bind: { _, row, binder in binder.text(row.phones) }) { row, at, contact in
            contact.phones = try labeledValues(row[at])
        },
        Column(name: "emails", bind: { _, row, binder in binder.text(row.emails) }) { row, at, contact in
            contact.emails = try labeledValues(row[at])
        },
        Column(name: "addresses", bind: { _, row, binder in binder.text(row.addresses) }) { row, at, contact in
            contact.addresses = try addresses(row[at])
        },
        Column(name: "tags", bind: { _, row, binder in binder.text(row.tags) }) { row, at, contact in
            contact.tags = try strings(row[at])
        },
        Column(name: "birthday", bind: { _, row, binder in binder.text(row.birthday) }) { row, at, contact in
            contact.birthday = (row[at] as String?).flatMap(Birthday.init(parsing:))
        },
        Column(name: "created_at", bind: { contact, _, binder in binder.real(contact.createdAt.timeIntervalSince1970) })
        {
            row, at, contact in contact.createdAt = Date(timeIntervalSince1970: row[at])
        },
        Column(name: "updated_at", bind: { contact, _, binder in binder.real(contact.updatedAt.timeIntervalSince1970) })
        {
            row, at, contact in contact.updatedAt = Date(timeIntervalSince1970: row[at])
        },
        Column(name: "version", bind: nil) { row, at, contact in contact.version = row[at] },
        // Derived from the fields for the sort indexes; nothing to read back.
        Column(name: "sort_first", bind: { _, row, binder in binder.text(row.keys.first) }, read: nil),
        Column(name: "sort_last", bind: { _, row, binder in binder.text(row.keys.last) }, read: nil),
        Column(name: "extra", bind: { _, row, binder in binder.text(row.extra) }) { row, at, contact in
            contact.extraProperties = try strings(row[at])
        },
        Column(name: "name_order", bind: { contact, _, binder in binder.text(contact.nameOrder.rawValue) }) {
            row, at, contact in
            contact.nameOrder = NameOrder(rawValue: row[at]) ?? .givenFirst
        },
        Column(name: "formatted_name", bind: { contact, _, binder in binder.text(contact.formattedName) }) {
            row, at, contact in
            contact.formattedName = row[at]
        },
        Column(name: "card", bind: { contact, _, binder in binder.text(contact.card?.text) }) { row, at, contact in
            contact.card = (row[at] as String?).map(VCardRecord.init(text:))
        },
        Column(name: "websites", bind: { _, row, binder in binder.text(row.websites) }) { row, at, contact in
            contact.websites = try labeledValues(row[at])
        },
    ]

    /// The columns a save writes, in `columns`' order; `id` and `version` are the store's.
    static let savedColumns = columns.filter { $0.bind != nil }

    static let insertSQL =
        "INSERT INTO contact (" + savedColumns.map(\.name).joined(separator: ", ") + ", version) VALUES ("
        + Array(repeating: "?", count: savedColumns.count).joined(separator: ", ") + ", 1)"

    /// An insert that keeps the contact's id and version (`insertKeepingID`).
    static let insertKeepingIDSQL =
        "INSERT INTO contact (id, " + savedColumns.map(\.name).joined(separator: ", ")
        + ", version) VALUES (?, " + Array(repeating: "?", count: savedColumns.count).joined(separator: ", ") + ", ?)"

    /// Guarded by the version the save started from (`ContactStoreError.staleVersion`).
    static let updateSQL =
        "UPDATE contact SET " + savedColumns.map { "\($0.name) = ?" }.joined(separator: ", ")
        + ", version = version + 1 WHERE id = ? AND version = ?"

    /// The columns a read selects, in `columns`' order: all but the derived ones.
    static let readColumnList = columns.filter { $0.read != nil }

    /// The select list of a read (`contact(from:)`).
    static let readColumns = readColumnList.map(\.name).joined(separator: ", ")

    /// A contact's sort keys in both orders, computed once per save.
    struct SortKeys {
        var first: String
        var last: String
        init(_ contact: Contact) {
            // `ContactKeys.sortKey` of both orders, each name folded once for the two.
            let given = ContactKeys.fold(contact.givenName), family = ContactKeys.fold(contact.familyName)
            let organization = ContactKeys.fold(contact.organization)
            first = ContactKeys.sortKey(given: given, family: family, organization: organization, .first)
            let sorting = PersonName.sortingFamilyName(contact.familyName)
            last = ContactKeys.sortKey(
                given: given, family: sorting == contact.familyName ? family : ContactKeys.fold(sorting),
                organization: organization, .last)
        }
    }

    /// Everything a save writes that follows from a contact's own fields: its columns but the
    /// uid and dates (as they are stored: lists as JSON), its sort keys and its index texts. An
    /// import works it out on the thread reading the file (`prepareForImport`), so the saving
    /// thread only binds and steps: at 100k cards this work was a third of that thread's time.
    final class PreparedRow: PreparedContact {
        let keys: SortKeys
        let givenName, familyName, nickname, organization, title, notes: String
        let phones, emails, addresses, websites, tags, extra: String
        let birthday: String?
        /// The word index's text (`ContactSearch.indexedText`).
        let text: String
        /// Every phone's digits, space-separated: the trigram index's text.
        let digits: String
        /// The digit-gram index's text (`ContactSearch.digitGramText`).
        let grams: String
        /// The duplicate index's keys (`MatchKeys.storedKeys`).
        let matchKeys: [(kind: DuplicateReason.Kind, key: String)]
        /// The words of `text` a term may match inside, with where other words of it start in
        /// them (`ContactSearch.insideWordsWithStarts`), for the word list (`addWords`).
        let insideWords: [(word: String, starts: Int64)]

        init(_ contact: Contact) {
            keys = SortKeys(contact)
            givenName = contact.givenName
            familyName = contact.familyName
            nickname = contact.nickname
            organization = contact.organization
            title = contact.title
            notes = contact.notes
            phones = ContactJSON.encode(contact.phones)
            emails = ContactJSON.encode(contact.emails)
            addresses = ContactJSON.encode(contact.addresses)
            websites = ContactJSON.encode(contact.websites)
            tags = ContactJSON.encode(contact.tags)
            extra = ContactJSON.encode(contact.extraProperties)
            birthday = contact.birthday?.isoString
            // `indexedText` of `searchText`, in one pass.
            text = ContactSearch.scanWords(ContactKeys.foldedText(contact), addingPairs: true)
            let phoneDigits = contact.phoneDigits
            digits = phoneDigits.joined(separator: " ")
            grams = ContactSearch.digitGramText(phoneDigits)
            matchKeys = MatchKeys.storedKeys(contact)
            insideWords = ContactSearch.insideWordsWithStarts(text)
        }
    }

    /// Runs a cached statement that returns no rows, its values bound through SQLite's C API
    /// by `bind`: an import runs four per card, and GRDB's `StatementArguments` (each value
    /// boxed and converted on the way) cost the saving thread about a second at 100k cards.
    static func run(_ sql: String, _ db: Database, _ bind: (inout Binder) -> Void) throws {
        try run(db.cachedStatement(sql: sql), db, bind)
    }

    /// `run` of a statement already looked up, for a statement run many times in a row: GRDB's
    /// cache hashes the SQL text on every lookup.
    static func run(_ statement: Statement, _ db: Database, _ bind: (inout Binder) -> Void) throws {
        let raw = statement.sqliteStatement
        let parameters = Int(sqlite3_bind_parameter_count(raw))
        let code = withUnsafeTemporaryAllocation(of: Binder.Text.self, capacity: parameters) { texts in
            var binder = Binder(raw: raw, texts: texts)
            bind(&binder)
            defer { if let first = texts.baseAddress { first.deinitialize(count: binder.textCount) } }
            return binder.step()
        }
        let message = code == SQLITE_DONE ? nil : db.lastErrorMessage
        sqlite3_reset(raw)
        // The texts were bound without a copy, and their bytes are gone: nothing may read them.
        sqlite3_clear_bindings(raw)
        guard code == SQLITE_DONE else {
            // Read only here: GRDB rebuilds `sql` from SQLite's copy on every call.
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
    }

    /// Binds values to a statement's parameters, in order. Texts are bound without SQLite's copy
    /// (`SQLITE_STATIC`): `step` binds each inside the `withUTF8` of the one before and steps
    /// inside the last, so every text's bytes (a small string's on the stack too) outlive the
    /// step. An import's saving thread 1.6 % cheaper (bench/FINDINGS.md, `import6save`).
    struct Binder {
        struct Text {
            let index: Int32
            let value: String
        }
        let raw: OpaquePointer
        private var index: Int32 = 1
        /// The texts bound so far, bound to the statement only by `step`.
        private let texts: UnsafeMutableBufferPointer<Text>
        private(set) var textCount = 0
        init(raw: OpaquePointer, texts: UnsafeMutableBufferPointer<Text>) { self.raw = raw; self.texts = texts }

        private static let empty: StaticString = ""

        mutating func text(_ value: String?) {
            if let value {
                precondition(textCount < texts.count, "more values than the statement's parameters")
                (texts.baseAddress! + textCount).initialize(to: Text(index: index, value: value))
                textCount += 1
            } else {
                sqlite3_bind_null(raw, index)
            }
            index += 1
        }

        /// A constant text, bound without a copy (`SQLITE_STATIC`: it outlives the statement).
        mutating func text(_ value: StaticString) {
            _ = value.utf8Start.withMemoryRebound(to: CChar.self, capacity: value.utf8CodeUnitCount) { start in
                sqlite3_bind_text(raw, index, start, Int32(value.utf8CodeUnitCount), nil)
            }
            index += 1
        }

        mutating func real(_ value: Double) { sqlite3_bind_double(raw, index, value); index += 1 }
        mutating func integer(_ value: Int64) { sqlite3_bind_int64(raw, index, value); index += 1 }

        /// Binds the texts from the `from`th on, each inside the one before's bytes, then steps.
        func step(from first: Int = 0) -> Int32 {
            guard first < textCount else { return sqlite3_step(raw) }
            var value = texts[first].value
            let index = texts[first].index
            return value.withUTF8 { bytes in
                // An empty buffer may have no address, which SQLite would bind as NULL.
                let start = UnsafeRawPointer(bytes.baseAddress ?? Self.empty.utf8Start)
                _ = sqlite3_bind_text(raw, index, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
                return step(from: first + 1)
            }
        }
    }

    /// Binds `savedColumns`, in order, for a contact and what was prepared from it.
    static func bindSaved(_ contact: Contact, _ row: PreparedRow, _ binder: inout Binder) {
        for column in savedColumns { column.bind?(contact, row, &binder) }
    }

    /// A row selected with `readColumns`, read by position.
    static func contact(from row: Row) throws -> Contact {
        var contact = Contact()
        for (at, column) in readColumnList.enumerated() { try column.read?(row, at, &contact) }
        return contact
    }

    static func labeledValues(_ text: String) throws -> [LabeledValue] {
        try ContactJSON.decodeLabeledValues(text) ?? decode(text)
    }

    private static func addresses(_ text: String) throws -> [PostalAddress] {
        try ContactJSON.decodeAddresses(text) ?? decode(text)
    }

    private static func strings(_ text: String) throws -> [String] {
        try ContactJSON.decodeStrings(text) ?? decode(text)
    }

    /// Rewrites the contact's entries in the three FTS5 tables, and adds its words to the word
    /// list unless `addingWords` is false (an import adds each word once, at its end); call
    /// inside the write transaction that saves the row, so the index can never disagree with
    /// the table.
    static func index(
        _ row: PreparedRow, id: Int64, _ db: Database, isNew: Bool = false,
        addingWords: Bool = true, statements: RowStatements? = nil
    ) throws {
        if !isNew { try unindex(id: id, db) }
        if addingWords { try addWords(row.insideWords, db) }
        try run(statements?.text ?? db.cachedStatement(sql: RowStatements.textSQL), db) {
            $0.integer(id); $0.text(row.text)
        }
        try run(statements?.phone ?? db.cachedStatement(sql: RowStatements.phoneSQL), db) {
            $0.integer(id); $0.text(row.digits)
        }
        try indexDigitGrams(row.grams, id: id, db, statement: statements?.grams)
        if let statements {
            try statements.insertKeys(row.matchKeys, id: id, db)
        } else {
            try indexMatchKeys(row.matchKeys, id: id, db)
        }
    }

    /// The statements an insert runs for each contact, looked up once by a caller that saves
    /// many in a row (an import): GRDB's cache hashes the SQL text on every lookup, about 2 % of
    /// an import's saving thread at 100k cards (bench/FINDINGS.md, branch `import5`).
    struct RowStatements {
        static let textSQL = "INSERT INTO contact_text(rowid, text) VALUES (?, ?)"
        static let phoneSQL = "INSERT INTO contact_phone(rowid, digits) VALUES (?, ?)"
        static let gramsSQL = "INSERT INTO contact_phone_gram(rowid, grams) VALUES (?, ?)"
        static let keySQL = "INSERT INTO contact_key(kind, key, id) VALUES (?, ?, ?)"
        let insert, text, phone, grams: Statement
        /// `keys[n - 1]` adds `n` keys (`keysSQL`).
        let keys: [Statement]
        init(_ db: Database) throws {
            insert = try db.cachedStatement(sql: insertSQL)
            text = try db.cachedStatement(sql: Self.textSQL)
            phone = try db.cachedStatement(sql: Self.phoneSQL)
            grams = try db.cachedStatement(sql: Self.gramsSQL)
            keys = try (1...Self.keysPerStatement).map { try db.makeStatement(sql: Self.keysSQL(count: $0)) }
        }

        /// A contact's keys in one statement (6.5 a card at 100k), not one each: SQLite's cost of
        /// a statement (its start, `sqlite3VdbeHalt`, the reset) was most of a key's insert.
        static let keysPerStatement = 16
        /// `OR FAIL`, not the default `ABORT`, so that a statement of several rows needs no
        /// statement journal: with one, SQLite opens a savepoint on every virtual table in the
        /// transaction, and FTS5 flushes its pending terms at each (bench/FINDINGS.md, `import4`).
        /// The keys are never NULL; were one, the import's transaction fails all the same.
        static func keysSQL(count: Int) -> String {
            "INSERT OR FAIL INTO contact_key(kind, key, id) VALUES "
                + Array(repeating: "(?, ?, ?)", count: count).joined(separator: ", ")
        }

        /// Adds a contact's rows to the duplicate index in the order of `keys`, as
        /// `indexMatchKeys` does (the rowids follow it).
        func insertKeys(_ keys: [(kind: DuplicateReason.Kind, key: String)], id: Int64, _ db: Database) throws {
            var start = 0
            while start < keys.count {
                let end = min(start + Self.keysPerStatement, keys.count)
                try SQLiteContactStore.run(self.keys[end - start - 1], db) { binder in
                    for (kind, key) in keys[start..<end] {
                        binder.text(kind.storedText); binder.text(key); binder.integer(id)
                    }
                }
                start = end
            }
        }
    }

    /// Adds a contact's rows to the duplicate index (`contact_key`).
    /// One statement looked up per contact, not per key, and the kind bound without a copy: an
    /// import adds six or seven keys per card.
    static func indexMatchKeys(
        _ keys: [(kind: DuplicateReason.Kind, key: String)], id: Int64, _ db: Database
    ) throws {
        guard !keys.isEmpty else { return }
        let statement = try db.cachedStatement(sql: RowStatements.keySQL)
        for (kind, key) in keys {
            try run(statement, db) {
                $0.text(kind.storedText); $0.text(key); $0.integer(id)
            }
        }
    }

    /// Adds the words the word list lacks to it and to its trigram index (`contact_word_gram`),
    /// and keeps in `starts` only the places where every contact that held a word had another
    /// word starting (`ContactSearch.containsOnlyInside`): bits are only ever cleared, so a
    /// contact edited or deleted since can only make a word look less covered than it is.
    static func addWords(_ words: some Sequence<(word: String, starts: Int64)>, _ db: Database) throws {
        for (word, starts) in words {
            try run("INSERT INTO contact_word(word, starts) VALUES (?, ?) ON CONFLICT DO NOTHING", db) {
                $0.text(word); $0.integer(starts)
            }
            if db.changesCount == 1 {
                try run("INSERT INTO contact_word_gram(word) VALUES (?)", db) { $0.text(word) }
            } else {
                try run("UPDATE contact_word SET starts = starts & ?1 WHERE word = ?2 AND starts & ?1 != starts", db) {
                    $0.integer(starts); $0.text(word)
                }
            }
        }
    }

    static func unindex(id: Int64, _ db: Database) throws {
        // The digit-gram index keeps no copy of its text (it would double its size), so FTS5
        // removes an entry given the text it indexed: rebuilt from the phone index's digits.
        if let digits = try String.fetchOne(
            db.cachedStatement(sql: "SELECT digits FROM contact_phone WHERE rowid = ?"), arguments: [id])
        {
            let grams = ContactSearch.digitGramText(digits.split(separator: " ").map(String.init))
            if !grams.isEmpty {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO contact_phone_gram(contact_phone_gram, rowid, grams) VALUES ('delete', ?, ?)
                        """
                ).execute(arguments: [id, grams])
            }
        }
        try db.cachedStatement(sql: "DELETE FROM contact_text WHERE rowid = ?").execute(arguments: [id])
        try db.cachedStatement(sql: "DELETE FROM contact_phone WHERE rowid = ?").execute(arguments: [id])
        try db.cachedStatement(sql: "DELETE FROM contact_key WHERE id = ?").execute(arguments: [id])
    }

    /// Adds a contact's phones' grams (`ContactSearch.digitGramText`) to the digit-gram index
    /// (nothing for phones shorter than a gram).
    static func indexDigitGrams(_ grams: String, id: Int64, _ db: Database, statement: Statement? = nil) throws {
        guard !grams.isEmpty else { return }
        try run(statement ?? db.cachedStatement(sql: RowStatements.gramsSQL), db) {
            $0.integer(id); $0.text(grams)
        }
    }

    /// Every failure leaves the store as a `ContactStoreError`, worded for the person using it.
    static func storageError(_ error: Error) -> Error {
        if error is ContactStoreError || error is JournalRefusal { return error }
        guard let error = error as? DatabaseError else {
            return ContactStoreError.storage("The contacts database failed: \(error.localizedDescription)")
        }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return ContactStoreError.storage("The contacts database is busy in another program; try again.")
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

private extension DuplicateReason.Kind {
    /// `rawValue` as a constant, for `Binder.text(_: StaticString)`.
    var storedText: StaticString {
        switch self {
        case .uid: return "uid"
        case .email: return "email"
        case .phone: return "phone"
        case .name: return "name"
        }
    }
}
