import Foundation
import XCTest

@testable import ContactsApp

final class SyncMergeTests: XCTestCase {
    let base = Contact(
        id: 7, uid: "ann", givenName: "Ann", familyName: "Lee", title: "Engineer",
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

    func test_merge_sameFieldBothSides_serverWinsByDefault_localValueKeptInTheNotes() {
        // Given
        var local = base
        local.title = "Local Boss"
        var remote = base
        remote.title = "Remote Chief"

        // When
        let result = SyncMerge.merge(base: base, local: local, remote: remote)

        // Then
        XCTAssertEqual(
            result.conflicts, [.init(field: "title", winner: .server, kept: "Remote Chief", lost: "Local Boss")])
        XCTAssertEqual(result.contact.title, "Remote Chief")
        XCTAssertEqual(result.contact.notes, "met 2019\nsync conflict: title here was: Local Boss")
    }

    func test_merge_sameFieldBothSides_localWins_serverValueKeptInTheNotes() {
        // Given: the title and the birthday changed differently on both sides, the org on the server only
        var local = base
        local.title = "Local Boss"
        local.birthday = Birthday(year: 1980, month: 5, day: 4)
        var remote = base
        remote.title = "Remote Chief"
        remote.birthday = Birthday(year: nil, month: 6, day: 1)
        remote.organization = "Acme"

        // When
        let result = SyncMerge.merge(base: base, local: local, remote: remote, winner: .local)

        // Then
        XCTAssertEqual(
            result.conflicts,
            [
                .init(field: "title", winner: .local, kept: "Local Boss", lost: "Remote Chief"),
                .init(field: "birthday", winner: .local, kept: "1980-05-04", lost: "--06-01"),
            ])
        XCTAssertEqual(result.contact.title, "Local Boss")
        XCTAssertEqual(result.contact.birthday, Birthday(year: 1980, month: 5, day: 4))
        XCTAssertEqual(result.contact.organization, "Acme")
        XCTAssertEqual(
            result.contact.notes,
            "met 2019\nsync conflict: title on the server was: Remote Chief\n"
                + "sync conflict: birthday on the server was: --06-01")
    }

    func test_merge_fieldClearedOnTheServer_localWins_noEmptyLineInTheNotes() {
        var local = base
        local.title = "Director"
        var remote = base
        remote.title = ""

        let result = SyncMerge.merge(base: base, local: local, remote: remote, winner: .local)

        XCTAssertEqual(result.conflicts, [.init(field: "title", winner: .local, kept: "Director", lost: "")])
        XCTAssertEqual(result.contact.title, "Director")
        XCTAssertEqual(result.contact.notes, "met 2019")
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

        XCTAssertEqual(result.conflicts.map(\.field), ["title"])
        XCTAssertEqual(result.contact.title, "Engineer")
        XCTAssertEqual(result.contact.tags, ["work", "family"])
    }

    func test_merge_noBase_localWins_keepsEveryLocalValue() {
        var local = base
        local.title = "Director"

        let result = SyncMerge.merge(base: nil, local: local, remote: base, winner: .local)

        XCTAssertEqual(result.conflicts.map(\.field), ["title"])
        XCTAssertEqual(result.contact.title, "Director")
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
        // Given
        var summary = SyncSummary(account: "home")
        summary.pulled = 3; summary.pushed = 1; summary.merged = 1; summary.conflicts = 1
        summary.conflicted = [
            .init(
                name: "Ann Lee",
                fields: [
                    .init(field: "title", winner: .server, kept: "Remote Chief", lost: "Local Boss")
                ])
        ]

        // When, Then
        XCTAssertEqual(
            sut.summary(summary),
            "home: pulled 3, pushed 1, merged 1, conflicts 1 "
                + "(Ann Lee: title \"Remote Chief\" from the server kept over \"Local Boss\")")
        summary.resurrected = 2; summary.resynced = true
        XCTAssertEqual(
            sut.summary(summary),
            "home: pulled 3, pushed 1, merged 1, conflicts 1 "
                + "(Ann Lee: title \"Remote Chief\" from the server kept over \"Local Boss\"); kept 2 deleted "
                + "on one side and edited on the other; the sync token was refused, compared every card")
    }

    func test_summary_namesEachFailedCard_withTheServersStatusAndReason_orWhyItWasNotRead() {
        var summary = SyncSummary(account: "home")
        summary.pulled = 2; summary.pushed = 3
        summary.failed = [
            .init(name: "Cy Dee", direction: .push, status: 415, reason: "Unsupported Media Type: Parse error"),
            .init(name: "odd.vcf", direction: .pull, reason: "line 3: not a vCard property"),
        ]
        XCTAssertEqual(
            sut.summary(summary),
            "home: pulled 2, pushed 3, merged 0, conflicts 0; 2 cards failed, tried "
                + "again at the next sync (Cy Dee: not sent, the server answered 415 Unsupported Media Type: "
                + "Parse error; odd.vcf: not read here: line 3: not a vCard property)")
        XCTAssertEqual(
            sut.failedCards(summary), "account home: 2 cards could not be synced; they are tried again at the next sync"
        )
        summary.failed.removeLast()
        XCTAssertEqual(
            sut.failedCards(summary), "account home: 1 card could not be synced; it is tried again at the next sync")
        XCTAssertNil(sut.failedCards(SyncSummary(account: "home")))
    }

    func test_summary_localWins_namesTheServersLostValues_perContact() {
        var summary = SyncSummary(account: "home")
        summary.merged = 2; summary.conflicts = 3
        summary.conflicted = [
            .init(
                name: "Ann Lee",
                fields: [
                    .init(field: "title", winner: .local, kept: "Boss", lost: "Chief"),
                    .init(field: "nickname", winner: .local, kept: "", lost: "Annie"),
                ]),
            .init(name: "Bob Ray", fields: [.init(field: "notes", winner: .local, kept: "here", lost: "there")]),
        ]

        XCTAssertEqual(
            sut.summary(summary),
            "home: pulled 0, pushed 0, merged 2, conflicts 3 "
                + "(Ann Lee: title \"Boss\" from here kept over \"Chief\", nickname (empty) from here kept over "
                + "\"Annie\"; Bob Ray: notes \"here\" from here kept over \"there\")")
    }

    func test_accounts_oneLineEach_withTheConflictSetting_andAHintWhenNone() {
        XCTAssertEqual(
            sut.accounts([
                SyncAccount(name: "home", serverURL: "u", bookURL: "http://h/b/", user: "ann", isDefault: true),
                SyncAccount(name: "work", serverURL: "u", bookURL: "http://w/b/", user: "ann", conflicts: .local),
            ]), "home\tann\thttp://h/b/\tconflicts: server\t(default)\nwork\tann\thttp://w/b/\tconflicts: local\n")
        XCTAssertTrue(sut.accounts([]).hasPrefix("No accounts."))
    }

    func test_added_namesTheBookFound_andTheDefault() {
        XCTAssertEqual(
            sut.added(
                SyncAccount(
                    name: "home", serverURL: "u", bookURL: "http://h/b/", user: "ann",
                    isDefault: true)), "Added account home: http://h/b/ (default)\n")
        XCTAssertEqual(
            sut.added(SyncAccount(name: "work", serverURL: "u", bookURL: "http://w/b/", user: "ann")),
            "Added account work: http://w/b/\n")
    }

    func test_updated_saysTheSettingAndTheDefault() {
        XCTAssertEqual(
            sut.updated(
                SyncAccount(
                    name: "home", serverURL: "u", bookURL: "b", user: "ann", isDefault: true,
                    conflicts: .local)), "Account home: conflicts: local (default).\n")
    }
}
