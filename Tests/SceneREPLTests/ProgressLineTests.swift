import SceneCore
import SceneREPL
import XCTest

final class ProgressLineTests: XCTestCase {
    var sut: ProgressLine!

    override func setUp() { sut = ProgressLine() }

    func testBeginReportEnd_rewriteOneLineAndEraseIt() {
        // Given / When / Then
        XCTAssertEqual(sut.text(for: .begin(title: "Importing contacts", total: nil)), "\r\u{1B}[KImporting contacts…")
        XCTAssertEqual(
            sut.text(for: .report(completed: 0, total: 1200, message: "read 1200 cards, saving")),
            "\r\u{1B}[KImporting contacts: 0/1200 · read 1200 cards, saving")
        XCTAssertEqual(
            sut.text(for: .report(completed: 5, total: nil, message: nil)), "\r\u{1B}[KImporting contacts: 5")
        XCTAssertEqual(sut.text(for: .end(message: "done")), "\r\u{1B}[K")
    }

    func testBeginWithATotal_showsZeroOfIt() {
        XCTAssertEqual(sut.text(for: .begin(title: "Exporting", total: 3)), "\r\u{1B}[KExporting (0/3)")
    }

    func testTitlesAndMessages_areSanitised() {
        // Given a title and a message holding escape sequences (a file name, say)
        // When
        let begin = sut.text(for: .begin(title: "Importing \u{1B}[2Jx", total: nil))
        let report = sut.text(for: .report(completed: 1, total: 2, message: "\u{1B}]0;pwned\u{07}"))
        // Then only the line's own erase sequence is there
        XCTAssertEqual(begin, "\r\u{1B}[KImporting ?[2Jx…")
        XCTAssertEqual(report, "\r\u{1B}[KImporting ?[2Jx: 1/2 · ?]0;pwned?")
    }
}
