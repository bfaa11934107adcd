@testable import SceneRPC
import XCTest

final class JSONValueTests: XCTestCase {
    func test_parse_keepsIntegersBooleansAndNullApart() throws {
        // When
        let sut = try JSONValue.parse(Array("[1,-2,1.5,0,true,null,\"x\",{\"a\":[]}]".utf8))
        // Then
        guard case .array(let values) = sut else { return XCTFail("\(sut)") }
        XCTAssertEqual(values[0], 1)
        XCTAssertEqual(values[1], -2)
        XCTAssertEqual(values[2], .double(1.5))
        XCTAssertEqual(values[4], true)
        XCTAssertEqual(values[5], .null)
        XCTAssertEqual(values[6], "x")
        XCTAssertEqual(values[7], ["a": []])
    }

    func test_parse_numberBeyondDouble_isAParseErrorSayingSo() {
        XCTAssertThrowsError(try JSONValue.parse(Array("{\"id\":1e400}".utf8))) { error in
            XCTAssertEqual(error as? JSONValue.ParseError, .invalidJSON("a number is out of range"))
        }
    }

    func test_parse_invalidUTF8_isReportedAsSuch() {
        XCTAssertThrowsError(try JSONValue.parse([0x22, 0xFF, 0x22])) { error in
            XCTAssertEqual(error as? JSONValue.ParseError, .invalidUTF8)
        }
    }

    func test_serialized_isCompactSortedAndRoundTrips() throws {
        // Given
        let sut: JSONValue = ["b": [1, .double(2.5), "a/b\n"], "a": nil]
        // When
        let text = sut.text
        // Then
        XCTAssertEqual(text, "{\"a\":null,\"b\":[1,2.5,\"a/b\\n\"]}")
        XCTAssertEqual(try JSONValue.parse(Array(text.utf8)), sut)
    }
}
