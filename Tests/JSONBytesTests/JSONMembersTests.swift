import JSONBytes
import XCTest

/// Reading an object member by member (`JSONValue.forEachMember`): each key's bytes and its value
/// in order, and false, for the caller to parse the usual way, whenever that reading would not
/// say the same as the parsed object.
final class JSONMembersTests: XCTestCase {
    private func members(_ text: String, stopAt stop: String? = nil) -> (
        read: Bool, members: [String: JSONValue], keys: [String]
    ) {
        var keys: [String] = []
        var members: [String: JSONValue] = [:]
        let read = JSONValue.forEachMember(in: Array(text.utf8)) { key, value throws(JSONValue.ParseError) in
            let name = String(decoding: key, as: UTF8.self)
            keys.append(name)
            members[name] = try value.value()
            return name != stop
        }
        return (read, members, keys)
    }

    func test_forEachMember_givesEveryMemberInOrder_asTheParsedObjectHasThem() throws {
        let texts = [
            #"{"b":1,"a":[true,null,{"c":"ü"}],"z":-2.5e3,"e":"\"\n"}"#, " { } ", #"{"":0}"#,
            " {\"x\" :\t{\"y\":{\"z\":[]}} ,\r\n\"w\":\"zoë\"}\n",
        ]
        for text in texts {
            // When
            let sut = members(text)
            // Then
            XCTAssertTrue(sut.read, text)
            XCTAssertEqual(JSONValue.object(sut.members), try JSONValue.parse(Array(text.utf8)), text)
        }
        XCTAssertEqual(members(#"{"b":1,"a":2,"c":3}"#).keys, ["b", "a", "c"])
    }

    func test_forEachMember_valuesKnownInAdvance_areComparedInPlace_othersRead() {
        // Given: "v" taken as the literal `"2.0"` when it is one, read whole otherwise
        func version(_ text: String) -> (read: Bool, literal: Bool?, value: JSONValue?) {
            var literal: Bool?, read: JSONValue?
            let whole = JSONValue.forEachMember(in: Array(text.utf8)) { key, value throws(JSONValue.ParseError) in
                guard key.elementsEqual("v".utf8) else {
                    _ = try value.value()
                    return true
                }
                literal = value.take(#""2.0""#)
                if literal == false { read = try value.value() }
                return true
            }
            return (whole, literal, read)
        }
        // When / Then
        XCTAssertTrue(version(#"{"a":1, "v" :  "2.0" ,"b":[]}"#) == (true, true, nil))
        XCTAssertTrue(version(#"{"v":"2.0x"}"#) == (true, false, "2.0x"))
        XCTAssertTrue(version(#"{"v":"2.\u0030"}"#) == (true, false, "2.0"))
        XCTAssertTrue(version(#"{"v":2.0}"#) == (true, false, .double(2)))
        XCTAssertTrue(version(#"{"v":"2.0"x}"#).read == false)
        XCTAssertTrue(version(#"{"v":"2."#).read == false)
    }

    func test_forEachMember_stopsWhenAsked() {
        // When
        let sut = members(#"{"a":1,"b":2,"c":3}"#, stopAt: "b")
        // Then
        XCTAssertFalse(sut.read)
        XCTAssertEqual(sut.keys, ["a", "b"])
    }

    func test_forEachMember_refusesWhatItCannotReadAsTheParsedObject() {
        let texts = [
            // Keys with an escape or a byte beyond ASCII: compared as bytes, they could differ from the String.
            #"{"\u0061":1}"#, #"{"a\"":1}"#, #"{"é":1}"#,
            // Other values and invalid texts.
            "[1]", "1", #""a""#, "null", "", "{", #"{"a":1,}"#, #"{"a" 1}"#, #"{"a":1} {}"#, #"{"a":01}"#, #"{a:1}"#,
        ]
        for text in texts { XCTAssertFalse(members(text).read, text) }
        XCTAssertFalse(
            JSONValue.forEachMember(in: [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x22, 0x7D]) { _, _ in true })
    }

    func test_forEachMember_countsTheObjectAsALevel_asParsingDoes() {
        // Given: the object around values nested to the limit, and one level more
        let limit = JSONReader.maximumDepth
        let within =
            "{\"a\":" + String(repeating: "[", count: limit - 1) + String(repeating: "]", count: limit - 1) + "}"
        let tooDeep = "{\"a\":" + String(repeating: "[", count: limit) + String(repeating: "]", count: limit) + "}"
        // Then
        XCTAssertNoThrow(try JSONValue.parse(Array(within.utf8)))
        XCTAssertTrue(members(within).read)
        XCTAssertThrowsError(try JSONValue.parse(Array(tooDeep.utf8)))
        XCTAssertFalse(members(tooDeep).read)
    }
}
