import Foundation

#if canImport(CLDAPSupport)
    import CLDAPSupport
#endif

/// One search of one directory, as the client sends it.
public struct DirectoryRequest: Equatable, Sendable {
    public let source: DirectorySource
    public let filter: String
    /// Nil: the source's own base (a search of one DN names it here).
    public var base: String?
    public var password: String?
    public var sizeLimit: Int
    /// What the server is asked to send of each entry.
    public var attributes: [String]
    public init(
        source: DirectorySource, filter: String, base: String? = nil, password: String? = nil, sizeLimit: Int? = nil,
        attributes: [String] = DirectoryRequest.everyAttribute
    ) {
        self.source = source; self.filter = filter; self.base = base; self.password = password
        self.sizeLimit = sizeLimit ?? source.sizeLimit
        self.attributes = attributes
    }

    /// Every attribute a field or the photo is read from, and the entry's classes.
    public static let everyAttribute = ContactField.ldapAttributes + ["objectClass"]
}

/// What a directory answered: its entries, whether the size limit cut them short, or why it
/// could not answer.
public struct DirectoryAnswer: Equatable, Sendable {
    public var entries: [DirectoryEntry]
    public var more: Bool
    public var failure: DirectoryFailure?
    public init(entries: [DirectoryEntry] = [], more: Bool = false, failure: DirectoryFailure? = nil) {
        self.entries = entries; self.more = more; self.failure = failure
    }
}

/// The seam to the LDAP library: tests put a fake directory here.
public protocol DirectoryClient: Sendable {
    func search(_ request: DirectoryRequest) -> DirectoryAnswer
    /// `search`, handing each entry to `eachEntry` as soon as it is complete, in the answer's
    /// order, on the calling thread (and then in the answer, as `search` does), so that a caller
    /// can work on the first entries while the next ones are on their way.
    func search(_ request: DirectoryRequest, eachEntry: (DirectoryEntry) -> Void) -> DirectoryAnswer
    /// The work of a first search that needs no directory (loading a library), done ahead on a
    /// thread that does not know the directory yet; the search would do it otherwise.
    func prepare()
}

extension DirectoryClient {
    public func prepare() {}

    /// A client that has the whole answer at once hands its entries over after it.
    public func search(_ request: DirectoryRequest, eachEntry: (DirectoryEntry) -> Void) -> DirectoryAnswer {
        let answer = search(request)
        answer.entries.forEach(eachEntry)
        return answer
    }
}

/// OpenLDAP's libldap, loaded on first use (CLDAPSupport): one connection per search, under the
/// source's time limit from connect to the last entry.
public struct OpenLDAPClient: DirectoryClient {
    public init() {}

    /// libldap loaded and started (`cldap_prepare`), so that the search begins at its connection.
    public func prepare() {
        #if canImport(CLDAPSupport)
            cldap_prepare()
        #endif
    }

    public func search(_ request: DirectoryRequest) -> DirectoryAnswer {
        search(request, eachEntry: { _ in })
    }

    public func search(_ request: DirectoryRequest, eachEntry: (DirectoryEntry) -> Void) -> DirectoryAnswer {
        #if canImport(CLDAPSupport)
            let source = request.source
            // An entry is complete when the next one's DN arrives, or the search ends.
            final class Collector {
                let source: String
                let eachEntry: (DirectoryEntry) -> Void
                var entries: [DirectoryEntry] = []
                init(source: String, eachEntry: @escaping (DirectoryEntry) -> Void) {
                    self.source = source; self.eachEntry = eachEntry
                }
                func complete() {
                    if let last = entries.last { eachEntry(last) }
                }
            }
            return withoutActuallyEscaping(eachEntry) { eachEntry in
                let collector = Collector(source: source.name, eachEntry: eachEntry)
                var message = [CChar](repeating: 0, count: 1024)
                var cAttributes: [UnsafeMutablePointer<CChar>?] = request.attributes.map { strdup($0) } + [nil]
                defer { cAttributes.forEach { free($0) } }
                let status: Int32 = source.server.withCString { uri in
                    (request.base ?? source.baseDN).withCString { base in
                        request.filter.withCString { filter in
                            withOptionalCString(source.bindDN) { bindDN in
                                withOptionalCString(request.password) { password in
                                    withOptionalCString(source.caFile) { caFile in
                                        cAttributes.withUnsafeMutableBufferPointer { buffer in
                                            buffer.baseAddress!.withMemoryRebound(
                                                to: UnsafePointer<CChar>?.self, capacity: buffer.count
                                            ) { names in
                                                var params = cldap_search_params(
                                                    uri: uri, bind_dn: bindDN, password: password, base: base,
                                                    filter: filter,
                                                    attributes: names, tls: Self.tls(source.security), ca_file: caFile,
                                                    size_limit: Int32(clamping: request.sizeLimit),
                                                    time_limit: source.timeLimit)
                                                let context = Unmanaged.passUnretained(collector).toOpaque()
                                                return cldap_search(
                                                    &params, context,
                                                    { context, attribute, value, length in
                                                        let collector = Unmanaged<Collector>.fromOpaque(context!)
                                                            .takeUnretainedValue()
                                                        let data = Data(bytes: value, count: length)
                                                        guard let attribute else {
                                                            collector.complete()
                                                            collector.entries.append(
                                                                DirectoryEntry(
                                                                    source: collector.source,
                                                                    dn: String(decoding: data, as: UTF8.self)))
                                                            return
                                                        }
                                                        guard !collector.entries.isEmpty else { return }
                                                        let last = collector.entries.count - 1
                                                        // An attribute's values come one after another:
                                                        // the name is made once, not once per value.
                                                        let bytes = UnsafeBufferPointer(
                                                            start: UnsafeRawPointer(attribute).assumingMemoryBound(
                                                                to: UInt8.self), count: strlen(attribute))
                                                        if let previous = collector.entries[last].attributes.last,
                                                            previous.name.utf8.elementsEqual(bytes)
                                                        {
                                                            let index = collector.entries[last].attributes.count - 1
                                                            collector.entries[last].attributes[index].values.append(
                                                                data)
                                                            return
                                                        }
                                                        let name = String(decoding: bytes, as: UTF8.self)
                                                        if let index = collector.entries[last].attributes.firstIndex(
                                                            where: { $0.name == name })
                                                        {
                                                            collector.entries[last].attributes[index].values.append(
                                                                data)
                                                        } else {
                                                            collector.entries[last].attributes.append((name, [data]))
                                                        }
                                                    }, &message, message.count)
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                let text = String(cString: message)
                let reason: DirectoryFailure.Reason
                switch status {
                case CLDAP_OK, CLDAP_MORE:
                    collector.complete()
                    return DirectoryAnswer(entries: collector.entries, more: status == CLDAP_MORE)
                case CLDAP_NO_LIBRARY: reason = .noLibrary
                case CLDAP_TIMEOUT: reason = .timeout
                case CLDAP_BIND: reason = .bind
                case CLDAP_TLS: reason = .tls
                case CLDAP_SEARCH: reason = .search
                default: reason = .connect
                }
                return DirectoryAnswer(failure: .directory(name: source.name, reason, text))
            }
        #else
            return DirectoryAnswer(
                failure: .directory(
                    name: request.source.name, .noLibrary,
                    "this build of contactsbook (a fully static executable) cannot load OpenLDAP's library; "
                        + "a build from `swift build` searches directories"))
        #endif
    }

    #if canImport(CLDAPSupport)
        private static func tls(_ security: DirectorySource.Security) -> Int32 {
            switch security {
            case .startTLS: return CLDAP_TLS_START
            case .ldaps: return CLDAP_TLS_LDAPS
            case .plaintext: return CLDAP_TLS_NONE
            }
        }
    #endif
}

private func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
