import Foundation
import JSONBytes
import XCTest

/// Writing JSON text: the one escaping rule, numbers, key order, pretty form, and a seeded
/// round trip that an independent reader (Foundation's) must agree with.
final class JSONWriterTests: XCTestCase {
    func test_appendString_escapesQuotesBackslashesAndControls_andNothingElse() {
        // Given
        let text = "a/b \"q\" \\ \u{8}\u{C}\n\r\t\u{0}\u{1F}\u{7F}\u{2028}é😀 中文"
        var sut: [UInt8] = []
        // When
        JSONWriter.appendString(text, to: &sut)
        // Then
        XCTAssertEqual(
            String(decoding: sut, as: UTF8.self),
            "\"a/b \\\"q\\\" \\\\ \\b\\f\\n\\r\\t\\u0000\\u001f\u{7F}\u{2028}é😀 中文\"")
        XCTAssertFalse(sut.contains(0x0A), "a compact text never holds a raw newline")
        XCTAssertEqual(try JSONValue.parse(sut), .string(text))
    }

    func test_slash_isWrittenAsItIs_andReadEitherWay() throws {
        XCTAssertEqual(JSONValue.string("https://x.org/a").text, #""https://x.org/a""#)
        XCTAssertEqual(try JSONValue.parse(Array(#""https:\/\/x.org\/a""#.utf8)), "https://x.org/a")
    }

    func test_serialized_isCompactWithSortedKeys() {
        // Given
        let sut: JSONValue = ["b": [1, .double(2.5), "x"], "a": nil, "B": true, "a10": -5, "a9": [:], "é": []]
        // Then
        XCTAssertEqual(sut.text, #"{"B":true,"a":null,"a10":-5,"a9":{},"b":[1,2.5,"x"],"é":[]}"#)
    }

    func test_serialized_bigObject_isSortedToo() {
        // Given: more members than the small-object path holds
        let sut = JSONValue.object(Dictionary(uniqueKeysWithValues: (0..<40).map { ("k\($0)", JSONValue.integer($0)) }))
        // When
        let keys = sut.text.split(separator: ",").map { $0.drop { $0 != "k" }.prefix { $0 != "\"" } }
        // Then
        XCTAssertEqual(keys, (0..<40).map { "k\($0)" }.sorted().map { Substring($0) })
    }

    func test_doubles_shortestTextThatReadsBackAsADouble() throws {
        for number in [
            1.0, -0.5, 0.1, 1e-05, 1e21, 123456789.125, .pi, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
        ] {
            // When
            let text = JSONValue.double(number).serialized()
            // Then
            XCTAssertEqual(try JSONValue.parse(text), .double(number), String(decoding: text, as: UTF8.self))
        }
        XCTAssertEqual(JSONValue.double(1).text, "1.0")
        XCTAssertEqual(JSONValue.double(.infinity).text, "null")
    }

    func test_integers_areWrittenAsStringSpellsThem_atTheEndsOfTheRangeToo() {
        for number in [0, 7, 10, -1, -10, 1_234_567, 999_999_999_999, Int.max, Int.min, Int.min + 1] {
            // When
            let text = JSONValue.integer(number).text
            // Then
            XCTAssertEqual(text, String(number))
            XCTAssertEqual(
                JSONValue.array([.integer(number), .integer(~number)]).text,
                "[\(number),\(~number)]")
        }
    }

    func test_serializedPretty_indentsTwoSpacesAsJSONEncoderPrints() {
        // Given
        let sut: JSONValue = ["b": [1, "x"], "a": [:], "c": []]
        // Then
        XCTAssertEqual(
            String(decoding: sut.serialized(pretty: true), as: UTF8.self),
            """
            {
              "a" : {},
              "b" : [
                1,
                "x"
              ],
              "c" : []
            }
            """)
    }

    // MARK: - Seeded round trip

    /// SplitMix64: the same values on every run and platform.
    private struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private static let alphabet: [Unicode.Scalar] = [
        "a", "Z", "0", " ", "/", "\"", "\\", "\u{0}", "\u{8}", "\n", "\t",
        "\u{1F}", "\u{7F}", "é", "ñ", "中", "山", "\u{2028}", "😀", "𝄞",
    ]

    private func randomValue(_ rng: inout SeededGenerator, depth: Int) -> JSONValue {
        switch Int.random(in: depth > 3 ? 0...4 : 0...6, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .integer(Int.random(in: Int.min...Int.max, using: &rng) >> Int.random(in: 0...62, using: &rng))
        // Never integral: Foundation's reader (below) may read an integral double as an integer.
        case 3: return .double(Double.random(in: -1e6...1e6, using: &rng).rounded(.down) + 0.25)
        case 4: return .string(randomString(&rng))
        case 5: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                members[randomString(&rng)] = randomValue(&rng, depth: depth + 1)
            }
            return .object(members)
        }
    }

    private func randomString(_ rng: inout SeededGenerator) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...8, using: &rng) { text.append(Self.alphabet.randomElement(using: &rng)!) }
        return String(text)
    }

    func test_seededValues_roundTrip_andFoundationReadsTheSameValue() throws {
        // Given
        var rng = SeededGenerator(state: 13)
        for _ in 0..<2_000 {
            let value = randomValue(&rng, depth: 0)
            // When
            let compact = value.serialized()
            let pretty = value.serialized(pretty: true)
            // Then
            XCTAssertEqual(try JSONValue.parse(compact), value, value.text)
            XCTAssertEqual(try JSONValue.parse(pretty), value, value.text)
            XCTAssertFalse(compact.contains(0x0A), value.text)
            let foundation = try JSONSerialization.jsonObject(with: Data(compact), options: [.fragmentsAllowed])
            XCTAssertEqual(
                try JSONValue.parse(
                    Array(
                        JSONSerialization.data(
                            withJSONObject: foundation,
                            options: [.fragmentsAllowed, .sortedKeys]))),
                value, value.text)
        }
    }
}
