import SceneCore
import SceneREPL
import XCTest

final class OutcomePrinterTests: XCTestCase {
    private var streams: TextStreamsSpy!

    override func setUp() {
        super.setUp()
        streams = TextStreamsSpy()
    }

    private func outcome(_ viewModels: [any ViewModel]) -> Outcome {
        var outcome = Outcome()
        outcome.displayed = viewModels
        return outcome
    }

    func testErrorsGoToTheErrorStreamInRedAndTheRestToTheOutput() {
        // Given
        let sut = OutcomePrinter(output: TextRenderer(colors: true), errors: TextRenderer(colors: true))
        // When
        sut.print(outcome([Message.success("saved"), Message.error("no such person", code: .notFound)]), to: streams)
        // Then
        XCTAssertEqual(streams.output, "\u{1B}[32msaved\u{1B}[0m\n")
        XCTAssertEqual(streams.errors, "\u{1B}[31merror: no such person\u{1B}[0m\n")
    }

    func testWithoutColoursNoEscapeIsWritten() {
        // Given
        let sut = OutcomePrinter(output: TextRenderer(colors: false), errors: TextRenderer(colors: false))
        // When
        sut.print(outcome([Message.info("nothing here"), Message.error("bad", code: .badInput)]), to: streams)
        // Then
        XCTAssertEqual(streams.output, "nothing here\n")
        XCTAssertEqual(streams.errors, "error: bad\n")
    }

    func testStoredTextCannotDriveTheTerminal() {
        // Given
        let sut = OutcomePrinter(output: TextRenderer(colors: false), errors: TextRenderer(colors: false))
        // When
        sut.print(outcome([Message.success(REPLSeeds.hostileName)]), to: streams)
        // Then
        XCTAssertEqual(streams.output, "Eve ?[2J\n")
    }
}
