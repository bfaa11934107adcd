import Foundation
import XCTest

@testable import ContactsApp

/// `ContactKeys.foldedByTable` is Foundation's folding, scalar for scalar (the stored sort keys
/// and search text depend on it: a book folded one way must read the same the other way).
final class ContactKeysFoldTableTests: XCTestCase {
    private func foundation(_ text: String) -> [Unicode.Scalar] {
        Array(
            text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
                .unicodeScalars)
    }

    private func table(_ text: String) -> [Unicode.Scalar]? {
        ContactKeys.foldedByTable(text).map { Array($0.unicodeScalars) }
    }

    private func text(_ values: [UInt32]) -> String {
        String(String.UnicodeScalarView(values.map { Unicode.Scalar($0)! }))
    }

    /// Every scalar the table answers for, and none it leaves to Foundation.
    private static let covered: [UInt32] =
        Array(1..<0x80) + (0xA0...0x52F).filter { !(0x300...0x36F).contains($0) && !(0x483...0x489).contains($0) }
        + Array(0x4E00...0x9FFF)

    func test_everyCoveredScalar_foldsAsFoundationFoldsIt() {
        for value in Self.covered {
            let alone = text([value])
            XCTAssertEqual(table(alone), foundation(alone), String(format: "U+%04X", value))
            // Beside ASCII on both sides, as in a name
            let beside = text([0x41, value, 0x62])
            XCTAssertEqual(table(beside), foundation(beside), String(format: "A U+%04X b", value))
        }
    }

    func test_everyPairBelowU0530_foldsAsFoundationFoldsIt() {
        let latin = Self.covered.filter { $0 < 0x530 }
        for first in latin where first >= 0x80 {
            for second in latin {
                let pair = text([first, second])
                guard table(pair) == foundation(pair) else {
                    return XCTFail(String(format: "U+%04X U+%04X", first, second))
                }
            }
        }
    }

    func test_randomTexts_foldAsFoundationFoldsThem() {
        var generator = SeededGenerator(seed: 32)
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 9) + 1
            let values = (0..<count).map { _ in Self.covered[Int(generator.next() % UInt64(Self.covered.count))] }
            let random = text(values)
            XCTAssertEqual(table(random), foundation(random), values.map { String(format: "U+%04X", $0) }.joined())
        }
        for name in [
            "Ágnes Kowalczyk", "Łódź Tech Systems", "株式会社 山田 AB", "Ωmega GmbH", "Søren & Co", "Северсталь Labs",
            "Straße", "Björn", "ŉ", "ΣΊΣΥΦΟΣ ς", "Ǆemal", "İstanbul ı",
        ] {
            XCTAssertEqual(table(name), foundation(name), name)
            XCTAssertEqual(Array(ContactKeys.fold(name).unicodeScalars), foundation(name), name)
        }
    }

    func test_otherScalars_areLeftToFoundation() {
        // A combining mark (folded with the letter before it), Hangul, fullwidth forms, emoji
        for other in [
            "e\u{301}", "\u{301}", "й\u{483}", "한국", "ＡＢＣ", "ｶﾀｶﾅ", "🙂", "\u{F900}", "\u{530}", "\u{9FFF}\u{A000}",
        ] {
            XCTAssertNil(ContactKeys.foldedByTable(other), other)
            XCTAssertEqual(Array(ContactKeys.fold(other).unicodeScalars), foundation(other), other)
        }
        XCTAssertEqual(ContactKeys.foldedByTable(""), "")
    }
}
