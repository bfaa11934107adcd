import Foundation
import XCTest

@testable import ContactsApp

final class DAVMultistatusTests: XCTestCase {
    func test_parse_radicaleSyncCollection_givesTokenMembersAndRemovals() throws {
        // When
        let status = try DAVMultistatus.parse(Seeds.CardDAV.recorded("radicale-sync-initial"))

        // Then
        XCTAssertEqual(
            status.syncToken,
            "http://radicale.org/ns/sync/8f2d6766743a8e324e0c5f4ded3003d4fb4e471ab9c05c9a5daec17e8e2579f9")
        XCTAssertEqual(
            status.entries.map(\.href),
            [
                "/alice/book/r1.vcf", "/alice/book/c2f36b80-6dea-4ee7-9772-a961576aa689.vcf",
                "/alice/book/r2.vcf",
            ])
        XCTAssertEqual(status.entries.map(\.status), [404, 404, nil])
        XCTAssertEqual(status.entries[2].etag, "\"fee8bee5c6dede06e51de0f52a073ea90105a0f6565450147bdef6c99b5a1f2b\"")
    }

    func test_parse_multiget_keepsTheCardTextWithItsLineEnds() throws {
        let status = try DAVMultistatus.parse(Seeds.CardDAV.recorded("radicale-multiget"))

        XCTAssertEqual(status.entries.count, 1)
        XCTAssertEqual(
            status.entries[0].addressData, "BEGIN:VCARD\nVERSION:3.0\nUID:r2\nFN:Bo Ng\nN:Ng;Bo;;;\nEND:VCARD\n")
    }

    func test_parse_xandikosHome_statusBeforeProp_andPrefixedNamespaces() throws {
        let status = try DAVMultistatus.parse(Seeds.CardDAV.recorded("xandikos-home-propfind"))

        let book = try XCTUnwrap(status.entries.first { $0.href == "/user/contacts/addressbook/" })
        XCTAssertEqual(book.resourceTypes, ["collection", "addressbook"])
        XCTAssertEqual(book.displayName, "addressbook")
        // The 404 propstat's properties are not taken
        XCTAssertEqual(status.entries.first?.resourceTypes, ["collection"])
    }

    func test_parse_radicaleHome_readsSupportedVersionsAndSkips404Propstats() throws {
        let status = try DAVMultistatus.parse(Seeds.CardDAV.recorded("radicale-home-propfind"))

        let book = try XCTUnwrap(status.entries.first { $0.href == "/alice/book/" })
        XCTAssertEqual(book.addressDataVersions, ["3.0"])
        XCTAssertNil(status.entries.first { $0.href == "/alice/" }?.displayName)
    }

    func test_parse_valuesTrimmedOfWhiteSpace_theCardKeptAsSent() throws {
        // Given: values wrapped in spaces, tabs, line ends and a no-break space, as servers indent them
        let body = Data(
            """
            <?xml version="1.0"?><multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><response>
              <href>\t/alice/book/a.vcf \n</href><propstat><prop>
                <getetag>\u{00A0}"e1"\r\n</getetag><C:address-data>\nBEGIN:VCARD\nEND:VCARD\n  </C:address-data>
              </prop><status>  HTTP/1.1 200 OK  </status></propstat></response>
              <sync-token>
                 t1
              </sync-token></multistatus>
            """.utf8)

        // When
        let status = try DAVMultistatus.parse(body)

        // Then
        XCTAssertEqual(
            status.entries,
            [
                DAVMultistatus.Entry(
                    href: "/alice/book/a.vcf", etag: "\"e1\"",
                    addressData: "\nBEGIN:VCARD\nEND:VCARD\n  ")
            ])
        XCTAssertEqual(status.syncToken, "t1")
        XCTAssertEqual(DAVMultistatus.trimmed(" \u{3000}x y\u{2028}"), "x y")
        XCTAssertEqual(DAVMultistatus.trimmed("kept"), "kept")
        XCTAssertEqual(DAVMultistatus.trimmed(" \n\t"), "")
    }

    func test_parse_notAMultistatus_throwsMalformed() {
        XCTAssertThrowsError(try DAVMultistatus.parse(Data("<html>nope</html>".utf8))) { error in
            guard case DAVError.malformed = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try DAVMultistatus.parse(Data("not xml at all <".utf8)))
    }

    func test_errorConditions_radicaleAndXandikos_nameValidSyncToken() {
        XCTAssertEqual(
            DAVErrorBody.conditions(Seeds.CardDAV.recorded("radicale-sync-invalid-token")), ["valid-sync-token"])
        XCTAssertEqual(
            DAVErrorBody.conditions(Seeds.CardDAV.recorded("xandikos-sync-invalid-token")),
            ["valid-sync-token", "responsedescription"])
        XCTAssertEqual(DAVErrorBody.conditions(Data()), [])
    }

    // Found by fuzz-carddav: FoundationXML's XMLParser traps on an element name that is not UTF-8
    // (`<p\u{D8}op>` in a Radicale answer), which would have ended the whole sync process.
    func test_parse_anElementNameThatIsNotUTF8_throwsMalformed_insteadOfCrashing() {
        // Given
        let body = Seeds.CardDAV.recorded("fuzz-invalid-utf8-element-name")
        XCTAssertFalse(body.isEmpty)
        // When / Then
        XCTAssertThrowsError(try DAVMultistatus.parse(body)) { error in
            XCTAssertEqual(error as? DAVError, .malformed("the answer is not UTF-8"))
        }
        XCTAssertEqual(DAVErrorBody.conditions(body), [])
    }

    func test_parse_latin1Declared_isReadAsDeclared() throws {
        // Given: bytes that are UTF-8, in a document that says ISO-8859-1
        let body = Data(
            #"<?xml version="1.0" encoding="iso-8859-1"?><multistatus xmlns="DAV:"><response><href>/b/é.vcf</href></response></multistatus>"#
                .utf8)
        // When
        let status = try DAVMultistatus.parse(body)
        // Then: libxml2 decodes each byte as Latin-1
        XCTAssertEqual(status.entries.map(\.href), ["/b/Ã©.vcf"])
    }
}

/// Issue 26, item 12: an entity the parser would leave out is an error naming the card.
final class DAVEntityTests: XCTestCase {
    func body(doctype: String = "", _ addressData: String) -> Data {
        Data(
            """
            <?xml version="1.0"?>\(doctype)<D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">\
            <D:response><D:href>/alice/book/ok.vcf</D:href><D:propstat><D:prop><D:getetag>"1"</D:getetag>\
            <C:address-data>BEGIN:VCARD</C:address-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\
            <D:response><D:href>/alice/book/a.vcf</D:href><D:propstat><D:prop><D:getetag>"2"</D:getetag>\
            <C:address-data>\(addressData)</C:address-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\
            </D:multistatus>
            """.utf8)
    }

    func test_parse_anEntityTheParserWouldDrop_throwsNamingTheCard() {
        for doctype in [
            #"<!DOCTYPE D:multistatus [<!ENTITY a "x">]>"#,
            #"<!DOCTYPE D:multistatus [<!ENTITY a SYSTEM "file:///etc/hostname">]>"#,
            #"<!DOCTYPE D:multistatus SYSTEM "http://127.0.0.1:9/x.dtd">"#, "",
        ] {
            XCTAssertThrowsError(try DAVMultistatus.parse(body(doctype: doctype, "NOTE:n=&a;"))) { error in
                XCTAssertEqual(
                    error as? DAVError,
                    .malformed(
                        "the card /alice/book/a.vcf holds an XML entity that cannot be read (&a;); nothing of this answer was kept"
                    ),
                    doctype)
            }
        }
    }

    func test_parse_predefinedEntitiesCharacterReferencesCDATAAndComments_areReadAsTheyAre() throws {
        let status = try DAVMultistatus.parse(
            body("NOTE:&amp;&lt;&gt;&quot;&apos;&#65;&#x42;<![CDATA[AT&T; &x;]]><!-- &c; -->."))
        XCTAssertEqual(status.entries.last?.addressData, "NOTE:&<>\"'ABAT&T; &x;.")
    }
}

/// Issue 26, items 5 and 6: an answer read as it arrives, within its caps.
final class DAVMultistatusStreamTests: XCTestCase {
    func member(_ number: Int, card: String) -> String {
        "<D:response><D:href>/alice/book/\(number).vcf</D:href><D:propstat><D:prop><D:getetag>\"\(number)\"</D:getetag>"
            + "<C:address-data>\(card)</C:address-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
    }

    func answer(_ members: String) -> Data {
        Data(
            ("<?xml version=\"1.0\"?><D:multistatus xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:carddav\">"
                + members + "<D:sync-token>t9</D:sync-token></D:multistatus>").utf8)
    }

    /// Reads `body` cut into pieces of `size` bytes, as a transport hands them over.
    func read(_ body: Data, pieces size: Int, limits: DAVSizeLimits = DAVSizeLimits()) throws -> [DAVMultistatus.Entry]
    {
        var entries: [DAVMultistatus.Entry] = []
        let sut = DAVMultistatusStream(limits: limits, request: "REPORT /alice/book/") { entries.append($0) }
        var start = body.startIndex
        while start < body.endIndex {
            let end = min(start + size, body.endIndex)
            try body[start..<end].withUnsafeBytes { try sut.receive($0) }
            start = end
        }
        try sut.finish()
        XCTAssertEqual(sut.syncToken, "t9")
        return entries
    }

    func test_anAnswerCutAnywhere_readsAsTheWholeOne_evenAcrossACharacterOrAnEntity() throws {
        // Given: a card with a 2- and a 4-byte character, predefined entities, CDATA
        let body = answer(member(1, card: "FN:Zoë &amp; 😀<![CDATA[ <b> ]]>") + member(2, card: "FN:Bo"))
        let whole = try DAVMultistatus.parse(body).entries

        // When / Then: every cut, down to one byte at a time
        for size in [1, 2, 3, 7, 64, body.count] {
            XCTAssertEqual(try read(body, pieces: size), whole, "pieces of \(size)")
        }
        XCTAssertEqual(whole.map(\.addressData), ["FN:Zoë & 😀 <b> ", "FN:Bo"])
    }

    func test_anAnswerOver10MB_andACardOver10MB_areRead() throws {
        // Given: libxml2 refused a body over 10,000,000 bytes given whole (FoundationXML's way)
        let photo = String(repeating: "A", count: 12_000_000)
        let body = answer(member(1, card: "PHOTO:" + photo) + member(2, card: "FN:Bo"))

        // When
        let entries = try read(body, pieces: 1 << 16)

        // Then
        XCTAssertEqual(entries.map(\.href), ["/alice/book/1.vcf", "/alice/book/2.vcf"])
        XCTAssertEqual(entries[0].addressData?.utf8.count, 12_000_006)
    }

    func test_aCardOverItsCap_isSkippedWithItsSize_theOthersAreRead() throws {
        // Given
        let body = answer(member(1, card: String(repeating: "x", count: 5_000)) + member(2, card: "FN:Bo"))

        // When
        let entries = try read(body, pieces: 100, limits: DAVSizeLimits(card: 1_000))

        // Then
        XCTAssertNil(entries[0].addressData)
        XCTAssertEqual(entries[0].oversizedAddressData, 5_000)
        XCTAssertEqual(entries[1].addressData, "FN:Bo")
    }

    func test_anAnswerOverItsCap_stopsThere_namingTheRequestAndTheLimit() {
        // Given
        let body = answer(String(repeating: member(1, card: "FN:Bo"), count: 100))

        // When / Then
        XCTAssertThrowsError(try read(body, pieces: 512, limits: DAVSizeLimits(answer: 4 << 10))) { error in
            XCTAssertEqual(
                error as? DAVError,
                .tooLarge(
                    "the answer to REPORT /alice/book/ passed 4 KiB, the limit for one answer (CONTACTSBOOK_SYNC_MAX_ANSWER "
                        + "sets it); stopped there, nothing of it was kept"))
        }
    }

    func test_anyOtherValueOverTheCardCap_stopsTheAnswer() {
        let body = answer(
            "<D:response><D:href>/alice/book/" + String(repeating: "a", count: 3_000)
                + ".vcf</D:href></D:response>")
        XCTAssertThrowsError(try read(body, pieces: 256, limits: DAVSizeLimits(card: 1_000))) { error in
            guard case .tooLarge(let reason) = error as? DAVError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("holds a value longer than 1000 bytes"), reason)
        }
    }

    func test_bytesNotUTF8_orCutShortInACharacter_areRefused() {
        // Given: a lone continuation byte, an overlong slash, a surrogate, a character cut at the end
        for bad in [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98]] as [[UInt8]] {
            var body = answer(member(1, card: "FN:Bo"))
            body.insert(contentsOf: bad, at: body.count - 20)
            if bad == [0xF0, 0x9F, 0x98] { body = Data(Array(body) + bad) }
            XCTAssertThrowsError(try read(body, pieces: 1)) { error in
                XCTAssertEqual(error as? DAVError, .malformed("the answer is not UTF-8"), "\(bad)")
            }
        }
    }

    func test_deepNesting_isRefusedAt256Levels_notReadForEver() {
        // libxml2's push parser checks no depth itself; each level would cost memory
        let body = Data(
            ("<D:multistatus xmlns:D=\"DAV:\">" + String(repeating: "<D:x>", count: 5_000)
                + String(repeating: "</D:x>", count: 5_000) + "</D:multistatus>").utf8)
        XCTAssertThrowsError(try DAVMultistatus.parse(body)) { error in
            guard case .malformed(let reason) = error as? DAVError else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, "the answer nests its elements deeper than 256 levels")
        }
    }

    func test_whatOnEntryThrows_stopsTheReading() {
        struct Stop: Error {}
        let sut = DAVMultistatusStream(limits: DAVSizeLimits(), request: "REPORT /") { _ in throw Stop() }
        let body = answer(member(1, card: "FN:Bo") + member(2, card: "FN:Cy"))
        XCTAssertThrowsError(try body.withUnsafeBytes { try sut.receive($0) }) { XCTAssertTrue($0 is Stop) }
        XCTAssertThrowsError(try sut.finish()) { XCTAssertTrue($0 is Stop) }
    }
}

final class DAVSizeLimitsTests: XCTestCase {
    func test_configured_readsBytesAndUnits_ignoresWhatIsNoSize() {
        XCTAssertEqual(DAVSizeLimits.configured([:]), DAVSizeLimits(answer: 1 << 30, card: 16 << 20))
        XCTAssertEqual(
            DAVSizeLimits.configured(["CONTACTSBOOK_SYNC_MAX_ANSWER": "2G", "CONTACTSBOOK_SYNC_MAX_CARD": "100k"]),
            DAVSizeLimits(answer: 2 << 30, card: 100 << 10))
        XCTAssertEqual(
            DAVSizeLimits.configured(["CONTACTSBOOK_SYNC_MAX_ANSWER": "5000", "CONTACTSBOOK_SYNC_MAX_CARD": "3M"]),
            DAVSizeLimits(answer: 5_000, card: 3 << 20))
        for bad in ["", "0", "-1", "1.5M", "lots", "99999999999999999999G"] {
            XCTAssertEqual(DAVSizeLimits.configured(["CONTACTSBOOK_SYNC_MAX_CARD": bad]).card, 16 << 20, bad)
        }
        XCTAssertEqual(DAVSizeLimits.words(16 << 20), "16 MiB")
        XCTAssertEqual(DAVSizeLimits.words(1_000), "1000 bytes")
    }
}
