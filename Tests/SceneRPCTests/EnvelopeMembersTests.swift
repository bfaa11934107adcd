import JSONBytes
import XCTest

@testable import SceneRPC

/// An envelope read as its members in order (`JSONValue.objectMembers`) makes the same message
/// as the parsed object, and anything but a small plain object goes the usual way.
final class EnvelopeMembersTests: XCTestCase {
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
            #"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#,
            #"{}"#,
        ]
        for text in texts {
            // When
            let members = JSONValue.objectMembers(Array(text.utf8))
            // Then
            XCTAssertNotNil(members, text)
            XCTAssertEqual(
                members.map(IncomingMessage.init(members:)),
                IncomingMessage(try JSONValue.parse(Array(text.utf8))), text)
        }
    }

    func test_objectMembers_leaveAllButPlainObjectsToTheUsualPath() {
        let many = "{" + (0..<17).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        let texts = [
            #"{"id":1,"id":2,"method":"m"}"#, #"[{"id":1}]"#, "1", #""x""#,
            #"{"id":1} x"#, #"{"id":1"#, "", many,
        ]
        for text in texts { XCTAssertNil(JSONValue.objectMembers(Array(text.utf8)), text) }
    }
}
