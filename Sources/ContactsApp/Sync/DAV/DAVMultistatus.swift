import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A WebDAV `207 Multi-Status` body (RFC 4918 §13), read with FoundationXML's `XMLParser`:
/// the toolchain's own, so no XML package to build.
///
/// Only what CardDAV sync needs is kept: per response its href, status, and the properties
/// its `200` propstat holds; the sync token of a `sync-collection` report.
public struct DAVMultistatus: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var href: String
        /// The response's own status (`404` for a member removed, `507` for a truncated report);
        /// nil when it has propstats instead.
        public var status: Int?
        public var etag: String?
        public var addressData: String?
        /// Local names of `resourcetype`'s children: `collection`, `addressbook`, ...
        public var resourceTypes: Set<String> = []
        public var displayName: String?
        public var currentUserPrincipal: String?
        public var addressbookHomeSet: String?
        /// The vCard versions of `supported-address-data`.
        public var addressDataVersions: [String] = []
        /// A collection's `sync-token` property (PROPFIND).
        public var syncToken: String?

        public init(href: String, status: Int? = nil, etag: String? = nil, addressData: String? = nil) {
            self.href = href; self.status = status; self.etag = etag; self.addressData = addressData
        }
    }

    public var entries: [Entry] = []
    public var syncToken: String?

    public init(entries: [Entry] = [], syncToken: String? = nil) {
        self.entries = entries; self.syncToken = syncToken
    }

    /// Reads a body; throws `DAVError.malformed` when it is not XML or not a multistatus.
    public static func parse(_ data: Data) throws -> DAVMultistatus {
        guard DAVBody.isSafeForXMLParser(data) else { throw DAVError.malformed("the answer is not UTF-8") }
        if let found = DAVEntityCheck.firstUnexpandable(in: data) {
            throw DAVError.malformed((found.href.map { "the card \($0)" } ?? "the answer")
                + " holds an XML entity that cannot be read (&\(found.name);); nothing of this answer was kept")
        }
        let reader = MultistatusReader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = reader
        guard parser.parse(), reader.sawMultistatus else {
            throw DAVError.malformed(parser.parserError.map { "\($0)" } ?? "no multistatus element")
        }
        return reader.result
    }

    /// `text` without the white space (Unicode's White_Space: spaces, tabs, line ends) at either
    /// end. Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` cost 28,000
    /// instructions a call here, 23 % of a 5,000-card first sync (callgrind).
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return first == scalars.startIndex && last == scalars.index(before: scalars.endIndex)
            ? text : String(scalars[first...last])
    }

    /// The status code of an HTTP status line (`HTTP/1.1 404 Not Found` → 404).
    static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}

/// What a body must be before `XMLParser` reads it.
enum DAVBody {
    /// FoundationXML's `XMLParser` traps (kills the process) on an element name whose bytes are
    /// not UTF-8 in a document libxml2 reads as UTF-8 (found by fuzz-carddav: `<p\u{D8}op>`), so
    /// a broken or hostile server could crash a sync. Servers answer in UTF-8 (Radicale, Xandikos,
    /// RFC 6352's examples): anything else is refused before the parser sees it.
    static func isSafeForXMLParser(_ data: Data) -> Bool {
        data.withUnsafeBytes { String(validating: $0.bindMemory(to: UInt8.self), as: UTF8.self) != nil }
    }
}

/// The precondition names of a DAV `<error>` body (RFC 4918 §16): `valid-sync-token`, ...
public enum DAVErrorBody {
    public static func conditions(_ data: Data) -> Set<String> {
        guard DAVBody.isSafeForXMLParser(data) else { return [] }
        let reader = ConditionReader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = reader
        _ = parser.parse()
        return reader.conditions
    }

    private final class ConditionReader: NSObject, XMLParserDelegate {
        var conditions: Set<String> = []
        var depth = 0
        var inError = false
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            depth += 1
            if depth == 1 { inError = name == "error" } else if depth == 2, inError { conditions.insert(name) }
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
        }
    }
}

private final class MultistatusReader: NSObject, XMLParserDelegate {
    var result = DAVMultistatus()
    var sawMultistatus = false
    private var path: [String] = []
    private var text = ""
    private var entry: DAVMultistatus.Entry?
    /// The properties of the propstat being read, kept only if its status is 200.
    private var propstat: DAVMultistatus.Entry?
    private var propstatStatus: Int?

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        path.append(name)
        text = ""
        switch name {
        case "multistatus": if path.count == 1 { sawMultistatus = true }
        case "response": entry = DAVMultistatus.Entry(href: "")
        case "propstat": propstat = DAVMultistatus.Entry(href: ""); propstatStatus = nil
        case "address-data-type":
            if path.dropLast().last == "supported-address-data", let version = attributes["version"] {
                propstat?.addressDataVersions.append(version)
            }
        default:
            if parent == "resourcetype" { propstat?.resourceTypes.insert(name) }
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, foundCDATA block: Data) { text += String(decoding: block, as: UTF8.self) }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer { path.removeLast(); text = "" }
        // Not for a card's text, which is kept as sent.
        let value = name == "address-data" ? "" : DAVMultistatus.trimmed(text)
        switch name {
        case "href":
            switch parent {
            case "response": entry?.href = value
            case "current-user-principal": propstat?.currentUserPrincipal = value
            case "addressbook-home-set": if propstat?.addressbookHomeSet == nil { propstat?.addressbookHomeSet = value }
            default: break
            }
        case "status":
            if parent == "propstat" { propstatStatus = DAVMultistatus.statusCode(value) }
            else if parent == "response" { entry?.status = DAVMultistatus.statusCode(value) }
        case "getetag": propstat?.etag = value
        // The card's text as sent: only the XML around it is trimmed, not its line ends.
        case "address-data": propstat?.addressData = text
        case "displayname": propstat?.displayName = value
        case "sync-token":
            if parent == "multistatus" { result.syncToken = value } else { propstat?.syncToken = value }
        case "propstat":
            if let found = propstat, propstatStatus == 200 || propstatStatus == nil { merge(found) }
            propstat = nil
        case "response":
            if let done = entry { result.entries.append(done) }
            entry = nil
        default: break
        }
    }

    private var parent: String? { path.count >= 2 ? path[path.count - 2] : nil }

    private func merge(_ found: DAVMultistatus.Entry) {
        guard var current = entry else { return }
        current.etag = found.etag ?? current.etag
        current.addressData = found.addressData ?? current.addressData
        current.resourceTypes.formUnion(found.resourceTypes)
        current.displayName = found.displayName ?? current.displayName
        current.currentUserPrincipal = found.currentUserPrincipal ?? current.currentUserPrincipal
        current.addressbookHomeSet = found.addressbookHomeSet ?? current.addressbookHomeSet
        current.addressDataVersions += found.addressDataVersions
        if let token = found.syncToken, result.syncToken == nil { result.syncToken = token }
        entry = current
    }
}
