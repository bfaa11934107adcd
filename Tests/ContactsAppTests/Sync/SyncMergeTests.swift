import Foundation
import XCTest
@testable import ContactsApp

final class SyncMergeTests: XCTestCase {
    let base = Contact(id: 7, uid: "ann", givenName: "Ann", familyName: "Lee", title: "Engineer",
                       emails: [LabeledValue(label: "work", value: "ann@acme.example")], notes: "met 2019", version: 3)

    func test_merge_differentFieldsOnEachSide_keepsBoth() {
        // Given
        var local = base
        local.title = "Director"
        var remote = base
        remote.organization = "Acme"

        // When
        let result = SyncMerge.merge(base: base, local: local, remote: remote)

        // Then
        XCTAssertEqual(result.conflicts, [])
        XCTAssertEqual(result.contact.title, "Director")
        XCTAssertEqual(result.contact.organization, "Acme")
        XCTAssertEqual(result.contact.id, 7)
        XCTAssertEqual(result.contact.version, 3)
    }

    func test_merge_sameFieldBothSides_serverWins_localValueKeptInTheNotes() {
        var local = base
        local.title = "Local Boss"
        var remote = base
        remote.title = "Remote Chief"

        let result = SyncMerge.merge(base: base, local: local, remote: remote)

        XCTAssertEqual(result.conflicts, ["title"])
        XCTAssertEqual(result.contact.title, "Remote Chief")
        XCTAssertEqual(result.contact.notes, "met 2019\nsync conflict: title here was: Local Boss")
    }

    func test_merge_sameChangeOnBothSides_isNoConflict() {
        var local = base
        local.title = "Director"
        let result = SyncMerge.merge(base: base, local: local, remote: local)
        XCTAssertEqual(result.conflicts, [])
        XCTAssertEqual(result.contact.title, "Director")
    }

    func test_merge_lists_itemsAddedAndRemovedOnEitherSide() {
        // Given: an email added here, the work email removed there, a phone added there
        var local = base
        local.emails.append(LabeledValue(label: "home", value: "ann@home.example"))
        var remote = base
        remote.emails = []
        remote.phones = [LabeledValue(label: "mobile", value: "+1 555 0100")]

        let result = SyncMerge.merge(base: base, local: local, remote: remote)

        XCTAssertEqual(result.conflicts, [])
        XCTAssertEqual(result.contact.emails, [LabeledValue(label: "home", value: "ann@home.example")])
        XCTAssertEqual(result.contact.phones, [LabeledValue(label: "mobile", value: "+1 555 0100")])
    }

    func test_merge_noBase_everyDifferenceIsAConflict_listsUnited() {
        var local = base
        local.title = "Director"
        local.tags = ["family"]
        var remote = base
        remote.tags = ["work"]

        let result = SyncMerge.merge(base: nil, local: local, remote: remote)

        XCTAssertEqual(result.conflicts, ["title"])
        XCTAssertEqual(result.contact.title, "Engineer")
        XCTAssertEqual(result.contact.tags, ["work", "family"])
    }

    func test_sameFields_ignoresIdsVersionsAndTimes() {
        var other = base
        other.id = 9; other.version = 1; other.updatedAt = Date(timeIntervalSince1970: 99); other.uid = "x"
        XCTAssertTrue(SyncMerge.sameFields(base, other))
        other.nickname = "A"
        XCTAssertFalse(SyncMerge.sameFields(base, other))
    }
}

final class SyncPresenterTests: XCTestCase {
    let sut = SyncPresenter()

    func test_summary_namesTheCountsConflictsAndResync() {
        var summary = SyncSummary(account: "home")
        summary.pulled = 3; summary.pushed = 1; summary.merged = 1; summary.conflicts = 1
        summary.conflicted = ["Ann Lee"]
        XCTAssertEqual(sut.summary(summary), "home: pulled 3, pushed 1, merged 1, conflicts 1 (Ann Lee)")
        summary.resurrected = 2; summary.resynced = true
        XCTAssertEqual(sut.summary(summary), "home: pulled 3, pushed 1, merged 1, conflicts 1 (Ann Lee); kept 2 deleted "
                       + "on one side and edited on the other; the sync token was refused, compared every card")
    }

    func test_accounts_oneLineEach_andAHintWhenNone() {
        XCTAssertEqual(sut.accounts([SyncAccount(name: "home", serverURL: "u", bookURL: "http://h/b/", user: "ann",
                                                 isDefault: true)]), "home\tann\thttp://h/b/\t(default)\n")
        XCTAssertTrue(sut.accounts([]).hasPrefix("No accounts."))
    }
}
