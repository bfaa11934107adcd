import SceneREPL
import XCTest

final class CandidateColumnsTests: XCTestCase {
    func testCandidatesFillColumnsTopToBottom() {
        // When
        let lines = CandidateColumns.lines(["add", "back", "help", "quit", "show"], width: 20)
        // Then 6 columns each, 3 fit
        XCTAssertEqual(lines, ["add   help  show", "back  quit"])
    }

    func testANarrowTerminalGetsOnePerLine() {
        XCTAssertEqual(CandidateColumns.lines(["Ann Lee", "Anna Key"], width: 5), ["Ann Lee", "Anna Key"])
    }

    func testWideCharactersAlignByColumns() {
        XCTAssertEqual(CandidateColumns.lines(["山田", "Li", "Bo"], width: 80), ["山田  Li    Bo"])
    }

    func testNothingToList() {
        XCTAssertEqual(CandidateColumns.lines([], width: 80), [])
    }
}
