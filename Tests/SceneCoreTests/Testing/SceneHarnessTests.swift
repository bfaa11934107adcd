import SceneCore
import SceneCoreTesting
import XCTest

final class SceneHarnessTests: XCTestCase {
    private struct Failure: Equatable {
        let message: String
        let line: UInt
    }

    private var sut: SceneHarness!
    private var failures: [Failure] = []

    override func setUp() {
        super.setUp()
        failures = []
        sut = SceneHarness(session: Seeds.makeSession()) { [unowned self] message, _, line in
            self.failures.append(Failure(message: message, line: line))
        }
    }

    override func tearDown() {
        sut = nil
        super.tearDown()
    }

    // MARK: - Passing

    func testHarness_passesWhenEveryOutputIsAsserted() {
        // When
        sut.send("open 2")
        sut.receiveRoute(.push("note"))
        sut.receive(Message.info("opened note 2"))
        sut.send("history")
        sut.receiveRoute(.push("history"))
        sut.send(ActionCall("back"))
        sut.receiveRoute(.pop("history"))
        sut.finish()

        // Then
        XCTAssertEqual(failures, [])
        XCTAssertEqual(sut.stackIDs, ["notes", "note"])
    }

    func testHarness_passesWithTheRealXCTFailToo() {
        // Given the default failure reporting
        let harness = SceneHarness(session: Seeds.makeSession())

        // When / Then (any failure would fail this test)
        harness.send("list")
        harness.receive(NoteListViewModel(titles: Seeds.noteTitles))
        harness.send("back")
        harness.receive(Message.error("you are at the first screen already", code: .invalidState))
        harness.finish()
    }

    func testReceiveType_returnsTheViewModelForCloserChecks() {
        // When
        sut.send("help open")
        let help = sut.receive(HelpViewModel.self)
        sut.finish()

        // Then
        XCTAssertEqual(help?.entries.map(\.usage), ["open ID"])
        XCTAssertEqual(failures, [])
    }

    func testSendCall_inSceneGoesThroughTheSessionCheck() {
        // When
        sut.send(ActionCall("restore", ["version": .integer(1)]), inScene: "history")
        let message = sut.receive(Message.self)
        sut.finish()

        // Then
        XCTAssertEqual(message?.code, .sceneNotActive)
        XCTAssertEqual(failures, [])
    }

    // MARK: - Failing

    func testFinish_failsOnAnUnassertedViewModel() {
        // Given
        sut.send("list")

        // When
        sut.finish(); let line = #line

        // Then
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.line, UInt(line))
        XCTAssertEqual(failures.first?.message.hasPrefix("'list' displayed noteList {"), true)
        XCTAssertEqual(failures.first?.message.hasSuffix("}, which the test did not assert"), true)
    }

    func testFinish_failsOnAnUnassertedRoute() {
        // Given
        sut.send("open 1")
        sut.receive(Message.info("opened note 1"))

        // When
        sut.finish()

        // Then
        XCTAssertEqual(
            failures.map(\.message), [#"'open 1' took the route push("note"), which the test did not assert"#])
    }

    func testSend_failsOnOutputsLeftFromTheInputBefore() {
        // Given
        sut.send("open 1")

        // When
        sut.send("tags"); let line = #line
        sut.finish()

        // Then
        XCTAssertEqual(failures.count, 2, "one route and one message were left")
        XCTAssertEqual(failures.map(\.line), [UInt(line), UInt(line)])
        XCTAssertTrue(failures.allSatisfy { $0.message.hasPrefix("'open 1' ") })
    }

    func testReceive_failsOnADifferentViewModel() {
        // Given
        sut.send("open 1")
        sut.receiveRoute(.push("note"))

        // When
        sut.receive(Message.info("opened note 2")); let line = #line

        // Then
        XCTAssertEqual(
            failures,
            [
                Failure(
                    message: """
                        'open 1' displayed a different message:
                          actual:   message {"details":{},"kind":"info","text":"opened note 1"}
                          expected: message {"details":{},"kind":"info","text":"opened note 2"}
                        """, line: UInt(line))
            ])
    }

    func testReceive_failsOnAnotherKindOfViewModel() {
        // Given
        sut.send("list")

        // When
        sut.receive(Message.success("listed"))

        // Then
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.message.hasPrefix("'list' displayed noteList "), true)
        XCTAssertEqual(
            failures.first?.message.hasSuffix(#"; expected message {"details":{},"kind":"success","text":"listed"}"#),
            true)
    }

    func testReceive_failsWhenNothingMoreWasDisplayed() {
        // Given
        sut.send("history")
        sut.receive(Message.self)

        // When
        sut.receive(Message.info("more"))
        sut.receive(NoteListViewModel.self)

        // Then
        XCTAssertEqual(
            failures.map(\.message),
            [
                #"'history' displayed nothing more; expected message {"details":{},"kind":"info","text":"more"}"#,
                "'history' displayed nothing more; expected a noteList",
            ])
    }

    func testReceiveType_failsOnAnotherTypeAndReturnsNil() {
        // Given
        sut.send("stack")

        // When
        let help = sut.receive(HelpViewModel.self)

        // Then
        XCTAssertNil(help)
        XCTAssertEqual(
            failures.map(\.message),
            [#"'stack' displayed stack {"scenes":[{"scene":"notes","title":"Notes"}]}; expected a help"#])
    }

    func testReceiveRoute_failsOnAnotherRoute() {
        // Given
        sut.send("open 1")

        // When
        sut.receiveRoute(.pop("note"))
        sut.receive(Message.self)

        // Then
        XCTAssertEqual(
            failures.map(\.message),
            [
                #"'open 1' took another route:"# + "\n" + #"  actual:   push("note")"# + "\n"
                    + #"  expected: pop("note")"#
            ])
    }

    func testReceiveRoute_failsWhenNoMoreRoutesWereTaken() {
        // Given
        sut.send("list")
        sut.receive(NoteListViewModel.self)

        // When
        sut.receiveRoute(.push("note"))

        // Then
        XCTAssertEqual(failures.map(\.message), [#"'list' took no more routes; expected push("note")"#])
    }
}
