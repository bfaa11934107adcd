import Foundation
import XCTest
@testable import ContactsApp

final class DAVMultistatusTests: XCTestCase {
    func test_parse_radicaleSyncCollection_givesTokenMembersAndRemovals() throws {
        // When
        let status = try DAVMultistatus.parse(Seeds.CardDAV.recorded("radicale-sync-initial"))

        // Then
        XCTAssertEqual(status.syncToken,
                       "http://radicale.org/ns/sync/8f2d6766743a8e324e0c5f4ded3003d4fb4e471ab9c05c9a5daec17e8e2579f9")
        XCTAssertEqual(status.entries.map(\.href), ["/alice/book/r1.vcf", "/alice/book/c2f36b80-6dea-4ee7-9772-a961576aa689.vcf",
                                                    "/alice/book/r2.vcf"])
        XCTAssertEqual(status.entries.map(\.status), [404, 404, nil])
        XCTAssertEqual(status.entries[2].etag, "\"fee8bee5c6dede06e51de0f52a073ea90105a0f6565450147bdef6c99b5a1f2b\"")
    }

    func test_parse_multiget_keepsTheCardTextWithItsLineEnds() throws {
        let status = try DAVMultistatus.parse(Seeds.CardDAV.recorded("radicale-multiget"))

        XCTAssertEqual(status.entries.count, 1)
        XCTAssertEqual(status.entries[0].addressData, "BEGIN:VCARD\nVERSION:3.0\nUID:r2\nFN:Bo Ng\nN:Ng;Bo;;;\nEND:VCARD\n")
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
        let body = Data("""
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
        XCTAssertEqual(status.entries, [DAVMultistatus.Entry(href: "/alice/book/a.vcf", etag: "\"e1\"",
                                                             addressData: "\nBEGIN:VCARD\nEND:VCARD\n  ")])
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
        XCTAssertEqual(DAVErrorBody.conditions(Seeds.CardDAV.recorded("radicale-sync-invalid-token")), ["valid-sync-token"])
        XCTAssertEqual(DAVErrorBody.conditions(Seeds.CardDAV.recorded("xandikos-sync-invalid-token")),
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
        let body = Data(#"<?xml version="1.0" encoding="iso-8859-1"?><multistatus xmlns="DAV:"><response><href>/b/é.vcf</href></response></multistatus>"#.utf8)
        // When
        let status = try DAVMultistatus.parse(body)
        // Then: libxml2 decodes each byte as Latin-1
        XCTAssertEqual(status.entries.map(\.href), ["/b/Ã©.vcf"])
    }
}

/// Issue 26, item 12: an entity the parser would leave out is an error naming the card.
final class DAVEntityTests: XCTestCase {
    func body(doctype: String = "", _ addressData: String) -> Data {
        Data("""
            <?xml version="1.0"?>\(doctype)<D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">\
            <D:response><D:href>/alice/book/ok.vcf</D:href><D:propstat><D:prop><D:getetag>"1"</D:getetag>\
            <C:address-data>BEGIN:VCARD</C:address-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\
            <D:response><D:href>/alice/book/a.vcf</D:href><D:propstat><D:prop><D:getetag>"2"</D:getetag>\
            <C:address-data>\(addressData)</C:address-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\
            </D:multistatus>
            """.utf8)
    }

    func test_parse_anEntityTheParserWouldDrop_throwsNamingTheCard() {
        for doctype in [#"<!DOCTYPE D:multistatus [<!ENTITY a "x">]>"#,
                        #"<!DOCTYPE D:multistatus [<!ENTITY a SYSTEM "file:///etc/hostname">]>"#,
                        #"<!DOCTYPE D:multistatus SYSTEM "http://127.0.0.1:9/x.dtd">"#, ""] {
            XCTAssertThrowsError(try DAVMultistatus.parse(body(doctype: doctype, "NOTE:n=&a;"))) { error in
                XCTAssertEqual(error as? DAVError, .malformed(
                    "the card /alice/book/a.vcf holds an XML entity that cannot be read (&a;); nothing of this answer was kept"),
                               doctype)
            }
        }
    }

    func test_parse_predefinedEntitiesCharacterReferencesCDATAAndComments_areReadAsTheyAre() throws {
        let status = try DAVMultistatus.parse(body("NOTE:&amp;&lt;&gt;&quot;&apos;&#65;&#x42;<![CDATA[AT&T; &x;]]><!-- &c; -->."))
        XCTAssertEqual(status.entries.last?.addressData, "NOTE:&<>\"'ABAT&T; &x;.")
    }
}
