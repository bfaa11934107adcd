import GRDB
import XCTest

@testable import ContactsApp

/// Duplicates grouped from the store's index, merges saved in one transaction, upcoming
/// birthdays: the same answers from the SQLite store and the in-memory one.
final class ContactToolsWorkerTests: XCTestCase {
    private func summary(_ groups: [DuplicateGroup]) -> [String] {
        groups.map { group in
            group.contacts.map { "#\($0.id ?? 0)" }.joined(separator: " ") + ": "
                + group.reasons.map { "\($0.kind.rawValue) \($0.value)\($0.withoutCountryCode ? " (no code)" : "")" }
                .joined(separator: "; ")
        }
    }

    func test_duplicates_groupsStrongestFirst_eachWithWhy_inBothStores() throws {
        for (name, store) in try ToolsSeeds.stores() {
            // Given: a US book
            let sut = ContactsWorker(environment: ToolsSeeds.environment(store))
            // When
            let groups = try sut.duplicates()
            // Then: the shared email first, then the shared phone (written two ways), then the near name
            XCTAssertEqual(
                summary(groups),
                [
                    "#1 #2: email ann@example.org; phone +15550001111; name @example.org",
                    "#3 #4: phone +15550002222",
                    "#5 #6: name initech",
                ], name)
        }
    }

    func test_duplicates_withoutACountry_numbersWrittenWithoutTheirCodeMeetByTheirNationalNumber() throws {
        for (name, store) in try ToolsSeeds.stores() {
            let sut = ContactsWorker(environment: ToolsSeeds.environment(store, country: nil))
            XCTAssertEqual(
                summary(try sut.duplicates()),
                [
                    "#1 #2: email ann@example.org; phone +15550001111 (no code); name @example.org",
                    "#3 #4: phone +15550002222 (no code)",
                    "#5 #6: name initech",
                ], name)
        }
    }

    func test_duplicates_withoutACountry_aTrunkZeroIsDropped_andTwoCodesThatFitPairNothing() throws {
        // Given a UK number written at home and abroad, and a national number two `+` numbers fit
        let store = InMemoryContactStore([
            ToolsSeeds.person("Tom", "Hardy", phones: ["020 7946 0000"]),
            ToolsSeeds.person("Thomas", "Brown", phones: ["+44 20 7946 0000"]),
            ToolsSeeds.person("Ida", "West", phones: ["612 345 678"]),
            ToolsSeeds.person("Ida", "East", phones: ["+34 612 345 678"]),
            ToolsSeeds.person("Ola", "North", phones: ["+47 612 345 678"]),
            ToolsSeeds.person("Kit", "Short", phones: ["12345"]),
            ToolsSeeds.person("Kat", "Shorter", phones: ["+1 12345"]),
        ])
        let sut = ContactsWorker(environment: ToolsSeeds.environment(store, country: nil))
        // Then only the UK pair: the other number could be Spain's or Norway's, and 5 digits are too few
        XCTAssertEqual(summary(try sut.duplicates()), ["#1 #2: phone +442079460000 (no code)"])
    }

    func test_duplicates_keptOnSave_andForgottenOnDelete() throws {
        // Given
        let store = try ToolsSeeds.sqlite()
        let sut = ContactsWorker(environment: ToolsSeeds.environment(store))
        // When: Carol gets Bob's number, and Robert is deleted
        var carol = try XCTUnwrap(store.contact(id: 8))
        carol.phones = [LabeledValue(label: "home", value: "555.000.2222")]
        _ = try sut.update(carol)
        try sut.delete(try sut.contact(id: 4))
        // Then
        XCTAssertEqual(summary(try sut.duplicates()).dropFirst().first, "#3 #8: phone +15550002222")
    }

    func test_duplicates_ofAnOlderBook_areFilledByTheMigration() throws {
        // Given: a book whose index was lost, as one made before the migration
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dups-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let store = try SQLiteContactStore(path: path)
            for contact in ToolsSeeds.book { _ = try store.insert(contact) }
        }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "DROP TABLE contact_key; " + StoreSeeds.forgetting([SQLiteContactStore.addMatchKeys]))
        }
        try queue.close()
        // When
        let sut = ContactsWorker(environment: ToolsSeeds.environment(try SQLiteContactStore(path: path)))
        // Then
        XCTAssertEqual(try sut.duplicates().count, 3)
    }

    func test_duplicates_ofABookIndexedByKindFirst_sameGroupsFromTheIndexOrderedByKey() throws {
        // Given: a book with the duplicate index as it was first made, (kind, key, id)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dups-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before: [String]
        do {
            let store = try SQLiteContactStore(path: path)
            for contact in ToolsSeeds.book { _ = try store.insert(contact) }
            before = summary(try ContactsWorker(environment: ToolsSeeds.environment(store)).duplicates())
        }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    DROP INDEX contact_key_by_key; CREATE INDEX contact_key_lookup ON contact_key(kind, key, id);
                    """ + StoreSeeds.forgetting([SQLiteContactStore.orderMatchKeysByKey]))
        }
        try queue.close()
        // When
        let sut = ContactsWorker(environment: ToolsSeeds.environment(try SQLiteContactStore(path: path)))
        // Then: the index is ordered by key, and the groups are the same, in the same order
        XCTAssertEqual(try summary(sut.duplicates()), before)
        XCTAssertEqual(before.count, 3)
        let indexes = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'contact_key' ORDER BY name"
            )
        }
        XCTAssertEqual(
            indexes,
            [
                "CREATE INDEX contact_key_by_key ON contact_key(key, kind, id)",
                "CREATE INDEX contact_key_id ON contact_key(id)",
            ])
    }

    // MARK: - Merge

    func test_merge_unionWithoutRepeats_firstsSingleFields_differencesReported() throws {
        for (name, store) in try ToolsSeeds.stores() {
            let sut = ContactsWorker(environment: ToolsSeeds.environment(store))
            // When
            let result = try sut.merge(["1", "#2"])
            // Then
            let merged = try XCTUnwrap(store.contact(id: 1))
            XCTAssertEqual(merged, result.merged, name)
            XCTAssertEqual(merged.givenName, "Ann", name)
            XCTAssertEqual(merged.nickname, "Annie", "empty in the first: taken from the other, \(name)")
            XCTAssertEqual(merged.birthday, Birthday(year: 1990, month: 5, day: 17), name)
            XCTAssertEqual(merged.emails.map(\.value), ["ann@example.org", "anne.lee@home.example"], name)
            XCTAssertEqual(merged.phones.map(\.value), ["+1 555 000 1111"], "the same number written two ways, \(name)")
            XCTAssertEqual(merged.tags, ["Friends", "work"], name)
            XCTAssertEqual(merged.version, 2, name)
            XCTAssertEqual(merged.updatedAt, Seeds.now, name)
            XCTAssertNil(try store.contact(id: 2), name)
            XCTAssertEqual(result.removed.map(\.id), [2], name)
            XCTAssertEqual(
                result.differences.map { "\($0.field) \($0.kept) \($0.dropped) #\($0.from.id ?? 0)" },
                ["given Ann Anne #2"], name)
        }
    }

    func test_merge_refusesBadInput_andChangesNothing() throws {
        let store = InMemoryContactStore(ToolsSeeds.book)
        let sut = ContactsWorker(environment: ToolsSeeds.environment(store))
        XCTAssertThrowsError(try sut.merge(["1"])) {
            XCTAssertEqual(
                $0 as? ContactsFailure, .badInput("merge needs two contacts or more, the first kept: merge 3 7"))
        }
        XCTAssertThrowsError(try sut.merge(["1", "#1"])) {
            XCTAssertEqual(
                $0 as? ContactsFailure, .badInput("Ann Lee (#1) is named twice; merge needs different contacts"))
        }
        XCTAssertThrowsError(try sut.merge(["1", "99"])) {
            XCTAssertEqual($0 as? ContactsFailure, .notFound(reference: "#99"))
        }
        XCTAssertEqual(try store.page(ContactQuery(limit: 100)).total, 8)
        XCTAssertEqual(try store.contact(id: 1)?.version, 1)
    }

    func test_storeMerge_isOneTransaction_aStaleContactWritesNothing() throws {
        for (name, store) in try ToolsSeeds.stores() {
            // Given: #3 changed by someone else after it was read
            let kept = try XCTUnwrap(store.contact(id: 1))
            let stale = try XCTUnwrap(store.contact(id: 3))
            _ = try store.update(stale)
            var merged = kept
            merged.nickname = "merged"
            // When
            XCTAssertThrowsError(
                try store.merge(keeping: merged, removing: [try XCTUnwrap(store.contact(id: 2)), stale]), name)
            // Then: neither the update nor the first delete happened
            XCTAssertEqual(try store.contact(id: 1), kept, name)
            XCTAssertNotNil(try store.contact(id: 2), name)
        }
    }

    // MARK: - Birthdays

    func test_upcomingBirthdays_soonestFirst_withinTheDays_inTheInjectedTimeZone() throws {
        // Given: today is 2023-11-15 (Seeds.now, UTC)
        let store = InMemoryContactStore([
            ToolsSeeds.person("Late", "One", birthday: Birthday(year: 1980, month: 12, day: 15)),
            ToolsSeeds.person("Today", "Two", birthday: Birthday(year: nil, month: 11, day: 15)),
            ToolsSeeds.person("Tomorrow", "Three", birthday: Birthday(year: 2000, month: 11, day: 16)),
            ToolsSeeds.person("Passed", "Four", birthday: Birthday(year: 2000, month: 11, day: 14)),
            ToolsSeeds.person("No", "Birthday"),
        ])
        let sut = ContactsWorker(environment: ToolsSeeds.environment(store))
        // When
        let (today, upcoming) = try sut.upcomingBirthdays(days: 30)
        // Then
        XCTAssertEqual(today, CalendarDay(year: 2023, month: 11, day: 15))
        XCTAssertEqual(
            upcoming.map {
                "\($0.contact.givenName) \($0.date.isoString) \($0.age.map(String.init) ?? "-") \($0.daysAway)"
            },
            ["Today 2023-11-15 - 0", "Tomorrow 2023-11-16 23 1", "Late 2023-12-15 43 30"])
        XCTAssertEqual(try sut.upcomingBirthdays(days: 29).birthdays.count, 2)
    }
}
