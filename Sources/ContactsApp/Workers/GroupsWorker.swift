import Foundation
import SceneCore

/// What a change to a group's members did: the group as saved, the contacts added or removed,
/// and those named that were already (or not) members.
public struct GroupMembersChange: Equatable, Sendable {
    public let group: ContactGroup
    public let changed: [Contact]
    public let unchanged: [Contact]
    public init(group: ContactGroup, changed: [Contact], unchanged: [Contact]) {
        self.group = group; self.changed = changed; self.unchanged = unchanged
    }
}

/// The group work the list's Interactor delegates (its seam: tests put a spy here).
public protocol ListContactsGroupsLogic {
    /// Every group with its size, by name.
    func groups() throws -> [GroupSummary]
    /// The group a person names: its name in any case, or a unique start of one.
    func group(named name: String) throws -> ContactGroup
    /// The same group's id and name alone (`list --group`): no card read, no sizes counted.
    func groupID(named name: String) throws -> (id: Int64, name: String)
    /// A new group, in the book named (nil: the default book); refused when that book is read-only.
    func newGroup(named name: String, book: String?) throws -> ContactGroup
    func renameGroup(_ name: String, to newName: String) throws -> (old: String, group: ContactGroup)
    func deleteGroup(named name: String) throws -> ContactGroup
    /// Adds the contacts the references name (numbers, UIDs, names or searches matching one).
    func addMembers(_ references: [String], to name: String) throws -> GroupMembersChange
    func removeMembers(_ references: [String], from name: String) throws -> GroupMembersChange
    /// The groups a contact is a member of, by name.
    func groups(of contact: Contact) throws -> [ContactGroup]
}

extension ListContactsGroupsLogic {
    public func groupID(named name: String) throws -> (id: Int64, name: String) {
        let group = try group(named: name)
        return (group.id ?? 0, group.name)
    }
}

extension ContactsWorker: ListContactsGroupsLogic {
    static let longestGroupName = 200

    /// The store's groups, when it keeps any (both stores do). Cast when asked, not at start:
    /// every cast scans the binary's conformances (bench/STARTUP.md).
    var groupStore: ContactGroupStore? { store as? ContactGroupStore }

    func groupKeeper() throws -> ContactGroupStore {
        guard let store = groupStore else { throw ContactsFailure.badInput("this book keeps no groups") }
        return store
    }

    public func groups() throws -> [GroupSummary] {
        try translating { try groupKeeper().groups() }
    }

    public func group(named name: String) throws -> ContactGroup {
        let named = try groupID(named: name)
        guard let group = try groups().map(\.group).first(where: { $0.id == named.id }) else {
            throw ContactsFailure.badInput("no group is named \"\(name)\"; groups lists them")
        }
        return group
    }

    /// Matched on the groups' names alone: a group of 10k members has a card of 10k lines, which
    /// `groups()` reads and counts (bench/groups.py).
    public func groupID(named name: String) throws -> (id: Int64, name: String) {
        let wanted = ContactKeys.fold(name.trimmingCharacters(in: .whitespaces))
        guard !wanted.isEmpty else { throw ContactsFailure.badInput("name a group: groups lists them") }
        let all = try translating { try groupKeeper().groupNames() }.map { (id: $0.id, name: $0.name) }
        let exact = all.filter { ContactKeys.fold($0.name) == wanted }
        if exact.count == 1 { return exact[0] }
        if exact.count > 1 {
            throw ContactsFailure.badInput("\(exact.count) groups are named \"\(name)\"; rename one with group rename")
        }
        let starting = all.filter { ContactKeys.fold($0.name).hasPrefix(wanted) }
        if starting.count == 1 { return starting[0] }
        if starting.isEmpty {
            throw ContactsFailure.badInput(
                all.isEmpty
                    ? "no group is named \"\(name)\": this book has no groups yet (group new NAME)"
                    : "no group is named \"\(name)\"; groups lists them")
        }
        throw ContactsFailure.badInput(
            "\"\(name)\" starts \(starting.map { "\"\($0.name)\"" }.joined(separator: ", ")); name one group")
    }

    public func newGroup(named name: String, book: String?) throws -> ContactGroup {
        let name = try checkedName(name)
        // Where it goes, refused before anything is made when that book is read-only: a group
        // there would never be pushed (a read-only book is only pulled) and would stay here alone.
        let target = try groupsBook(book)
        let summaries = try groups()
        if let taken = summaries.first(where: { ContactKeys.fold($0.group.name) == ContactKeys.fold(name) }) {
            throw ContactsFailure.badInput("a group named \"\(taken.group.name)\" exists already")
        }
        var group = GroupCard.new(uid: makeUID(), name: name, convention: try convention(summaries))
        group.createdAt = now(); group.updatedAt = group.createdAt
        let saved = try translating { try groupKeeper().saveGroup(group, kind: .add, summary: "made group \(name)") }
        if let target, !target.isDefault, let links = store as? GroupSyncStore {
            try translating { try links.setGroupBook(uid: saved.uid, book: target.name) }
        }
        announceGroup()
        return saved
    }

    /// The book a new group goes to: the one named, else the default one; nil in a file of one book.
    private func groupsBook(_ name: String?) throws -> AddressBook? {
        guard let bookStore else {
            if let name, name != AddressBook.localName {
                throw ContactsFailure.badInput("this book file has one address book only")
            }
            return nil
        }
        let books = try translating { try bookStore.addressBooks(counting: false) }
        let book: AddressBook
        if let name {
            guard let named = books.first(where: { $0.name == name }) else {
                throw ContactsFailure.badInput(
                    "there is no book named \(name); the books: " + books.map(\.name).joined(separator: ", "))
            }
            book = named
        } else {
            guard let found = books.first(where: \.isDefault) else { return nil }
            book = found
        }
        guard book.isReadOnly else { return book }
        // A server's writable book first: a group in the local book stays here.
        let writable = books.first { !$0.isReadOnly && !$0.isLocal } ?? books.first { !$0.isReadOnly }
        throw ContactsFailure.readOnlyForGroups(
            book: book.name, byServer: book.serverReadOnly, named: name != nil,
            writable: writable?.name)
    }

    public func renameGroup(_ name: String, to newName: String) throws -> (old: String, group: ContactGroup) {
        let group = try group(named: name)
        try BookAccess(store: store).check(group: group)
        let newName = try checkedName(newName)
        if let taken = try groups().first(where: {
            $0.group.id != group.id && ContactKeys.fold($0.group.name) == ContactKeys.fold(newName)
        }) {
            throw ContactsFailure.badInput("a group named \"\(taken.group.name)\" exists already")
        }
        var changed = group
        changed.name = newName
        changed.updatedAt = now()
        let saved = try translating {
            try groupKeeper().saveGroup(
                GroupCard.updated(changed), kind: .edit, summary: "renamed group \(group.name) to \(newName)")
        }
        announceGroup()
        return (group.name, saved)
    }

    public func deleteGroup(named name: String) throws -> ContactGroup {
        let group = try group(named: name)
        try BookAccess(store: store).check(group: group)
        try translating { try groupKeeper().deleteGroup(group, summary: "deleted group \(group.name)") }
        announceGroup()
        return group
    }

    public func addMembers(_ references: [String], to name: String) throws -> GroupMembersChange {
        try changeMembers(references, of: name, adding: true)
    }

    public func removeMembers(_ references: [String], from name: String) throws -> GroupMembersChange {
        try changeMembers(references, of: name, adding: false)
    }

    public func groups(of contact: Contact) throws -> [ContactGroup] {
        guard let store = groupStore, !contact.uid.isEmpty else { return [] }
        return try translating { try store.groups(containing: contact.uid) }
    }

    private func changeMembers(_ references: [String], of name: String, adding: Bool) throws -> GroupMembersChange {
        guard !references.isEmpty else {
            throw ContactsFailure.badInput("name the contacts: group \(adding ? "add" : "remove") GROUP 3 \"ann lee\"")
        }
        let group = try group(named: name)
        try BookAccess(store: store).check(group: group)
        var members = group.members
        var changed: [Contact] = [], unchanged: [Contact] = []
        var seen = Set<String>()
        for contact in try references.map(resolve) where seen.insert(contact.uid).inserted {
            // Members are compared without `urn:uuid:`, which a card's MEMBER has and a UID may not.
            let key = GroupCard.memberUID(contact.uid)
            let isMember = members.contains { GroupCard.memberUID($0) == key }
            if adding && !isMember {
                members.append(contact.uid); changed.append(contact)
            } else if !adding && isMember {
                members.removeAll { GroupCard.memberUID($0) == key }; changed.append(contact)
            } else {
                unchanged.append(contact)
            }
        }
        guard !changed.isEmpty else { return GroupMembersChange(group: group, changed: [], unchanged: unchanged) }
        var updated = group
        updated.members = members
        updated.updatedAt = now()
        let names = changed.map(\.fullName).joined(separator: ", ")
        let summary = adding ? "added \(names) to group \(group.name)" : "removed \(names) from group \(group.name)"
        let saved = try translating {
            try groupKeeper().saveGroup(GroupCard.updated(updated), kind: .edit, summary: summary)
        }
        announceGroup()
        return GroupMembersChange(group: saved, changed: changed, unchanged: unchanged)
    }

    private func checkedName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ContactsFailure.badInput("a group needs a name: group new Family") }
        guard !trimmed.contains(where: \.isNewline) else {
            throw ContactsFailure.badInput("a group's name is one line")
        }
        guard trimmed.count <= Self.longestGroupName else {
            throw ContactsFailure.badInput("a group's name is at most \(Self.longestGroupName) characters")
        }
        return trimmed
    }

    /// The book's convention for a new group: that of its groups when they agree on Apple's
    /// form; else Apple's form when the book's cards are vCard 3.0 (a 3.0 server's); else 4.0.
    private func convention(_ summaries: [GroupSummary]) throws -> GroupConvention {
        if !summaries.isEmpty {
            return summaries.allSatisfy({ $0.group.convention == .apple }) ? .apple : .kind
        }
        let sample = try page(ContactQuery(sort: .last, page: 1, limit: 20, locatesMatches: false)).contacts.compactMap(
            \.card)
        let threes = sample.filter { $0.version != .v4 }.count
        return !sample.isEmpty && threes * 2 > sample.count ? .apple : .kind
    }

    private func announceGroup() {
        changes?.post(DataChange(topic: "groups", kind: "updated", ids: []))
    }
}
