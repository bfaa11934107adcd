import Foundation
import XCTest

@testable import ContactsApp

final class CardDAVClientTests: XCTestCase {
    var sut: CardDAVClient!
    var transport: DAVTransportSpy!

    override func setUp() {
        super.setUp()
        transport = DAVTransportSpy()
        sut = CardDAVClient(book: Seeds.CardDAV.book, transport: transport, multigetBatch: 2)
    }

    func test_changes_fromScratch_sendsAnEmptyTokenAndListsEverything() throws {
        // Given
        transport.responses = [DAVResponse(status: 207, body: Seeds.CardDAV.recorded("radicale-sync-initial"))]

        // When
        let changes = try sut.changes(since: nil)

        // Then
        let request = try XCTUnwrap(transport.requests.first)
        XCTAssertEqual(request.method, "REPORT")
        XCTAssertEqual(request.headers["Depth"], "1")
        XCTAssertTrue(String(decoding: request.body ?? Data(), as: UTF8.self).contains("<D:sync-token></D:sync-token>"))
        XCTAssertTrue(changes.isComplete)
        XCTAssertEqual(Array(changes.changed.keys), ["/alice/book/r2.vcf"])
        XCTAssertEqual(changes.removed.count, 2)
    }

    func test_changes_truncated507_goesOnFromTheNewToken() throws {
        // Given: the first answer is cut off (507 on the collection itself)
        transport.responses = [
            DAVResponse(
                status: 207,
                body: Seeds.CardDAV.multistatus(
                    Seeds.CardDAV.member("/alice/book/a.vcf", etag: "\"1\"")
                        + "<response><href>/alice/book/</href><status>HTTP/1.1 507 Insufficient Storage</status></response>",
                    token: "t1")),
            DAVResponse(
                status: 207,
                body: Seeds.CardDAV.multistatus(
                    Seeds.CardDAV.member("/alice/book/b.vcf", etag: "\"2\""), token: "t2")),
        ]

        // When
        let changes = try sut.changes(since: "t0")

        // Then
        XCTAssertEqual(changes.changed, ["/alice/book/a.vcf": "\"1\"", "/alice/book/b.vcf": "\"2\""])
        XCTAssertEqual(changes.token, "t2")
        XCTAssertFalse(changes.isComplete)
        XCTAssertEqual(transport.requests.count, 2)
        XCTAssertTrue(String(decoding: transport.requests[1].body ?? Data(), as: UTF8.self).contains(">t1<"))
    }

    func test_changes_truncated507ForEverWithAFreshTokenEachTime_stopsAfterItsTimeNamingIt() {
        // Given: a server that truncates every answer, each request taking a second on the clock
        let truncated =
            "<response><href>/alice/book/</href><status>HTTP/1.1 507 Insufficient Storage</status></response>"
        transport.responses = (1...1_000).map {
            DAVResponse(status: 207, body: Seeds.CardDAV.multistatus(truncated, token: "t\($0)"))
        }
        sut = CardDAVClient(
            book: Seeds.CardDAV.book, transport: transport, truncatedRounds: 300,
            clock: { [transport] in TimeInterval(transport!.requests.count) })

        // When / Then: stopped at 300 seconds' worth of rounds, long before the count cap
        XCTAssertThrowsError(try sut.changes(since: nil)) { error in
            XCTAssertEqual(
                error as? DAVError,
                .timedOut("the server truncated its list of changes (507) 300 times in a row for 300 s; stopped"))
        }
        XCTAssertEqual(transport.requests.count, 300)
    }

    func test_changes_refusedToken_403Or412WithTheCondition_throwsInvalidSyncToken() {
        for (status, body) in [(403, "radicale-sync-invalid-token"), (412, "xandikos-sync-invalid-token")] {
            transport.responses = [DAVResponse(status: status, body: Seeds.CardDAV.recorded(body))]
            XCTAssertThrowsError(try sut.changes(since: "old")) { error in
                XCTAssertEqual(error as? DAVError, .invalidSyncToken)
            }
        }
    }

    func test_changes_401_throwsUnauthorized() {
        transport.responses = [DAVResponse(status: 401)]
        XCTAssertThrowsError(try sut.changes(since: nil)) { error in
            XCTAssertEqual(error as? DAVError, .unauthorized(url: Seeds.CardDAV.book))
        }
    }

    func test_changesWithCards_handsOnTheCardsOfTheListing_andLeavesOnlyTheOthersToFetch() throws {
        // Given: a listing with one member's card, and one whose card the server did not send
        // (its address-data in a 404 propstat)
        let card = Seeds.CardDAV.card(uid: "a", given: "Ann", family: "Lee")
        transport.responses = [
            DAVResponse(
                status: 207,
                body: Seeds.CardDAV.multistatus(
                    "<response><href>/alice/book/a.vcf</href><propstat><prop><getetag>\"1\"</getetag>"
                        + "<C:address-data>\(card)</C:address-data></prop><status>HTTP/1.1 200 OK</status>"
                        + "</propstat></response>"
                        + "<response><href>/alice/book/b.vcf</href><propstat><prop><getetag>\"2\"</getetag></prop>"
                        + "<status>HTTP/1.1 200 OK</status></propstat><propstat><prop><C:address-data/></prop>"
                        + "<status>HTTP/1.1 404 Not Found</status></propstat></response>",
                    token: "t1"))
        ]

        // When
        var handed: [RemoteCard] = []
        let changes = try sut.changesWithCards { handed += $0 }

        // Then: one request, from scratch, asking for the cards in the version we send
        XCTAssertEqual(transport.requests.count, 1)
        let body = String(decoding: transport.requests[0].body ?? Data(), as: UTF8.self)
        XCTAssertTrue(body.contains("<D:sync-token></D:sync-token>"))
        XCTAssertTrue(body.contains(#"<C:address-data content-type="text/vcard" version="4.0"/>"#))
        // (XML reads a line end as LF, as in a multiget's answer)
        XCTAssertEqual(
            handed,
            [
                RemoteCard(
                    href: "/alice/book/a.vcf", etag: "\"1\"", vcard: card.replacingOccurrences(of: "\r\n", with: "\n"))
            ])
        XCTAssertEqual(changes.changed, ["/alice/book/b.vcf": "\"2\""])
        XCTAssertEqual(changes.token, "t1")
        XCTAssertTrue(changes.isComplete)
    }

    func test_changesWithCards_refusedByTheServer_listsAgainWithoutThem_andDoesNotAskAgain() throws {
        // Given: a server that refuses a property it does not serve in a sync-collection
        let listing = DAVResponse(
            status: 207,
            body: Seeds.CardDAV.multistatus(Seeds.CardDAV.member("/alice/book/a.vcf", etag: "\"1\""), token: "t1"))
        transport.responses = [DAVResponse(status: 400), listing, listing]

        // When
        var handed: [RemoteCard] = []
        let changes = try sut.changesWithCards { handed += $0 }
        _ = try sut.changesWithCards { handed += $0 }

        // Then: the plain listing, every member left to fetch; the next one plain at once
        XCTAssertEqual(handed, [])
        XCTAssertEqual(changes.changed, ["/alice/book/a.vcf": "\"1\""])
        XCTAssertEqual(changes.token, "t1")
        let bodies = transport.requests.map { String(decoding: $0.body ?? Data(), as: UTF8.self) }
        XCTAssertEqual(bodies.map { $0.contains("address-data") }, [true, false, false])
    }

    func test_changesWithCards_401_throwsUnauthorized_withoutListingAgain() {
        transport.responses = [DAVResponse(status: 401)]

        XCTAssertThrowsError(try sut.changesWithCards { _ in }) { error in
            guard case DAVError.unauthorized = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(transport.requests.count, 1)
    }

    func test_cards_multigetInBatches() throws {
        // Given
        let answer = DAVResponse(status: 207, body: Seeds.CardDAV.recorded("radicale-multiget"))
        transport.responses = [answer, answer]

        // When
        let cards = try sut.cards(hrefs: ["/a", "/b", "/c"])

        // Then: batches of 2, then 1
        XCTAssertEqual(transport.requests.count, 2)
        let first = String(decoding: transport.requests[0].body ?? Data(), as: UTF8.self)
        XCTAssertTrue(first.contains("<D:href>/a</D:href><D:href>/b</D:href>"))
        XCTAssertTrue(first.contains("addressbook-multiget"))
        XCTAssertEqual(cards.map(\.href), ["/alice/book/r2.vcf", "/alice/book/r2.vcf"])
    }

    func test_create_putsWithIfNoneMatch_andANameFromTheUID() throws {
        transport.responses = [DAVResponse(status: 201, headers: ["ETag": "\"n1\""])]

        let created = try sut.create(uid: "urn:uuid:a/b", vcard: "BEGIN:VCARD")

        let request = try XCTUnwrap(transport.requests.first)
        XCTAssertEqual(request.method, "PUT")
        XCTAssertEqual(request.url.absoluteString, "http://127.0.0.1:5232/alice/book/urn-uuid-a-b.vcf")
        XCTAssertEqual(request.headers["If-None-Match"], "*")
        XCTAssertEqual(created.href, "/alice/book/urn-uuid-a-b.vcf")
        XCTAssertEqual(created.etag, "\"n1\"")
    }

    func test_updateAndDelete_sendIfMatch_412ThrowsPreconditionFailed() throws {
        transport.responses = [DAVResponse(status: 412), DAVResponse(status: 412), DAVResponse(status: 404)]

        XCTAssertThrowsError(try sut.update(href: "/alice/book/a.vcf", vcard: "x", etag: "\"1\"")) { error in
            guard case DAVError.preconditionFailed = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try sut.delete(href: "/alice/book/a.vcf", etag: "\"1\""))
        // Already gone: not an error
        XCTAssertNoThrow(try sut.delete(href: "/alice/book/a.vcf", etag: "\"1\""))
        XCTAssertEqual(transport.requests.map { $0.headers["If-Match"] }, ["\"1\"", "\"1\"", "\"1\""])
        XCTAssertEqual(transport.requests.map(\.method), ["PUT", "DELETE", "DELETE"])
    }

    func test_cards_askForTheVersionWeSend_andWithout_whenTheServerRefusesTheAsking() throws {
        // Given: a client for a book that takes only 3.0
        sut = CardDAVClient(book: Seeds.CardDAV.book, transport: transport, multigetBatch: 1, vcardVersion: "3.0")
        let answer = DAVResponse(status: 207, body: Seeds.CardDAV.recorded("radicale-multiget"))
        transport.responses = [answer, DAVResponse(status: 415), answer, answer]

        // When: the second batch's asking is refused
        _ = try sut.cards(hrefs: ["/a", "/b", "/c"])

        // Then: RFC 6352 §10.4's attributes, then (refused) the bare element for good
        let bodies = transport.requests.map { String(decoding: $0.body ?? Data(), as: UTF8.self) }
        XCTAssertEqual(bodies.count, 4)
        XCTAssertTrue(bodies[0].contains(#"<C:address-data content-type="text/vcard" version="3.0"/>"#), bodies[0])
        XCTAssertTrue(bodies[1].contains(#"version="3.0""#))
        XCTAssertTrue(bodies[2].contains("<C:address-data/>") && bodies[2].contains("<D:href>/b</D:href>"))
        XCTAssertTrue(bodies[3].contains("<C:address-data/>") && bodies[3].contains("<D:href>/c</D:href>"))
        XCTAssertTrue(DAVXML.multiget(hrefs: ["/a"], version: "4.0").contains(#"version="4.0""#))
    }

    func test_aPutTheServerRefuses_throwsRefused_withTheServersReason_sanitised() throws {
        // Given: SabreDAV's answer (Debian's 1.8, recorded), with a control byte slipped in
        let sabre = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns">
              <s:exception>Sabre\\DAV\\Exception\\UnsupportedMediaType</s:exception>
              <s:message>This resource only supports valid vcard data. Parse error: Invalid VObject, line 7 did not\u{9B}31m follow the icalendar/vcard format</s:message>
              <s:sabredav-version>1.8.12</s:sabredav-version>
            </d:error>
            """
        transport.responses = [
            DAVResponse(
                status: 415, headers: ["Content-Type": "application/xml; charset=utf-8"], body: Data(sabre.utf8)),
            DAVResponse(
                status: 403, headers: ["Content-Type": "application/xml"],
                body: Data(
                    #"<D:error xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><C:valid-address-data/></D:error>"#
                        .utf8)),
            DAVResponse(
                status: 400, headers: ["Content-Type": "text/plain"], body: Data("Bad Request\n\nno UID\n".utf8)),
            DAVResponse(status: 401),
        ]

        // When, Then
        let url = URL(string: "http://127.0.0.1:5232/alice/book/a.vcf")!
        XCTAssertThrowsError(try sut.create(uid: "a", vcard: "x")) { error in
            XCTAssertEqual(
                error as? DAVError,
                .refused(
                    415, method: "PUT", url: url,
                    reason: "Unsupported Media Type: "
                        + "This resource only supports valid vcard data. Parse error: Invalid VObject, line 7 did not?31m "
                        + "follow the icalendar/vcard format"))
        }
        XCTAssertThrowsError(try sut.update(href: "/alice/book/a.vcf", vcard: "x", etag: "\"1\"")) { error in
            XCTAssertEqual(
                error as? DAVError, .refused(403, method: "PUT", url: url, reason: "Forbidden: valid-address-data"))
        }
        XCTAssertThrowsError(try sut.delete(href: "/alice/book/a.vcf", etag: "\"1\"")) { error in
            XCTAssertEqual(
                error as? DAVError, .refused(400, method: "DELETE", url: url, reason: "Bad Request: Bad Request no UID")
            )
        }
        // A refused password is still the password, not the card
        XCTAssertThrowsError(try sut.create(uid: "a", vcard: "x")) { error in
            XCTAssertEqual(error as? DAVError, .unauthorized(url: url))
        }
    }

    func test_refusalReason_longBodies_areCut_andAnHTMLPageSaysOnlyTheStatus() {
        let long = DAVResponse(
            status: 500, headers: ["Content-Type": "text/plain"], body: Data(String(repeating: "x ", count: 400).utf8))
        XCTAssertEqual(DAVRefusal.reason(long).count, DAVRefusal.maximumLength)
        XCTAssertTrue(DAVRefusal.reason(long).hasPrefix("Internal Server Error: x x"))
        let page = DAVResponse(
            status: 502, headers: ["Content-Type": "text/html"], body: Data("<html><h1>Bad</h1></html>".utf8))
        XCTAssertEqual(DAVRefusal.reason(page), "Bad Gateway")
        XCTAssertEqual(DAVRefusal.reason(DAVResponse(status: 499)), "")
    }
}

final class AuthChallengeTests: XCTestCase {
    func test_unsupported_nilForBasicOrADigestWeCanAnswer_orNoChallenge() {
        for header in [
            nil, "", #"Basic realm="dav""#, #"Digest realm="SabreDAV",qop="auth",nonce="5f1",opaque="df58""#,
            #"Digest realm="a, b", algorithm=SHA-256, qop="auth,auth-int", nonce="n""#,
            #"Digest realm="x", algorithm=MD5-sess, nonce="n""#,
            #"Bearer realm="x", Digest realm="y", nonce="n", algorithm=SHA-512-256"#,
            #"Negotiate, Basic realm="dav""#,
        ] {
            XCTAssertNil(AuthChallenge.unsupported(header), header ?? "nil")
        }
    }

    func test_unsupported_namesWhatTheServerAskedFor() {
        XCTAssertEqual(AuthChallenge.unsupported(#"Bearer realm="api", error="invalid_token""#), "Bearer")
        XCTAssertEqual(AuthChallenge.unsupported("Negotiate, NTLM"), "Negotiate, NTLM")
        XCTAssertEqual(
            AuthChallenge.unsupported(#"Digest realm="x", nonce="n", algorithm=SHA-512"#),
            "Digest (algorithm SHA-512)")
        XCTAssertEqual(
            AuthChallenge.unsupported(#"Digest realm="x", nonce="n", qop="auth-int""#), "Digest (qop=auth-int)")
        XCTAssertEqual(AuthChallenge.unsupported("Weird\u{1B}[2J realm=x"), "Weird?[2J")
    }

    func test_challenges_readsQuotedCommasAndSeveralChallenges() {
        let read = AuthChallenge.challenges(#"Digest realm="a, b", nonce="n1", Basic realm="c""#)
        XCTAssertEqual(read.map(\.scheme), ["Digest", "Basic"])
        XCTAssertEqual(read.first?.parameters, ["realm": "a, b", "nonce": "n1"])
        XCTAssertEqual(read.last?.parameters, ["realm": "c"])
    }
}

final class CardDAVDiscoveryTests: XCTestCase {
    func test_addressBooks_followsPrincipalAndHomeSet() throws {
        // Given: Radicale's recorded answers, in the order discovery asks
        let transport = DAVTransportSpy()
        transport.responses = [
            DAVResponse(status: 207, body: Seeds.CardDAV.recorded("radicale-root-propfind")),
            DAVResponse(status: 207, body: Seeds.CardDAV.recorded("radicale-principal-propfind")),
            DAVResponse(status: 207, body: Seeds.CardDAV.recorded("radicale-home-propfind")),
        ]
        let sut = CardDAVDiscovery(transport: transport)

        // When
        let books = try sut.addressBooks(from: URL(string: "http://127.0.0.1:5232/")!)

        // Then
        XCTAssertEqual(
            books,
            [
                RemoteAddressBook(
                    url: URL(string: "http://127.0.0.1:5232/alice/book/")!,
                    displayName: "alice/book", acceptsVCard4: false)
            ])
        XCTAssertEqual(
            transport.requests.map(\.url.absoluteString),
            ["http://127.0.0.1:5232/", "http://127.0.0.1:5232/alice/", "http://127.0.0.1:5232/alice/"])
        XCTAssertEqual(transport.requests.map { $0.headers["Depth"] }, ["0", "0", "1"])
    }

    func test_addressBooks_aBookWithoutWriteInItsPrivileges_isReadOnly() throws {
        // Given: Radicale's answer for alice's home, its rights file letting her only read `team`
        let transport = DAVTransportSpy()
        transport.responses = [
            DAVResponse(status: 207, body: Seeds.CardDAV.recorded("radicale-home-privileges-propfind"))
        ]

        // When
        let books = try CardDAVDiscovery(transport: transport).books(in: URL(string: "http://127.0.0.1:5232/alice/")!)

        // Then
        XCTAssertEqual(
            books,
            [
                RemoteAddressBook(url: URL(string: "http://127.0.0.1:5232/alice/book/")!, displayName: "alice/book"),
                RemoteAddressBook(
                    url: URL(string: "http://127.0.0.1:5232/alice/team/")!, displayName: "alice/team", readOnly: true),
            ])
        XCTAssertTrue(
            String(decoding: transport.requests[0].body ?? Data(), as: UTF8.self)
                .contains("<D:current-user-privilege-set/>"))
    }

    func test_writable_needsWriteOrAll_orBothBindAndWriteContent_andNoListIsWritable() {
        XCTAssertTrue(RemoteAddressBook.writable(nil))
        XCTAssertTrue(RemoteAddressBook.writable(["read", "write"]))
        XCTAssertTrue(RemoteAddressBook.writable(["all"]))
        XCTAssertTrue(RemoteAddressBook.writable(["read", "bind", "write-content"]))
        XCTAssertFalse(RemoteAddressBook.writable(["read", "write-content"]))
        XCTAssertFalse(RemoteAddressBook.writable(["read"]))
        XCTAssertFalse(RemoteAddressBook.writable([]))
    }

    func test_addressBooks_aBookSayingItTakesVCard4_isMarkedSo() throws {
        // Given: the URL is the address book itself, listing 3.0 and 4.0 in supported-address-data
        let transport = DAVTransportSpy()
        transport.responses = [
            DAVResponse(
                status: 207,
                body: Seeds.CardDAV.multistatus(
                    """
                    <response><href>/alice/book/</href><propstat><prop><resourcetype><collection/><C:addressbook/></resourcetype>\
                    <displayname>Book</displayname><C:supported-address-data>\
                    <C:address-data-type content-type="text/vcard" version="3.0"/>\
                    <C:address-data-type content-type="text/vcard" version="4.0"/></C:supported-address-data>\
                    </prop><status>HTTP/1.1 200 OK</status></propstat></response>
                    """))
        ]

        // When
        let books = try CardDAVDiscovery(transport: transport).addressBooks(from: Seeds.CardDAV.book)

        // Then
        XCTAssertEqual(books, [RemoteAddressBook(url: Seeds.CardDAV.book, displayName: "Book", acceptsVCard4: true)])
    }

    func test_addressBooks_baseNotDAV_triesWellKnown() throws {
        let transport = DAVTransportSpy()
        transport.responses = [
            DAVResponse(status: 404), DAVResponse(status: 207, body: Seeds.CardDAV.recorded("radicale-root-propfind")),
            DAVResponse(status: 207, body: Seeds.CardDAV.recorded("radicale-principal-propfind")),
            DAVResponse(status: 207, body: Seeds.CardDAV.recorded("radicale-home-propfind")),
        ]
        let sut = CardDAVDiscovery(transport: transport)

        _ = try sut.addressBooks(from: URL(string: "http://127.0.0.1:5232/app/")!)

        XCTAssertEqual(transport.requests[1].url.path, "/.well-known/carddav")
    }

    func test_addressBooks_401_throwsAtOnce() {
        let transport = DAVTransportSpy()
        transport.responses = [DAVResponse(status: 401)]
        XCTAssertThrowsError(try CardDAVDiscovery(transport: transport).addressBooks(from: Seeds.CardDAV.book)) {
            error in
            guard case DAVError.unauthorized = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(transport.requests.count, 1)
    }
}

// URLSession serves macOS and the fully static build (Linux syncs through `CurlTransport`).
#if !os(Linux)
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    final class RedirectGuardTests: XCTestCase {
        func test_redirect_toAnotherHost_dropsCredentials_sameHost_keepsThemAndTheMethod() {
            var original = URLRequest(url: URL(string: "https://dav.example.org/.well-known/carddav")!)
            original.httpMethod = "PROPFIND"
            original.setValue("Basic c2VjcmV0", forHTTPHeaderField: "Authorization")

            let elsewhere = RedirectGuard.redirect(
                from: original, to: URLRequest(url: URL(string: "https://evil.example/")!))
            let same = RedirectGuard.redirect(
                from: original, to: URLRequest(url: URL(string: "https://dav.example.org/dav/")!))
            let downgraded = RedirectGuard.redirect(
                from: original, to: URLRequest(url: URL(string: "http://dav.example.org/")!))

            XCTAssertNil(elsewhere.value(forHTTPHeaderField: "Authorization"))
            XCTAssertNil(downgraded.value(forHTTPHeaderField: "Authorization"))
            XCTAssertEqual(same.value(forHTTPHeaderField: "Authorization"), "Basic c2VjcmV0")
            XCTAssertEqual(same.httpMethod, "PROPFIND")
        }
    }
#endif

/// Issue 26, items 5 and 6: multiget answers read as they come, cards handed on before the end.
final class CardDAVClientStreamingTests: XCTestCase {
    func test_cards_largeCardsAreHandedOnBeforeTheAnswerEnds_andOneOverItsCapIsNamed() throws {
        // Given: three cards of 5 MB and one of 20 MB in one answer
        let big = String(repeating: "A", count: 5 << 20)
        let cards = [1, 2, 3].map { Seeds.CardDAV.card(uid: "u\($0)", given: "A", family: "B\($0)", "NOTE:" + big) }
        let members =
            zip(["a", "b", "c"], cards).map { name, card in
                "<response><href>/alice/book/\(name).vcf</href><propstat><prop><getetag>\"\(name)\"</getetag>"
                    + "<C:address-data>\(card)</C:address-data></prop><status>HTTP/1.1 200 OK</status></propstat></response>"
            }.joined()
            + "<response><href>/alice/book/huge.vcf</href><propstat><prop><getetag>\"h\"</getetag><C:address-data>"
            + String(repeating: "B", count: 20 << 20)
            + "</C:address-data></prop><status>HTTP/1.1 200 OK</status></propstat></response>"
        let transport = DAVTransportSpy()
        transport.responses = [DAVResponse(status: 207, body: Seeds.CardDAV.multistatus(members))]
        let sut = CardDAVClient(book: Seeds.CardDAV.book, transport: transport)
        sut.sizeLimits = DAVSizeLimits(card: 16 << 20)

        // When
        var handed: [[String]] = []
        var last: RemoteCard?
        try sut.cards(hrefs: ["/alice/book/a.vcf", "/alice/book/b.vcf", "/alice/book/c.vcf", "/alice/book/huge.vcf"]) {
            handed.append($0.map(\.href))
            last = $0.last ?? last
        }

        // Then: two cards make 8 MB (handed on), then the third and the huge one at the end
        XCTAssertEqual(
            handed, [["/alice/book/a.vcf", "/alice/book/b.vcf"], ["/alice/book/c.vcf", "/alice/book/huge.vcf"]])
        XCTAssertEqual(last?.vcard, "")
        XCTAssertEqual(
            last?.unreadable,
            "the card is 20971520 bytes, over the 16 MiB limit for one card "
                + "(CONTACTSBOOK_SYNC_MAX_CARD sets it)")
    }
}
