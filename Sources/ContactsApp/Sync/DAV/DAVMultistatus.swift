import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A WebDAV `207 Multi-Status` body (RFC 4918 §13), read whole; `DAVMultistatusStream` reads
/// one as it arrives (what the sync does), and is what reads it here.
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
        /// The size of a card over `DAVSizeLimits.card`, whose text was not kept (`addressData`
        /// is nil).
        public var oversizedAddressData: Int?
        /// Local names of `resourcetype`'s children: `collection`, `addressbook`, ...
        public var resourceTypes: Set<String> = []
        public var displayName: String?
        public var currentUserPrincipal: String?
        public var addressbookHomeSet: String?
        /// The vCard versions of `supported-address-data`.
        public var addressDataVersions: [String] = []
        /// A collection's `sync-token` property (PROPFIND).
        public var syncToken: String?
        /// The privileges of `current-user-privilege-set` (RFC 3744 §5.4), by local name
        /// (`read`, `write`, `all`, ...); nil when the server did not send the property.
        public var privileges: Set<String>?

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
    public static func parse(_ data: Data, limits: DAVSizeLimits = DAVSizeLimits(answer: .max, card: .max)) throws
        -> DAVMultistatus
    {
        var result = DAVMultistatus()
        let stream = DAVMultistatusStream(limits: limits, request: "the request") { result.entries.append($0) }
        try data.withUnsafeBytes { bytes in
            // In pieces, as they come from a server: libxml2 refuses one over 10,000,000 bytes.
            var start = 0
            while start < bytes.count {
                let end = min(start + (1 << 16), bytes.count)
                try stream.receive(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                start = end
            }
        }
        try stream.finish()
        result.syncToken = stream.syncToken
        return result
    }

    /// `text` without the white space (Unicode's White_Space: spaces, tabs, line ends) at either
    /// end. Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` cost 28,000
    /// instructions a call here, 23 % of a 5,000-card first sync (callgrind).
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return first == scalars.startIndex && last == scalars.index(before: scalars.endIndex)
            ? text : String(scalars[first...last])
    }

    /// The status code of an HTTP status line (`HTTP/1.1 404 Not Found` → 404).
    static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}

/// What a body must be before `XMLParser` reads it (`DAVErrorBody`, `DAVRefusal`).
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
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            depth += 1
            if depth == 1 { inError = name == "error" } else if depth == 2, inError { conditions.insert(name) }
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
        }
    }
}
