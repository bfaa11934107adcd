import ContactsApp
import Foundation
import FuzzSupport

/// One input is the body of a server's answer: a `207 Multi-Status` (PROPFIND, `sync-collection`,
/// `addressbook-multiget`) or a DAV `<error>`.
///
/// Checks, beyond no crash, leak or hang:
/// - when the input's text is plain (UTF-8, no entity or character references, comments,
///   CDATA, CRs or declarations of another encoding), every href, ETag, sync token and display
///   name the reader returns is a piece of it: the reader invents nothing;
/// - what the reader returned, written as a well-formed multistatus (every character escaped that
///   XML would otherwise change), reads back to the same entries and token;
/// - read as it arrives (`DAVMultistatusStream`), cut into pieces of any size, it reads as
///   whole; with an answer cap below its size it stops, naming the cap; with a small card cap,
///   each card over it is left out with its size and nothing else changes;
/// - the client's sync-collection, PROPFIND listing, multiget and discovery, answered with the
///   input, report only hrefs, ETags and cards the reader found in it; multiget gives every card
///   inside the book the reader found, and names (`refused`) each href outside it once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCardDAV(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = input(start, count)
    let data = Data(bytes)
    _ = DAVErrorBody.conditions(data)
    guard let status = try? DAVMultistatus.parse(data) else {
        checkClientRefuses(data)
        checkPiecesRefuse(bytes)
        return 0
    }
    checkPieces(bytes, status)
    checkCaps(bytes, status)
    checkTakenFromInput(status, bytes)
    checkReadsBack(status)
    checkClient(data, status)
    return 0
}

// MARK: Read as it arrives

/// `bytes` through the stream in pieces of `size` (the last one shorter), within `limits`.
private func streamed(
    _ bytes: [UInt8], pieces size: Int, limits: DAVSizeLimits = DAVSizeLimits(answer: .max, card: .max)
)
    throws -> DAVMultistatus
{
    var result = DAVMultistatus()
    let stream = DAVMultistatusStream(limits: limits, request: "REPORT /") { result.entries.append($0) }
    var start = 0
    while start < bytes.count {
        let end = min(start + size, bytes.count)
        try bytes[start..<end].withUnsafeBytes { try stream.receive($0) }
        start = end
    }
    try stream.finish()
    result.syncToken = stream.syncToken
    return result
}

/// Piece sizes from the input itself, so each input is cut its own ways.
private func pieceSizes(_ bytes: [UInt8]) -> [Int] {
    [1, 2 + Int(bytes.first ?? 0) % 13, 1 + Int(bytes.last ?? 0) * 7 % 997]
}

private func checkPieces(_ bytes: [UInt8], _ whole: DAVMultistatus) {
    for size in pieceSizes(bytes) {
        do {
            let read = try streamed(bytes, pieces: size)
            guard read == whole else { fatalError("in pieces of \(size): \(difference(whole.entries, read.entries))") }
        } catch {
            fatalError("in pieces of \(size) the answer did not read (\(error)), whole it did")
        }
    }
}

private func checkPiecesRefuse(_ bytes: [UInt8]) {
    for size in pieceSizes(bytes) where (try? streamed(bytes, pieces: size)) != nil {
        fatalError("in pieces of \(size) an answer read that does not read whole")
    }
}

private func checkCaps(_ bytes: [UInt8], _ whole: DAVMultistatus) {
    if bytes.count > 1 {
        do {
            _ = try streamed(bytes, pieces: 64, limits: DAVSizeLimits(answer: bytes.count - 1, card: .max))
            fatalError("an answer of \(bytes.count) bytes read under a cap of \(bytes.count - 1)")
        } catch DAVError.tooLarge {
        } catch {
            fatalError("over its cap the answer gave \(error)")
        }
    }
    // Just below the smallest card, so at least one is over it.
    let card = max(1, (whole.entries.compactMap { $0.addressData?.utf8.count }.min() ?? 17) - 1)
    let capped: DAVMultistatus
    do {
        capped = try streamed(bytes, pieces: 64, limits: DAVSizeLimits(answer: .max, card: card))
    } catch DAVError.tooLarge {
        return // a value other than a card over the cap: stopped, as it should
    } catch {
        fatalError("with a card cap the answer gave \(error)")
    }
    var expected = whole
    for index in expected.entries.indices {
        if let text = expected.entries[index].addressData, text.utf8.count > card {
            expected.entries[index].addressData = nil
            expected.entries[index].oversizedAddressData = text.utf8.count
        }
    }
    guard capped == expected else {
        fatalError("with a card cap of \(card): \(difference(expected.entries, capped.entries))")
    }
}

// MARK: The reader invents nothing

private func checkTakenFromInput(_ status: DAVMultistatus, _ bytes: [UInt8]) {
    guard let text = String(validating: bytes, as: UTF8.self), isPlain(text) else { return }
    var values: [(String, String)] = status.syncToken.map { [("sync token", $0)] } ?? []
    for entry in status.entries {
        values.append(("href", entry.href))
        for (name, value) in [
            ("etag", entry.etag), ("displayname", entry.displayName), ("sync-token", entry.syncToken),
            ("current-user-principal", entry.currentUserPrincipal),
            ("addressbook-home-set", entry.addressbookHomeSet), ("address-data", entry.addressData),
        ] {
            if let value { values.append((name, value)) }
        }
    }
    for (name, value) in values where !value.isEmpty && !text.contains(value) {
        fatalError("the reader returned a \(name) \(String(reflecting: value)) that the input does not hold")
    }
}

/// Text whose element content the parser hands over unchanged: no references to expand, no
/// comments or CDATA sections or processing instructions to split it, no CR to normalise, no
/// character XML forbids, and no encoding declaration that would decode the bytes another way.
private func isPlain(_ text: String) -> Bool {
    guard !text.contains("&"), !text.contains("\r"), !text.contains("<!") else { return false }
    // Characters XML 1.0 forbids: libxml2 recovers by dropping them, so the text read lacks them.
    guard !text.unicodeScalars.contains(where: isForbiddenInXML) else { return false }
    // Only a leading declaration, and one that says nothing of the encoding or says UTF-8.
    let instructions = text.components(separatedBy: "<?")
    guard instructions.count <= 2 else { return false }
    if instructions.count == 2 {
        guard text.hasPrefix("<?") || text.hasPrefix("\u{FEFF}<?") else { return false }
        let declaration = instructions[1].prefix { $0 != ">" }.lowercased()
        if declaration.contains("encoding") && !(declaration.contains("\"utf-8\"") || declaration.contains("'utf-8'")) {
            return false
        }
    }
    return true
}

private func isForbiddenInXML(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 0x20 && !["\t", "\n", "\r"].contains(scalar)) || scalar.value == 0xFFFE || scalar.value == 0xFFFF
}

// MARK: Written and read back

private func checkReadsBack(_ status: DAVMultistatus) {
    // Resource types are element names: only those a namespaced document can spell are written.
    guard status.entries.allSatisfy({ $0.resourceTypes.allSatisfy(isElementName) }) else { return }
    let written = MultistatusWriter.write(status)
    let again: DAVMultistatus
    do {
        again = try DAVMultistatus.parse(Data(written.utf8))
    } catch {
        fatalError("the writer's multistatus does not read (\(error)):\n\(written)")
    }
    guard again == status else {
        fatalError(
            "\(difference(status.entries, again.entries)); tokens \(String(reflecting: status.syncToken)) and "
                + "\(String(reflecting: again.syncToken)); written as:\n\(written)")
    }
}

/// The elements the reader acts on wherever they stand, whatever their namespace: a resource
/// type of one of these names (`<resourcetype><getetag/></resourcetype>`) is also read as that
/// element, so it cannot be written as a resource type and read back as only that.
private let readersElements: Set<String> = [
    "multistatus", "response", "propstat", "href", "status", "getetag", "address-data", "address-data-type",
    "displayname", "sync-token", "resourcetype", "current-user-principal", "addressbook-home-set",
    "supported-address-data",
]

private func isElementName(_ name: String) -> Bool {
    guard !readersElements.contains(name), let first = name.unicodeScalars.first, !name.contains(":"),
        first == "_" || first.properties.isAlphabetic
    else { return false }
    return name.unicodeScalars.allSatisfy {
        $0.properties.isAlphabetic || $0.properties.numericType != nil || "-_.".unicodeScalars.contains($0)
    } && !name.lowercased().hasPrefix("xml")
}

/// A multistatus as a server would write it, with every field of each entry in its place.
enum MultistatusWriter {
    static func write(_ status: DAVMultistatus) -> String {
        var out =
            #"<?xml version="1.0" encoding="utf-8"?>"#
            + #"<D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav" xmlns:X="urn:x">"#
        for entry in status.entries {
            out += "<D:response><D:href>\(escaped(entry.href))</D:href>"
            if let code = entry.status { out += "<D:status>HTTP/1.1 \(code) Status</D:status>" }
            out += "<D:propstat><D:prop>"
            if let etag = entry.etag { out += "<D:getetag>\(escaped(etag))</D:getetag>" }
            if let card = entry.addressData { out += "<C:address-data>\(escaped(card))</C:address-data>" }
            if !entry.resourceTypes.isEmpty {
                out +=
                    "<D:resourcetype>" + entry.resourceTypes.sorted().map { "<X:\($0)/>" }.joined()
                    + "</D:resourcetype>"
            }
            if let name = entry.displayName { out += "<D:displayname>\(escaped(name))</D:displayname>" }
            if let principal = entry.currentUserPrincipal {
                out += "<D:current-user-principal><D:href>\(escaped(principal))</D:href></D:current-user-principal>"
            }
            if let home = entry.addressbookHomeSet {
                out += "<C:addressbook-home-set><D:href>\(escaped(home))</D:href></C:addressbook-home-set>"
            }
            if !entry.addressDataVersions.isEmpty {
                out +=
                    "<C:supported-address-data>"
                    + entry.addressDataVersions.map {
                        #"<C:address-data-type content-type="text/vcard" version="\#(escaped($0))"/>"#
                    }.joined()
                    + "</C:supported-address-data>"
            }
            if let token = entry.syncToken { out += "<D:sync-token>\(escaped(token))</D:sync-token>" }
            out += "</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
        }
        if let token = status.syncToken { out += "<D:sync-token>\(escaped(token))</D:sync-token>" }
        return out + "</D:multistatus>"
    }

    /// Markup characters as entities; CR, tab and line feed as character references, which
    /// neither line-end nor attribute normalisation touches.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\r", "\n", "\t": out += "&#\(scalar.value);"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

// MARK: The client answered with the input

/// A server that answers every request with the input, as a 207.
private final class InputTransport: DAVTransport {
    let body: Data
    private(set) var requests = 0
    init(_ body: Data) { self.body = body }
    func send(_ request: DAVRequest) throws -> DAVResponse {
        requests += 1
        guard requests < 100 else { fatalError("the client sent a 100th request for one answer") }
        return DAVResponse(status: 207, headers: ["Content-Type": "application/xml"], body: body, url: request.url)
    }
}

private let book = URL(string: "https://dav.example/alice/book/")!

private func checkClient(_ data: Data, _ status: DAVMultistatus) {
    let hrefs = Set(status.entries.map(\.href))
    let etags = Set(status.entries.compactMap(\.etag))
    for token in [nil, "t1"] as [String?] {
        if let changes = try? CardDAVClient(book: book, transport: InputTransport(data)).changes(since: token) {
            guard Set(changes.changed.keys).isSubset(of: hrefs), changes.removed.isSubset(of: hrefs),
                Set(changes.changed.values).isSubset(of: etags)
            else {
                fatalError("sync-collection reported \(changes), the reader found \(status.entries)")
            }
            guard Set(changes.changed.keys).isDisjoint(with: changes.removed) else {
                fatalError("sync-collection reported members both changed and removed: \(changes)")
            }
        }
    }
    if let members = try? CardDAVClient(book: book, transport: InputTransport(data)).listMembers() {
        guard Set(members.changed.keys).isSubset(of: hrefs), members.removed.isEmpty else {
            fatalError("PROPFIND listed \(members), the reader found \(status.entries)")
        }
    }
    let multiget = CardDAVClient(book: book, transport: InputTransport(data), multigetBatch: 2)
    if let cards = try? multiget.cards(hrefs: ["/a.vcf", "/b.vcf", "/c.vcf"]) {
        // Only the book's own members: a card named outside it is refused (issue 26), and named.
        let scope = DAVCollectionScope(book: book)
        let found = status.entries.filter { scope.contains($0.href) }.compactMap { entry in
            entry.etag.flatMap { etag in entry.addressData.map { RemoteCard(href: entry.href, etag: etag, vcard: $0) } }
        }
        // Two batches, each answered with the input.
        guard cards == found + found else { fatalError("multiget gave \(cards), the reader found \(found) per answer") }
        let outside = Set(status.entries.map(\.href).filter { !scope.contains($0) })
        guard Set(multiget.refused) == outside, multiget.refused.count == outside.count else {
            fatalError("multiget refused \(multiget.refused), the hrefs outside the book are \(outside)")
        }
    }
    _ = try? CardDAVDiscovery(transport: InputTransport(data)).addressBooks(from: URL(string: "https://dav.example/")!)
}

/// An answer that is not a multistatus is refused, never read as an empty one.
private func checkClientRefuses(_ data: Data) {
    do {
        let changes = try CardDAVClient(book: book, transport: InputTransport(data)).changes(since: nil)
        fatalError("sync-collection read \(changes) from an answer that is not a multistatus")
    } catch let error as DAVError {
        guard case .malformed = error else { fatalError("a body that does not read gave \(error)") }
    } catch {
        fatalError("a body that does not read gave \(error)")
    }
}
