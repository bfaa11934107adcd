import Foundation
import JSONBytes
import SceneCore
import XCTest

@testable import SceneRPC

/// `JSONValueEncoder` must give exactly the value the JSON text round trip gave
/// (`JSONValueEncoder.referenceValue`: `JSONEncoder`, then the reader), for every kind of JSON value.
final class JSONValueEncoderTests: XCTestCase {
    private struct Scalars: Encodable {
        let text = "plain"
        let flag = true
        let off = false
        let int = -42
        let int8: Int8 = -8
        let int16: Int16 = 16
        let int32: Int32 = -32
        let int64: Int64 = .min
        let uint: UInt = 7
        let uint8: UInt8 = 255
        let uint16: UInt16 = 65535
        let uint32: UInt32 = .max
        let uint64: UInt64 = 12
        let missing: String? = nil
        let present: Int? = 3
    }

    private struct Numbers: Encodable {
        let double = 2.5
        let whole = 3.0
        let tiny = 1e-7
        let large = 1e300
        let negative = -0.1
        let float: Float = 0.1
        let bigUnsigned: UInt64 = .max
        let bigUInt: UInt = .max
        let doubles = [1.0, 1.5, -2.25]
    }

    private struct Texts: Encodable {
        let quote = "say \"hi\""
        let backslash = "a\\b"
        let slash = "a/b"
        let controls = "\u{8}\u{C}\n\r\t\u{0}\u{1F}\u{7F}"
        let accents = "Łódź, Zoë, Müller"
        let combining = "e\u{301}"
        let cjk = "山田太郎"
        let emoji = "👩‍👩‍👧 🎉"
        let separators = "\u{2028}\u{2029}"
        let empty = ""
    }

    private struct Nested: Encodable {
        struct Inner: Encodable, Equatable { let name: String; let tags: [String] }
        let inner = Inner(name: "x", tags: ["a", "b"])
        let list = [Inner(name: "y", tags: []), Inner(name: "z", tags: ["c"])]
        let matrix = [[1, 2], [], [3]]
        let byName = ["b": 2, "a": 1]
        let byNumber = [2: "two", 10: "ten"]
        let optionals: [String?] = ["a", nil]
        let emptyObject: [String: Int] = [:]
        let emptyArray: [Int] = []
    }

    /// Uses every container API by hand: nested containers, explicit nils, a key written twice,
    /// super encoders.
    private struct Manual: Encodable {
        enum Keys: String, CodingKey { case a, b, nested, list, again, `super`, other }
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode("first", forKey: .again)
            try container.encodeNil(forKey: .a)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .nested)
            try nested.encode(1, forKey: .a)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode("x")
            try list.encodeNil()
            var inner = list.nestedContainer(keyedBy: Keys.self)
            try inner.encode(true, forKey: .b)
            var innerList = list.nestedUnkeyedContainer()
            try innerList.encode(2)
            try "in super".encode(to: list.superEncoder())
            try nested.encode(2, forKey: .b) // written after the nested container was handed out
            try container.encode("second", forKey: .again)
            try 5.encode(to: container.superEncoder())
            try ["k": "v"].encode(to: container.superEncoder(forKey: .other))
            // The same keyed container asked for again writes into the same object.
            var same = encoder.container(keyedBy: Keys.self)
            try same.encode("also", forKey: .b)
        }
    }

    private struct EncodesNothing: Encodable {
        func encode(to encoder: Encoder) throws {}
    }

    private struct HoldsNothing: Encodable {
        let nothing = EncodesNothing()
        let items = [EncodesNothing()]
    }

    private struct Specials: Encodable {
        let date = Date(timeIntervalSinceReferenceDate: 123.5)
        let data = Data([0, 1, 2, 250])
        let url = URL(string: "https://example.com/a b?q=1")
        let decimal = Decimal(string: "12.50")!
    }

    private struct NotANumber: Encodable { let value = Double.nan }

    private struct Wrapper<T: Encodable>: Encodable { let value: T }

    private func assertSameAsRoundTrip<T: Encodable>(_ value: T, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let expected = try JSONValueEncoder.referenceValue(value)
        let actual = try JSONValueEncoder.encode(value)
        XCTAssertEqual(actual, expected, file: file, line: line)
        XCTAssertEqual(actual.text, expected.text, file: file, line: line)
    }

    func test_encode_scalarsAndOptionals_asTheRoundTrip() throws {
        try assertSameAsRoundTrip(Scalars())
        XCTAssertEqual(try JSONValueEncoder.encode(Scalars())["missing"], Optional<JSONValue>.none)
        XCTAssertEqual(try JSONValueEncoder.encode(Scalars())["int"], .integer(-42))
    }

    func test_encode_numbersJSONEncoderWrites_asTheRoundTrip() throws {
        try assertSameAsRoundTrip(Numbers())
        for number in [0.0, -0.0, 1.0, 0.1, 1e21, 123456789.125, .pi, .greatestFiniteMagnitude, .leastNonzeroMagnitude]
        {
            try assertSameAsRoundTrip(Wrapper(value: number))
            try assertSameAsRoundTrip(number)
        }
        try assertSameAsRoundTrip(UInt64.max)
        // Whatever this platform's JSONEncoder makes of 128-bit integers (a number, or an error), the same.
        for value in [Wrapper(value: Int128(Int64.max) * 4), Wrapper(value: Int128(-3))] as [any Encodable] {
            XCTAssertEqual(try? JSONValueEncoder.encode(value), try? JSONValueEncoder.referenceValue(value))
        }
        XCTAssertEqual(try? JSONValueEncoder.encode([UInt128(7)]), try? JSONValueEncoder.referenceValue([UInt128(7)]))
        try assertSameAsRoundTrip(Int.min)
    }

    func test_encode_stringsWithEscapesAndNonASCII_asTheRoundTrip() throws {
        try assertSameAsRoundTrip(Texts())
        let value = try JSONValueEncoder.encode(Texts())
        XCTAssertEqual(value["cjk"], "山田太郎")
        XCTAssertEqual(value["controls"], .string("\u{8}\u{C}\n\r\t\u{0}\u{1F}\u{7F}"))
        XCTAssertEqual(value.text.contains("\"controls\":\"\\b\\f\\n\\r\\t\\u0000\\u001f\u{7F}\""), true, value.text)
    }

    func test_encode_nestedArraysObjectsAndDictionaries_asTheRoundTrip() throws {
        try assertSameAsRoundTrip(Nested())
        XCTAssertEqual(try JSONValueEncoder.encode(Nested())["byNumber"], ["2": "two", "10": "ten"])
    }

    func test_encode_everyContainerCall_asTheRoundTrip() throws {
        try assertSameAsRoundTrip(Manual())
        XCTAssertEqual(try JSONValueEncoder.encode(Manual())["again"], "second")
    }

    func test_encode_nestedValueThatEncodesNothing_isAnEmptyObject() throws {
        try assertSameAsRoundTrip(HoldsNothing())
        XCTAssertEqual(try JSONValueEncoder.encode(HoldsNothing())["nothing"], [:])
    }

    func test_encode_topLevelValueThatEncodesNothing_throwsAsJSONEncoderDoes() {
        XCTAssertThrowsError(try JSONValueEncoder.referenceValue(EncodesNothing()))
        XCTAssertThrowsError(try JSONValueEncoder.encode(EncodesNothing()))
    }

    func test_encode_datesDataURLsAndDecimals_asTheRoundTrip() throws {
        try assertSameAsRoundTrip(Specials())
        try assertSameAsRoundTrip([Date(timeIntervalSinceReferenceDate: 0)])
    }

    func test_encode_nonFiniteNumber_throwsAsJSONEncoderDoes() {
        XCTAssertThrowsError(try JSONValueEncoder.referenceValue(NotANumber()))
        XCTAssertThrowsError(try JSONValueEncoder.encode(NotANumber()))
    }

    func test_encode_topLevelScalarsAndArrays_asTheRoundTrip() throws {
        try assertSameAsRoundTrip("text")
        try assertSameAsRoundTrip(17)
        try assertSameAsRoundTrip(true)
        try assertSameAsRoundTrip(["a", "b"])
        try assertSameAsRoundTrip([Int?.none])
        try assertSameAsRoundTrip(JSONValue.object(["a": [1, .double(2.5), nil, "x"], "b": true]))
    }

    func test_encode_coreViewModelsRoutesAndChanges_buildTheirOwnValue_asTheRoundTrip() throws {
        // Given: the core's own types, which are JSONValueConvertible
        let fixture = RPCFixture()
        _ = fixture.send(RPCSeeds.request(1, "list/open", #"{"name":"Zoë \"Ünal\"\t"}"#))
        let help = fixture.session.handle(line: "help").displayed.first
        let helpOne = fixture.session.handle(line: "help rename").displayed.first
        let values: [any Encodable] = [
            Message.error("bad \"name\"\n", code: .validationFailed, details: ["name": "é", "b": "\u{1}"]),
            Message.success("saved"), Message.info(""),
            fixture.session.stackViewModel, RPCFixture().session.stackViewModel,
            help!, helpOne!,
            Route.push("a"), Route.pop("b"), Route.replace("c", with: "d"),
            DataChange(topic: "things", kind: "deleted", ids: ["1", "ü"]), DataChange(topic: "t", kind: "k", ids: []),
        ]
        for value in values {
            // Then
            XCTAssertNotNil(value as? JSONValueConvertible, "\(type(of: value))")
            try assertSameAsRoundTrip(value)
        }
        XCTAssertEqual(fixture.session.stackViewModel.scenes.count, 2)
    }

    func test_encode_codingPath_namesKeysAndIndexes() throws {
        // Given
        final class PathSpy: Encodable {
            var seen: [String] = []
            func encode(to encoder: Encoder) throws {
                seen.append(
                    encoder.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "."))
                var container = encoder.singleValueContainer()
                try container.encode(1)
            }
        }
        struct Holder: Encodable { let outer: [PathSpy] }
        let spy = PathSpy()
        // When
        _ = try JSONValueEncoder.encode(Holder(outer: [spy]))
        // Then
        XCTAssertEqual(spy.seen, ["outer.0"])
    }
}
