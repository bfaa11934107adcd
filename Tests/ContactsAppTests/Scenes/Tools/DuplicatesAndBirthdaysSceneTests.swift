import SceneCore
import XCTest

@testable import ContactsApp

/// The list's tools, scenes of their own (duplicates and merge; birthdays), through each part of
/// their VIP cycles alone.
final class ToolScenesInteractorTests: XCTestCase {
    var sut: DuplicatesInteractor!
    var birthdays: BirthdaysInteractor!
    var workerSpy: ToolsStorageLogicSpy!
    var toolsPresenterSpy: ToolsPresentationLogicSpy!
    /// Where each scene's Presenter gets its failures (`toolsPresenterSpy.failures`).
    var presenterSpy: ToolsPresentationLogicSpy { toolsPresenterSpy }

    override func setUp() {
        super.setUp()
        workerSpy = ToolsStorageLogicSpy()
        toolsPresenterSpy = ToolsPresentationLogicSpy()
        sut = DuplicatesInteractor(worker: workerSpy, presenter: toolsPresenterSpy)
        birthdays = BirthdaysInteractor(worker: workerSpy, presenter: toolsPresenterSpy)
    }

    final class ToolsStorageLogicSpy: DuplicatesStorageLogic, BirthdaysStorageLogic {
        var failure: ContactsFailure?
        var groups: [DuplicateGroup] = []
        private(set) var mergedReferences: [[String]] = []
        private(set) var birthdayDays: [Int] = []

        func duplicates() throws -> [DuplicateGroup] {
            if let failure { throw failure }
            return groups
        }
        func merge(_ references: [String]) throws -> MergedContacts {
            mergedReferences.append(references)
            if let failure { throw failure }
            return MergedContacts(merged: Seeds.stored(Seeds.Contacts.ann, id: 1), removed: [], differences: [])
        }
        func upcomingBirthdays(days: Int) throws -> (today: CalendarDay, birthdays: [UpcomingBirthday]) {
            birthdayDays.append(days)
            if let failure { throw failure }
            return (CalendarDay(year: 2023, month: 11, day: 15), [])
        }
    }

    final class ToolsPresentationLogicSpy: DuplicatesPresentationLogic, BirthdaysPresentationLogic {
        private(set) var failures: [ContactsFailure] = []
        func presentFailure(_ failure: ContactsFailure) { failures.append(failure) }
        private(set) var duplicatesResponses: [Duplicates.FindDuplicates.Response] = []
        private(set) var mergedResponses: [Duplicates.MergeContacts.Response] = []
        private(set) var birthdaysResponses: [Birthdays.UpcomingBirthdays.Response] = []
        func presentDuplicates(response: Duplicates.FindDuplicates.Response) { duplicatesResponses.append(response) }
        func presentMergedContacts(response: Duplicates.MergeContacts.Response) { mergedResponses.append(response) }
        func presentUpcomingBirthdays(response: Birthdays.UpcomingBirthdays.Response) {
            birthdaysResponses.append(response)
        }
    }

    func test_findDuplicates_presentsTheWorkersGroups() {
        // Given
        let group = DuplicateGroup(
            contacts: [Seeds.stored(Seeds.Contacts.ann, id: 1)], reasons: [DuplicateReason(.email, "a@b")])
        workerSpy.groups = [group]
        // When
        sut.findDuplicates(request: .init())
        // Then
        XCTAssertEqual(toolsPresenterSpy.duplicatesResponses.map(\.groups), [[group]])
        XCTAssertEqual(presenterSpy.failures, [])
    }

    func test_mergeContacts_passesTheReferences_andPresentsAFailure() {
        // Given
        workerSpy.failure = .notFound(reference: "#9")
        // When
        sut.mergeContacts(request: .init(references: ["1", "9"]))
        // Then
        XCTAssertEqual(workerSpy.mergedReferences, [["1", "9"]])
        XCTAssertTrue(toolsPresenterSpy.mergedResponses.isEmpty)
        XCTAssertEqual(presenterSpy.failures, [.notFound(reference: "#9")])
    }

    func test_showUpcomingBirthdays_asksForTheDays_andPresentsThemWithToday() {
        // When
        birthdays.showUpcomingBirthdays(request: .init(days: 7))
        // Then
        XCTAssertEqual(workerSpy.birthdayDays, [7])
        XCTAssertEqual(toolsPresenterSpy.birthdaysResponses.first?.days, 7)
        XCTAssertEqual(toolsPresenterSpy.birthdaysResponses.first?.today, CalendarDay(year: 2023, month: 11, day: 15))
    }
}

final class ToolScenesPresenterTests: XCTestCase {
    var sut: DuplicatesPresenter!
    var birthdays: BirthdaysPresenter!
    var viewControllerSpy: ToolsDisplayLogicSpy!

    override func setUp() {
        super.setUp()
        viewControllerSpy = ToolsDisplayLogicSpy()
        sut = DuplicatesPresenter(formatter: Seeds.formatter)
        sut.viewController = viewControllerSpy
        birthdays = BirthdaysPresenter(formatter: Seeds.formatter)
        birthdays.viewController = viewControllerSpy
    }

    final class ToolsDisplayLogicSpy: DuplicatesDisplayLogic, BirthdaysDisplayLogic {
        private(set) var messages: [Message] = []
        func displayMessage(_ message: Message) { messages.append(message) }
        private(set) var duplicates: [Duplicates.FindDuplicates.ViewModel] = []
        private(set) var merged: [Duplicates.MergeContacts.ViewModel] = []
        private(set) var birthdays: [Birthdays.UpcomingBirthdays.ViewModel] = []
        func displayDuplicates(viewModel: Duplicates.FindDuplicates.ViewModel) { duplicates.append(viewModel) }
        func displayMergedContacts(viewModel: Duplicates.MergeContacts.ViewModel) { merged.append(viewModel) }
        func displayUpcomingBirthdays(viewModel: Birthdays.UpcomingBirthdays.ViewModel) { birthdays.append(viewModel) }
    }

    func test_presentDuplicates_none_saysSo() {
        sut.presentDuplicates(response: .init(groups: []))
        XCTAssertEqual(viewControllerSpy.duplicates, [.init(groups: [], caption: "No duplicates found")])
        XCTAssertEqual(TextRenderer().lines(for: viewControllerSpy.duplicates[0].layout), ["No duplicates found"])
    }

    func test_presentDuplicates_aPhoneWrittenWithoutItsCountryCode_saysSo() {
        // Given
        let ann = Seeds.stored(Seeds.Contacts.ann, id: 1), jose = Seeds.stored(Seeds.Contacts.jose, id: 2)
        let reasons = [
            DuplicateReason(.phone, "+15550001111", withoutCountryCode: true), DuplicateReason(.phone, "+15550002222"),
        ]
        // When
        sut.presentDuplicates(response: .init(groups: [DuplicateGroup(contacts: [ann, jose], reasons: reasons)]))
        // Then
        XCTAssertEqual(
            viewControllerSpy.duplicates.first?.groups.first?.reasons.map(\.text),
            [
                "same phone +1 (555) 000-1111, once written without its country code", "same phone +1 (555) 000-2222",
            ])
        XCTAssertEqual(viewControllerSpy.duplicates.first?.groups.first?.reasons.first?.value, "+15550001111")
    }

    func test_presentMergedContacts_withoutDifferences_isOneLine() {
        // Given
        let ann = Seeds.stored(Seeds.Contacts.ann, id: 1), jose = Seeds.stored(Seeds.Contacts.jose, id: 2)
        // When
        sut.presentMergedContacts(
            response: .init(result: MergedContacts(merged: ann, removed: [jose], differences: [])))
        // Then
        XCTAssertEqual(
            viewControllerSpy.merged,
            [
                .init(
                    id: 1, name: "Ann Lee", removed: [2], differences: [],
                    text: "Merged #2 José Ñúñez into #1 Ann Lee", differenceLines: [])
            ])
    }

    func test_presentUpcomingBirthdays_todayTomorrowAndInDays_andTheCaption() {
        // Given
        let today = CalendarDay(year: 2023, month: 11, day: 15)
        let ann = Seeds.stored(Seeds.Contacts.ann, id: 1)
        let entries = [0, 1, 12].map {
            UpcomingBirthday(
                contact: ann, date: CalendarDay(year: 2023, month: 11, day: 15 + $0), age: $0 == 0 ? nil : 33,
                daysAway: $0)
        }
        // When
        birthdays.presentUpcomingBirthdays(response: .init(today: today, days: 30, birthdays: entries))
        birthdays.presentUpcomingBirthdays(response: .init(today: today, days: 1, birthdays: []))
        // Then
        let shown = viewControllerSpy.birthdays
        XCTAssertEqual(shown.first?.entries.map(\.when), ["today", "tomorrow", "in 12 days"])
        XCTAssertEqual(shown.first?.entries.map(\.date), ["2023-11-15", "2023-11-16", "2023-11-27"])
        XCTAssertEqual(shown.first?.caption, "3 birthdays in the next 30 days")
        XCTAssertEqual(shown.last?.caption, "No birthdays today or tomorrow")
        XCTAssertEqual(
            shown.first.map { TextRenderer().lines(for: $0.layout) },
            [
                "#  Name     Date        Turns  When",
                "1  Ann Lee  2023-11-15         today",
                "1  Ann Lee  2023-11-16     33  tomorrow",
                "1  Ann Lee  2023-11-27     33  in 12 days",
                "3 birthdays in the next 30 days",
            ])
    }
}

final class ToolScenesViewControllerTests: XCTestCase {
    var sut: DuplicatesViewController!
    var birthdays: BirthdaysViewController!
    var interactorSpy: ToolsBusinessLogicSpy!

    override func setUp() {
        super.setUp()
        interactorSpy = ToolsBusinessLogicSpy()
        sut = DuplicatesViewController(interactor: interactorSpy, output: DisplaySinkSpy())
        birthdays = BirthdaysViewController(interactor: interactorSpy, output: DisplaySinkSpy())
    }

    final class DisplaySinkSpy: DisplaySink {
        private(set) var displayed: [any ViewModel] = []
        func display(_ viewModel: any ViewModel) { displayed.append(viewModel) }
    }

    final class ToolsBusinessLogicSpy: DuplicatesBusinessLogic, BirthdaysBusinessLogic {
        private(set) var duplicatesRequests: [Duplicates.FindDuplicates.Request] = []
        private(set) var mergeRequests: [Duplicates.MergeContacts.Request] = []
        private(set) var birthdaysRequests: [Birthdays.UpcomingBirthdays.Request] = []
        func findDuplicates(request: Duplicates.FindDuplicates.Request) { duplicatesRequests.append(request) }
        func mergeContacts(request: Duplicates.MergeContacts.Request) { mergeRequests.append(request) }
        func showUpcomingBirthdays(request: Birthdays.UpcomingBirthdays.Request) { birthdaysRequests.append(request) }
    }

    func test_merge_splitsTheContactsAsCommandLineWords() {
        sut.perform(.merge, ActionCall(ListContacts.Action.merge, ["contacts": .string(#"3 "ann lee" "o'brien""#)]))
        sut.perform(.merge, ActionCall(ListContacts.Action.merge, ["contacts": .string(#"3 "ann"#)]))
        XCTAssertEqual(
            interactorSpy.mergeRequests,
            [
                .init(references: ["3", "ann lee", "o'brien"]),
                .init(references: [#"3 "ann"#]),
            ])
    }

    func test_birthdays_defaultsTo30Days_andDuplicatesAsksOnce() {
        birthdays.perform(.birthdays, ActionCall(ListContacts.Action.birthdays))
        birthdays.perform(.birthdays, ActionCall(ListContacts.Action.birthdays, ["days": .integer(7)]))
        sut.perform(.duplicates, ActionCall(ListContacts.Action.duplicates))
        XCTAssertEqual(interactorSpy.birthdaysRequests, [.init(days: 30), .init(days: 7)])
        XCTAssertEqual(interactorSpy.duplicatesRequests.count, 1)
    }
}

final class ToolScenesConfiguratorTests: XCTestCase {
    func test_configure_wiresTheToolsLinks() throws {
        // Given
        let fixture = SceneFactoryFixture()
        // When
        let sut = DuplicatesConfigurator.configure(context: fixture.context, factory: fixture.factory)
        let birthdays = BirthdaysConfigurator.configure(context: fixture.context, factory: fixture.factory)
        // Then: each Interactor built whole, with the factory's worker and its own Presenter
        let interactor = try XCTUnwrap(sut.interactor as? DuplicatesInteractor)
        let presenter = try XCTUnwrap(interactor.presenter as? DuplicatesPresenter)
        XCTAssertTrue(presenter.viewController === sut)
        XCTAssertTrue(interactor.worker as AnyObject === fixture.factory.worker)
        XCTAssertTrue(sut.output === fixture.display)
        let birthdaysInteractor = try XCTUnwrap(birthdays.interactor as? BirthdaysInteractor)
        let birthdaysPresenter = try XCTUnwrap(birthdaysInteractor.presenter as? BirthdaysPresenter)
        XCTAssertTrue(birthdaysPresenter.viewController === birthdays)
        XCTAssertTrue(birthdaysInteractor.worker as AnyObject === fixture.factory.worker)
        XCTAssertTrue(birthdays.output === fixture.display)
    }
}
