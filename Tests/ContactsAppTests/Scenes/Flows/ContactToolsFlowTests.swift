import SceneCore
import SceneCoreTesting
import XCTest

@testable import ContactsApp

/// `duplicates`, `merge` and `birthdays` on the list, through the session as a person or a
/// program drives them: every ViewModel displayed is asserted.
final class ContactToolsFlowTests: XCTestCase {
    typealias DuplicateGroups = Duplicates.FindDuplicates.ViewModel
    typealias Merged = Duplicates.MergeContacts.ViewModel
    typealias UpcomingBirthdays = Birthdays.UpcomingBirthdays.ViewModel

    var store: ContactStore!
    var sut: SceneHarness!

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try ToolsSeeds.sqlite()
        sut = SceneHarness(session: ContactsSceneFactory.makeSession(environment: ToolsSeeds.environment(store)))
    }

    override func tearDown() {
        sut.finish()
        sut = nil
        store = nil
        super.tearDown()
    }

    /// A row of `ToolsSeeds.book`, whose emails are all "work" and phones all "mobile".
    private static func row(
        _ id: Int64, _ name: String, _ organization: String = "", _ emails: [String] = [],
        _ phones: [String] = []
    ) -> ListContacts.Row {
        .init(
            id: id, name: name, organization: organization,
            emails: emails.map { LabeledValue(label: "work", value: $0) },
            phones: phones.map { LabeledValue(label: "mobile", value: $0) })
    }

    static let duplicates = DuplicateGroups(
        groups: [
            .init(
                number: 1,
                reasons: [
                    .init(kind: "email", value: "ann@example.org", text: "same email ann@example.org"),
                    .init(kind: "phone", value: "+15550001111", text: "same phone +1 (555) 000-1111"),
                    .init(kind: "name", value: "@example.org", text: "nearly the same name, both with @example.org"),
                ],
                rows: [
                    row(1, "Ann Lee", "Acme", ["ann@example.org"], ["+1 (555) 000-1111"]),
                    row(2, "Anne Lee", "", ["ANN@Example.org", "anne.lee@home.example"], ["(555) 000-1111"]),
                ], merge: "merge 1 2"),
            .init(
                number: 2, reasons: [.init(kind: "phone", value: "+15550002222", text: "same phone +1 (555) 000-2222")],
                rows: [
                    row(3, "Bob Stone", "", [], ["(555) 000-2222"]),
                    row(4, "Robert Stone", "", [], ["+1 (555) 000-2222"]),
                ],
                merge: "merge 3 4"),
            .init(
                number: 3,
                reasons: [.init(kind: "name", value: "initech", text: "nearly the same name, both at initech")],
                rows: [
                    row(5, "Jon Smith", "Initech", ["jon@initech.example"]),
                    row(6, "John Smith", "Initech", ["john@mail.example"]),
                ],
                merge: "merge 5 6"),
        ], caption: "3 groups of possible duplicates; merge one into its first contact with 'merge 1 2'")

    func test_duplicates_showsTheGroupsStrongestFirst_aBlankLineBetweenGroups() {
        // When
        sut.send("duplicates")
        // Then
        sut.receive(Self.duplicates)
        XCTAssertEqual(
            TextRenderer().lines(for: Self.duplicates.layout),
            [
                "#  Name      Organization  Email            Phone",
                "1  Ann Lee   Acme          ann@example.org  +1 (555) 000-1111",
                "2  Anne Lee                ANN@Example.org  (555) 000-1111",
                "Group 1: same email ann@example.org; same phone +1 (555) 000-1111; nearly the same name, both with @example.org",
                "",
                "#  Name          Organization  Email  Phone",
                "3  Bob Stone                          (555) 000-2222",
                "4  Robert Stone                       +1 (555) 000-2222",
                "Group 2: same phone +1 (555) 000-2222",
                "",
                "#  Name        Organization  Email                Phone",
                "5  Jon Smith   Initech       jon@initech.example",
                "6  John Smith  Initech       john@mail.example",
                "Group 3: nearly the same name, both at initech",
                "",
                "3 groups of possible duplicates; merge one into its first contact with 'merge 1 2'",
            ])
    }

    func test_mergeAGroup_thenDuplicates_showsTheRest() throws {
        // When
        sut.send("merge 1 2")
        // Then
        sut.receive(
            Merged(
                id: 1, name: "Ann Lee", removed: [2],
                differences: [.init(field: "given", kept: "Ann", dropped: "Anne", from: 2)],
                text: "Merged #2 Anne Lee into #1 Ann Lee; values that differed:",
                differenceLines: ["  given: kept \"Ann\", not \"Anne\" from #2"]))
        XCTAssertNil(try store.contact(id: 2))
        XCTAssertEqual(try store.contact(id: 1)?.emails.map(\.value), ["ann@example.org", "anne.lee@home.example"])
        sut.send("duplicates")
        XCTAssertEqual(sut.receive(DuplicateGroups.self)?.groups.map(\.merge), ["merge 3 4", "merge 5 6"])
    }

    func test_merge_byQuotedNames_andOverJSONRPC() {
        // When: names, quoted as on a command line
        sut.send(#"merge "robert stone" "bob stone""#)
        // Then
        XCTAssertEqual(sut.receive(Merged.self)?.differenceLines, ["  given: kept \"Robert\", not \"Bob\" from #3"])
        // And the JSON-RPC spelling: one string parameter
        sut.send(ActionCall(ListContacts.Action.merge, ["contacts": .string("5 '6'")]), inScene: "contacts")
        XCTAssertEqual(sut.receive(Merged.self)?.removed, [6])
    }

    func test_merge_badInput_isAClearError_andChangesNothing() throws {
        sut.send("merge 1")
        sut.receive(Message.error("merge needs two contacts or more, the first kept: merge 3 7", code: .badInput))
        sut.send("merge 1 #1")
        sut.receive(Message.error("Ann Lee (#1) is named twice; merge needs different contacts", code: .badInput))
        sut.send("merge 1 42")
        sut.receive(Message.error("no contact matches '#42'", code: .notFound))
        sut.send("merge 1 smith")
        sut.receive(
            Message.error(
                "'smith' matches 3 contacts: #6 John Smith, #5 Jon Smith, #7 Mary Smith; name one by its number",
                code: .badInput))
        sut.send("merge")
        XCTAssertNotNil(sut.receive(Message.self))
        XCTAssertEqual(try store.page(ContactQuery(limit: 100)).total, 8)
    }

    func test_birthdays_soonestFirst_withTheAgeAndTodayOrTomorrow() throws {
        // Given: today is 2023-11-15 (Seeds.now, UTC)
        for (given, birthday) in [
            ("Leap", Birthday(year: 2000, month: 2, day: 29)),
            ("Today", Birthday(year: nil, month: 11, day: 15)),
            ("Soon", Birthday(year: 1983, month: 11, day: 16)),
        ] {
            _ = try store.insert(ToolsSeeds.person(given, "Day", birthday: birthday))
        }
        // When
        sut.send("birthdays")
        // Then: Anne's 17 May is not within 30 days
        sut.receive(
            UpcomingBirthdays(
                today: "2023-11-15", days: 30,
                entries: [
                    .init(id: 10, name: "Today Day", date: "2023-11-15", age: nil, daysAway: 0, when: "today"),
                    .init(id: 11, name: "Soon Day", date: "2023-11-16", age: 40, daysAway: 1, when: "tomorrow"),
                ], caption: "2 birthdays in the next 30 days"))
        // And: a year ahead, 29 February is there (2024 is a leap year); past 366 days is refused
        sut.send("birthdays 366")
        let entries = sut.receive(UpcomingBirthdays.self)?.entries.map { "\($0.name) \($0.date) \($0.when)" }
        XCTAssertEqual(
            entries,
            [
                "Today Day 2023-11-15 today", "Soon Day 2023-11-16 tomorrow",
                "Leap Day 2024-02-29 in 106 days", "Anne Lee 2024-05-17 in 184 days",
            ])
        sut.send("birthdays 400")
        XCTAssertNotNil(sut.receive(Message.self))
    }
}
