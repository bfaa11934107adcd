import SceneCore
import XCTest

@testable import ContactsApp

/// The list's groups through each part of the VIP cycle alone, and the scene end to end.
final class ListContactsGroupsInteractorTests: XCTestCase {
    var sut: ListContactsInteractor!
    var workerSpy: ListContactsGroupsLogicSpy!
    var groupsPresenterSpy: ListContactsGroupsPresentationLogicSpy!
    var presenterSpy: ListContactsInteractorTests.ListContactsPresentationLogicSpy!

    override func setUp() {
        super.setUp()
        let store = Seeds.book()
        workerSpy = ListContactsGroupsLogicSpy()
        sut = ListContactsInteractor(
            worker: Seeds.worker(store), transferWorker: Seeds.transferWorker(store),
            groupsWorker: workerSpy, pageSize: 2)
        groupsPresenterSpy = ListContactsGroupsPresentationLogicSpy()
        presenterSpy = ListContactsInteractorTests.ListContactsPresentationLogicSpy()
        sut.groupsPresenter = groupsPresenterSpy
        sut.presenter = presenterSpy
    }

    static let family = ContactGroup(
        id: 7, uid: "g", name: "Family", members: ["uid-ann"],
        card: GroupCard.new(uid: "g", name: "Family", members: ["uid-ann"], convention: .kind).card,
        version: 1)

    final class ListContactsGroupsLogicSpy: ListContactsGroupsLogic {
        var failure: ContactsFailure?
        private(set) var calls: [String] = []
        func groups() throws -> [GroupSummary] {
            calls.append("groups")
            if let failure { throw failure }
            return [GroupSummary(group: ListContactsGroupsInteractorTests.family, inBook: 1)]
        }
        func group(named name: String) throws -> ContactGroup {
            calls.append("group \(name)")
            if let failure { throw failure }
            return ListContactsGroupsInteractorTests.family
        }
        func newGroup(named name: String, book: String?) throws -> ContactGroup {
            calls.append("new \(name)" + (book.map { " --book \($0)" } ?? ""))
            if let failure { throw failure }
            return ListContactsGroupsInteractorTests.family
        }
        func renameGroup(_ name: String, to newName: String) throws -> (old: String, group: ContactGroup) {
            calls.append("rename \(name) \(newName)")
            return (name, ListContactsGroupsInteractorTests.family)
        }
        func deleteGroup(named name: String) throws -> ContactGroup {
            calls.append("delete \(name)")
            return ListContactsGroupsInteractorTests.family
        }
        func addMembers(_ references: [String], to name: String) throws -> GroupMembersChange {
            calls.append("add \(name) \(references)")
            if let failure { throw failure }
            return GroupMembersChange(
                group: ListContactsGroupsInteractorTests.family,
                changed: [Seeds.stored(Seeds.Contacts.ann, id: 1)], unchanged: [])
        }
        func removeMembers(_ references: [String], from name: String) throws -> GroupMembersChange {
            calls.append("remove \(name) \(references)")
            return GroupMembersChange(
                group: ListContactsGroupsInteractorTests.family, changed: [],
                unchanged: [Seeds.stored(Seeds.Contacts.jose, id: 2)])
        }
        func groups(of contact: Contact) throws -> [ContactGroup] { [] }
    }

    final class ListContactsGroupsPresentationLogicSpy: ListContactsGroupsPresentationLogic {
        private(set) var groupsResponses: [ListContacts.ListGroups.Response] = []
        private(set) var changedResponses: [ListContacts.ChangeGroup.Response] = []
        func presentGroups(response: ListContacts.ListGroups.Response) { groupsResponses.append(response) }
        func presentChangedGroup(response: ListContacts.ChangeGroup.Response) { changedResponses.append(response) }
    }

    func test_listGroups_presentsTheWorkersGroups() {
        // When
        sut.listGroups(request: .init())
        // Then
        XCTAssertEqual(groupsPresenterSpy.groupsResponses.map { $0.groups.map(\.group.name) }, [["Family"]])
        XCTAssertEqual(presenterSpy.failures, [])
    }

    func test_changeGroup_new_joinsAnUnquotedNameOfSeveralWords() {
        // When
        sut.changeGroup(request: .init(action: .new, name: "Book", values: ["club"]))
        // Then
        XCTAssertEqual(workerSpy.calls, ["new Book club"])
        XCTAssertEqual(groupsPresenterSpy.changedResponses.map(\.action), [.new])
    }

    func test_changeGroup_new_passesTheBook_andABookWithAnotherActionIsRefused() {
        // When
        sut.changeGroup(request: .init(action: .new, name: "Team", book: "work"))
        sut.changeGroup(request: .init(action: .add, name: "Team", values: ["1"], book: "work"))
        // Then
        XCTAssertEqual(workerSpy.calls, ["new Team --book work"])
        XCTAssertEqual(
            presenterSpy.failures,
            [.badInput("--book goes with group new: a group's book is where it was made or found")])
    }

    func test_changeGroup_rename_needsTheNewName() {
        // When
        sut.changeGroup(request: .init(action: .rename, name: "Family"))
        sut.changeGroup(request: .init(action: .rename, name: "Family", values: ["Close", "kin"]))
        // Then
        XCTAssertEqual(presenterSpy.failures, [.badInput("name the new name: group rename OLD NEW")])
        XCTAssertEqual(workerSpy.calls, ["rename Family Close kin"])
        XCTAssertEqual(groupsPresenterSpy.changedResponses.first?.oldName, "Family")
    }

    func test_changeGroup_addAndRemove_passTheContacts_andPresentWhatChanged() {
        // When
        sut.changeGroup(request: .init(action: .add, name: "Family", values: ["1", "ann lee"]))
        sut.changeGroup(request: .init(action: .remove, name: "Family", values: ["2"]))
        // Then
        XCTAssertEqual(workerSpy.calls, ["add Family [\"1\", \"ann lee\"]", "remove Family [\"2\"]"])
        XCTAssertEqual(groupsPresenterSpy.changedResponses.map { $0.changed.map(\.id) }, [[1], []])
        XCTAssertEqual(groupsPresenterSpy.changedResponses.map { $0.unchanged.map(\.id) }, [[], [2]])
    }

    func test_changeGroup_whenTheWorkerFails_presentsTheFailure() {
        // Given
        workerSpy.failure = .badInput("no group is named \"x\"; groups lists them")
        // When
        sut.changeGroup(request: .init(action: .add, name: "x", values: ["1"]))
        // Then
        XCTAssertTrue(groupsPresenterSpy.changedResponses.isEmpty)
        XCTAssertEqual(presenterSpy.failures, [.badInput("no group is named \"x\"; groups lists them")])
    }

    func test_fetchContacts_withAGroup_filtersTheQuery_andKeepsItForTheNextPage() {
        // When
        sut.fetchContacts(request: .init(page: .number(1), search: "", filter: .init(group: "fam")))
        let filtered = presenterSpy.fetchedResponse
        sut.fetchContacts(request: .init(search: "ann"))
        // Then
        XCTAssertEqual(workerSpy.calls, ["group fam"])
        XCTAssertEqual(filtered?.query.group, .members(of: 7))
        XCTAssertEqual(filtered?.groupName, "Family")
        XCTAssertEqual(presenterSpy.fetchedResponse?.query.group, .members(of: 7))
        XCTAssertEqual(presenterSpy.fetchedResponse?.groupName, "Family")
        XCTAssertEqual(presenterSpy.fetchedResponse?.page.contacts.map(\.uid), [])
    }

    func test_fetchContacts_plainList_clearsTheGroup_andBothFiltersAreRefused() {
        // Given
        sut.fetchContacts(request: .init(filter: .init(ungrouped: true)))
        XCTAssertEqual(presenterSpy.fetchedResponse?.query.group, .ungrouped)
        // When
        sut.fetchContacts(request: .init(filter: .init(group: "Family", ungrouped: true)))
        let refused = presenterSpy.failures
        sut.fetchContacts(request: .init(filter: .all))
        // Then
        XCTAssertEqual(refused, [.badInput("list either --group NAME or --ungrouped, not both")])
        XCTAssertEqual(presenterSpy.fetchedResponse?.query.group, nil)
        XCTAssertEqual(presenterSpy.fetchedResponse?.page.total, 4)
    }
}

final class ListContactsGroupsPresenterTests: XCTestCase {
    final class DisplaySpy: ListContactsGroupsDisplayLogic {
        private(set) var groups: [ListContacts.ListGroups.ViewModel] = []
        private(set) var changed: [ListContacts.ChangeGroup.ViewModel] = []
        func displayGroups(viewModel: ListContacts.ListGroups.ViewModel) { groups.append(viewModel) }
        func displayChangedGroup(viewModel: ListContacts.ChangeGroup.ViewModel) { changed.append(viewModel) }
    }

    func test_presentGroups_givesSizesAndConvention() {
        // Given
        let sut = ListContactsPresenter(
            formatter: ContactFormatter(timeZone: .gmt))
        let spy = DisplaySpy()
        sut.groupsViewController = spy
        var apple = GroupCard.new(uid: "w", name: "Work", members: ["a", "b"], convention: .apple)
        apple.id = 3
        // When
        sut.presentGroups(response: .init(groups: [GroupSummary(group: apple, inBook: 1)]))
        sut.presentGroups(response: .init(groups: []))
        // Then
        XCTAssertEqual(
            spy.groups,
            [
                .init(
                    groups: [
                        .init(
                            id: 3, uid: "w", name: "Work", size: 2, inBook: 1, members: ["a", "b"], convention: "apple")
                    ],
                    caption: "1 group"),
                .init(groups: [], caption: "No groups yet; make one with 'group new NAME'"),
            ])
        XCTAssertEqual(
            spy.groups.first?.layout,
            .table(
                columns: [.init("Group"), .init("Members", alignRight: true)],
                rows: [["Work", "2 (1 in this book)"]], caption: "1 group"))
    }

    func test_presentChangedGroup_saysWhatChanged_andWhatWasLeft() {
        // Given
        let sut = ListContactsPresenter(
            formatter: ContactFormatter(timeZone: .gmt))
        let spy = DisplaySpy()
        sut.groupsViewController = spy
        let family = ListContactsGroupsInteractorTests.family
        // When
        sut.presentChangedGroup(
            response: .init(
                action: .add, group: family, changed: [Seeds.stored(Seeds.Contacts.ann, id: 1)],
                unchanged: [Seeds.stored(Seeds.Contacts.jose, id: 2)]))
        sut.presentChangedGroup(response: .init(action: .rename, group: family, oldName: "Kin"))
        // Then
        XCTAssertEqual(
            spy.changed,
            [
                .init(
                    action: "add", id: 7, uid: "g", name: "Family", members: ["uid-ann"], changed: [1],
                    text: "Added Ann Lee to Family (1 member)", notes: ["José Ñúñez was a member already"]),
                .init(
                    action: "rename", id: 7, uid: "g", name: "Family", members: ["uid-ann"], changed: [],
                    text: "Renamed group Kin to Family", notes: []),
            ])
    }
}

/// The scene as a person drives it: lines through the session, the ViewModels displayed.
final class ListContactsGroupsFlowTests: XCTestCase {
    func test_groupWords_throughTheSession() throws {
        // Given: the seeded book in the SQLite store, so changes are journalled
        let store = try SQLiteContactStore(path: ":memory:")
        for contact in Seeds.Contacts.book { _ = try store.insert(contact) }
        let session = ContactsSceneFactory.makeSession(environment: Seeds.environment(store: store))
        // When
        _ = session.handle(line: "group new Book club")
        _ = session.handle(line: "group add book 1 \"josé ñúñez\"")
        let listed = session.handle(line: "list --group book")
        let ungrouped = session.handle(line: "list --ungrouped")
        let shown = session.handle(line: "show 2")
        _ = session.handle(line: "back")
        let undone = session.handle(line: "undo")
        let after = session.handle(line: "groups")
        // Then
        let list = try XCTUnwrap(listed.displayed.last as? ListContacts.FetchContacts.ViewModel)
        XCTAssertEqual(list.rows.map(\.id), [1, 2])
        XCTAssertEqual(list.group, "Book club")
        XCTAssertEqual(list.caption, "Page 1 of 1 · 2 contacts in group Book club · by last name")
        let rest = try XCTUnwrap(ungrouped.displayed.last as? ListContacts.FetchContacts.ViewModel)
        XCTAssertEqual(rest.rows.map(\.id), [4, 3])
        XCTAssertTrue(rest.ungrouped)
        let detail = try XCTUnwrap(shown.displayed.compactMap { $0 as? ShowContact.FetchContact.ViewModel }.last)
        XCTAssertEqual(detail.contact.groups, ["Book club"])
        XCTAssertTrue(detail.fields.contains(.init(label: "Groups", value: "Book club")))
        XCTAssertEqual((undone.displayed.last as? Message)?.text, "Undid: added Ann Lee, José Ñúñez to group Book club")
        let groups = try XCTUnwrap(after.displayed.last as? ListContacts.ListGroups.ViewModel)
        XCTAssertEqual(groups.groups.map(\.size), [0])
    }

    func test_listFlags_parseAnywhere_andAMissingValueIsAnError() throws {
        let spec = ListContactsViewController.descriptor.actions.first { $0.name == "list" }!
        XCTAssertEqual(
            try CommandLineParser.parse("list --group 'Book club' 2", actions: [spec]),
            ActionCall("list", ["group": .string("Book club"), "page": .integer(2)]))
        XCTAssertEqual(
            try CommandLineParser.parse("list 2 10 --ungrouped", actions: [spec]),
            ActionCall("list", ["page": .integer(2), "limit": .integer(10), "ungrouped": .boolean(true)]))
        XCTAssertThrowsError(try CommandLineParser.parse("list --group", actions: [spec]))
        XCTAssertEqual(
            try CommandLineParser.parse("list --book work", actions: [spec]),
            ActionCall("list", ["book": .string("work")]))
        XCTAssertEqual(spec.usage, "list [PAGE] [LIMIT] [--group GROUP] [--ungrouped] [--book BOOK]")
    }
}
