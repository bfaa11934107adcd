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
        let texts = ["", " ", "\t", "\u{200B}", " \u{3000}\u{A0} ", "ann", " ann ", "\tann lee\u{2009}",
                     "\u{200B}ann\u{200B}", "\u{FEFF}ann\u{FEFF}", "\nann\n", "a\u{0301} ", " 山田 ", "\u{1680}x\u{202F}"]
        for text in texts {
            XCTAssertEqual(Array(text.trimmingWhitespaces.unicodeScalars),
                           Array(text.trimmingCharacters(in: .whitespaces).unicodeScalars), "\(Array(text.unicodeScalars))")
        }
    }

    func test_trimmingSpaces_keepsZeroWidthSpace_asTheImportAlwaysHas() {
        XCTAssertEqual(" \u{200B}ann\u{200B} ".trimmingSpaces, "\u{200B}ann\u{200B}")
        XCTAssertEqual(" \u{200B}ann\u{200B} ".trimmingWhitespaces, "ann")
    }
}
