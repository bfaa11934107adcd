import Foundation

@testable import ContactsApp

/// A book with three pairs that are probably one person (by email, by phone, by name and
/// organisation), a near name that is someone else, and a contact with nothing in common.
enum ToolsSeeds {
    static let created = Seeds.created

    static func person(
        _ given: String, _ family: String, org: String = "", emails: [String] = [], phones: [String] = [],
        birthday: Birthday? = nil, nickname: String = "", tags: [String] = []
    ) -> Contact {
        Contact(
            uid: "uid-\(given)-\(family)".lowercased(), givenName: given, familyName: family, nickname: nickname,
            organization: org, phones: phones.map { LabeledValue(label: "mobile", value: $0) },
            emails: emails.map { LabeledValue(label: "work", value: $0) }, birthday: birthday, tags: tags,
            createdAt: created, updatedAt: created)
    }

    /// #1 to #8 in this order.
    static let book = [
        person("Ann", "Lee", org: "Acme", emails: ["ann@example.org"], phones: ["+1 555 000 1111"], tags: ["Friends"]),
        person(
            "Anne", "Lee", emails: ["ANN@Example.org", "anne.lee@home.example"], phones: ["(555) 000-1111"],
            birthday: Birthday(year: 1990, month: 5, day: 17), nickname: "Annie", tags: ["friends", "work"]),
        person("Bob", "Stone", phones: ["(555) 000-2222"]),
        person("Robert", "Stone", phones: ["+1 555 000 2222"]),
        person("Jon", "Smith", org: "Initech", emails: ["jon@initech.example"]),
        person("John", "Smith", org: "Initech", emails: ["john@mail.example"]),
        person("Mary", "Smith", org: "Initech"),
        person("Carol", "King", emails: ["carol@x.example"]),
    ]

    static func stores() throws -> [(String, ContactStore)] {
        [("memory", InMemoryContactStore(book)), ("sqlite", try sqlite())]
    }

    static func sqlite() throws -> SQLiteContactStore {
        let store = try SQLiteContactStore(path: ":memory:")
        for contact in book { _ = try store.insert(contact) }
        return store
    }

    static func environment(_ store: ContactStore, country: String? = "US") -> ContactsEnvironment {
        var environment = Seeds.environment(store: store)
        environment.defaultCountry = country
        return environment
    }
}
