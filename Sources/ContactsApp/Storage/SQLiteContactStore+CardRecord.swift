import GRDB

extension SQLiteContactStore {
    /// Each contact keeps the vCard it came from (`Contact.card`, its lines joined by LF) and the
    /// card's display name when the name parts do not give it (`Contact.formattedName`). Both
    /// start empty: a contact imported before this has no card and is written from its fields.
    /// Plain SQL only: a migration must mean the same whatever later code does.
    static let keepCardsAndDisplayNames = Migration(name: "keep each contact's card and display name", legacyIdentifier: nil) { db, _ in
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
