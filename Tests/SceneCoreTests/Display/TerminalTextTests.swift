import XCTest

@testable import SceneCore

final class TerminalTextTests: XCTestCase {
    // MARK: - width

    func testWidth_belowTheFirstCombiningMark_isOneColumnAsTheGeneralCategorySays() {
        // Every scalar up to U+02FF (ASCII, Latin-1, Latin Extended, IPA, modifier letters), the
        // rule without the shortcut: no mark among them, none wide; U+0000 is none
        for value in UInt32(1)..<0x300 {
            let scalar = Unicode.Scalar(value)!
            XCTAssertNotEqual(scalar.properties.generalCategory, .nonspacingMark, "U+\(String(value, radix: 16))")
            XCTAssertNotEqual(scalar.properties.generalCategory, .enclosingMark, "U+\(String(value, radix: 16))")
            XCTAssertEqual(TerminalText.width(of: scalar), 1, "U+\(String(value, radix: 16))")
        }
        XCTAssertEqual(TerminalText.width(of: "\u{0}"), 0)
        // And from the first mark on, the general category decides, as before
        XCTAssertEqual(TerminalText.width(of: "\u{300}"), 0)
        XCTAssertEqual(TerminalText.width("Ágnes Kowalczyk"), 15)
        XCTAssertEqual(TerminalText.width("e\u{301}"), 1)
        XCTAssertEqual(TerminalText.width("李小龙"), 6)
    }

    func testWidth_ofAText_isItsScalarsWidths_byTheBytesShortcutOrNot() {
        // Given: every scalar below U+0400 alone and after ASCII, and texts mixing the two sides of U+0300
        var texts = (UInt32(0)..<0x400).compactMap(Unicode.Scalar.init).flatMap { scalar in
            [String(scalar), "a\(scalar)", "\(scalar)z\u{0}"]
        }
        texts += ["", "Łódź", "Søren e\u{301}", "株式会社 Ωmega", "Ágnes\u{0}", "ǅ\u{2FF}\u{300}", "👍 ok", "한국"]
        for text in texts {
            // Then
            let expected = text.unicodeScalars.reduce(0) { $0 + TerminalText.width(of: $1) }
            XCTAssertEqual(TerminalText.width(text), expected, text.debugDescription)
        }
    }

    // MARK: - sanitize

    func testSanitize_keepsPrintableTextOfAnyScript() {
        let text = "Zoë Ñúñez 李小龙 한국 👍 e\u{301}"
        XCTAssertEqual(TerminalText.sanitize(text), text)
    }

    func testSanitize_replacesEscapeSequencesVisibly() {
        XCTAssertEqual(TerminalText.sanitize("a\u{1B}[31mred\u{1B}[0m"), "a?[31mred?[0m")
        XCTAssertEqual(TerminalText.sanitize("\u{1B}]0;title\u{07}"), "?]0;title?")
    }

    func testSanitize_replacesC0ControlsAndDEL() {
        XCTAssertEqual(TerminalText.sanitize("a\u{0}b\u{7}c\u{8}d\u{1F}e\u{7F}f"), "a?b?c?d?e?f")
    }

    func testSanitize_replacesC1Controls() {
        // U+009B is the one-character CSI, U+0085 NEL, U+009D OSC
        XCTAssertEqual(TerminalText.sanitize("x\u{9B}31my\u{85}z\u{9D}\u{80}\u{9F}"), "x?31my?z???")
    }

    func testSanitize_replacesBidiOverridesAndIsolates() {
        let overrides = (0x202A...0x202E).map { Character(Unicode.Scalar($0)!) }
        let isolates = (0x2066...0x2069).map { Character(Unicode.Scalar($0)!) }
        for character in overrides + isolates {
            XCTAssertEqual(
                TerminalText.sanitize("a\(character)b"), "a?b",
                "U+\(String(character.unicodeScalars.first!.value, radix: 16))")
        }
    }

    func testSanitize_turnsTabsAndNewlinesIntoSpaces() {
        XCTAssertEqual(TerminalText.sanitize("a\tb\nc\rd\r\ne"), "a b c d  e")
    }

    // MARK: - width

    func testSanitize_eachScalarAlone_andAmongCleanText_asTheScalarRuleSays() {
        // The clean fast path and the rebuilding path agree with the rule, scalar by scalar, for
        // every scalar below U+3000 and the planes' first scalars: alone, and in clean text
        let values = Array(UInt32(0)..<0x3000) + [0xFEFF, 0xFFFD, 0x1F44D, 0x10FFFD]
        for value in values {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected: String
            switch value {
            case 0x09, 0x0A, 0x0D: expected = " "
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: expected = "?"
            default: expected = String(scalar)
            }
            XCTAssertEqual(TerminalText.sanitize(String(scalar)), expected, "U+\(String(value, radix: 16))")
            XCTAssertEqual(
                TerminalText.sanitize("Zoë " + String(scalar) + " 李"), "Zoë " + expected + " 李",
                "U+\(String(value, radix: 16))")
        }
        XCTAssertEqual(TerminalText.sanitize(""), "")
    }

    func testWidth_countsColumnsNotCharactersOrBytes() {
        XCTAssertEqual(TerminalText.width(""), 0)
        XCTAssertEqual(TerminalText.width("Ann"), 3)
        XCTAssertEqual(TerminalText.width("Zoë"), 3)
        XCTAssertEqual(TerminalText.width("李小龙"), 6)
        XCTAssertEqual(TerminalText.width("한국어"), 6)
        XCTAssertEqual(TerminalText.width("ひらがな"), 8)
        XCTAssertEqual(TerminalText.width("ＡＢ"), 4, "fullwidth forms")
        XCTAssertEqual(TerminalText.width("ｱｲ"), 2, "halfwidth katakana")
        XCTAssertEqual(TerminalText.width("👍🤝"), 4)
    }

    func testWidth_combiningMarksAndJoinersTakeNoColumn() {
        XCTAssertEqual(TerminalText.width("e\u{301}"), 1)
        XCTAssertEqual(TerminalText.width("a\u{20DD}"), 1, "enclosing mark")
        XCTAssertEqual(TerminalText.width("Zoe\u{308}\u{323}"), 3)
        XCTAssertEqual(TerminalText.width("a\u{200B}b\u{200D}c\u{FE0F}"), 3)
    }

    // MARK: - pad

    func testPad_fillsToADisplayWidth() {
        XCTAssertEqual(TerminalText.pad("李", to: 4), "李  ")
        XCTAssertEqual(TerminalText.pad("e\u{301}", to: 3), "e\u{301}  ")
        XCTAssertEqual(TerminalText.pad("7", to: 3, right: true), "  7")
        XCTAssertEqual(TerminalText.pad("李小", to: 5, right: true), " 李小")
    }

    func testPad_neverTruncates() {
        XCTAssertEqual(TerminalText.pad("Groceries", to: 3), "Groceries")
        XCTAssertEqual(TerminalText.pad("12345", to: 2, right: true), "12345")
    }
}
