import XCTest

@testable import SceneCore

final class OutcomeTests: XCTestCase {
    private var sut: Outcome!

    override func setUp() {
        super.setUp()
        sut = Outcome()
    }

    func testError_isTheFirstErrorMessageDisplayed() {
        // Given
        sut.displayed = [
            Message.success("saved"), NoteListViewModel(titles: []), Message.error("first", code: .conflict),
            Message.error("second", code: .storage),
        ]

        // Then
        XCTAssertEqual(sut.error, .error("first", code: .conflict))
        XCTAssertFalse(sut.succeeded)
    }

    func testSucceeded_whenNothingWasDisplayed() {
        XCTAssertNil(sut.error)
        XCTAssertTrue(sut.succeeded)
        XCTAssertFalse(sut.quit)
    }

    func testSucceeded_withMessagesThatAreNotErrors() {
        // Given
        sut.displayed = [Message.info("hello"), Message.success("done")]

        // Then
        XCTAssertNil(sut.error)
        XCTAssertTrue(sut.succeeded)
    }

    func testSucceeded_isFalseWithADispatchErrorAlone() {
        // Given
        sut.dispatchError = .unbalancedQuote

        // Then
        XCTAssertNil(sut.error)
        XCTAssertFalse(sut.succeeded)
    }
}
