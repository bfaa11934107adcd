import XCTest

@testable import SceneCore

final class ArgumentCheckerTests: XCTestCase {
    private func spec(_ type: ParameterType) -> ParameterSpec {
        ParameterSpec("value", type, help: "a value")
    }

    private func check(_ raw: String, _ type: ParameterType) throws -> ArgumentValue {
        try ArgumentChecker.check(raw, as: spec(type), action: "set")
    }

    private func assertInvalid(
        _ raw: String, _ type: ParameterType, expected: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try check(raw, type), file: file, line: line) { error in
            XCTAssertEqual(
                error as? DispatchError,
                .invalidParameter(action: "set", parameter: "value", expected: expected, got: raw),
                file: file, line: line)
        }
    }

    // MARK: - describe

    func testDescribe_everyType() {
        XCTAssertEqual(ArgumentChecker.describe(.string), "a word")
        XCTAssertEqual(ArgumentChecker.describe(.text), "text")
        XCTAssertEqual(ArgumentChecker.describe(.integer), "an integer")
        XCTAssertEqual(ArgumentChecker.describe(.integer(min: 1, max: 500)), "an integer from 1 to 500")
        XCTAssertEqual(ArgumentChecker.describe(.integer(min: 0, max: nil)), "an integer of at least 0")
        XCTAssertEqual(ArgumentChecker.describe(.integer(min: nil, max: -1)), "an integer of at most -1")
        XCTAssertEqual(ArgumentChecker.describe(.choice(["first", "last"])), "one of: first, last")
        XCTAssertEqual(ArgumentChecker.describe(.boolean), "yes or no")
    }

    // MARK: - check

    func testCheck_stringAndTextAreTakenAsTheyAre() throws {
        XCTAssertEqual(try check("  a b ", .string), .string("  a b "))
        XCTAssertEqual(try check("", .text), .string(""))
    }

    func testCheck_integer() throws {
        XCTAssertEqual(try check("42", .integer), .integer(42))
        XCTAssertEqual(try check("-7", .integer), .integer(-7))
        assertInvalid("4.2", .integer, expected: "an integer")
        assertInvalid("", .integer, expected: "an integer")
        assertInvalid(" 4", .integer, expected: "an integer")
        assertInvalid("99999999999999999999", .integer, expected: "an integer")
    }

    func testCheck_integerBoundsAreInclusive() throws {
        let type = ParameterType.integer(min: 1, max: 500)
        XCTAssertEqual(try check("1", type), .integer(1))
        XCTAssertEqual(try check("500", type), .integer(500))
        assertInvalid("0", type, expected: "an integer from 1 to 500")
        assertInvalid("501", type, expected: "an integer from 1 to 500")
    }

    func testCheck_choiceExactOrUniquePrefix() throws {
        let type = ParameterType.choice(["first", "last", "lastly"])
        XCTAssertEqual(try check("first", type), .string("first"))
        XCTAssertEqual(try check("f", type), .string("first"))
        XCTAssertEqual(try check("last", type), .string("last"), "an exact choice wins over a longer one")
        XCTAssertEqual(try check("lastl", type), .string("lastly"))
    }

    func testCheck_choiceRejectsAmbiguousUnknownEmptyAndOtherCase() {
        let type = ParameterType.choice(["first", "last", "lastly"])
        let expected = "one of: first, last, lastly"
        assertInvalid("la", type, expected: expected)
        assertInvalid("middle", type, expected: expected)
        assertInvalid("", type, expected: expected)
        assertInvalid("First", type, expected: expected)
    }

    func testCheck_booleanWordsInAnyCase() throws {
        for word in ["yes", "TRUE", "On", "1"] {
            XCTAssertEqual(try check(word, .boolean), .boolean(true), word)
        }
        for word in ["no", "False", "OFF", "0"] {
            XCTAssertEqual(try check(word, .boolean), .boolean(false), word)
        }
        assertInvalid("y", .boolean, expected: "yes or no")
        assertInvalid("2", .boolean, expected: "yes or no")
    }

    // MARK: - checkRange

    func testCheckRange_withinBounds() throws {
        XCTAssertEqual(
            try ArgumentChecker.checkRange(5, spec: spec(.integer(min: 1, max: 9)), action: "set"), .integer(5))
        XCTAssertEqual(try ArgumentChecker.checkRange(Int.min, spec: spec(.integer), action: "set"), .integer(Int.min))
    }

    func testCheckRange_outsideBoundsNamesTheValue() {
        XCTAssertThrowsError(try ArgumentChecker.checkRange(10, spec: spec(.integer(min: 1, max: 9)), action: "set")) {
            error in
            XCTAssertEqual(
                error as? DispatchError,
                .invalidParameter(action: "set", parameter: "value", expected: "an integer from 1 to 9", got: "10"))
        }
        XCTAssertThrowsError(try ArgumentChecker.checkRange(-1, spec: spec(.integer(min: 0, max: nil)), action: "set"))
        { error in
            XCTAssertEqual((error as? DispatchError)?.message, "VALUE must be an integer of at least 0, not '-1'")
        }
        XCTAssertThrowsError(try ArgumentChecker.checkRange(3, spec: spec(.integer(min: nil, max: 2)), action: "set"))
    }
}
