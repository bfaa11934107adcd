import Foundation

/// Where an account's requests may go: one scheme, host and port (issue 26). Credentials sent
/// anywhere else would be given away, so nothing is sent anywhere else.
public struct DAVOrigin: Hashable, Sendable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int

    /// The origin of an http or https URL with a host; nil for anything else.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    public func contains(_ url: URL) -> Bool { DAVOrigin(url) == self }

    /// `host` or `host:port` when the port is not the scheme's own (what `--allow-host` names).
    public var hostAndPort: String {
        port == (scheme == "https" ? 443 : 80) ? host : "\(host):\(port)"
    }

    public var description: String { "\(scheme)://\(hostAndPort)" }

    /// Whether `--allow-host` `name` (a host, or host:port) names this origin.
    public func isNamed(by name: String) -> Bool {
        let name = name.lowercased()
        return name == hostAndPort || name == "\(host):\(port)" || (name == host && !name.contains(":"))
    }
}

/// An address book's own members: the hrefs a server lists are resolved against the collection
/// and must stay inside it, on its origin. A card named `http://OTHER-HOST/steal/y.vcf` or
/// `/book/../../other/x.vcf` would otherwise be read, written and deleted there, with the
/// account's password.
public struct DAVCollectionScope: Sendable {
    public let book: URL
    let origin: DAVOrigin?
    /// The collection's path segments, percent-decoded.
    private let segments: [String]

    public init(book: URL) {
        self.book = book
        origin = DAVOrigin(book)
        segments =
            Self.segments(of: URLComponents(url: book, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? "/") ?? []
    }

    /// The URL of `href` when it is the collection or inside it; nil when it points elsewhere
    /// (another origin, above the collection, dot segments even percent-encoded, a query).
    public func url(of href: String) -> URL? {
        guard let origin, !href.isEmpty,
            !href.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" }),
            // A lenient server's raw space or `é` encoded as it should have been (`%` kept).
            let parts = URLComponents(
                string: href.addingPercentEncoding(withAllowedCharacters: Self.hrefCharacters) ?? href),
            parts.query == nil, parts.fragment == nil, parts.user == nil, parts.password == nil
        else { return nil }
        var path = parts.percentEncodedPath
        if parts.scheme != nil || parts.host != nil {
            // An absolute URL (or `//host/...`) must name the book's own origin.
            var absolute = parts
            if absolute.scheme == nil { absolute.scheme = origin.scheme }
            guard let url = absolute.url, origin.contains(url) else { return nil }
        } else if !path.hasPrefix("/") {
            // Relative to the collection.
            path = (URLComponents(url: book, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? "/") + path
        }
        guard let hrefSegments = Self.segments(of: path), hrefSegments.count >= segments.count,
            Array(hrefSegments.prefix(segments.count)) == segments
        else { return nil }
        var resolved = URLComponents()
        resolved.scheme = origin.scheme
        resolved.host = origin.host
        resolved.port = book.port
        resolved.percentEncodedPath = path
        return resolved.url
    }

    /// Whether `href` is the collection or inside it: `url(of:) != nil`, without building a URL
    /// for the plain absolute paths servers send. Every member of a listing and of a multiget
    /// answer is checked, and through `URLComponents` that was 13 % of the CPU of a first sync of
    /// 50,000 cards (bench/FINDINGS.md, issue 32).
    public func contains(_ href: String) -> Bool {
        guard origin != nil, let plain = Self.plainSegments(href) else { return url(of: href) != nil }
        guard plain.count >= segments.count else { return false }
        return zip(plain, segments).allSatisfy { $0 == $1 }
    }

    /// Whether `href` names the collection itself (its path with or without the last slash).
    public func namesCollection(_ href: String) -> Bool {
        guard origin != nil, let plain = Self.plainSegments(href) else {
            let path = url(of: href)?.path
            return path == book.path || path.map { $0 + "/" } == book.path
        }
        return plain.count == segments.count && zip(plain, segments).allSatisfy { $0 == $1 }
    }

    /// The segments of an href that `url(of:)` would take as it is: an absolute path (not
    /// `//host`) of unreserved characters and sub-delimiters only, so nothing to decode, no
    /// query, fragment or control byte, no empty or dot segment. Nil for any other shape, which
    /// `url(of:)` reads in full.
    private static func plainSegments(_ href: String) -> [Substring]? {
        let bytes = href.utf8
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        var previous: UInt8 = 0
        for byte in bytes {
            guard byte < 0x80, plainBytes[Int(byte)] else { return nil }
            // `//` anywhere: a host, or an empty segment the URL's path would keep.
            if byte == UInt8(ascii: "/") && previous == UInt8(ascii: "/") { return nil }
            previous = byte
        }
        let result = href.split(separator: "/")
        guard !result.contains(where: { $0 == "." || $0 == ".." }) else { return nil }
        return result
    }

    /// Unreserved characters, sub-delimiters, `:`, `@` and `/` (RFC 3986); never `%`, `?`, `#`.
    private static let plainBytes: [Bool] = (0..<128).map { byte in
        let c = Character(Unicode.Scalar(UInt8(byte)))
        return c.isASCII && (c.isLetter || c.isNumber || "-._~!$&'()*+,;=:@/".contains(c))
    }

    /// What an href may hold unencoded: printable ASCII but for what URLs never hold raw.
    private static let hrefCharacters: CharacterSet = {
        var set = CharacterSet(charactersIn: Unicode.Scalar(0x21)...Unicode.Scalar(0x7E))
        set.remove(charactersIn: "\"<>\\^`{|}")
        return set
    }()

    /// The decoded segments of a path, or nil when one is a dot segment or hides a separator
    /// (`%2e%2e`, `%2f`): an honest server never sends them, and servers differ in reading them.
    private static func segments(of path: String) -> [String]? {
        guard path.hasPrefix("/") else { return nil }
        var result: [String] = []
        for raw in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let segment = String(raw).removingPercentEncoding, segment != ".", segment != "..",
                !segment.contains("/"), !segment.contains("\\"), !segment.contains("\0")
            else { return nil }
            result.append(segment)
        }
        return result
    }
}
