import XCTest

@testable import SceneCore

/// Inputs `scripts/fuzz commandline` found, kept as regression tests (bench/ROBUSTNESS.md).
final class CommandLineParserFuzzRegressionTests: XCTestCase {
    private let notesActions = Seeds.notes.actions

    func testWords_aQuoteFollowedByACombiningMark_stillOpensAQuotedWord() throws {
        // Given the word fuzz-commandline found (bytes DB 9F, U+06DF, a combining mark) quoted:
        // quote and mark are one Character, and the quote was taken for a letter
        let line = "\"\u{06DF}\""
        // When
        let words = try CommandLineParser.words(line).map(\.text)
        // Then
        XCTAssertEqual(words, ["\u{06DF}"])
    }

    func testWords_aBackslashOrSpaceFollowedByACombiningMark_escapesOrSplits() throws {
        // Given
        let escaped = "a\\\u{0301}b"
        let spaced = "a \u{0301}b"
        // When / Then
        XCTAssertEqual(try CommandLineParser.words(escaped).map(\.text), ["a\u{0301}b"])
        XCTAssertEqual(try CommandLineParser.words(spaced).map(\.text), ["a", "\u{0301}b"])
    }

    func testParse_aQuotedTextParameterStartingWithACombiningMark_isUnquoted() throws {
        // Given an action whose last parameter takes the rest of the line
        let spec = try XCTUnwrap(notesActions.first { $0.parameters.last?.type == .text })
        let line = spec.name + " \"\u{0301}x y\""
        // When
        let call = try XCTUnwrap(try CommandLineParser.parse(line, actions: notesActions))
        // Then
        XCTAssertEqual(call.string(try XCTUnwrap(spec.parameters.last).name), "\u{0301}x y")
    }
}
