import JSONBytes
import XCTest

@testable import SceneRPC

/// An envelope read in place from its bytes (`IncomingMessage(envelope:)`) makes the same message
/// as the parsed object, and anything but a plain object with each envelope key once goes the usual way.
final class EnvelopeMembersTests: XCTestCase {
    private func parsed(_ text: String, nullParamsAbsent: Bool = false) throws -> IncomingMessage {
        IncomingMessage(try JSONValue.parse(Array(text.utf8)), nullParamsAbsent: nullParamsAbsent)
    }

    func test_envelope_givesTheSameMessageAsTheParsedObject() throws {
        let many =
            "{" + (0..<17).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + #","jsonrpc":"2.0","id":9,"method":"m"}"#
        let texts = [
            #"{"jsonrpc":"2.0","id":1,"method":"session/stack"}"#,
            #" {"method":"contacts/search","params":{"text":"Kowal","x":[1,{"y":null}]},"id":"a-1","jsonrpc":"2.0"} "#,
            #"{"jsonrpc":"2.0","method":"contacts/next"}"#,
            #"{"jsonrpc":"2.0","id":null,"method":"m","params":[1,2]}"#,
            #"{"jsonrpc":"2.0","id":[1],"method":"m"}"#,
            #"{"jsonrpc":"1.0","id":2,"method":"m"}"#,
            #"{"jsonrpc":2,"id":2,"method":"m"}"#,
            #"{"jsonrpc":"2.\u0030","id":2,"method":"m"}"#, #"{ "jsonrpc" : "2.0" , "id":2,"method":"m"}"#,
            #"{"jsonrpc":"2.0 ","id":2,"method":"m"}"#, #"{"jsonrpc":null,"id":2,"method":"m"}"#,
            #"{"id":2,"method":"m"}"#,
            #"{"jsonrpc":"2.0","id":3}"#,
            #"{"jsonrpc":"2.0","id":4,"result":{}}"#,
            #"{"jsonrpc":"2.0","id":5,"error":{"code":1}}"#,
            #"{"jsonrpc":"2.0","result":5}"#,
            #"{"jsonrpc":"2.0","id":6,"method":7}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"m","params":"x"}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"m","params":null}"#,
            #"{"jsonrpc":"2.0","id":true,"method":"m"}"#,
            #"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#,
            #"{"jsonrpc":"2.0","id":"ü","method":"zoë/ünal","extra":{"a":[]},"other":"x","jsonRPC":"1"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"m","x":1,"x":2}"#,
            "{}", many,
        ]
        for text in texts {
            // When
            let sut = IncomingMessage(envelope: Array(text.utf8), nullParamsAbsent: false)
            // Then
            XCTAssertNotNil(sut, text)
            XCTAssertEqual(sut, try parsed(text), text)
        }
        let nullParams = #"{"jsonrpc":"2.0","id":8,"method":"shutdown","params":null}"#
        XCTAssertEqual(
            IncomingMessage(envelope: Array(nullParams.utf8), nullParamsAbsent: true),
            try parsed(nullParams, nullParamsAbsent: true))
        XCTAssertEqual(
            IncomingMessage(envelope: Array(nullParams.utf8), nullParamsAbsent: true),
            .request(id: 8, method: "shutdown", params: nil))
    }

    func test_envelope_leavesAllButPlainObjectsToTheUsualPath() {
        let texts = [
            // An envelope key twice (the later wins when parsed), an escaped or non-ASCII key.
            #"{"id":1,"id":2,"jsonrpc":"2.0","method":"m"}"#, #"{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}"#,
            #"{"jsonrpc":"2.0","id":1,"\u006dethod":"m"}"#, #"{"jsonrpc":"2.0","id":1,"method":"m","é":1}"#,
            // Not one object, not JSON, not UTF-8.
            #"[{"id":1}]"#, "1", #""x""#, #"{"id":1} x"#, #"{"id":1"#, "", #"{"id":01}"#, #"{"id" 1}"#,
        ]
        for text in texts { XCTAssertNil(IncomingMessage(envelope: Array(text.utf8), nullParamsAbsent: false), text) }
        XCTAssertNil(IncomingMessage(envelope: [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], nullParamsAbsent: false))
    }

    func test_anEnvelopeLeftToTheUsualPath_isAnsweredAsParsedWhole() {
        // Given
        let fixture = RPCFixture()
        // When: a repeated method (the later wins), an escaped key (read as its text)
        let out = fixture.send(
            #"{"jsonrpc":"2.0","id":1,"method":"nope","method":"session/stack"}"#,
            #"{"jsonrpc":"2.0","id":2,"\u006dethod":"session/stack"}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"session/stack","method":"nope"}"#)
        // Then
        XCTAssertEqual(out.map { $0["id"] }, [1, 2, 3])
        XCTAssertEqual(out[0]["result"]?["stack"], out[1]["result"]?["stack"])
        XCTAssertNotNil(out[0]["result"]?["stack"])
        XCTAssertEqual(out[2]["error"]?["code"], -32601)
    }
}
