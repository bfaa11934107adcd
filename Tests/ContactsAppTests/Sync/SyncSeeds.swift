import Foundation

@testable import ContactsApp

extension Seeds {
    /// Recorded CardDAV answers (Radicale 3.9.0 and Xandikos 0.4.10 on this machine) and the
    /// doubles the sync's layers are tested with.
    enum CardDAV {
        static let book = URL(string: "http://127.0.0.1:5232/alice/book/")!

        static func recorded(_ name: String) -> Data {
            let url = VCardSeeds.fixtures.appendingPathComponent("carddav/\(name).xml")
            return (try? Data(contentsOf: url)) ?? Data()
        }

        static func multistatus(_ responses: String, token: String? = nil) -> Data {
            let tokenElement = token.map { "<sync-token>\($0)</sync-token>" } ?? ""
            return Data(
                #"<?xml version="1.0"?><multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">"#
                    .appending(responses + tokenElement + "</multistatus>").utf8)
        }

        static func member(_ href: String, etag: String) -> String {
            "<response><href>\(href)</href><propstat><prop><getetag>\(etag)</getetag></prop>"
                + "<status>HTTP/1.1 200 OK</status></propstat></response>"
        }

        static func card(uid: String, given: String, family: String, _ lines: String...) -> String {
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(given) \(family)\r\nN:\(family);\(given);;;\r\n"
                + lines.map { $0 + "\r\n" }.joined() + "END:VCARD\r\n"
        }
    }
}

/// Records every request and answers each with the next queued response.
final class DAVTransportSpy: DAVTransport {
    var requests: [DAVRequest] = []
    var responses: [DAVResponse] = []
    var failure: DAVError?

    func send(_ request: DAVRequest) throws -> DAVResponse {
        requests.append(request)
        if let failure { throw failure }
        guard !responses.isEmpty else { return DAVResponse(status: 500) }
        return responses.removeFirst()
    }
}

/// An address book in memory behind `CardDAVBookLogic`: the sync worker's other side.
final class InMemoryCardDAVBook: CardDAVBookLogic {
    var cards: [String: RemoteCard] = [:]
    private var revision = 0
    /// The revision each href last changed at, and the hrefs removed, for `changes(since:)`.
    private var changedAt: [String: Int] = [:]
    private var removedAt: [String: Int] = [:]
    var refusesTokens = false
    /// Changes the server makes between the sync's pull and its push (a 412 race).
    var beforeNextWrite: (() -> Void)?
    var calls: [String] = []
    /// Cards per answer of `cards(hrefs:each:)`, as the client's multiget batches; nil: one answer.
    var multigetBatch: Int?
    /// Thrown instead of the answer after this many batches (the server going away half way).
    var failAfterBatches: (count: Int, error: Error)?
    /// The writes (PUT, DELETE) this server refuses, by href: as SabreDAV's validator answers 415.
    var refusing: [String: DAVError] = [:]

    func put(_ href: String, _ vcard: String) {
        revision += 1
        cards[href] = RemoteCard(href: href, etag: "\"e\(revision)\"", vcard: vcard)
        changedAt[href] = revision
        removedAt[href] = nil
    }

    func remove(_ href: String) {
        revision += 1
        cards[href] = nil
        removedAt[href] = revision
        changedAt[href] = nil
    }

    func changes(since token: String?) throws -> CollectionChanges {
        calls.append("changes(\(token ?? "nil"))")
        if token != nil && refusesTokens { throw DAVError.invalidSyncToken }
        let since = token.flatMap(Int.init) ?? 0
        var changes = CollectionChanges(token: "\(revision)", isComplete: token == nil)
        for (href, at) in changedAt where at > since { changes.changed[href] = cards[href]?.etag }
        if token != nil { for (href, at) in removedAt where at > since { changes.removed.insert(href) } }
        return changes
    }

    /// Sends the cards in its listing from scratch (`changesWithCards`), in batches of
    /// `multigetBatch`, all but those in `listedWithoutCard`; false: lists, as most tests expect.
    var listsCards = false
    var listedWithoutCard: Set<String> = []

    func changesWithCards(each: ([RemoteCard]) throws -> Void) throws -> CollectionChanges {
        guard listsCards else { return try changes(since: nil) }
        calls.append("changesWithCards")
        var changes = CollectionChanges(token: "\(revision)", isComplete: true)
        let sent = cards.keys.sorted().filter { !listedWithoutCard.contains($0) }
        for href in listedWithoutCard { changes.changed[href] = cards[href]?.etag }
        let batch = multigetBatch ?? max(1, sent.count)
        for (index, start) in stride(from: 0, to: sent.count, by: batch).enumerated() {
            if let failAfterBatches, index == failAfterBatches.count { throw failAfterBatches.error }
            try each(sent[start..<min(start + batch, sent.count)].compactMap { cards[$0] })
        }
        return changes
    }

    func listMembers() throws -> CollectionChanges {
        calls.append("listMembers")
        return CollectionChanges(changed: cards.mapValues(\.etag), token: "\(revision)", isComplete: true)
    }

    func cards(hrefs: [String]) throws -> [RemoteCard] {
        calls.append("cards(\(hrefs.count))")
        return hrefs.compactMap { cards[$0] }
    }

    func cards(hrefs: [String], each: ([RemoteCard]) throws -> Void) throws {
        guard let multigetBatch else { return try each(try cards(hrefs: hrefs)) }
        for (index, start) in stride(from: 0, to: hrefs.count, by: multigetBatch).enumerated() {
            if let failAfterBatches, index == failAfterBatches.count { throw failAfterBatches.error }
            try each(try cards(hrefs: Array(hrefs[start..<min(start + multigetBatch, hrefs.count)])))
        }
    }

    func card(href: String) throws -> RemoteCard? { calls.append("card"); return cards[href] }

    /// The refusal SabreDAV's validator answers (its words, as recorded with Debian's 1.8).
    static func refusal(_ href: String) -> DAVError {
        .refused(
            415, method: "PUT", url: URL(string: "http://h" + href)!,
            reason: "Unsupported Media Type: "
                + "This resource only supports valid vcard data. Parse error: Invalid VObject, line 7 did not follow "
                + "the icalendar/vcard format")
    }

    func create(uid: String, vcard: String) throws -> (href: String, etag: String?) {
        runRace()
        let href = "/alice/book/\(uid).vcf"
        calls.append("create")
        if let refusal = refusing[href] { throw refusal }
        if cards[href] != nil { throw DAVError.preconditionFailed(url: URL(string: "http://h" + href)!) }
        put(href, vcard)
        return (href, cards[href]?.etag)
    }

    func update(href: String, vcard: String, etag: String) throws -> String? {
        runRace()
        calls.append("update")
        if let refusal = refusing[href] { throw refusal }
        guard cards[href]?.etag == etag else { throw DAVError.preconditionFailed(url: URL(string: "http://h" + href)!) }
        put(href, vcard)
        return cards[href]?.etag
    }

    func delete(href: String, etag: String) throws {
        runRace()
        calls.append("delete")
        if let refusal = refusing[href] { throw refusal }
        guard let card = cards[href] else { return }
        guard card.etag == etag else { throw DAVError.preconditionFailed(url: URL(string: "http://h" + href)!) }
        remove(href)
    }

    private func runRace() {
        let race = beforeNextWrite
        beforeNextWrite = nil
        race?()
    }
}
