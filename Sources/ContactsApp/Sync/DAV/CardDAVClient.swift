import Foundation

/// An address book found on a server.
public struct RemoteAddressBook: Equatable, Sendable {
    public var url: URL
    public var displayName: String
    /// The server says it takes vCard 4.0 (`supported-address-data`); else we send 3.0.
    public var acceptsVCard4: Bool
    /// The server's `current-user-privilege-set` for it lacks `write` (RFC 3744): we may only read it.
    public var readOnly: Bool

    public init(url: URL, displayName: String, acceptsVCard4: Bool = false, readOnly: Bool = false) {
        self.url = url; self.displayName = displayName; self.acceptsVCard4 = acceptsVCard4; self.readOnly = readOnly
    }

    /// Whether privileges a server listed let us write: `write` or `all`, or both `bind` (new
    /// cards) and `write-content` (changed ones), its parts. No list at all: writable, as before.
    public static func writable(_ privileges: Set<String>?) -> Bool {
        guard let privileges else { return true }
        return privileges.contains("write") || privileges.contains("all")
            || (privileges.contains("bind") && privileges.contains("write-content"))
    }
}

/// A card as the server holds it.
public struct RemoteCard: Equatable, Sendable {
    public var href: String
    public var etag: String
    public var vcard: String
    /// Why the card was not taken (larger than `DAVSizeLimits.card`; `vcard` is then empty):
    /// it is named in the summary, the others are saved.
    public var unreadable: String?
    public init(href: String, etag: String, vcard: String, unreadable: String? = nil) {
        self.href = href; self.etag = etag; self.vcard = vcard; self.unreadable = unreadable
    }
}

/// What changed in a collection since a sync token (RFC 6578), or everything in it when the
/// changes were listed from scratch.
public struct CollectionChanges: Equatable, Sendable {
    /// href → ETag of each member added or changed.
    public var changed: [String: String] = [:]
    public var removed: Set<String> = []
    /// The token to send next time.
    public var token: String?
    /// True when `changed` lists every member (a first sync, or a PROPFIND listing): members
    /// known here and absent from it were removed.
    public var isComplete = false

    public init(
        changed: [String: String] = [:], removed: Set<String> = [], token: String? = nil, isComplete: Bool = false
    ) {
        self.changed = changed; self.removed = removed; self.token = token; self.isComplete = isComplete
    }
}

/// The address book operations a sync needs. `CardDAVClient` speaks them over HTTP; the sync
/// worker's tests put an in-memory server behind this protocol.
public protocol CardDAVBookLogic: AnyObject {
    /// `sync-collection` from `token` (nil: from scratch), following truncated (507) results.
    /// Throws `DAVError.invalidSyncToken` when the server no longer knows the token.
    func changes(since token: String?) throws -> CollectionChanges
    /// A listing from scratch (`changes(since: nil)`) that asks for the cards too: each card the
    /// server sends in it is handed to `each` in batches and left out of `changed`, which holds
    /// only the members listed without their card (the caller fetches those). A first download
    /// in one request instead of a listing and a multiget per 500 cards (bench/FINDINGS.md, sync4).
    func changesWithCards(each: ([RemoteCard]) throws -> Void) throws -> CollectionChanges
    /// Every member and its ETag (PROPFIND, Depth 1): the resync when a token is refused.
    func listMembers() throws -> CollectionChanges
    /// The cards at `hrefs` (`addressbook-multiget` in batches).
    func cards(hrefs: [String]) throws -> [RemoteCard]
    /// The same, handed to `each` one batch at a time as each answer is read, so the caller
    /// can save a batch while the server prepares the next.
    func cards(hrefs: [String], each: ([RemoteCard]) throws -> Void) throws
    /// One card (GET); nil when it is gone.
    func card(href: String) throws -> RemoteCard?
    /// Creates a card (PUT with `If-None-Match: *`) named for `uid`; returns its href and ETag
    /// (nil when the server did not say). Throws `preconditionFailed` if the name is taken.
    func create(uid: String, vcard: String) throws -> (href: String, etag: String?)
    /// Replaces a card (PUT with `If-Match: etag`); returns the new ETag if the server said.
    func update(href: String, vcard: String, etag: String) throws -> String?
    /// Deletes a card (DELETE with `If-Match: etag`); a card already gone is not an error.
    func delete(href: String, etag: String) throws
    /// The hrefs the server named outside the address book, refused so far (in order, once
    /// each): `card`, `update` and `delete` throw `DAVError.outsideBook` for them.
    var refused: [String] { get }
}

extension CardDAVBookLogic {
    public var refused: [String] { [] }

    /// A book that cannot send cards in its listing lists them; the caller fetches every one.
    public func changesWithCards(each: ([RemoteCard]) throws -> Void) throws -> CollectionChanges {
        try changes(since: nil)
    }

    /// One batch of everything (a book without batches of its own, as the tests' in-memory one).
    public func cards(hrefs: [String], each: ([RemoteCard]) throws -> Void) throws {
        try each(try cards(hrefs: hrefs))
    }
}

/// The CardDAV client of one address book (RFC 6352, 6578) over a `DAVTransport`.
public final class CardDAVClient: CardDAVBookLogic {
    public let book: URL
    private let transport: DAVTransport
    /// What "inside the book" means for the hrefs the server sends.
    private let scope: DAVCollectionScope
    public private(set) var refused: [String] = []
    private var refusedOnce: Set<String> = []
    /// Cards per `addressbook-multiget`: the server answered 5,000 in one as fast as in tens
    /// (notes/CARDDAV.md); batches keep one answer's size bounded (about 350 kB for 500).
    let multigetBatch: Int
    /// The vCard version asked for in `address-data` (RFC 6352 §10.4): the one we send, so a
    /// server that stores 4.0 does not hand us its 3.0 conversion (KIND dropped) while we send
    /// 4.0 back. Nil once the server refused the request (then it sends what it stores).
    private(set) var addressDataVersion: String?
    /// How much the server may send in one answer and one card.
    public var sizeLimits = DAVSizeLimits.configured()
    /// Cards of one multiget answer handed on once they hold this many bytes, before its end:
    /// a batch of large cards is saved as it comes, not held whole.
    static let cardsHandedOnAt = 8 << 20
    /// How long a server may keep truncating (507) its list of changes, on `clock` (seconds).
    private let truncatedRounds: TimeInterval
    private let clock: () -> TimeInterval

    public init(
        book: URL, transport: DAVTransport, multigetBatch: Int = 500, vcardVersion: String = "4.0",
        truncatedRounds: TimeInterval = DAVTimeLimits().truncatedRounds,
        clock: @escaping () -> TimeInterval = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.book = book; self.transport = transport; self.multigetBatch = multigetBatch
        self.truncatedRounds = truncatedRounds; self.clock = clock
        scope = DAVCollectionScope(book: book)
        self.addressDataVersion = vcardVersion
    }

    public func changes(since token: String?) throws -> CollectionChanges {
        try listChanges(since: token, cards: nil)
    }

    /// Whether the listing from scratch still asks for the cards: false once the server refused
    /// that request (it is then asked again without them, and the cards are fetched by multiget).
    private(set) var listsCards = true

    public func changesWithCards(each: ([RemoteCard]) throws -> Void) throws -> CollectionChanges {
        guard listsCards else { return try changes(since: nil) }
        var handed = false
        do {
            return try withoutActuallyEscaping(each) { each in
                try listChanges(since: nil) { cards in
                    handed = true
                    try each(cards)
                }
            }
        } catch DAVError.status(let code, "REPORT", _) where code != 401 && !handed {
            // RFC 6578 lets a sync-collection ask for any property, but a server may refuse
            // one it does not serve there: the plain listing, and multigets as before. (Not
            // once cards were handed on: a truncated listing refused half way stops the sync.)
            listsCards = false
            return try changes(since: nil)
        }
    }

    /// `changes(since:)`; with `each`, the cards asked for in the listing and handed on in batches.
    private func listChanges(since token: String?, cards each: (([RemoteCard]) throws -> Void)?) throws
        -> CollectionChanges
    {
        var result = CollectionChanges(isComplete: token == nil)
        var cards: [RemoteCard] = [], bytes = 0
        let limit = sizeLimits.card
        var next = token
        // A server that truncates (507 on the collection's own response) gives a token to go
        // on from; the rounds are bounded in count and in time, so a broken server that sends a
        // fresh token each round cannot loop us forever (10,000 rounds took 7.5 minutes).
        let started = clock()
        for round in 0..<Self.maximumTruncatedRounds {
            if round > 0, clock() - started >= truncatedRounds {
                throw DAVError.timedOut(
                    "the server truncated its list of changes (507) \(round) times in a row for "
                        + "\(DAVTimeLimits.seconds(truncatedRounds)); stopped")
            }
            let body = DAVXML.syncCollection(
                token: next ?? "", addressData: each == nil ? nil : .some(addressDataVersion))
            var truncated = false
            // Each member as its response is read: the answer is never held whole.
            let stream = multistatus("REPORT") { entry in
                guard self.isInside(entry.href) else { return }
                if entry.status == 507 { truncated = true; return }
                if entry.status == 404 {
                    result.removed.insert(entry.href); result.changed[entry.href] = nil
                } else if let etag = entry.etag, !self.isCollection(entry) {
                    result.removed.remove(entry.href)
                    guard let each, let card = Self.card(entry, etag, limit) else {
                        result.changed[entry.href] = etag
                        return
                    }
                    result.changed[entry.href] = nil
                    cards.append(card)
                    bytes += card.vcard.utf8.count
                    // In batches as a multiget's, so the deciding and writing threads start at once.
                    if cards.count >= self.multigetBatch || bytes >= Self.cardsHandedOnAt {
                        try each(cards)
                        cards = []; bytes = 0
                    }
                }
            }
            let response = try send("REPORT", book, depth: "1", body: body, receiving: stream)
            // RFC 6578 says 403 or 409; Xandikos answers 412. The condition is what counts.
            if (400..<500).contains(response.status), response.status != 401,
                DAVErrorBody.conditions(response.body).contains("valid-sync-token")
            {
                throw DAVError.invalidSyncToken
            }
            try expect(response, [207], "REPORT", book)
            try stream.finish()
            if let each, !cards.isEmpty {
                try each(cards)
                cards = []; bytes = 0
            }
            result.token = stream.syncToken ?? result.token
            guard truncated, let token = stream.syncToken, token != next else { return result }
            next = token
        }
        return result
    }

    /// Rounds of a truncated sync-collection followed at most.
    static let maximumTruncatedRounds = 10_000

    public func listMembers() throws -> CollectionChanges {
        var result = CollectionChanges(isComplete: true)
        let stream = multistatus("PROPFIND") { entry in
            if self.isInside(entry.href) && !self.isCollection(entry), let etag = entry.etag {
                result.changed[entry.href] = etag
            }
        }
        let response = try send(
            "PROPFIND", book, depth: "1", body: DAVXML.propfind(["D:getetag", "D:resourcetype", "D:sync-token"]),
            receiving: stream)
        try expect(response, [207], "PROPFIND", book)
        try stream.finish()
        result.token = stream.syncToken
        return result
    }

    public func cards(hrefs: [String]) throws -> [RemoteCard] {
        var cards: [RemoteCard] = []
        cards.reserveCapacity(hrefs.count)
        try self.cards(hrefs: hrefs) { cards += $0 }
        return cards
    }

    public func cards(hrefs: [String], each: ([RemoteCard]) throws -> Void) throws {
        // Called while an answer is read; the readers holding it end with each batch.
        try withoutActuallyEscaping(each) { each in try cards(hrefs, each) }
    }

    private func cards(_ hrefs: [String], _ each: @escaping ([RemoteCard]) throws -> Void) throws {
        for start in stride(from: 0, to: hrefs.count, by: multigetBatch) {
            let batch = Array(hrefs[start..<min(start + multigetBatch, hrefs.count)])
            // Cards handed on as they are read, in groups of a few megabytes: a batch of large
            // cards is never held whole.
            var cards: [RemoteCard] = [], bytes = 0
            let limit = sizeLimits.card
            let read = { [unowned self] in
                self.multistatus("REPORT") { entry in
                    guard self.isInside(entry.href), let etag = entry.etag else { return }
                    if let card = Self.card(entry, etag, limit) {
                        cards.append(card)
                        bytes += card.vcard.utf8.count
                    }
                    if bytes >= Self.cardsHandedOnAt {
                        try each(cards)
                        cards = []; bytes = 0
                    }
                }
            }
            var stream = read()
            var response = try send(
                "REPORT", book, depth: "1", body: DAVXML.multiget(hrefs: batch, version: addressDataVersion),
                receiving: stream)
            if addressDataVersion != nil, [400, 403, 409, 415, 422, 501].contains(response.status) {
                // A server that cannot convert (or cannot parse the attributes): take what it stores.
                addressDataVersion = nil
                stream = read()
                response = try send(
                    "REPORT", book, depth: "1", body: DAVXML.multiget(hrefs: batch, version: nil), receiving: stream)
            }
            try expect(response, [207], "REPORT", book)
            try stream.finish()
            try each(cards)
        }
    }

    /// The card a response carries (its `address-data`), or the reason it was not taken; nil
    /// when it carries none.
    private static func card(_ entry: DAVMultistatus.Entry, _ etag: String, _ limit: Int) -> RemoteCard? {
        if let data = entry.addressData { return RemoteCard(href: entry.href, etag: etag, vcard: data) }
        guard let size = entry.oversizedAddressData else { return nil }
        return RemoteCard(href: entry.href, etag: etag, vcard: "", unreadable: oversized(size, limit))
    }

    public func card(href: String) throws -> RemoteCard? {
        let url = try resolve(href)
        let response = try transport.send(DAVRequest(method: "GET", url: url, headers: ["Accept": "text/vcard"]))
        if response.status == 404 || response.status == 410 { return nil }
        try expect(response, [200], "GET", url)
        guard response.body.count <= sizeLimits.card else {
            return RemoteCard(
                href: href, etag: response.header("ETag") ?? "", vcard: "",
                unreadable: Self.oversized(response.body.count, sizeLimits.card))
        }
        return RemoteCard(
            href: href, etag: response.header("ETag") ?? "", vcard: String(decoding: response.body, as: UTF8.self))
    }

    public func create(uid: String, vcard: String) throws -> (href: String, etag: String?) {
        let url = book.appendingPathComponent(Self.resourceName(uid: uid))
        let response = try transport.send(
            DAVRequest(
                method: "PUT", url: url,
                headers: ["Content-Type": "text/vcard; charset=utf-8", "If-None-Match": "*"], body: Data(vcard.utf8)))
        if response.status == 412 { throw DAVError.preconditionFailed(url: url) }
        try expectForCard(response, [200, 201, 204], "PUT", url)
        return (url.path, response.header("ETag"))
    }

    public func update(href: String, vcard: String, etag: String) throws -> String? {
        let url = try resolve(href)
        let response = try transport.send(
            DAVRequest(
                method: "PUT", url: url,
                headers: ["Content-Type": "text/vcard; charset=utf-8", "If-Match": etag], body: Data(vcard.utf8)))
        if response.status == 412 { throw DAVError.preconditionFailed(url: url) }
        try expectForCard(response, [200, 201, 204], "PUT", url)
        return response.header("ETag")
    }

    public func delete(href: String, etag: String) throws {
        let url = try resolve(href)
        let response = try transport.send(DAVRequest(method: "DELETE", url: url, headers: ["If-Match": etag]))
        if response.status == 412 { throw DAVError.preconditionFailed(url: url) }
        if response.status == 404 || response.status == 410 { return }
        try expectForCard(response, [200, 204], "DELETE", url)
    }

    /// A resource name from a UID: characters safe in a path kept, anything else replaced, so
    /// a UID such as `urn:uuid:...` or one with slashes still names one file.
    static func resourceName(uid: String) -> String {
        let safe = uid.unicodeScalars.map { scalar -> Character in
            let c = Character(scalar)
            return (c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_" || c == ".")) ? c : "-"
        }
        return String(safe) + ".vcf"
    }

    /// The URL of a member; an href outside the book throws before anything is sent.
    func resolve(_ href: String) throws -> URL {
        guard let url = scope.url(of: href) else { refuse(href); throw DAVError.outsideBook(href) }
        return url
    }

    /// Whether an href the server listed is the book or inside it; one that is not is noted for
    /// the summary and skipped, and the rest of the answer is read.
    private func isInside(_ href: String) -> Bool {
        if scope.contains(href) { return true }
        refuse(href)
        return false
    }

    private func refuse(_ href: String) {
        if refusedOnce.insert(href).inserted { refused.append(href) }
    }

    private func isCollection(_ entry: DAVMultistatus.Entry) -> Bool {
        guard !entry.resourceTypes.contains("collection") else { return true }
        return scope.namesCollection(entry.href)
    }

    private func send(
        _ method: String, _ url: URL, depth: String, body: String,
        receiving stream: DAVMultistatusStream
    ) throws -> DAVResponse {
        try transport.send(
            DAVRequest(
                method: method, url: url,
                headers: ["Depth": depth, "Content-Type": "application/xml; charset=utf-8"],
                body: Data(body.utf8)), receiving: stream)
    }

    /// A reader of the multistatus answer to `method` on the book, within the size limits.
    private func multistatus(_ method: String, _ onEntry: @escaping (DAVMultistatus.Entry) throws -> Void)
        -> DAVMultistatusStream
    {
        DAVMultistatusStream(limits: sizeLimits, request: "\(method) \(book.absoluteString)", onEntry: onEntry)
    }

    /// Why a card over the limit was not taken, with its size.
    static func oversized(_ size: Int, _ limit: Int) -> String {
        "the card is \(size) bytes, over the \(DAVSizeLimits.words(limit)) limit for one card "
            + "(\(DAVSizeLimits.Variable.card) sets it)"
    }

    /// As `expect`, for a request about one card: a 4xx or 5xx is that card refused, with the
    /// server's reason (`DAVError.refused`), and the sync goes on with the others.
    private func expectForCard(_ response: DAVResponse, _ statuses: Set<Int>, _ method: String, _ url: URL) throws {
        if statuses.contains(response.status) || response.status == 401 || !(400..<600).contains(response.status) {
            return try expect(response, statuses, method, url)
        }
        throw DAVError.refused(response.status, method: method, url: url, reason: DAVRefusal.reason(response))
    }

    private func expect(_ response: DAVResponse, _ statuses: Set<Int>, _ method: String, _ url: URL) throws {
        if statuses.contains(response.status) { return }
        if response.status == 401 { throw DAVError.unauthorized(url: url) }
        throw DAVError.status(response.status, method: method, url: url)
    }
}

/// The request bodies, written once.
enum DAVXML {
    static let namespaces = #"xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav""#

    static func propfind(_ properties: [String]) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <D:propfind \(namespaces)><D:prop>\(properties.map { "<\($0)/>" }.joined())</D:prop></D:propfind>
        """
    }

    /// With `addressData`, asks for each member's card too, in that vCard version if one (as `multiget`).
    static func syncCollection(token: String, addressData: String?? = nil) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <D:sync-collection \(namespaces)><D:sync-token>\(escaped(token))</D:sync-token>\
        <D:sync-level>1</D:sync-level><D:prop><D:getetag/>\(addressData.map(Self.addressData) ?? "")</D:prop>\
        </D:sync-collection>
        """
    }

    /// With `version`, asks for the cards in that vCard version (RFC 6352 §10.4).
    static func addressData(_ version: String?) -> String {
        version.map { #"<C:address-data content-type="text/vcard" version="\#(escaped($0))"/>"# }
            ?? "<C:address-data/>"
    }

    static func multiget(hrefs: [String], version: String? = nil) -> String {
        let addressData = addressData(version)
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <C:addressbook-multiget \(namespaces)><D:prop><D:getetag/>\(addressData)</D:prop>\
            \(hrefs.map { "<D:href>\(escaped($0))</D:href>" }.joined())</C:addressbook-multiget>
            """
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
