import CLibXML2Support
import Foundation
import SceneCore

/// A `207 Multi-Status` body read as it arrives, with libxml2's push parser: each response is
/// handed to `onEntry` as soon as its end tag is read, so an answer of any size is read in the
/// memory of one response (FoundationXML's `XMLParser` took a body whole, and libxml2 refuses a
/// chunk over 10,000,000 bytes: a book of 500 cards with photos could not sync).
///
/// What is refused, as before: bytes that are not UTF-8 (checked before libxml2 sees them;
/// FoundationXML trapped on them), any entity reference but XML's five (never expanded: no
/// entity is ever declared to the parser, and `getEntity` names the first one met), anything
/// not well-formed, a root that is not `multistatus`, elements nested deeper than 256 (libxml2's
/// push parser checks no depth itself, and each level costs memory). libxml2's own limits stay
/// on (no `XML_PARSE_HUGE`): names of 50,000 bytes; text, however long, comes in pieces. Ours: `DAVSizeLimits.answer` for the whole body, `card` for one `address-data`
/// (a larger card is skipped and its size told, `Entry.oversizedAddressData`) or any other value.
public final class DAVMultistatusStream: DAVBodyReceiver {
    public typealias Entry = DAVMultistatus.Entry

    private let limits: DAVSizeLimits
    /// `REPORT https://…/book/`: the request, for the errors.
    private let request: String
    private let onEntry: (Entry) throws -> Void
    private var parser: OpaquePointer?
    private var received = 0
    private var utf8 = UTF8Check()
    /// Why reading stopped: a limit, an entity, the root, `onEntry`'s error.
    private var failure: Error?
    /// libxml2's first error, for a body that is not well-formed.
    private var parseError: String?
    private var finished = false

    /// The `sync-token` of a `sync-collection` answer (or a collection's, from a PROPFIND).
    public private(set) var syncToken: String?
    private var sawMultistatus = false
    private var path: [String] = []
    /// The text of the element being read, as UTF-8 (libxml2 hands it over in pieces).
    private var text: [UInt8] = []
    /// Bytes of text seen in the element being read, kept or not.
    private var textBytes = 0
    private var entry: Entry?
    /// The properties of the propstat being read, kept only if its status is 200.
    private var propstat: Entry?
    private var propstatStatus: Int?
    /// The last href read: the card an entity is named by.
    private var lastHref: String?

    public init(limits: DAVSizeLimits, request: String, onEntry: @escaping (Entry) throws -> Void) {
        self.limits = limits; self.request = request; self.onEntry = onEntry
        Self.initialize
    }

    deinit { cxml_free(parser) }

    /// `xmlInitParser` once, before any thread parses (it is not thread-safe itself).
    private static let initialize: Void = { cxml_initialize() }()
    /// Why libxml2 could not be loaded, naming its package; nil when it is there.
    private static let unavailable: String? = cxml_unavailable().map { String(cString: $0) }

    private static let callbacks = cxml_callbacks(
        start: { context, name, attributeCount, attributes in
            reader(context).start(name, attributeCount: Int(attributeCount), attributes)
        },
        end: { context, name in reader(context).end(name) },
        characters: { context, bytes, count in reader(context).characters(bytes, Int(count)) },
        entity: { context, name, parameter in
            reader(context).refuseEntity(String(cString: name), parameter: parameter != 0)
        },
        error: { context, _, line, message in
            reader(context).noteError(line: Int(line), message.map { String(cString: $0) })
        })

    /// A multistatus is 6 or 7 levels deep; libxml2's tree parser stops at 256.
    static let maximumDepth = 256

    public func accepts(status: Int) -> Bool { status == 207 }

    public func receive(_ bytes: UnsafeRawBufferPointer) throws {
        if let failure { throw failure }
        received += bytes.count
        guard received <= limits.answer else {
            throw stop(
                DAVError.tooLarge(
                    "the answer to \(request) passed \(DAVSizeLimits.words(limits.answer)), the limit for "
                        + "one answer (\(DAVSizeLimits.Variable.answer) sets it); stopped there, nothing of it was kept"
                ))
        }
        guard utf8.take(bytes) else { throw stop(DAVError.malformed("the answer is not UTF-8")) }
        try push(bytes, last: false)
    }

    /// The end of the body: throws if it was not a whole multistatus.
    public func finish() throws {
        if let failure { throw failure }
        guard !finished else { return }
        finished = true
        guard utf8.isComplete else { throw stop(DAVError.malformed("the answer is not UTF-8")) }
        try push(UnsafeRawBufferPointer(start: nil, count: 0), last: true)
        guard sawMultistatus else { throw stop(DAVError.malformed("no multistatus element")) }
    }

    private func push(_ bytes: UnsafeRawBufferPointer, last: Bool) throws {
        let context = Unmanaged.passUnretained(self).toOpaque()
        if parser == nil {
            // libxml2 is loaded on first use (CLazyXML2): without it, this answer fails, not the process.
            if let why = Self.unavailable { throw stop(DAVError.unavailable(why)) }
            // No network, no DTD loaded, entities left unexpanded (and refused: `entity`).
            parser = cxml_create(Self.callbacks, context)
        }
        guard let parser else { throw stop(DAVError.malformed("out of memory")) }
        // libxml2 takes an int count: a body comes in pieces far below that.
        let code = cxml_parse(
            parser, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), last ? 1 : 0)
        if let failure { throw failure }
        if code != 0 {
            throw stop(DAVError.malformed(parseError ?? "not XML (libxml2 error \(code))"))
        }
    }

    /// Remembers why reading stopped, and stops libxml2 (from a callback) at once.
    @discardableResult
    private func stop(_ error: Error) -> Error {
        if failure == nil { failure = error }
        if let parser { cxml_stop(parser) }
        return failure!
    }

    // MARK: The callbacks

    private func start(
        _ localName: UnsafePointer<UInt8>, attributeCount: Int,
        _ attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    ) {
        guard failure == nil else { return }
        guard path.count < Self.maximumDepth else {
            stop(DAVError.malformed("the answer nests its elements deeper than \(Self.maximumDepth) levels"))
            return
        }
        let name = String(cString: localName)
        path.append(name)
        text.removeAll(keepingCapacity: text.capacity <= 1 << 16)
        textBytes = 0
        switch name {
        case "multistatus": if path.count == 1 { sawMultistatus = true }
        case "response": entry = Entry(href: "")
        case "propstat": propstat = Entry(href: ""); propstatStatus = nil
        case "address-data-type":
            if path.dropLast().last == "supported-address-data",
                let version = attribute("version", attributeCount, attributes)
            {
                propstat?.addressDataVersions.append(version)
            }
        case "current-user-privilege-set": if propstat?.privileges == nil { propstat?.privileges = [] }
        default:
            if parent == "resourcetype" { propstat?.resourceTypes.insert(name) }
            if parent == "privilege", path.dropLast(2).last == "current-user-privilege-set" {
                propstat?.privileges?.insert(name)
            }
        }
        if path.count == 1 && !sawMultistatus { stop(DAVError.malformed("no multistatus element")) }
    }

    /// An attribute's value by local name: libxml2 gives five pointers an attribute (local
    /// name, prefix, URI, value start, value end).
    private func attribute(_ wanted: String, _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?)
        -> String?
    {
        guard let attributes else { return nil }
        for index in 0..<count {
            let base = index * 5
            guard let name = attributes[base], String(cString: name) == wanted,
                let start = attributes[base + 3], let end = attributes[base + 4]
            else { continue }
            return String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
        }
        return nil
    }

    private func characters(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
        guard failure == nil else { return }
        textBytes += count
        if textBytes > limits.card {
            // A card over the limit is skipped (named by its size); any other value that long
            // is no honest answer.
            guard path.last == "address-data" else {
                stop(
                    DAVError.tooLarge(
                        "the answer to \(request) holds a value longer than "
                            + "\(DAVSizeLimits.words(limits.card)) (\(DAVSizeLimits.Variable.card) sets the limit); stopped"
                    ))
                return
            }
            text = []
            return
        }
        text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
    }

    private func end(_ localName: UnsafePointer<UInt8>) {
        guard failure == nil, !path.isEmpty else { return }
        defer { path.removeLast(); text.removeAll(keepingCapacity: text.capacity <= 1 << 16); textBytes = 0 }
        let name = path[path.count - 1]
        // Not for a card's text, which is kept as sent.
        let value = name == "address-data" ? "" : DAVMultistatus.trimmed(String(decoding: text, as: UTF8.self))
        switch name {
        case "href":
            lastHref = value
            switch parent {
            case "response": entry?.href = value
            case "current-user-principal": propstat?.currentUserPrincipal = value
            case "addressbook-home-set": if propstat?.addressbookHomeSet == nil { propstat?.addressbookHomeSet = value }
            default: break
            }
        case "status":
            if parent == "propstat" {
                propstatStatus = DAVMultistatus.statusCode(value)
            } else if parent == "response" {
                entry?.status = DAVMultistatus.statusCode(value)
            }
        case "getetag": propstat?.etag = value
        // The card's text as sent: only the XML around it is trimmed, not its line ends.
        case "address-data":
            // The last one of a propstat counts, as for any other property.
            if textBytes > limits.card {
                propstat?.oversizedAddressData = textBytes; propstat?.addressData = nil
            } else {
                propstat?.addressData = String(decoding: text, as: UTF8.self); propstat?.oversizedAddressData = nil
            }
        case "displayname": propstat?.displayName = value
        case "sync-token":
            if parent == "multistatus" { syncToken = value } else { propstat?.syncToken = value }
        case "propstat":
            if let found = propstat, propstatStatus == 200 || propstatStatus == nil { merge(found) }
            propstat = nil
        case "response":
            if let done = entry {
                entry = nil
                do { try onEntry(done) } catch { stop(error) }
            }
        default: break
        }
    }

    private func refuseEntity(_ name: String, parameter: Bool = false) {
        // libxml2 also asks while it reads a declaration in the DTD (is it declared already?):
        // only a reference in the document is one that would be dropped.
        guard !path.isEmpty || sawMultistatus else { return }
        stop(
            DAVError.malformed(
                (lastHref.map { "the card \($0)" } ?? "the answer")
                    + " holds an XML entity that cannot be read (\(parameter ? "%" : "&")\(name);); nothing of this answer was kept"
            ))
    }

    private func noteError(line: Int, _ message: String?) {
        guard parseError == nil else { return }
        let text = message?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "not XML"
        parseError = "line \(line): \(TerminalText.sanitize(text))"
    }

    private var parent: String? { path.count >= 2 ? path[path.count - 2] : nil }

    private func merge(_ found: Entry) {
        guard var current = entry else { return }
        current.etag = found.etag ?? current.etag
        if found.addressData != nil || found.oversizedAddressData != nil {
            current.addressData = found.addressData; current.oversizedAddressData = found.oversizedAddressData
        }
        current.resourceTypes.formUnion(found.resourceTypes)
        current.displayName = found.displayName ?? current.displayName
        current.currentUserPrincipal = found.currentUserPrincipal ?? current.currentUserPrincipal
        current.addressbookHomeSet = found.addressbookHomeSet ?? current.addressbookHomeSet
        current.addressDataVersions += found.addressDataVersions
        if let privileges = found.privileges { current.privileges = (current.privileges ?? []).union(privileges) }
        if let token = found.syncToken, syncToken == nil { syncToken = token }
        entry = current
    }
}

private func reader(_ context: UnsafeMutableRawPointer?) -> DAVMultistatusStream {
    Unmanaged<DAVMultistatusStream>.fromOpaque(context!).takeUnretainedValue()
}

/// Whether bytes that come in pieces are UTF-8 (RFC 3629: no overlong forms, no surrogates,
/// nothing past U+10FFFF), a sequence cut between two pieces carried over.
struct UTF8Check {
    /// Continuation bytes still expected, and the range the next one must be in.
    private var needed = 0
    private var lower: UInt8 = 0x80, upper: UInt8 = 0xBF

    mutating func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes {
            if needed == 0 {
                if byte < 0x80 { continue }
                switch byte {
                case 0xC2...0xDF: needed = 1
                case 0xE0: needed = 2; lower = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: needed = 2
                case 0xED: needed = 2; upper = 0x9F
                case 0xF0: needed = 3; lower = 0x90
                case 0xF1...0xF3: needed = 3
                case 0xF4: needed = 3; upper = 0x8F
                default: return false
                }
            } else {
                guard byte >= lower && byte <= upper else { return false }
                lower = 0x80; upper = 0xBF
                needed -= 1
            }
        }
        return true
    }

    var isComplete: Bool { needed == 0 }
}
