import Foundation
import GRDB

extension SQLiteContactStore {
    /// Each contact keeps the vCard it came from (`Contact.card`, its lines joined by LF) and the
    /// card's display name when the name parts do not give it (`Contact.formattedName`). Both
    /// start empty: a contact imported before this has no card and is written from its fields.
    /// Plain SQL only: a migration must mean the same whatever later code does.
    static let keepCardsAndDisplayNames = Migration(
        name: "keep each contact's card and display name", legacyIdentifier: nil
    ) { db, _ in
        // A book whose migration records were rewritten (tests of legacy books) may have them already.
        let columns = Set(try db.columns(in: "contact").map(\.name))
        if !columns.contains("formatted_name") {
            try db.execute(sql: "ALTER TABLE contact ADD COLUMN formatted_name TEXT NOT NULL DEFAULT ''")
        }
        if !columns.contains("card") {
            try db.execute(sql: "ALTER TABLE contact ADD COLUMN card TEXT") // NULL: no card, written from the fields
        }
    }
}

extension SQLiteContactStore {
    /// Websites (vCard `URL`) became a field (`Contact.websites`, the `websites` column, JSON
    /// [LabeledValue]). Until then a card's URL lines were kept among the unknown properties
    /// (`extra`): they move into the new column, with the `X-ABLabel` that labelled them, and
    /// the word index of those contacts gains their words, as today's save writes them. Reads
    /// the columns of its time by name and derives with its own frozen copy (`AddWebsitesFrozen`).
    static let addWebsites = Migration(name: "add websites", legacyIdentifier: nil) { db, _ in
        // A book whose migration records were rewritten (tests of legacy books) may have it already.
        if try !db.columns(in: "contact").contains(where: { $0.name == "websites" }) {
            try db.execute(sql: "ALTER TABLE contact ADD COLUMN websites TEXT NOT NULL DEFAULT '[]'")
        }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT id, given, family, nickname, organization, notes, emails, addresses, tags, extra FROM contact
                WHERE extra LIKE '%url%' ORDER BY id
                """)
        for row in rows {
            let extra = try JSONDecoder().decode([String].self, from: Data((row["extra"] as String).utf8))
            let (websites, kept) = AddWebsitesFrozen.websites(in: extra)
            guard !websites.isEmpty else { continue }
            let id: Int64 = row["id"]
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try db.execute(
                sql: "UPDATE contact SET websites = ?, extra = ? WHERE id = ?",
                arguments: [
                    String(decoding: try encoder.encode(websites), as: UTF8.self),
                    String(decoding: try encoder.encode(kept), as: UTF8.self), id,
                ])
            let text = try AddWebsitesFrozen.indexedText(row, websites: websites.map(\.value))
            try db.execute(sql: "DELETE FROM contact_text WHERE rowid = ?", arguments: [id])
            try db.execute(sql: "INSERT INTO contact_text(rowid, text) VALUES (?, ?)", arguments: [id, text])
            for (word, starts) in AddWordStartsFrozen.wordsWithStarts(text) {
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM contact_word WHERE word = ?", arguments: [word]) == true {
                    try db.execute(
                        sql: "UPDATE contact_word SET starts = starts & ? WHERE word = ?", arguments: [starts, word])
                } else {
                    try db.execute(
                        sql: "INSERT INTO contact_word(word, starts) VALUES (?, ?)", arguments: [word, starts])
                    try db.execute(sql: "INSERT INTO contact_word_gram(word) VALUES (?)", arguments: [word])
                }
            }
        }
    }
}
