import Foundation
import XCTest

@testable import ContactsApp

/// Issue 26, item 1: an account's requests go to its book's origin only, and the hrefs a server
/// lists must stay inside the book.
final class DAVCollectionScopeTests: XCTestCase {
    let sut = DAVCollectionScope(book: URL(string: "http://127.0.0.1:5232/alice/book/")!)

    func test_url_membersByPathRelativeOrAbsoluteURL_resolveInsideTheBook() {
        XCTAssertEqual(sut.url(of: "/alice/book/a.vcf")?.absoluteString, "http://127.0.0.1:5232/alice/book/a.vcf")
        XCTAssertEqual(sut.url(of: "a.vcf")?.absoluteString, "http://127.0.0.1:5232/alice/book/a.vcf")
        XCTAssertEqual(
            sut.url(of: "http://127.0.0.1:5232/alice/book/b.vcf")?.absoluteString,
            "http://127.0.0.1:5232/alice/book/b.vcf")
        XCTAssertEqual(sut.url(of: "HTTP://127.0.0.1:5232/alice/book/c%20d.vcf")?.path, "/alice/book/c d.vcf")
        XCTAssertEqual(sut.url(of: "/alice/book/")?.absoluteString, "http://127.0.0.1:5232/alice/book/")
        // A lenient server's raw characters, encoded as they should have been
        XCTAssertEqual(
            sut.url(of: "/alice/book/é x.vcf")?.absoluteString, "http://127.0.0.1:5232/alice/book/%C3%A9%20x.vcf")
        XCTAssertEqual(sut.url(of: "/alice/book/a@b.vcf")?.path, "/alice/book/a@b.vcf")
    }

    func test_url_anotherOriginOrOutsideTheBook_isNil() {
        for href in [
            "http://OTHER-HOST/steal/y.vcf", "http://other.example:5232/alice/book/y.vcf",
            "//other.example/alice/book/y.vcf",
            "http://127.0.0.1:5233/alice/book/y.vcf", "https://127.0.0.1:5232/alice/book/y.vcf",
            "/alice/book/../../other/x.vcf", "/alice/book/%2e%2e/%2E%2E/other/x.vcf", "/alice/book/%2e%2e%2fx.vcf",
            "../other/x.vcf", "./x.vcf", "/alice/other/x.vcf", "/alice/bookx/y.vcf", "/alice/", "/",
            "/alice/book/x.vcf?a=1", "/alice/book/x.vcf#f", "http://ann@127.0.0.1:5232/alice/book/x.vcf",
            "/alice/book/a\\..\\..\\x", "/alice/book/a\u{1B}[2J.vcf", "/alice/book/é/../../x.vcf", "",
            "javascript:alert(1)", "file:///etc/passwd",
        ] {
            XCTAssertNil(sut.url(of: href), href)
        }
    }

    func test_containsAndNamesCollection_answerAsTheFullURLReadingDoes_forEveryShape() {
        let books = [
            "http://127.0.0.1:5232/alice/book/", "http://127.0.0.1:5232/alice/book", "https://h.example/dav/a%20b/",
            "http://h.example/dav/%41nn/", "http://h.example/",
        ]
        let hrefs = [
            "/alice/book/a.vcf", "/alice/book/", "/alice/book", "/alice/book/sub/x.vcf", "/alice/bookx/y.vcf",
            "/alice/",
            "/", "/alice/book/a@b.vcf", "/alice/book/a:b;c=d,e+f!$&'()*~.vcf", "/alice/book//x.vcf",
            "//alice/book/x.vcf",
            "/alice/book/./x.vcf", "/alice/book/../book/x.vcf", "/alice/book/.", "/alice/book/x.vcf?a=1",
            "/alice/book/x.vcf#f",
            "/alice/book/c%20d.vcf", "/alice/book/é x.vcf", "/alice/book/a\\b", "/alice/book/a\u{1B}b", "a.vcf", "",
            "http://127.0.0.1:5232/alice/book/b.vcf", "/dav/a b/x.vcf", "/dav/a%20b/x.vcf", "/dav/a%20b",
            "/dav/Ann/x.vcf",
            "/dav/%41nn/x.vcf", "/dav/Ann", "/x.vcf",
        ]
        for book in books {
            let scope = DAVCollectionScope(book: URL(string: book)!)
            let bookURL = URL(string: book)!
            for href in hrefs {
                XCTAssertEqual(scope.contains(href), scope.url(of: href) != nil, "\(book) \(href)")
                let path = scope.url(of: href)?.path
                XCTAssertEqual(
                    scope.namesCollection(href), path == bookURL.path || path.map { $0 + "/" } == bookURL.path,
                    "\(book) \(href)")
            }
        }
        XCTAssertTrue(sut.contains("/alice/book/a.vcf"))
        XCTAssertFalse(sut.contains("/alice/bookx/a.vcf"))
        XCTAssertTrue(sut.namesCollection("/alice/book/"))
        XCTAssertTrue(sut.namesCollection("/alice/book"))
        XCTAssertFalse(sut.namesCollection("/alice/book/a.vcf"))
    }

    func test_origin_defaultPortsAndCaseAreTheSameOrigin_schemeIsNot() {
        let origin = DAVOrigin(URL(string: "https://DAV.example.org/x/")!)
        XCTAssertEqual(origin, DAVOrigin(URL(string: "https://dav.example.org:443/")!))
        XCTAssertNotEqual(origin, DAVOrigin(URL(string: "http://dav.example.org:443/")!))
        XCTAssertEqual(origin?.hostAndPort, "dav.example.org")
        XCTAssertEqual(DAVOrigin(URL(string: "http://h:8080/")!)?.hostAndPort, "h:8080")
        XCTAssertNil(DAVOrigin(URL(string: "file:///etc/passwd")!))
        XCTAssertTrue(origin?.isNamed(by: "dav.EXAMPLE.org") ?? false)
        XCTAssertTrue(origin?.isNamed(by: "dav.example.org:443") ?? false)
        XCTAssertFalse(origin?.isNamed(by: "dav.example.org:8443") ?? true)
        XCTAssertFalse(origin?.isNamed(by: "example.org") ?? true)
    }
}

final class OriginGuardTransportTests: XCTestCase {
    var inner: DAVTransportSpy!
    var sut: OriginGuardTransport!
    let here = URL(string: "http://127.0.0.1:5232/alice/book/")!

    override func setUp() {
        super.setUp()
        inner = DAVTransportSpy()
        sut = OriginGuardTransport(inner, allowed: [DAVOrigin(here)!])
    }

    func test_send_toAnotherOrigin_throwsBeforeSending() {
        for url in ["http://other.example/steal/y.vcf", "http://127.0.0.1:5233/alice/book/", "https://127.0.0.1:5232/"]
        {
            XCTAssertThrowsError(try sut.send(DAVRequest(method: "PUT", url: URL(string: url)!))) { error in
                XCTAssertEqual(error as? DAVError, .otherOrigin(URL(string: url)!))
            }
        }
        XCTAssertEqual(inner.requests, [])
    }

    func test_send_aRedirectToAnotherOrigin_isNotFollowed_andThrows() {
        // Given: the transport under it hands back the cross-origin 307 it did not follow
        inner.responses = [DAVResponse(status: 307, headers: ["Location": "http://other.example/book/"], url: here)]

        // When / Then
        XCTAssertThrowsError(try sut.send(DAVRequest(method: "PROPFIND", url: here))) { error in
            XCTAssertEqual(error as? DAVError, .otherOrigin(URL(string: "http://other.example/book/")!))
        }
        XCTAssertEqual(inner.requests.map(\.url), [here])
    }

    func test_send_aRedirectToAnOriginTheAskAllows_isFollowedWithTheSameRequest_askedOnce() throws {
        // Given: the person confirms the other host
        var asked: [URL] = []
        sut = OriginGuardTransport(inner, allowed: [DAVOrigin(here)!]) {
            asked.append($0); return true
        }
        inner.responses = [
            DAVResponse(status: 308, headers: ["Location": "http://other.example/book/"], url: here),
            DAVResponse(status: 207, url: URL(string: "http://other.example/book/")),
        ]

        // When
        let response = try sut.send(DAVRequest(method: "PROPFIND", url: here, headers: ["Depth": "0"]))

        // Then
        XCTAssertEqual(response.status, 207)
        XCTAssertEqual(inner.requests.map(\.url.absoluteString), [here.absoluteString, "http://other.example/book/"])
        XCTAssertEqual(inner.requests.map(\.method), ["PROPFIND", "PROPFIND"])
        XCTAssertEqual(asked, [URL(string: "http://other.example/book/")!])
        XCTAssertTrue(sut.allows(URL(string: "http://other.example/else/")!))
        XCTAssertEqual(asked.count, 1)
    }

    func test_send_anAnswerFromAnotherOrigin_afterATransportFollowedARedirect_throws() {
        inner.responses = [DAVResponse(status: 207, url: URL(string: "http://other.example/book/"))]
        XCTAssertThrowsError(try sut.send(DAVRequest(method: "PROPFIND", url: here))) { error in
            XCTAssertEqual(error as? DAVError, .otherOrigin(URL(string: "http://other.example/book/")!))
        }
    }
}

final class CardDAVClientScopeTests: XCTestCase {
    var transport: DAVTransportSpy!
    var sut: CardDAVClient!

    override func setUp() {
        super.setUp()
        transport = DAVTransportSpy()
        sut = CardDAVClient(book: Seeds.CardDAV.book, transport: transport)
    }

    func test_changes_hrefsOutsideTheBook_areSkippedAndNamed_theRestIsRead() throws {
        // Given
        transport.responses = [
            DAVResponse(
                status: 207,
                body: Seeds.CardDAV.multistatus(
                    Seeds.CardDAV.member("/alice/book/a.vcf", etag: "\"1\"")
                        + Seeds.CardDAV.member("http://OTHER-HOST/steal/y.vcf", etag: "\"2\"")
                        + Seeds.CardDAV.member("/alice/book/../../other/x.vcf", etag: "\"3\"")
                        + Seeds.CardDAV.member("/alice/book/%2e%2e/%2e%2e/other/z.vcf", etag: "\"4\"")
                        + Seeds.CardDAV.member("http://127.0.0.1:5299/alice/book/p.vcf", etag: "\"5\"")
                        + Seeds.CardDAV.member("https://127.0.0.1:5232/alice/book/s.vcf", etag: "\"6\""), token: "t1"))
        ]

        // When
        let changes = try sut.changes(since: nil)

        // Then
        XCTAssertEqual(changes.changed, ["/alice/book/a.vcf": "\"1\""])
        XCTAssertEqual(
            sut.refused,
            [
                "http://OTHER-HOST/steal/y.vcf", "/alice/book/../../other/x.vcf",
                "/alice/book/%2e%2e/%2e%2e/other/z.vcf", "http://127.0.0.1:5299/alice/book/p.vcf",
                "https://127.0.0.1:5232/alice/book/s.vcf",
            ])
    }

    func test_cards_anAnswerNamingACardOutsideTheBook_dropsIt() throws {
        transport.responses = [
            DAVResponse(
                status: 207,
                body: Seeds.CardDAV.multistatus(
                    """
                    <response><href>http://OTHER-HOST/steal/y.vcf</href><propstat><prop><getetag>"1"</getetag>\
                    <C:address-data>BEGIN:VCARD\r\nVERSION:3.0\r\nUID:y\r\nFN:Y\r\nEND:VCARD\r\n</C:address-data></prop>\
                    <status>HTTP/1.1 200 OK</status></propstat></response>
                    """))
        ]

        XCTAssertEqual(try sut.cards(hrefs: ["/alice/book/y.vcf"]), [])
        XCTAssertEqual(sut.refused, ["http://OTHER-HOST/steal/y.vcf"])
    }

    func test_cardUpdateDelete_outsideTheBook_throwWithoutSendingAnything() {
        for href in ["http://OTHER-HOST/steal/y.vcf", "/alice/book/../../other/x.vcf"] {
            XCTAssertThrowsError(try sut.update(href: href, vcard: "x", etag: "\"1\"")) { error in
                XCTAssertEqual(error as? DAVError, .outsideBook(href))
            }
            XCTAssertThrowsError(try sut.delete(href: href, etag: "\"1\""))
            XCTAssertThrowsError(try sut.card(href: href))
        }
        XCTAssertEqual(transport.requests, [])
    }
}
