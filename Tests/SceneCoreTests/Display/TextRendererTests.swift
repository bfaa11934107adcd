import XCTest

@testable import SceneCore

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
            XCTAssertTrue(
                bad.isEmpty, "\(text.debugDescription) has \(bad.map { String($0.value, radix: 16) })", file: file,
                line: line)
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
        XCTAssertEqual(
            lines,
            [
                "Name    City",
                "Ann     Oslo",
                "李小龙  香港",
                "Zoe\u{308}     Tromsø",
            ])
        XCTAssertEqual(lines.map { TerminalText.width($0) }, [12, 12, 12, 14], "the last column is not padded")
    }

    // MARK: - Fitting a terminal's width

    /// A contacts-like table: a number, a CJK name, a name with combining marks, a long note.
    private let wideTable = DisplayLayout.table(
        columns: [.init("#", alignRight: true), .init("Name"), .init("Email"), .init("Matched")],
        rows: [
            ["1", "山田 太郎", "taro.yamada@example.co.jp", "note: Plays cello in the orchestra on Sundays and teaches"],
            ["2", "Zoe\u{308} Ne\u{301}meth", "zoe@example.org", ""],
        ],
        caption: "Page 1 of 1 · 2 contacts · matching \"orchestra\" · by last name, which is a long caption")

    func testTable_fitsEachWidth_cuttingTheWidestColumnFirst_withCJKAndCombiningMarks() {
        for width in [60, 80, 200] {
            // When
            let lines = TextRenderer(width: width).lines(for: wideTable)
            // Then no line is wider than the terminal
            XCTAssertTrue(lines.allSatisfy { TerminalText.width($0) <= width }, "\(width): \(lines)")
            XCTAssertTrue(lines[1].hasPrefix("1  山田 太郎"), "\(width): the name is whole: \(lines[1])")
            XCTAssertTrue(lines[2].contains("Zoe\u{308} Ne\u{301}meth"), "\(width): marks stay on their letters")
        }
        // At 200 columns nothing is cut; at 80 only the note, the widest; at 60 the email too
        XCTAssertFalse(TextRenderer(width: 200).lines(for: wideTable).joined().contains("…"))
        let eighty = TextRenderer(width: 80).lines(for: wideTable)
        XCTAssertTrue(
            eighty[1].hasSuffix("…") && eighty[1].contains("taro.yamada@example.co.jp  note: Plays"), eighty[1])
        XCTAssertEqual(TerminalText.width(eighty[1]), 80)
        let narrow = TextRenderer(width: 60).lines(for: wideTable)
        XCTAssertTrue(narrow[1].hasSuffix("…") && narrow[1].contains("taro.yamada@exa"), narrow[1])
        XCTAssertEqual(
            narrow.suffix(2),
            ["Page 1 of 1 · 2 contacts · matching \"orchestra\" · by last", "name, which is a long caption"])
    }

    func testTable_withoutAWidth_isTheFullText() {
        let lines = TextRenderer().lines(for: wideTable)
        XCTAssertTrue(lines[1].hasSuffix("note: Plays cello in the orchestra on Sundays and teaches"))
        XCTAssertEqual(
            lines.last, "Page 1 of 1 · 2 contacts · matching \"orchestra\" · by last name, which is a long caption")
    }

    func testTruncate_neverSplitsAWideCharacterOrAMark() {
        XCTAssertEqual(TerminalText.truncate("山田太郎", to: 6), "山田…")
        XCTAssertEqual(TerminalText.truncate("山田太郎", to: 5), "山田…")
        XCTAssertEqual(TerminalText.truncate("Zoe\u{308}mann", to: 4), "Zoe\u{308}…")
        XCTAssertEqual(TerminalText.truncate("short", to: 5), "short")
    }

    func testWrap_breaksProseAtSpaces_continuingUnderTheText() {
        // Given a help line: a command, a gap, what it does
        let line = "  merge CONTACTS...   merge contacts into the first, keeping every email and phone"
        // When
        let lines = TextRenderer(width: 60).lines(for: .lines([line]))
        // Then
        XCTAssertEqual(
            lines,
            [
                "  merge CONTACTS...   merge contacts into the first, keeping",
                "                      every email and phone",
            ])
        XCTAssertEqual(TextRenderer(width: 200).lines(for: .lines([line])), [line])
        XCTAssertEqual(TextRenderer().lines(for: .lines([line])), [line])
    }

    func testWrap_CJKProseAndAWordLongerThanTheLine() {
        XCTAssertEqual(TerminalText.wrap("漢字 かな カナ 漢字", width: 10, indent: 0), ["漢字 かな", "カナ 漢字"])
        XCTAssertEqual(
            TerminalText.wrap("see https://example.org/a/very/long/path", width: 16, indent: 2),
            ["see", "  https://exampl", "  e.org/a/very/l", "  ong/path"])
    }

    func testMessageAndRecord_wrapAtWordBoundaries() {
        let message = Message(.error, "not saved: the email ann@ is not an email address, and the phone has no digits")
        XCTAssertEqual(
            TextRenderer(width: 60).lines(for: message.layout),
            [
                "error: not saved: the email ann@ is not an email address,",
                "  and the phone has no digits",
            ])
        let record = DisplayLayout.record(
            heading: "#1 Ann", fields: [.init("Notes", "Plays cello in the orchestra on Sundays and teaches the young")]
        )
        XCTAssertEqual(
            TextRenderer(width: 40).lines(for: record),
            [
                "#1 Ann", "  Notes  Plays cello in the orchestra on", "         Sundays and teaches the young",
            ])
    }

    func testTable_rightAlignedColumnAndCaption() {
        // When
        let lines = sut.lines(
            for: NoteListViewModel(titles: ["Groceries", "Ideas"] + Array(repeating: "x", count: 8)).layout)

        // Then
        XCTAssertEqual(lines.prefix(3), [" #  Title", " 1  Groceries", " 2  Ideas"])
        XCTAssertEqual(lines[10], "10  x")
        XCTAssertEqual(lines.last, "10 notes")
        XCTAssertEqual(lines.count, 12)
    }

    func testTable_titleWiderThanCellsAndMissingCells() {
        let layout = DisplayLayout.table(
            columns: [.init("Identifier"), .init("N", alignRight: true), .init("Note")],
            rows: [["a"], ["b", "100", "ok"]], caption: "")
        XCTAssertEqual(sut.lines(for: layout), ["Identifier    N  Note", "a", "b           100  ok"])
    }

    func testTable_withoutRowsShowsTitlesAndCaption() {
        let layout = DisplayLayout.table(columns: [.init("Name")], rows: [], caption: "no notes")
        XCTAssertEqual(sut.lines(for: layout), ["Name", "no notes"])
    }

    func testTable_sanitizesTitlesCellsAndCaption() {
        // Given
        let layout = DisplayLayout.table(
            columns: [.init("T\u{1B}"), .init("N")], rows: [[hostile, "1"]], caption: hostile)

        // When
        let lines = sut.lines(for: layout)

        // Then
        assertNoControls(lines)
        XCTAssertEqual(
            lines, ["T?" + String(repeating: " ", count: 13) + "  N", hostileSanitized + "  1", hostileSanitized])
    }

    // MARK: - Records

    func testRecord_alignsLabelsByDisplayWidth() {
        // Given
        let layout = DisplayLayout.record(
            heading: "Ann Lee", fields: [.init("name", "Ann"), .init("電話", "555"), .init("e-mail", "a@x.org")])

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
        let layout = DisplayLayout.group([
            .lines(["one"]), .message(.success("two")), .record(heading: "three", fields: []),
        ])
        XCTAssertEqual(sut.lines(for: layout), ["one", "two", "three"])
    }

    // MARK: - Messages

    func testMessage_errorIsPrefixedAndDetailsAreIndentedBySortedKey() {
        // Given
        let message = Message.error(
            "not saved", code: .validationFailed,
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
        XCTAssertEqual(
            sut.messageLines(.error("gone", code: .notFound, details: ["id": "7"])),
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
