import XCTest

@testable import SceneCore

final class LineSessionTests: XCTestCase {
    private var sut: LineSession!
    private var session: Session!
    private var streams: TextStreamsSpy!

    override func setUp() {
        super.setUp()
        session = Seeds.makeSession()
        streams = TextStreamsSpy()
        sut = LineSession(session: session, streams: streams, bail: false)
    }

    override func tearDown() {
        sut = nil
        session = nil
        streams = nil
        super.tearDown()
    }

    /// Runs the session over these lines and says how many were read.
    private func run(_ lines: [String]) -> (status: Int32, read: Int) {
        var remaining = lines[...]
        var read = 0
        let status = sut.run {
            guard let line = remaining.popFirst() else { return nil }
            read += 1
            return line
        }
        return (status, read)
    }

    func testHandle_writesAnswersToStdout() {
        // When
        let goOn = sut.handle(line: "list")

        // Then
        XCTAssertTrue(goOn)
        XCTAssertEqual(streams.output, "#  Title\n1  Groceries\n2  Ideas\n3  Trip\n3 notes\n")
        XCTAssertEqual(streams.error, "")
        XCTAssertEqual(sut.failures, 0)
    }

    func testHandle_writesErrorsToStderr() {
        // When
        let goOn = sut.handle(line: "open 9")

        // Then
        XCTAssertTrue(goOn, "without --bail the session goes on")
        XCTAssertEqual(streams.output, "")
        XCTAssertEqual(streams.error, "error: no note 9\n")
        XCTAssertEqual(sut.failures, 1)
    }

    func testHandle_splitsOneOutcomeBetweenTheStreams() {
        // Given a scene that reports success and an error for one command
        let display = session.context.display
        (session.stack.active as? SceneSpy)?.performStub = { _ in
            display.display(Message.success("saved 1"))
            display.display(Message.error("not saved 2", code: .conflict, details: ["version": "3"]))
        }

        // When
        _ = sut.handle(line: "pin yes")

        // Then
        XCTAssertEqual(streams.output, "saved 1\n")
        XCTAssertEqual(streams.error, "error: not saved 2\n  version: 3\n")
        XCTAssertEqual(sut.failures, 1)
    }

    func testHandle_dispatchErrorsAreFailuresOnStderr() {
        // When
        _ = sut.handle(line: "frobnicate")

        // Then
        XCTAssertEqual(streams.output, "")
        XCTAssertTrue(streams.error.hasPrefix("error: unknown command 'frobnicate'; here you can use: list, open"))
        XCTAssertEqual(sut.failures, 1)
    }

    func testHandle_neverWritesColoursOrControls() {
        // When
        _ = sut.handle(line: "new Buy\u{1B}[31m milk")
        _ = sut.handle(line: "open x\u{1B}")

        // Then
        XCTAssertEqual(streams.output, "created Buy?[31m milk\n")
        XCTAssertFalse(streams.error.contains("\u{1B}"))
    }

    func testRun_exitsZeroWhenEveryCommandSucceeds() {
        // When
        let result = run(["list", "open 1", "stack", "back"])

        // Then
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.read, 4)
        XCTAssertEqual(sut.failures, 0)
        XCTAssertEqual(streams.error, "")
        XCTAssertTrue(streams.output.hasSuffix("opened note 1\nnotes: Notes\n  note: Groceries\n"))
    }

    func testRun_countsFailuresAndExitsOne() {
        // When
        let result = run(["open 9", "list", "back", "sort nope"])

        // Then
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.read, 4)
        XCTAssertEqual(sut.failures, 3)
        XCTAssertEqual(
            streams.error,
            """
            error: no note 9
            error: you are at the first screen already
            error: BY must be one of: title, date, dated, not 'nope'

            """)
        XCTAssertTrue(streams.output.hasPrefix("#  Title\n"))
    }

    func testRun_ignoresBlankLines() {
        // When
        let result = run(["", "   ", "\t", "new"])

        // Then
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(streams.output, "created untitled\n")
        XCTAssertEqual(streams.error, "")
        XCTAssertEqual(sut.failures, 0)
    }

    func testRun_stopsAtQuit() {
        // When
        let result = run(["new A", "quit", "new B"])

        // Then
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.read, 2, "nothing is read after quit")
        XCTAssertEqual(streams.output, "created A\n")
    }

    func testRun_exitStatusAfterQuitReflectsEarlierFailures() {
        let result = run(["open 9", "exit", "new B"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.read, 2)
    }

    func testRun_withBailStopsAtTheFirstError() {
        // Given
        sut = LineSession(session: session, streams: streams, bail: true)

        // When
        let result = run(["new A", "open 9", "new B"])

        // Then
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.read, 2)
        XCTAssertEqual(sut.failures, 1)
        XCTAssertEqual(streams.output, "created A\n")
        XCTAssertEqual(streams.error, "error: no note 9\n")
    }

    func testRun_withBailStopsAtADispatchError() {
        // Given
        sut = LineSession(session: session, streams: streams, bail: true)

        // When
        let result = run(["open", "new B"])

        // Then
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.read, 1)
        XCTAssertEqual(streams.error, "error: missing ID; usage: open ID\n")
    }

    func testRun_withBailGoesOnWhileCommandsSucceed() {
        // Given
        sut = LineSession(session: session, streams: streams, bail: true)

        // When
        let result = run(["new A", "", "new B"])

        // Then
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.read, 3)
        XCTAssertEqual(streams.output, "created A\ncreated B\n")
    }

    func testRun_atOnceEndOfInputIsSuccess() {
        XCTAssertEqual(run([]).status, 0)
        XCTAssertEqual(streams.output + streams.error, "")
    }
}
