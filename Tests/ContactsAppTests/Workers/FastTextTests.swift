import Foundation
import XCTest

@testable import ContactsApp

/// The standard-library stand-ins for Foundation's text functions give Foundation's answers.
final class FastTextTests: XCTestCase {
    func test_isWhitespace_isCharacterSetWhitespaces_forEveryScalar() {
        let whitespaces = CharacterSet.whitespaces
        var disagreements: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if String.isWhitespace(scalar) != whitespaces.contains(scalar) { disagreements.append(value) }
        }
        XCTAssertEqual(disagreements, [])
    }

    func test_trimmingWhitespaces_isTrimmingCharactersInWhitespaces() {
        let texts = [
            "", " ", "\t", "\u{200B}", " \u{3000}\u{A0} ", "ann", " ann ", "\tann lee\u{2009}",
            "\u{200B}ann\u{200B}", "\u{FEFF}ann\u{FEFF}", "\nann\n", "a\u{0301} ", " 山田 ", "\u{1680}x\u{202F}",
        ]
        for text in texts {
            XCTAssertEqual(
                Array(text.trimmingWhitespaces.unicodeScalars),
                Array(text.trimmingCharacters(in: .whitespaces).unicodeScalars), "\(Array(text.unicodeScalars))")
        }
    }

    func test_trimmingSpaces_keepsZeroWidthSpace_asTheImportAlwaysHas() {
        XCTAssertEqual(" \u{200B}ann\u{200B} ".trimmingSpaces, "\u{200B}ann\u{200B}")
        XCTAssertEqual(" \u{200B}ann\u{200B} ".trimmingWhitespaces, "ann")
    }

    func test_trimmingSpaces_isTrimmingSpaceSeparatorsAndTabs_withOrWithoutTheTwoByteShortcut() {
        // Given: ends in ASCII and not, spaces of other kinds, marks, empty and all-space texts
        let texts = [
            "", " ", "\t", "a", "ann", " ann", "ann ", "\tann\t", "a b", "\u{A0}a", "a\u{A0}", "\u{3000}山田\u{3000}",
            "山田", "a\u{301}", " \u{301}", "é ", " é", "\u{200B}a", "a\u{200B}", "\u{2003} x \u{2003}", "\n a \n",
        ]
        for text in texts {
            // When
            let trimmed = text.trimmingSpaces
            // Then: the scalars with the Zs and tabs at both ends left out
            var scalars = Array(text.unicodeScalars)
            let isSpace = { (s: Unicode.Scalar) in s == "\t" || s.properties.generalCategory == .spaceSeparator }
            while let first = scalars.first, isSpace(first) { scalars.removeFirst() }
            while let last = scalars.last, isSpace(last) { scalars.removeLast() }
            XCTAssertEqual(Array(trimmed.unicodeScalars), scalars, text.debugDescription)
            XCTAssertEqual(text[...].trimmingSpaces, trimmed, text.debugDescription)
        }
    }

    func test_splittingOnASCII_isComponentsSeparatedBy_forTheCSVSeparators() {
        // Given: edge cases, then seeded random texts of separator pieces, ASCII, Latin,
        // CJK and emoji (no combining marks: see the next test)
        var texts = [
            "", " | ", "a | b", " | a | ", "a |  | b", "a | | b", " :::: ", "a ::: b ::: ", ";;", ";a;",
            "ann", "山田 | 花子", "x\u{1F600} ::: y",
        ]
        var random = SeededGenerator(seed: 11)
        let pieces = [" ", "|", ":", ";", " | ", " ::: ", "a", "é", "山", "\u{1F600}", "\r\n"]
        for _ in 0..<2_000 {
            texts.append((0..<random.next(upTo: 12)).map { _ in pieces[random.next(upTo: pieces.count)] }.joined())
        }
        for separator in [" | ", " ::: ", ";"] {
            for text in texts {
                // Then: the same parts, from a String and from a Substring
                XCTAssertEqual(
                    text.splitting(onASCII: separator), text.components(separatedBy: separator),
                    "\(separator) in \(Array(text.unicodeScalars))")
                XCTAssertEqual(text.dropFirst(0).splitting(onASCII: separator), text.components(separatedBy: separator))
            }
        }
    }

    func test_splittingOnASCII_matchesTheSeparatorsBytes_evenBeforeACombiningMark() {
        // Foundation compares Characters, and ";\u{301}" is one; the CSV format's separator is text.
        XCTAssertEqual("a;\u{301}b".splitting(onASCII: ";"), ["a", "\u{301}b"])
    }

    func test_containsASCII_findsTheByteInSmallLargeAndSubstringText() {
        let large = String(repeating: "ñ", count: 40) + "\\," + String(repeating: "x", count: 40)
        for text in ["", "a", "a\\b", "ñ\r", "Ann Lee", large, "\u{301}\u{301}"] {
            for byte: UInt8 in [0x5C, 0x0D, 0x2C, 0x41] {
                XCTAssertEqual(text.containsASCII(byte), text.utf8.contains(byte), "\(text.debugDescription) \(byte)")
                let inside = text.dropFirst()
                XCTAssertEqual(
                    inside.containsASCII(byte), inside.utf8.contains(byte), "\(inside.debugDescription) \(byte)")
            }
        }
    }
}
