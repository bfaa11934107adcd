import Foundation

@testable import ContactsApp

/// Fixture files (written for these tests, under `Fixtures/`, a resource of the test bundle)
/// and the contacts they hold.
enum VCardSeeds {
    static let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

    static func fixture(_ name: String) -> Data {
        (try? Data(contentsOf: fixtures.appendingPathComponent(name))) ?? Data()
    }

    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static let later = Date(timeIntervalSince1970: 1_700_086_400)

    /// UIDs "new-1", "new-2", ... in order, as an injected `makeUID`.
    final class UIDMaker {
        private var count = 0
        func make() -> String { count += 1; return "new-\(count)" }
    }

    /// The base64 photo in `apple-3.0.vcf`: bytes 0...255 twice.
    static let applePhoto =
        "PHOTO;ENCODING=b;TYPE=JPEG:"
        + Data((0...255).map { UInt8($0) } + (0...255).map { UInt8($0) }).base64EncodedString()

    static let appleAnn = Contact(
        uid: "apple-ann-1", givenName: "Ann", familyName: "Lee", nickname: "Nan",
        organization: "Acme Corp, Research", title: "Chief Scientist",
        phones: [
            LabeledValue(label: "mobile", value: "+1 (555) 123-4567"),
            LabeledValue(label: "Lab bench", value: "+44 20 7946 0000"),
        ],
        emails: [
            LabeledValue(label: "other", value: "ann@acme.example"),
            LabeledValue(label: "home", value: "ann@home.example"),
        ],
        addresses: [
            PostalAddress(
                label: "work", street: "1 Infinite Loop\nBuilding 4", city: "Cupertino", region: "CA",
                postalCode: "95014", country: "USA")
        ],
        birthday: Birthday(year: nil, month: 5, day: 17),
        notes: "Met at the conference, 2019; likes tea.\nSecond line \\ backslash", tags: ["friends", "work"],
        extraProperties: ["X-ABShowAs:PERSON", "X-SOCIALPROFILE;type=twitter:https://x.example/annlee", applePhoto],
        formattedName: "Dr. Ann Marie Lee PhD",
        // Apple's built-in label `_$!<HomePage>!$_`, read as a word.
        websites: [LabeledValue(label: "homepage", value: "https://acme.example/ann")])

    static let appleGlobex = Contact(
        uid: "apple-globex", organization: "Globex", phones: [LabeledValue(label: "work", value: "020 7946 0958")],
        extraProperties: ["X-ABShowAs:COMPANY"])

    static let androidJose = Contact(
        givenName: "José", familyName: "Ñúñez", organization: "Café Müller",
        phones: [
            LabeledValue(label: "mobile", value: "+34 600 123 456"), LabeledValue(label: "home", value: "91 123 45 67"),
            LabeledValue(label: "work fax", value: "91 765 43 21"),
        ],
        emails: [LabeledValue(label: "other", value: "jnunez@correo.example")],
        addresses: [
            PostalAddress(
                label: "home", street: "Calle Mayor 5", city: "Málaga", postalCode: "29001", country: "España")
        ],
        birthday: Birthday(year: 1985, month: 3, day: 2),
        notes: "Primera línea\nSegunda línea que es muy larga y sigue aquí",
        extraProperties: ["X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;Ñoño;1;;;;;;;;;;;;;"])

    static let androidZoe = Contact(
        givenName: "zoë", familyName: "Adams", phones: [LabeledValue(label: "other", value: "555-0100")],
        birthday: Birthday(year: nil, month: 12, day: 24))

    static let emileNote = "Émile écrit à Zoë: " + String(repeating: "ça va très bien, ", count: 6)

    static let emile = Contact(
        uid: "urn:uuid:6f0c1d3e-emile", givenName: "Émile", familyName: "Zola",
        organization: "Les Éditions, Fasquelle, Fiction;Naturalism",
        phones: [
            LabeledValue(label: "work", value: "+33-1-23-45-67-89 ext. 12"),
            LabeledValue(label: "home", value: "+33-1-98-76-54-32"),
        ],
        emails: [
            LabeledValue(label: "home", value: "emile@maison.example"),
            LabeledValue(label: "work", value: "emile@zola.example"),
        ],
        addresses: [
            PostalAddress(
                label: "home", street: "12 rue de Bruxelles", city: "Paris", postalCode: "75009", country: "France")
        ],
        birthday: Birthday(year: nil, month: 5, day: 17), notes: emileNote,
        extraProperties: [
            "RELATED;TYPE=spouse:urn:uuid:alexandrine", "IMPP;PREF=1:xmpp:emile@zola.example",
            "X-CUSTOM;X-PARAM=\"a;b:c\":value with \\, comma",
        ])
}

extension Contact {
    /// The contact without the card it was read from: what the fields alone say.
    var withoutCard: Contact {
        var contact = self
        contact.card = nil
        return contact
    }
}

extension VCardSeeds {
    /// The one contact of `google.csv` (Google Contacts' current CSV headers); its label `Friends`
    /// is a group (`ParsedContacts.Entry.groups`), not a tag.
    static let googleAnn = Contact(
        givenName: "Ann Marie", familyName: "Lee", nickname: "Nan", organization: "Acme", title: "Engineer",
        phones: [LabeledValue(label: "mobile", value: "+1 555 0100")],
        emails: [
            LabeledValue(label: "work", value: "ann@acme.example"),
            LabeledValue(label: "work", value: "ann.lee@acme.example"),
            LabeledValue(label: "home", value: "ann@home.example"),
        ],
        addresses: [
            PostalAddress(
                label: "home", street: "1 Main St", city: "Springfield", region: "IL", postalCode: "62701",
                country: "USA")
        ],
        birthday: Birthday(year: nil, month: 5, day: 17), notes: "Likes tea,\nand cake")

    /// The one contact of `outlook.csv` (Outlook's headers, Windows-1252 text).
    static let outlookBob = Contact(
        givenName: "Bob", familyName: "Müller", organization: "Globex", title: "Manager",
        phones: [
            LabeledValue(label: "mobile", value: "555 0103"), LabeledValue(label: "home", value: "555 0101"),
            LabeledValue(label: "work", value: "555 0102"), LabeledValue(label: "work fax", value: "555 0104"),
        ],
        emails: [LabeledValue(label: "other", value: "bob@example.org")],
        addresses: [
            PostalAddress(label: "work", street: "2 Work Rd", city: "Berlin", postalCode: "10115", country: "Germany")
        ],
        birthday: Birthday(year: 1979, month: 3, day: 14), tags: ["Work", "VIP"])
}
