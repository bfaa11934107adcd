@testable import SceneCore
import XCTest

final class TextRendererTests: XCTestCase {
    private var sut: TextRenderer!

    override func setUp() {
        super.setUp()
        sut = TextRenderer()
    }

    override func tearDown() {
        sut = nil
        super.tearDown()
    }

    /// Every way a stored string could try to drive a terminal.
    private let hostile = "A\u{1B}[2J\u{9B}1m\u{7F}\u{0}\u{202E}\tB\nC"
    private let hostileSanitized = "A?[2J?1m??? B C"

    private func assertNoControls(_ lines: [String], file: StaticString = #filePath, line: UInt = #line) {
        for text in lines {
            let bad = text.unicodeScalars.filter { scalar in
                scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                    || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            }
            XCTAssertTrue(bad.isEmpty, "\(text.debugDescription) has \(bad.map { String($0.value, radix: 16) })", file: file, line: line)
        }
    }

    // MARK: - Tables

    func testTable_alignsColumnsByDisplayWidth() {
        // Given wide CJK characters and a combining mark
        let layout = DisplayLayout.table(
            columns: [.init("Name"), .init("City")],
            rows: [["Ann", "Oslo"], ["李小龙", "香港"], ["Zoe\u{308}", "Tromsø"]],
            caption: "")

        // When
        let lines = sut.lines(for: layout)

        // Then
        XCTAssertEqual(lines, [
            "Name    City",
            "Ann     Oslo",
            "李小龙  香港",
            "Zoe\u{308}     Tromsø",
        ])
        XCTAssertEqual(lines.map { TerminalText.width($0) }, [12, 12, 12, 14], "the last column is not padded")
    }

    func testTable_rightAlignedColumnAndCaption() {
        // When
        let lines = sut.lines(for: NoteListViewModel(titles: ["Groceries", "Ideas"] + Array(repeating: "x", count: 8)).layout)

        // Then
        XCTAssertEqual(lines.prefix(3), [" #  Title", " 1  Groceries", " 2  Ideas"])
        XCTAssertEqual(lines[10], "10  x")
        XCTAssertEqual(lines.last, "10 notes")
        XCTAssertEqual(lines.count, 12)
    }

    func testTable_titleWiderThanCellsAndMissingCells() {
        let layout = DisplayLayout.table(columns: [.init("Identifier"), .init("N", alignRight: true), .init("Note")],
                                         rows: [["a"], ["b", "100", "ok"]], caption: "")
        XCTAssertEqual(sut.lines(for: layout), ["Identifier    N  Note", "a", "b           100  ok"])
    }

    func testTable_withoutRowsShowsTitlesAndCaption() {
        let layout = DisplayLayout.table(columns: [.init("Name")], rows: [], caption: "no notes")
        XCTAssertEqual(sut.lines(for: layout), ["Name", "no notes"])
    }

    func testTable_sanitizesTitlesCellsAndCaption() {
        // Given
        let layout = DisplayLayout.table(columns: [.init("T\u{1B}"), .init("N")], rows: [[hostile, "1"]], caption: hostile)

        // When
        let lines = sut.lines(for: layout)

        // Then
        assertNoControls(lines)
        XCTAssertEqual(lines, ["T?" + String(repeating: " ", count: 13) + "  N", hostileSanitized + "  1", hostileSanitized])
    }

    // MARK: - Records

    func testRecord_alignsLabelsByDisplayWidth() {
        // Given
        let layout = DisplayLayout.record(heading: "Ann Lee", fields: [.init("name", "Ann"), .init("電話", "555"), .init("e-mail", "a@x.org")])

        // When
        let lines = sut.lines(for: layout)

        // Then
        XCTAssertEqual(lines, ["Ann Lee", "  name    Ann", "  電話    555", "  e-mail  a@x.org"])
    }

    func testRecord_withoutFieldsIsItsHeading() {
        XCTAssertEqual(sut.lines(for: .record(heading: "Empty", fields: [])), ["Empty"])
    }

    func testRecord_sanitizesHeadingLabelsAndValues() {
        // Given
        let layout = DisplayLayout.record(heading: hostile, fields: [.init("l\u{9B}", hostile), .init("abc", "v")])

        // When
        let lines = sut.lines(for: layout)

        // Then
        assertNoControls(lines)
        XCTAssertEqual(lines, [hostileSanitized, "  l?   " + hostileSanitized, "  abc  v"])
    }

    func testRecord_labelWithANulStaysAligned() {
        // Given a NUL, which takes no column raw but shows as "?"
        let layout = DisplayLayout.record(heading: "h", fields: [.init("a\u{0}bc", "1"), .init("abc", "2")])

        // When
        let lines = sut.lines(for: layout)

        // Then
        XCTAssertEqual(lines, ["h", "  a?bc  1", "  abc   2"])
    }

    func testTable_titleWithANulStaysAligned() {
        let layout = DisplayLayout.table(columns: [.init("a\u{0}b"), .init("c")], rows: [["x", "1"]], caption: "")
        XCTAssertEqual(sut.lines(for: layout), ["a?b  c", "x    1"])
    }

    // MARK: - Lines and groups

    func testLines_areSanitized() {
        let lines = sut.lines(for: .lines(["plain", hostile]))
        XCTAssertEqual(lines, ["plain", hostileSanitized])
        assertNoControls(lines)
    }

    func testGroup_drawsEachPartInOrder() {
        let layout = DisplayLayout.group([.lines(["one"]), .message(.success("two")), .record(heading: "three", fields: [])])
        XCTAssertEqual(sut.lines(for: layout), ["one", "two", "three"])
    }

    // MARK: - Messages

    func testMessage_errorIsPrefixedAndDetailsAreIndentedBySortedKey() {
        // Given
        let message = Message.error("not saved", code: .validationFailed,
                                    details: ["phone": "too short", "email": "no @", "birthday": "no such date"])

        // When
        let lines = sut.lines(for: message.layout)

        // Then
        XCTAssertEqual(lines, ["error: not saved", "  birthday: no such date", "  email: no @", "  phone: too short"])
    }

    func testMessage_successAndInfoHaveNoPrefix() {
        XCTAssertEqual(sut.messageLines(.success("saved Ann Lee")), ["saved Ann Lee"])
        XCTAssertEqual(sut.messageLines(.info("no changes")), ["no changes"])
    }

    func testMessage_sanitizesTextAndDetails() {
        // When
        let lines = sut.messageLines(.error(hostile, code: .badInput, details: [hostile: hostile]))

        // Then
        assertNoControls(lines)
        XCTAssertEqual(lines, ["error: " + hostileSanitized, "  \(hostileSanitized): \(hostileSanitized)"])
    }

    func testMessage_hasNoColoursByDefault() {
        for message in [Message.error("x", code: .notFound), .success("x"), .info("x")] {
            XCTAssertFalse(sut.messageLines(message).joined().contains("\u{1B}"), "\(message.kind)")
        }
    }

    func testMessage_coloursWhenEnabled() {
        // Given
        sut = TextRenderer(colors: true)

        // Then
        XCTAssertEqual(sut.messageLines(.error("gone", code: .notFound, details: ["id": "7"])),
                       ["\u{1B}[31merror: gone\u{1B}[0m", "  id: 7"])
        XCTAssertEqual(sut.messageLines(.success("saved")), ["\u{1B}[32msaved\u{1B}[0m"])
        XCTAssertEqual(sut.messageLines(.info("note")), ["\u{1B}[33mnote\u{1B}[0m"])
    }

    func testMessage_colouredTextIsStillSanitized() {
        // Given
        sut = TextRenderer(colors: true)

        // When
        let line = sut.messageLines(.info("a\u{1B}[5mb"))[0]

        // Then only the renderer's own codes remain
        XCTAssertEqual(line, "\u{1B}[33ma?[5mb\u{1B}[0m")
    }

    func testColours_neverInOtherLayouts() {
        // Given
        sut = TextRenderer(colors: true)
        let layouts: [DisplayLayout] = [
            NoteListViewModel(titles: ["a"]).layout, .record(heading: "h", fields: [.init("l", "v")]), .lines(["x"]),
        ]

        // Then
        for layout in layouts {
            XCTAssertFalse(sut.lines(for: layout).joined().contains("\u{1B}"), "\(layout)")
        }
    }
}
