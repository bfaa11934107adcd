import Foundation
import SceneCore

/// Contacts that are probably one person, and why.
public struct DuplicateGroup: Equatable, Sendable {
    /// By id, ascending.
    public let contacts: [Contact]
    /// Strongest first (`DuplicateReason.Kind.strength`), then by value.
    public let reasons: [DuplicateReason]
}

/// A merge as saved: the kept contact, the ones removed and the values not kept.
public struct MergedContacts: Equatable, Sendable {
    public let merged: Contact
    public let removed: [Contact]
    public let differences: [ContactMerger.Difference]
}

/// A birthday within the days asked about.
public struct UpcomingBirthday: Equatable, Sendable {
    public let contact: Contact
    public let date: CalendarDay
    /// The age turned, when the year of birth is known.
    public let age: Int?
    /// 0 today, 1 tomorrow.
    public let daysAway: Int
}

/// The duplicates scene's storage work (`duplicates`, `merge`), the birthdays scene's, and
/// how the history scene finds a contact.
extension ContactsWorker: DuplicatesStorageLogic, BirthdaysStorageLogic, HistoryStorageLogic {
    public func duplicates() throws -> [DuplicateGroup] {
        let shared = try translating { try store.sharedMatchKeys(defaultCountry: defaultCountry) }
        let ids = Array(Set(shared.flatMap(\.ids))).sorted()
        let slot = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        var sets = UnionFind(count: ids.count)
        for key in shared {
            guard let first = key.ids.first.flatMap({ slot[$0] }) else { continue }
            for id in key.ids.dropFirst() { if let other = slot[id] { sets.join(first, other) } }
        }
        var members: [Int: [Int64]] = [:], reasons: [Int: Set<DuplicateReason>] = [:]
        for (index, id) in ids.enumerated() { members[sets.root(index), default: []].append(id) }
        for key in shared {
            guard let first = key.ids.first.flatMap({ slot[$0] }) else { continue }
            reasons[sets.root(first), default: []].insert(
                DuplicateReason(key.kind, key.key, withoutCountryCode: key.withoutCountryCode))
        }
        let contacts = Dictionary(
            uniqueKeysWithValues: try translating { try store.contacts(ids: ids) }.compactMap { contact in
                contact.id.map { ($0, contact) }
            })
        let groups = members.compactMap { root, ids -> DuplicateGroup? in
            let found = ids.compactMap { contacts[$0] }
            guard found.count > 1 else { return nil }
            let why = (reasons[root] ?? []).sorted { ($1.kind.strength, $0.value) < ($0.kind.strength, $1.value) }
            return DuplicateGroup(contacts: found, reasons: why)
        }
        return groups.sorted { a, b in
            let (x, y) = (Self.strength(a), Self.strength(b))
            return x != y ? y.lexicographicallyPrecedes(x) : (a.contacts.first?.id ?? 0) < (b.contacts.first?.id ?? 0)
        }
    }

    /// (strongest reason, kinds of reason, reasons), compared as a tuple.
    private static func strength(_ group: DuplicateGroup) -> [Int] {
        [group.reasons.map(\.kind.strength).max() ?? 0, Set(group.reasons.map(\.kind)).count, group.reasons.count]
    }

    public func merge(_ references: [String]) throws -> MergedContacts {
        guard references.count >= 2 else {
            throw ContactsFailure.badInput("merge needs two contacts or more, the first kept: merge 3 7")
        }
        let contacts = try references.map(resolve)
        var seen = Set<Int64>()
        for contact in contacts where !seen.insert(contact.id ?? 0).inserted {
            throw ContactsFailure.badInput(
                "\(contact.fullName) (#\(contact.id ?? 0)) is named twice; merge needs different contacts")
        }
        // Merging changes the first and deletes the others: none may be in a read-only book.
        try access.check(contacts)
        let result = ContactMerger(defaultCountry: defaultCountry).merge(contacts)
        var merged = result.merged
        merged.updatedAt = now()
        let removed = Array(contacts.dropFirst())
        let saved = try translating({ try store.merge(keeping: merged, removing: removed) }, editing: contacts[0])
        announce("updated", saved.id)
        for contact in removed { announce("deleted", contact.id) }
        return MergedContacts(merged: saved, removed: removed, differences: result.differences)
    }

    public func upcomingBirthdays(days: Int) throws -> (today: CalendarDay, birthdays: [UpcomingBirthday]) {
        let today = CalendarDay(now(), in: timeZone)
        let upcoming = try translating { try store.contactsWithBirthdays() }.compactMap {
            contact -> UpcomingBirthday? in
            guard let birthday = contact.birthday else { return nil }
            let next = birthday.next(onOrAfter: today)
            let away = today.days(until: next)
            guard away <= days else { return nil }
            return UpcomingBirthday(contact: contact, date: next, age: birthday.age(on: next), daysAway: away)
        }
        let sorted = upcoming.sorted {
            ($0.daysAway, ContactKeys.sortKey($0.contact, .first), $0.contact.id ?? 0)
                < ($1.daysAway, ContactKeys.sortKey($1.contact, .first), $1.contact.id ?? 0)
        }
        return (today, sorted)
    }
}
