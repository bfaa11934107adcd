import Foundation
@testable import SceneRPC
import XCTest

/// The fast parser must give exactly what the `JSONDecoder` path gives, or nil (and the
/// decoder decides): never a different value, never a value for text the decoder refuses.
final class JSONFastParserTests: XCTestCase {
    private func decoded(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    func test_parse_commonValues_equalTheDecoders() {
        let texts = [
            #"{"jsonrpc":"2.0","id":1,"method":"contacts/search","params":{"text":"Kowal"}}"#,
            #"[1, -2, 0, -0, 9223372036854775807, -9223372036854775808, true, false, null, "", [], {}]"#,
            #" { "a" : [ { "b" : [ null ] } ] , "é" : "ü\u00e9\n\t\"\\\/\b\f\r" } "#,
            #""\ud83d\ude00 emoji, 中文, עברית""#,
            #"{"nested":{"deeper":{"deepest":[1,[2,[3,{"x":"y"}]]]}}}"#,
            "42", "\"text\"", "null",
        ]
        for text in texts {
            let fast = JSONFastParser.parse(Array(text.utf8))
            XCTAssertNotNil(fast, text)
            XCTAssertEqual(fast, decoded(text), text)
        }
    }

    func test_parse_whatItLeavesToTheDecoder_isNil() {
        let texts = [
            "1.5", "1e3", "-1.0E+2", "9223372036854775808", "01", "-", "[1,]", "{\"a\":1,}", "{\"a\":1,\"a\":2}",
            "\"\\ud800\"", "\"\\udc00\"", "\"a\u{1}b\"", "\"unterminated", "{\"a\" 1}", "[1 2]", "tru", "nul",
            "{} {}", "", "   ", "'single'", "NaN", "\"\\x\"",
        ]
        for text in texts {
            XCTAssertNil(JSONFastParser.parse(Array(text.utf8)), text)
        }
    }

    func test_parse_throughJSONValue_stillReportsTheDecodersErrors() {
        XCTAssertThrowsError(try JSONValue.parse(Array("[1,".utf8)))
        XCTAssertEqual(try JSONValue.parse(Array("1.5".utf8)), .double(1.5))
    }

    func test_serialized_writesWhatJSONEncoderWrites() throws {
        let values: [JSONValue] = [
            ["b": 1, "a": [true, false, .null], "B": "x", "a10": -5, "a9": [:], "_": [], "é": "ü"],
            .string("a/b\u{1}\u{1f}\u{7f}\u{2028}é\"\\\n\t\u{8}\u{c}\r😀 中文"),
            ["jsonrpc": "2.0", "id": 7, "result": ["stack": [["scene": "contacts", "title": "Contacts (3)"]]]],
            .integer(Int.min), .integer(Int.max), .null, [],
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for value in values {
            XCTAssertEqual(value.compactBytes().map { String(decoding: $0, as: UTF8.self) },
                           String(decoding: try encoder.encode(value), as: UTF8.self))
        }
        XCTAssertNil(JSONValue.array([.double(1.5)]).compactBytes())
        XCTAssertEqual(JSONValue.array([.double(1.5)]).text, "[1.5]")
    }

    // MARK: - Envelopes read without a dictionary

    func test_objectMembers_giveTheSameMessageAsTheParsedObject() throws {
        let texts = [
            #"{"jsonrpc":"2.0","id":1,"method":"session/stack"}"#,
            #" {"method":"contacts/search","params":{"text":"Kowal","x":[1,{"y":null}]},"id":"a-1","jsonrpc":"2.0"} "#,
            #"{"jsonrpc":"2.0","method":"contacts/next"}"#,
            #"{"jsonrpc":"2.0","id":null,"method":"m","params":[1,2]}"#,
            #"{"jsonrpc":"2.0","id":[1],"method":"m"}"#,
            #"{"jsonrpc":"1.0","id":2,"method":"m"}"#,
            #"{"jsonrpc":"2.0","id":3}"#,
            #"{"jsonrpc":"2.0","id":4,"result":{}}"#,
            #"{"jsonrpc":"2.0","id":5,"error":{"code":1}}"#,
            #"{"jsonrpc":"2.0","id":6,"method":7}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"m","params":"x"}"#,
            #"{"jsonrpc":"2.0","id":true,"method":"m"}"#,
            #"{}"#,
        ]
        for text in texts {
            // When
            let members = JSONFastParser.objectMembers(Array(text.utf8))
            // Then
            XCTAssertNotNil(members, text)
            XCTAssertEqual(members.map(IncomingMessage.init(members:)),
                           IncomingMessage(try JSONValue.parse(Array(text.utf8))), text)
        }
    }

    func test_objectMembers_leaveAllButPlainObjectsToTheUsualPath() {
        let many = "{" + (0..<17).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        let texts = [#"{"id":1,"id":2,"method":"m"}"#, #"[{"id":1}]"#, "1", #""x""#, #"{"id":1.5}"#,
                     #"{"id":1} x"#, #"{"id":1"#, "", many]
        for text in texts { XCTAssertNil(JSONFastParser.objectMembers(Array(text.utf8)), text) }
    }
}
