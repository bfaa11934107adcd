import XCTest

@testable import ContactsApp

/// Groups in both stores: kept beside the contacts, never among them; pages filtered by a group
/// or by none; and, in the SQLite book, journalled (undo and redo).
final class GroupStoreTests: XCTestCase {
    private func stores() throws -> [(String, ContactStore & ContactGroupStore)] {
        [("memory", InMemoryContactStore()), ("sqlite", try SQLiteContactStore(path: ":memory:"))]
    }

    private func person(_ given: String, _ family: String, uid: String) -> Contact {
        Contact(
            uid: uid, givenName: given, familyName: family,
            emails: [LabeledValue(label: "home", value: "\(given.lowercased())@example.org")])
    }

    /// Ann, Bob and Cy; Family holds Ann, Cy and a member whose card is elsewhere.
    private func seeded(_ store: ContactStore & ContactGroupStore) throws -> ContactGroup {
        for (given, family, uid) in [("Ann", "Lee", "a"), ("Bob", "Stone", "b"), ("Cy", "Young", "c")] {
            _ = try store.insert(person(given, family, uid: uid))
        }
        return try store.saveGroup(
            GroupCard.new(uid: "g", name: "Family", members: ["c", "a", "elsewhere"], convention: .kind),
            kind: .add, summary: "made group Family")
    }

    func test_groups_areKeptApartFromContacts_withTheirSizes() throws {
        for (name, store) in try stores() {
            // Given
            let family = try seeded(store)
            // When
            let all = try store.page(ContactQuery(sort: .last, limit: 50))
            let summaries = try store.groups()
            // Then: the group is no person; its size counts the member elsewhere, inBook does not
            XCTAssertEqual(all.contacts.map(\.uid), ["a", "b", "c"], name)
            XCTAssertEqual(all.total, 3, name)
            XCTAssertEqual(summaries.map(\.group.name), ["Family"], name)
            XCTAssertEqual(summaries.map(\.group.members), [["c", "a", "elsewhere"]], name)
            XCTAssertEqual(summaries.map(\.inBook), [2], name)
            XCTAssertEqual(family.version, 1, name)
            XCTAssertEqual(try store.groups(containing: "a").map(\.name), ["Family"], name)
            XCTAssertEqual(try store.groups(containing: "b").map(\.name), [], name)
            XCTAssertEqual(try store.groupNames().map(\.name), ["Family"], name)
        }
    }

    func test_aMemberWhoseUIDIsAURN_isFoundByItsGroup_asACardsMemberNamesIt() throws {
        for (name, store) in try stores() {
            // Given: UIDs as an import makes them (`urn:uuid:`), a card's MEMBER naming one as RFC 6350 writes it
            _ = try store.insert(person("Ann", "Lee", uid: "urn:uuid:0a"))
            _ = try store.insert(person("Bob", "Stone", uid: "urn:uuid:0b"))
            let family = try store.saveGroup(
                GroupCard.new(uid: "g", name: "Family", members: ["urn:uuid:0a"], convention: .kind),
                kind: .add, summary: "made group Family")
            let id = try XCTUnwrap(family.id)
            // Then: Ann is listed in the group, Bob in none; her detail names it; she counts in the book
            XCTAssertEqual(
                try store.page(ContactQuery(sort: .last, limit: 10, group: .members(of: id))).contacts.map(\.uid),
                ["urn:uuid:0a"], name)
            XCTAssertEqual(
                try store.page(ContactQuery(sort: .last, limit: 10, group: .ungrouped)).contacts.map(\.uid),
                ["urn:uuid:0b"], name)
            XCTAssertEqual(try store.groups(containing: "urn:uuid:0a").map(\.name), ["Family"], name)
            XCTAssertEqual(try store.groups().map(\.inBook), [1], name)
        }
    }

    func test_page_filteredByAGroup_orByNone_inSortOrder_withASearch() throws {
        for (name, store) in try stores() {
            // Given
            let family = try seeded(store)
            let id = try XCTUnwrap(family.id)
            // When
            let members = try store.page(ContactQuery(sort: .last, limit: 1, group: .members(of: id)))
            let second = try store.page(ContactQuery(sort: .last, page: 2, limit: 1, group: .members(of: id)))
            let ungrouped = try store.page(ContactQuery(sort: .last, limit: 10, group: .ungrouped))
            let searched = try store.page(
                ContactQuery(search: "young", sort: .last, limit: 10, group: .members(of: id)))
            let searchedOutside = try store.page(
                ContactQuery(search: "stone", sort: .last, limit: 10, group: .members(of: id)))
            // Then
            XCTAssertEqual(members.contacts.map(\.uid), ["a"], name)
            XCTAssertEqual(members.total, 2, name)
            XCTAssertEqual(second.contacts.map(\.uid), ["c"], name)
            XCTAssertEqual(ungrouped.contacts.map(\.uid), ["b"], name)
            XCTAssertEqual(ungrouped.total, 1, name)
            XCTAssertEqual(searched.contacts.map(\.uid), ["c"], name)
            XCTAssertEqual(searchedOutside.total, 0, name)
        }
    }

    func test_aGroupsMembers_followTheirContacts_throughAdds_renames_newUIDs_deletesAndUndo() throws {
        for (name, store) in try stores() {
            // Given: Family holds Cy, Ann and "elsewhere", whose card is not here yet
            let family = try seeded(store)
            let id = try XCTUnwrap(family.id)
            func members() throws -> [String] {
                try store.page(ContactQuery(sort: .last, limit: 10, group: .members(of: id))).contacts.map(\.uid)
            }
            func ungrouped() throws -> (uids: [String], total: Int) {
                let page = try store.page(ContactQuery(sort: .last, limit: 10, group: .ungrouped))
                return (page.contacts.map(\.uid), page.total)
            }
            // When: its card arrives, as an import writes the UID
            let eve = try store.insert(person("Eve", "Adams", uid: "urn:uuid:elsewhere"))
            // Then: a member, first by last name
            XCTAssertEqual(try members(), ["urn:uuid:elsewhere", "a", "c"], name)
            XCTAssertEqual(try store.groups().map(\.inBook), [3], name)
            // When: Cy renamed (his sort key moves)
            var cy = try XCTUnwrap(store.page(ContactQuery(search: "young", limit: 5)).contacts.first)
            cy.familyName = "Aaron"
            _ = try store.update(cy)
            // Then: the group's order follows
            XCTAssertEqual(try members(), ["c", "urn:uuid:elsewhere", "a"], name)
            // When: Ann's card gets another UID
            var ann = try XCTUnwrap(store.page(ContactQuery(search: "lee", limit: 5)).contacts.first)
            ann.uid = "a2"
            _ = try store.update(ann)
            // Then: no member any more; in no group, counted there
            XCTAssertEqual(try members(), ["c", "urn:uuid:elsewhere"], name)
            XCTAssertEqual(try ungrouped().uids, ["a2", "b"], name)
            XCTAssertEqual(try ungrouped().total, 2, name)
            // What a mail line reads: members in last-name order, with their emails
            XCTAssertEqual(
                try store.mailContacts(inGroup: id).map { [$0.fullName, $0.emails.first?.value ?? ""] },
                [["Cy Aaron", "cy@example.org"], ["Eve Adams", "eve@example.org"]], name)
            // When: Eve deleted
            try store.delete(id: XCTUnwrap(eve.id), expectedVersion: nil)
            // Then
            XCTAssertEqual(try members(), ["c"], name)
            XCTAssertEqual(try store.groups().map(\.inBook), [1], name)
            XCTAssertEqual(try ungrouped().total, 2, name)
            guard let journal = store as? ContactJournal else { continue }
            // When: her deletion undone (SQLite: restored under her id)
            _ = try journal.undo(changeSet: nil)
            // Then: a member again
            XCTAssertEqual(try members(), ["c", "urn:uuid:elsewhere"], name)
            XCTAssertEqual(try store.groups().map(\.inBook), [2], name)
        }
    }

    func test_saveGroup_refusesAStaleVersion_andDeleteKeepsTheMembers() throws {
        for (name, store) in try stores() {
            // Given
            let family = try seeded(store)
            var renamed = family
            renamed.name = "Kin"
            _ = try store.saveGroup(GroupCard.updated(renamed), kind: .edit, summary: "renamed")
            // When: an edit begun from version 1
            var stale = family
            stale.members = []
            XCTAssertThrowsError(try store.saveGroup(GroupCard.updated(stale), kind: .edit, summary: "x"), name) {
                error in
                XCTAssertEqual(error as? ContactStoreError, .staleVersion(id: family.id!, expected: 1, actual: 2), name)
            }
            // And a delete from the current version
            let current = try XCTUnwrap(store.groups().first?.group)
            try store.deleteGroup(current, summary: "deleted")
            // Then
            XCTAssertEqual(try store.groups().count, 0, name)
            XCTAssertEqual(try store.page(ContactQuery(sort: .last, limit: 10)).total, 3, name)
            XCTAssertEqual(try store.page(ContactQuery(sort: .last, limit: 10, group: .ungrouped)).total, 3, name)
        }
    }

    func test_importGroups_addsNew_andReplacesByUID_leavingTheSameAlone() throws {
        for (name, store) in try stores() {
            // Given
            _ = try seeded(store)
            let changed = GroupCard.new(uid: "g", name: "Family", members: ["a"], convention: .kind)
            let other = GroupCard.new(uid: "g2", name: "Work", members: ["b"], convention: .apple)
            // When
            let first = try store.importGroups([changed, other], summary: "imported 2 groups")
            let again = try store.importGroups([changed, other], summary: "imported 2 groups")
            // Then
            XCTAssertEqual(first.added, 1, name); XCTAssertEqual(first.updated, 1, name)
            XCTAssertEqual(again.added, 0, name); XCTAssertEqual(again.updated, 0, name)
            XCTAssertEqual(try store.groups().map(\.group.members), [["a"], ["b"]], name)
        }
    }

    func test_sqlite_groupChanges_areUndoneAndRedone_andAnUndoBehindALaterChangeIsRefused() throws {
        // Given
        let store = try SQLiteContactStore(path: ":memory:")
        let family = try seeded(store)
        var grown = family
        grown.members.append("b")
        let saved = try store.saveGroup(
            GroupCard.updated(grown), kind: .edit, summary: "added Bob Stone to group Family")
        // When: the first change undone while the later one stands
        let history = try store.history(contactID: nil, limit: 10)
        let made = try XCTUnwrap(history.first { $0.summary == "made group Family" })
        XCTAssertThrowsError(try store.undo(changeSet: made.id)) { error in
            guard case .changedLater? = error as? JournalRefusal else { return XCTFail("\(error)") }
        }
        // Then: undo takes the member back, then the group itself; redo brings it back
        let undone = try store.undo(changeSet: nil)
        XCTAssertEqual(undone.summary, "added Bob Stone to group Family")
        XCTAssertEqual(try store.groups().map(\.group.members), [["c", "a", "elsewhere"]])
        _ = try store.undo(changeSet: nil)
        XCTAssertEqual(try store.groups().count, 0)
        _ = try store.redo()
        XCTAssertEqual(try store.groups().map(\.group.card), [family.card])
        XCTAssertEqual(try store.groups().first?.group.id, family.id)
        XCTAssertEqual(try store.page(ContactQuery(sort: .last, limit: 10, group: .members(of: family.id!))).total, 2)
        XCTAssertEqual(saved.version, 2)
    }

    func test_sqlite_aGroupIsInNoDuplicatesNorBirthdays() throws {
        // Given: a group named as a person is
        let store = try SQLiteContactStore(path: ":memory:")
        _ = try store.insert(person("Ann", "Lee", uid: "a"))
        _ = try store.saveGroup(
            GroupCard.new(uid: "g", name: "Ann Lee", members: ["a"], convention: .kind), kind: .add, summary: "x")
        // Then
        XCTAssertEqual(try store.sharedMatchKeys(defaultCountry: nil), [])
        XCTAssertEqual(try store.contactsWithBirthdays(), [])
        XCTAssertEqual(try store.page(ContactQuery(search: "ann", sort: .last, limit: 10)).contacts.map(\.uid), ["a"])
    }
}
