import Foundation
import JSONBytes
import XCTest

/// Reading JSON text: every kind of value, escapes and unicode, numbers, the nesting limit, and
/// a clear error for each kind of invalid input.
final class JSONReaderTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONValue.parse(Array(text.utf8))
    }

    private func assertRefused(_ text: String, _ reason: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try parse(text), text, file: file, line: line) { error in
            XCTAssertEqual(error as? JSONValue.ParseError, .invalidJSON(reason), text, file: file, line: line)
        }
    }

    func test_parse_keepsIntegersBooleansAndNullApart() throws {
        // When
        let sut = try parse(#" [1, -2, 1.5, 0, true, false, null, "x", {"a": []}] "#)
        // Then
        XCTAssertEqual(sut, [1, -2, .double(1.5), 0, true, false, nil, "x", ["a": []]])
    }

    func test_parseWithArrayLimit_keepsAnArrayUpToTheLimit_andCountsALongerOne() throws {
        // When
        let within = try JSONValue.parse(Array(" [1, [2, 3], {\"a\": 4}] ".utf8), arrayLimit: 3)
        let over = try JSONValue.parse(Array("[1, [2, 3], {\"a\": 4}, 5]".utf8), arrayLimit: 3)
        let notAnArray = try JSONValue.parse(Array("{\"a\": [1, 2, 3, 4]}".utf8), arrayLimit: 3)
        // Then
        XCTAssertEqual(within.value, [1, [2, 3], ["a": 4]])
        XCTAssertEqual(within.arrayLength, 3)
        XCTAssertNil(over.value)
        XCTAssertEqual(over.arrayLength, 4)
        XCTAssertEqual(notAnArray.value, ["a": [1, 2, 3, 4]])
        XCTAssertEqual(notAnArray.arrayLength, 0)
    }

    func test_parseWithArrayLimit_stillRefusesInvalidTextPastTheLimit() {
        XCTAssertThrowsError(try JSONValue.parse(Array("[1, 2, 3, tru]".utf8), arrayLimit: 1)) { error in
            XCTAssertEqual(error as? JSONValue.ParseError, .invalidJSON("unexpected 't' at byte 10"))
        }
        XCTAssertThrowsError(try JSONValue.parse(Array("[1, 2, 3] 4".utf8), arrayLimit: 1))
    }

    func test_parse_escapes_readEveryOne() throws {
        // When
        let sut = try parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u4E2D""#)
        // Then
        XCTAssertEqual(sut, .string("\"\\/\u{8}\u{C}\n\r\tAé中"))
    }

    func test_parse_unicode_rawAndSurrogatePairsAreTheSameScalars() throws {
        // When
        let escaped = try parse(#""\ud83d\ude00 \uD834\uDD1E""#)
        let raw = try parse("\"😀 𝄞 山田 Ñúñez עברית\"")
        // Then
        XCTAssertEqual(escaped, "😀 𝄞")
        XCTAssertEqual(raw, "😀 𝄞 山田 Ñúñez עברית")
    }

    func test_parse_loneOrBrokenSurrogates_areRefused() {
        assertRefused(#""\ud800""#, "a high surrogate is not followed by a low one at byte 7")
        assertRefused(#""\ud800\u0041""#, "a high surrogate is not followed by a low one at byte 13")
        assertRefused(#""\udc00""#, "a lone low surrogate at byte 7")
    }

    func test_parse_numbers_integersFitInt_othersAreDoubles() throws {
        XCTAssertEqual(try parse("9223372036854775807"), .integer(Int.max))
        XCTAssertEqual(try parse("-9223372036854775808"), .integer(Int.min))
        XCTAssertEqual(try parse("-0"), .integer(0))
        XCTAssertEqual(try parse("9223372036854775808"), .double(9223372036854775808))
        XCTAssertEqual(try parse("1.0"), .double(1))
        XCTAssertEqual(try parse("-1.25E+2"), .double(-125))
        XCTAssertEqual(try parse("4.9406564584124654e-324"), .double(.leastNonzeroMagnitude))
        XCTAssertEqual(try parse("0.1"), .double(0.1))
    }

    func test_parse_badNumbers_areRefusedSayingWhy() {
        assertRefused("01", "a number has a leading zero at byte 0")
        assertRefused("-", "expected a digit at byte 1")
        assertRefused("1.", "expected a digit at byte 2")
        assertRefused("1e", "expected a digit at byte 2")
        assertRefused(".5", "unexpected '.' at byte 0")
        assertRefused("+1", "unexpected '+' at byte 0")
        assertRefused(#"{"id":1e400}"#, "a number is out of range")
    }

    func test_parse_nestingUpToTheLimit_isRead_deeperIsRefused() throws {
        // Given
        let limit = JSONReader.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        let hostile = String(repeating: "{\"a\":", count: 100_000)
        // When
        var value = try parse(deepest)
        var depth = 0
        while case .array(let inner) = value, let first = inner.first { value = first; depth += 1 }
        // Then
        XCTAssertEqual(depth, limit - 1)
        assertRefused(tooDeep, "arrays and objects nest deeper than 512 levels at byte 512")
        assertRefused(hostile, "arrays and objects nest deeper than 512 levels at byte 2560")
    }

    func test_parse_invalidText_isRefusedSayingWhatAndWhere() {
        assertRefused("", "unexpected end of input at byte 0")
        assertRefused("   ", "unexpected end of input at byte 3")
        assertRefused(#"{"jsonrpc":"2.0","id":1,"#, "expected a string at byte 24")
        assertRefused("[1,]", "unexpected ']' at byte 3")
        assertRefused(#"{"a":1,}"#, "expected a string at byte 7")
        assertRefused(#"{"a" 1}"#, "expected ':' after an object key at byte 5")
        assertRefused("[1 2]", "expected ',' or ']' in an array at byte 3")
        assertRefused(#"{"a":1 "b":2}"#, "expected ',' or '}' in an object at byte 7")
        assertRefused("tru", "unexpected 't' at byte 0")
        assertRefused("{} {}", "unexpected '{' after the value at byte 3")
        assertRefused("'single'", "unexpected ''' at byte 0")
        assertRefused("NaN", "unexpected 'N' at byte 0")
        assertRefused("\"a\u{1}b\"", "a control character in a string must be escaped at byte 2")
        assertRefused("\"unterminated", "a string is not closed at byte 13")
        assertRefused(#""\x""#, "unknown escape 'x' after a backslash at byte 2")
        assertRefused(#""\u12""#, "\\u needs four hex digits at byte 3")
        assertRefused("hello", "unexpected 'h' at byte 0")
    }

    func test_parse_invalidUTF8_isReportedAsSuch() {
        XCTAssertThrowsError(try JSONValue.parse([0x22, 0xFF, 0x22])) { error in
            XCTAssertEqual(error as? JSONValue.ParseError, .invalidUTF8)
        }
    }

    func test_parse_repeatedKey_theLaterWins() throws {
        XCTAssertEqual(try parse(#"{"a":1,"a":2}"#), ["a": 2])
    }

    func test_pieces_readAnotherWritersSpacingAndEscapedKeys() throws {
        // Given
        var text = " [ \"a\" , { \"k\\u0065y\" : \"v\" , \"plain\" : \"w\" } ] "
        // When
        let pieces = try text.withUTF8 { bytes throws -> [String] in
            var sut = JSONReader(bytes)
            var seen: [String] = []
            XCTAssertTrue(sut.take(UInt8(ascii: "[")))
            seen.append(try sut.string())
            XCTAssertTrue(sut.take(UInt8(ascii: ",")))
            XCTAssertTrue(sut.take(UInt8(ascii: "{")))
            seen.append(try sut.plainString() == nil ? "escaped key" : "plain key")
            XCTAssertTrue(sut.take(UInt8(ascii: ":")))
            seen.append(try sut.string())
            XCTAssertTrue(sut.take(UInt8(ascii: ",")))
            seen.append(try sut.plainString().map { "plain key of \($0.count) bytes" } ?? "escaped key")
            XCTAssertTrue(sut.take(UInt8(ascii: ":")))
            seen.append(try sut.string())
            XCTAssertTrue(sut.take(UInt8(ascii: "}")))
            XCTAssertTrue(sut.take(UInt8(ascii: "]")))
            try sut.expectEnd()
            return seen
        }
        // Then
        XCTAssertEqual(pieces, ["a", "escaped key", "v", "plain key of 5 bytes", "w"])
    }
}
