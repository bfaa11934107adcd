import Foundation
import GRDB
import XCTest

@testable import ContactsApp

/// The stored arrays' JSON is what `JSONEncoder` writes with sorted keys and `/` unescaped (the
/// one rule of `JSONBytes`), and reads whatever `JSONEncoder` (or another writer) put in an
/// existing database, `\/` included.
final class ContactJSONTests: XCTestCase {
    /// Every ASCII character (controls, quote, backslash, slash), non-ASCII, an emoji, U+2028.
    static let awkward: String = {
        var text = ""
        for byte in 0..<0x80 { text.unicodeScalars.append(Unicode.Scalar(UInt8(byte))) }
        return text + "é€ Ñ\u{2028}\u{FEFF}😀 a/b \"q\" \\"
    }()

    /// What older builds wrote: `JSONEncoder`'s default, which escapes `/`.
    private func encoderJSON<T: Encodable>(_ value: T, escapingSlashes: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = escapingSlashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private let phones = [
        LabeledValue(label: ContactJSONTests.awkward, value: "+1 555 0100"),
        LabeledValue(label: "", value: ""), LabeledValue(label: "work", value: "ann@acme.example"),
    ]
    private let addresses = [
        PostalAddress(
            label: "home", street: "1 Main St\nFlat 2", city: "Kraków", region: "",
            postalCode: "30-001", country: ContactJSONTests.awkward),
        PostalAddress(label: ""),
    ]
    private let strings = [ContactJSONTests.awkward, "", "item1.URL:https://a.example/x?y=1"]

    func test_encode_writesTheBytesOfJSONEncoderWithSortedKeysAndSlashesAsTheyAre() throws {
        // When / Then
        XCTAssertEqual(ContactJSON.encode(phones), try encoderJSON(phones, escapingSlashes: false))
        XCTAssertEqual(ContactJSON.encode(addresses), try encoderJSON(addresses, escapingSlashes: false))
        XCTAssertEqual(ContactJSON.encode(strings), try encoderJSON(strings, escapingSlashes: false))
        XCTAssertEqual(ContactJSON.encode(["a/b"]), #"["a/b"]"#)
        XCTAssertEqual(ContactJSON.encode([LabeledValue]()), try encoderJSON([LabeledValue]()))
        XCTAssertEqual(ContactJSON.encode([String]()), "[]")
    }

    func test_decode_readsWhatItWritesAndWhatJSONEncoderWroteBefore() throws {
        // When / Then
        XCTAssertEqual(ContactJSON.decodeLabeledValues(ContactJSON.encode(phones)), phones)
        XCTAssertEqual(ContactJSON.decodeAddresses(ContactJSON.encode(addresses)), addresses)
        XCTAssertEqual(ContactJSON.decodeStrings(ContactJSON.encode(strings)), strings)
        XCTAssertEqual(ContactJSON.decodeLabeledValues(try encoderJSON(phones)), phones)
        XCTAssertEqual(ContactJSON.decodeAddresses(try encoderJSON(addresses)), addresses)
        XCTAssertEqual(ContactJSON.decodeStrings(try encoderJSON(strings)), strings)
        XCTAssertEqual(ContactJSON.decodeStrings("[]"), [])
        XCTAssertEqual(ContactJSON.decodeLabeledValues("[]"), [])
    }

    func test_decode_readsEscapesAnotherWriterUses() {
        // When / Then: \u escapes in upper case, a surrogate pair, keys in another order
        XCTAssertEqual(ContactJSON.decodeStrings(#"["\u00E9\uD83D\uDE00\/"]"#), ["é😀/"])
        XCTAssertEqual(
            ContactJSON.decodeLabeledValues(#"[{"value":"v","label":"l"}]"#), [LabeledValue(label: "l", value: "v")])
    }

    func test_decode_readsAnotherWritersSpacing() {
        XCTAssertEqual(ContactJSON.decodeStrings(" [ \"a\" ,\n\"b\" ] "), ["a", "b"])
        XCTAssertEqual(
            ContactJSON.decodeLabeledValues(#"[ { "value" : "v" , "label" : "l" } ]"#),
            [LabeledValue(label: "l", value: "v")])
    }

    func test_decode_givesUpOnWhatItDoesNotExpect_soTheCallerFallsBackToJSONDecoder() {
        // When / Then
        XCTAssertNil(ContactJSON.decodeStrings(#"["a",]"#))
        XCTAssertNil(ContactJSON.decodeStrings(#"["a"] x"#))
        XCTAssertNil(ContactJSON.decodeStrings(#"["\uD83D"]"#))
        XCTAssertNil(ContactJSON.decodeLabeledValues(#"[{"label":"l"}]"#))
        XCTAssertNil(ContactJSON.decodeLabeledValues(#"[{"label":"l","value":1}]"#))
        // An escaped key is left to JSONDecoder, which reads it (the store falls back to it)
        XCTAssertNil(ContactJSON.decodeLabeledValues(#"[{"l\u0061bel":"l","value":"v"}]"#))
    }

    func test_decode_fieldsAreMatchedByWholeName_andTheLastRepeatWins() {
        // When / Then: "labels" and "lab" are not "label"; extra keys are ignored
        XCTAssertNil(ContactJSON.decodeLabeledValues(#"[{"labels":"l","value":"v"}]"#))
        XCTAssertNil(ContactJSON.decodeLabeledValues(#"[{"lab":"l","value":"v"}]"#))
        XCTAssertEqual(
            ContactJSON.decodeLabeledValues(#"[{"extra":"x","label":"l","value":"v"}]"#),
            [LabeledValue(label: "l", value: "v")])
        XCTAssertEqual(
            ContactJSON.decodeLabeledValues(#"[{"label":"a","label":"b","value":"v"},{"label":"c","value":"w"}]"#),
            [LabeledValue(label: "b", value: "v"), LabeledValue(label: "c", value: "w")])
    }

    func test_store_readsRowsWrittenWithOtherJSONSpacing() throws {
        // Given a row whose JSON was written by another writer (pretty-printed)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ContactJSONTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("book.sqlite").path
        let store = try SQLiteContactStore(path: path)
        let saved = try store.insert(
            Contact(uid: "u-1", givenName: "Ann", createdAt: VCardSeeds.now, updatedAt: VCardSeeds.now))
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    UPDATE contact SET phones = '[ { "value" : "555", "label" : "work" } ]', tags = '[ "a" , "b" ]',
                    addresses = '[{"label":"home","street":"s","city":"c","region":"r","postalCode":"p","country":"x"}]'
                    WHERE id = ?
                    """, arguments: [saved.id])
        }
        try queue.close()
        // When
        let read = try XCTUnwrap(try store.contact(id: XCTUnwrap(saved.id)))
        // Then
        XCTAssertEqual(read.phones, [LabeledValue(label: "work", value: "555")])
        XCTAssertEqual(read.tags, ["a", "b"])
        XCTAssertEqual(
            read.addresses,
            [PostalAddress(label: "home", street: "s", city: "c", region: "r", postalCode: "p", country: "x")])
    }
}
