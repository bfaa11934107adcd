import SceneREPL
import XCTest

final class ColorPolicyTests: XCTestCase {
    func testATerminalWithAKnownTermGetsColours() {
        // Given
        let sut = ColorPolicy(environment: ["TERM": "xterm-256color"])
        // Then
        XCTAssertTrue(sut.allowsColors(isTerminal: true))
        XCTAssertFalse(sut.allowsColors(isTerminal: false))
    }

    func testNoColorWins() {
        let sut = ColorPolicy(environment: ["TERM": "xterm", "NO_COLOR": "1"])
        XCTAssertFalse(sut.allowsColors(isTerminal: true))
    }

    func testAnEmptyNoColorIsIgnoredAsNoColorOrgSays() {
        let sut = ColorPolicy(environment: ["TERM": "xterm", "NO_COLOR": ""])
        XCTAssertTrue(sut.allowsColors(isTerminal: true))
    }

    func testDumbOrMissingTermGetsNoColours() {
        XCTAssertFalse(ColorPolicy(environment: ["TERM": "dumb"]).allowsColors(isTerminal: true))
        XCTAssertFalse(ColorPolicy(environment: [:]).allowsColors(isTerminal: true))
    }
}
