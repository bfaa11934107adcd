import Foundation

/// One email address that matched a mail client's query.
public struct MailQueryMatch: Equatable, Sendable {
    public let address: String
    /// The contact's name (the organisation for a contact without one).
    public let name: String
    /// The address's label and the organisation: "work · Acme".
    public let info: String
    /// The contact it belongs to (an editor's completion shows the contact's other fields).
    public internal(set) var contactID: Int64? = nil
    /// For a group: its members' addresses, one match each, which `address` joins (", ").
    public internal(set) var members: [MailQueryMatch]? = nil

    /// Equal when a mail client sees the same line (the contact's id is not printed).
    public static func == (a: MailQueryMatch, b: MailQueryMatch) -> Bool {
        a.address == b.address && a.name == b.name && a.info == b.info
    }
}

/// Finds email addresses for mail clients (mutt's `query_command`, aerc's `address-book-cmd`):
/// the same search as the list, one match per email address, contacts without one left out,
/// and so are values kept by an import that are not addresses (`EMAIL:not-an-email`).
/// How the matches are printed is `MailQueryPresenter`'s business.
public final class MailQueryWorker {
    let store: ContactStore
    /// Where groups are found, offered first as one match each (`group`).
    let groups: ContactGroupStore?

    public init(environment: ContactsEnvironment) {
        store = environment.store
        groups = environment.store as? ContactGroupStore
    }

    /// The worker needs nothing but the store; `contactsbook query` builds it this way because
    /// an environment looks up the current locale and time zone (ICU), a twentieth of the
    /// whole command's time, for nothing a query prints. `groups` is the store too, passed
    /// as such: a cast would scan the binary's conformances (bench/STARTUP.md).
    public init(store: ContactStore, groups: ContactGroupStore? = nil) { self.store = store; self.groups = groups }

    /// At most `limit` contacts are read: a query runs on every keystroke.
    public func matches(for text: String, limit: Int = 100) throws -> [MailQueryMatch] {
        try matchesAndContacts(for: text, limit: limit).matches
    }

    /// The matches, ranked as `query` prints them, and the contacts they come from (an editor's
    /// completion shows their other fields without reading them again). `query`, `--lsp` and
    /// anything else that ranks addresses goes through here, so one ranking serves them all.
    public func matchesAndContacts(for text: String, limit: Int = 100) throws -> (
        matches: [MailQueryMatch], contacts: [Contact]
    ) {
        let search = text.trimmingWhitespaces
        guard !search.isEmpty else { return ([], []) }
        let query = ContactQuery(search: search, sort: .last, page: 1, limit: limit, locatesMatches: false)
        let contacts = try store.page(query).contacts
        let matches = contacts.flatMap(Self.matches(of:))
        return (try groupMatches(for: search) + matches, contacts)
    }

    private static func matches(of contact: Contact) -> [MailQueryMatch] {
        contact.emails.filter { ContactRules.isEmail($0.value) }.map { email in
            MailQueryMatch(
                address: email.value, name: contact.fullName,
                info: [email.label, contact.organization].filter { !$0.isEmpty }.joined(separator: " · "),
                contactID: contact.id)
        }
    }

    /// The groups whose name has a word starting with each term (case- and accent-blind), each
    /// one match whose address is its members' addresses joined: mutt and neomutt read the
    /// address field as a list, so picking the group puts every member in the header. Members'
    /// first valid address each, in the list's order; a group with none is left out.
    func groupMatches(for search: String) throws -> [MailQueryMatch] {
        guard let groups else { return [] }
        let terms = search.split(whereSeparator: \.isWhitespace).map { ContactKeys.fold(String($0)) }
        guard !terms.isEmpty else { return [] }
        var found: [MailQueryMatch] = []
        for (id, name) in try groups.groupNames() {
            let words = name.split(whereSeparator: { $0.isWhitespace || $0.isPunctuation }).map {
                ContactKeys.fold(String($0))
            }
            guard terms.allSatisfy({ term in words.contains { $0.hasPrefix(term) } }) else { continue }
            // Only the fields a line shows, in one read: not whole contacts (bench/groups.py).
            let members = try groups.mailContacts(inGroup: id)
            let addresses = members.compactMap { Self.matches(of: $0).first }
            guard !addresses.isEmpty else { continue }
            found.append(
                MailQueryMatch(
                    address: addresses.map(\.address).joined(separator: ", "), name: name,
                    info: "group · " + (addresses.count == 1 ? "1 address" : "\(addresses.count) addresses"),
                    members: addresses))
        }
        return found
    }
}
