import Foundation

@testable import ContactsApp

/// Fixed contacts and dates for the store tests. Names mix case and diacritics on purpose.
enum StoreSeeds {
    static let created = Date(timeIntervalSince1970: 1_700_000_000)
    static let edited = Date(timeIntervalSince1970: 1_700_086_400)

    static func contact(
        _ given: String, _ family: String, uid: String? = nil, nickname: String = "",
        organization: String = "", phones: [String] = [], emails: [String] = []
    ) -> Contact {
        Contact(
            uid: uid ?? "uid-\(given)-\(family)-\(organization)", givenName: given, familyName: family,
            nickname: nickname, organization: organization,
            phones: phones.map { LabeledValue(label: "mobile", value: $0) },
            emails: emails.map { LabeledValue(label: "home", value: $0) },
            createdAt: created, updatedAt: created)
    }

    static let ann = contact("Ann", "Lee", nickname: "Nan", phones: ["+1 (555) 123-4567"], emails: ["ann@example.com"])
    static let al = contact("Al", "Leeds", organization: "Globex", phones: ["020 7946 0958"])
    static let jose = contact("José", "Ñúñez", emails: ["jnunez@correo.es"])
    static let zoe = contact("zoë", "adams")
    static let emile = contact("Émile", "Zola")
    static let acme = contact("", "", organization: "Acme Corp")

    /// In the order `.last` sorts them: acme, adams, lee, leeds, nunez, zola.
    static let book = [ann, al, jose, zoe, emile, acme]

    /// A contact with every field set, to check nothing is lost on the way to storage and back.
    static let full: Contact = {
        // Its card is what the writer makes of its fields, so the card and the fields agree.
        var contact = fullFields
        contact.card = VCardReader().read(Data(VCardWriter().card(for: contact).utf8)).entries.first?.contact.card
        return contact
    }()

    private static let fullFields = Contact(
        uid: "urn:uuid:full", givenName: "Ada", familyName: "Lovelace", nickname: "Countess",
        organization: "Analytical Engines", title: "Programmer",
        phones: [LabeledValue(label: "work", value: "+44 20 7946 0000")],
        emails: [LabeledValue(label: "work", value: "ada@engines.example")],
        addresses: [
            PostalAddress(
                label: "home", street: "12 St James's Sq", city: "London",
                postalCode: "SW1Y 4JH", country: "UK")
        ],
        birthday: Birthday(year: 1815, month: 12, day: 10),
        notes: "Line one\nLine \"two\"", tags: ["science", "friends"],
        createdAt: created, updatedAt: edited,
        extraProperties: ["X-SOCIALPROFILE;TYPE=twitter:https://x.example/ada"],
        nameOrder: .familyFirst, formattedName: "Ada King, Countess of Lovelace",
        websites: [LabeledValue(label: "work", value: "https://engines.example")])

    /// `count` contacts for searches over many pages: 4 family names, each a quarter of the book
    /// (so a family name clusters in the last-name order), 5 given names spread across it, an
    /// organisation on every third contact, the nickname "Zed" for every Young (clustered in the
    /// last-name order, but not by its own sort key), and phones whose digit runs recur.
    static func generated(_ count: Int) -> [Contact] {
        let given = ["Ann", "Bob", "Cleo", "Dan", "Eve"]
        let family = ["Adams", "Kowalczyk", "Lee", "Young"]
        return (0..<count).map { i in
            let g = given[i % given.count], f = family[i % family.count]
            let phones =
                ["+1 555 " + String(format: "%03d %04d", i % 50, (i * 7919) % 10000)]
                + (i % 5 == 0 ? ["020 7946 " + String(format: "%04d", i)] : [])
            return contact(
                g, f, uid: "gen-\(i)", nickname: f == "Young" ? "Zed" : "",
                organization: i % 3 == 0 ? "Example Ltd" : "",
                phones: phones, emails: ["\(g.lowercased()).\(f.lowercased())\(i)@mail.test"])
        }
    }

    /// `count` contacts named "P01"..."Pnn" so paging expectations read plainly.
    static func numbered(_ count: Int) -> [Contact] {
        (1...count).map { contact("X", String(format: "P%02d", $0)) }
    }

    /// SQL that takes GRDB's record of a book back to before `migrations` (the caller drops
    /// what they made), as a book made by an older version would be.
    static func forgetting(_ migrations: [SQLiteContactStore.Migration]) -> String {
        "DELETE FROM grdb_migrations WHERE identifier IN (" + migrations.map { "'\($0.name)'" }.joined(separator: ", ")
            + ")"
    }
}
