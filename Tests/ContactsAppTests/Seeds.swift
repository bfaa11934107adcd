import Foundation
import SceneCore

@testable import ContactsApp

/// Fixtures for the scene, worker and formatter tests: contacts in several scripts, fixed
/// dates, a predictable UID maker, and a locale and time zone that never come from the machine.
enum Seeds {
    static let locale = Locale(identifier: "en_US_POSIX")
    static let timeZone = TimeZone.gmt
    /// 2023-11-14 22:13:20 UTC: when every seeded contact was created.
    static let created = Date(timeIntervalSince1970: 1_700_000_000)
    /// 2023-11-15 22:13:20 UTC: the clock of the environment under test.
    static let now = Date(timeIntervalSince1970: 1_700_086_400)
    static let createdText = "2023-11-14 22:13"
    static let nowText = "2023-11-15 22:13"

    static let formatter = ContactFormatter(timeZone: timeZone)

    /// Hands out "uid-1", "uid-2", ... so saved contacts have UIDs a test can name.
    final class UIDMaker {
        private(set) var count = 0
        func make() -> String {
            count += 1
            return "uid-\(count)"
        }
    }

    /// The environment every test builds scenes from: fixed clock, UIDs, locale and time zone.
    static func environment(store: ContactStore, pageSize: Int = 20, uids: UIDMaker = UIDMaker()) -> ContactsEnvironment
    {
        ContactsEnvironment(
            store: store, now: { now }, makeUID: uids.make, locale: locale, timeZone: timeZone,
            pageSize: pageSize)
    }

    static func worker(_ store: ContactStore) -> ContactsWorker {
        ContactsWorker(environment: environment(store: store))
    }

    static func transferWorker(_ store: ContactStore) -> ImportExportWorker {
        ImportExportWorker(environment: environment(store: store))
    }

    enum Contacts {
        static let ann = Contact(
            uid: "uid-ann", givenName: "Ann", familyName: "Lee",
            phones: [LabeledValue(label: "mobile", value: "+15551234567")],
            emails: [LabeledValue(label: "work", value: "ann@example.org")],
            birthday: Birthday(year: 1990, month: 5, day: 17),
            createdAt: created, updatedAt: created)
        static let jose = Contact(
            uid: "uid-jose", givenName: "José", familyName: "Ñúñez",
            phones: [LabeledValue(label: "work", value: "+34 612  345 678")],
            emails: [LabeledValue(label: "home", value: "jose@correo.es")],
            createdAt: created, updatedAt: created)
        static let taro = Contact(
            uid: "uid-taro", givenName: "太郎", familyName: "山田",
            phones: [LabeledValue(label: "home", value: "03-1234-5678")],
            createdAt: created, updatedAt: created)
        /// An organisation without a person's name.
        static let acme = Contact(
            uid: "uid-acme", organization: "Acme Inc.",
            emails: [LabeledValue(label: "work", value: "info@acme.example")],
            createdAt: created, updatedAt: created)

        /// Inserted in this order, so Ann is #1, José #2, Taro #3 and Acme #4.
        /// By last name the list shows Acme, Lee, Ñúñez, 山田.
        static let book = [ann, jose, taro, acme]
    }

    /// A store holding `Contacts.book`.
    static func book() -> InMemoryContactStore { InMemoryContactStore(Contacts.book) }

    /// `contact` as the seeded store holds it: with its id and version 1.
    static func stored(_ contact: Contact, id: Int64) -> Contact {
        var stored = contact
        stored.id = id
        stored.version = 1
        return stored
    }

    enum Rows {
        static let ann = ListContacts.Row(
            id: 1, name: "Ann Lee", organization: "",
            emails: [LabeledValue(label: "work", value: "ann@example.org")],
            phones: [LabeledValue(label: "mobile", value: "+1 (555) 123-4567")])
        static let jose = ListContacts.Row(
            id: 2, name: "José Ñúñez", organization: "",
            emails: [LabeledValue(label: "home", value: "jose@correo.es")],
            phones: [LabeledValue(label: "work", value: "+34 612 345 678")])
        static let taro = ListContacts.Row(
            id: 3, name: "太郎 山田", organization: "", emails: [],
            phones: [LabeledValue(label: "home", value: "03-1234-5678")])
        static let acme = ListContacts.Row(
            id: 4, name: "Acme Inc.", organization: "Acme Inc.",
            emails: [LabeledValue(label: "work", value: "info@acme.example")], phones: [])
    }

    /// The detail of the seeded Ann as the detail scene shows it, after `edit` (made when saved
    /// at `updatedAt`).
    static func annDetail(
        version: Int = 1, fields extra: [ShowContact.FetchContact.ViewModel.Field] = [],
        updatedAt: Date = created, edit: (inout Contact) -> Void = { _ in }
    ) -> ShowContact.FetchContact.ViewModel {
        typealias Field = ShowContact.FetchContact.ViewModel.Field
        var contact = stored(Contacts.ann, id: 1)
        contact.version = version
        contact.updatedAt = updatedAt
        edit(&contact)
        return .init(
            id: 1, uid: "uid-ann", name: "Ann Lee", version: version,
            fields: [
                Field(label: "Given name", value: "Ann"),
                Field(label: "Family name", value: "Lee"),
            ] + extra + [
                Field(label: "Phone (mobile)", value: "+1 (555) 123-4567"),
                Field(label: "Email (work)", value: "ann@example.org"),
                Field(label: "Birthday", value: "1990-05-17"),
                Field(label: "Created", value: createdText),
                Field(label: "Updated", value: updatedAt == now ? nowText : createdText),
            ], contact: record(contact))
    }

    /// The structured contact of a detail, written out (times as the seeds' ISO 8601 texts).
    static func record(_ contact: Contact) -> ShowContact.FetchContact.ViewModel.Record {
        let iso = [created: "2023-11-14T22:13:20Z", now: "2023-11-15T22:13:20Z"]
        return .init(
            id: contact.id ?? 0, uid: contact.uid, version: contact.version, givenName: contact.givenName,
            familyName: contact.familyName, nameOrder: contact.nameOrder.rawValue, nickname: contact.nickname,
            organization: contact.organization,
            title: contact.title, phones: contact.phones, emails: contact.emails, addresses: contact.addresses,
            websites: contact.websites, birthday: contact.birthday, tags: contact.tags, notes: contact.notes,
            displayName: contact.fullName,
            formattedName: contact.formattedName, photo: nil,
            created: iso[contact.createdAt] ?? "?", updated: iso[contact.updatedAt] ?? "?")
    }

    /// The seeded book listed by last name, 20 a page.
    static let bookListing = ListContacts.FetchContacts.ViewModel(
        rows: [Rows.acme, Rows.ann, Rows.jose, Rows.taro], page: 1, pageCount: 1, total: 4, search: "", sort: "last",
        caption: "Page 1 of 1 · 4 contacts · by last name")
}
