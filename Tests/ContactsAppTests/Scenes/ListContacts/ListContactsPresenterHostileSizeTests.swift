import SceneCore
import XCTest

@testable import ContactsApp

/// A search of hostile size is not echoed back whole (bench/ROBUSTNESS.md: a 20 MB command line).
final class ListContactsPresenterHostileSizeTests: XCTestCase {
    var sut: ListContactsPresenter!
    var viewControllerSpy: ListContactsPresenterTests.ListContactsDisplayLogicSpy!

    override func setUp() {
        super.setUp()
        viewControllerSpy = ListContactsPresenterTests.ListContactsDisplayLogicSpy()
        sut = ListContactsPresenter(formatter: Seeds.formatter)
        sut.viewController = viewControllerSpy
    }

    func test_presentFetchedContacts_aLongSearch_isQuotedByItsStartAndLength() {
        // Given a search of 100,000 characters
        let search = String(repeating: "é", count: 100_000)
        // When nothing matches, and when something does
        sut.presentFetchedContacts(
            response: .init(
                page: ContactPage(contacts: [], total: 0),
                query: ContactQuery(search: search, limit: 20)))
        let none = viewControllerSpy.fetchedViewModel?.caption
        sut.presentFetchedContacts(
            response: .init(
                page: ContactPage(contacts: [Seeds.Contacts.ann], total: 1),
                query: ContactQuery(search: search, limit: 20)))
        let some = viewControllerSpy.fetchedViewModel?.caption
        // Then
        let start = "\"" + String(repeating: "é", count: 80) + "…\" (100000 characters)"
        XCTAssertEqual(none, "No contacts match " + start)
        XCTAssertEqual(some, "Page 1 of 1 · 1 contact · matching " + start + " · by last name")
    }

    func test_presentFetchedContacts_aSearchOf80Characters_isQuotedWhole() {
        // Given
        let search = String(repeating: "a", count: 80)
        // When
        sut.presentFetchedContacts(
            response: .init(
                page: ContactPage(contacts: [], total: 0),
                query: ContactQuery(search: search, limit: 20)))
        // Then
        XCTAssertEqual(viewControllerSpy.fetchedViewModel?.caption, "No contacts match \"\(search)\"")
    }
}
