import Foundation

/// Finds a user's address books from a server's base URL (RFC 6764 and 5397): the URL itself
/// or `/.well-known/carddav`, its `current-user-principal`, the principal's
/// `addressbook-home-set`, and the address books in that home.
public struct CardDAVDiscovery {
    private let transport: DAVTransport

    public init(transport: DAVTransport) { self.transport = transport }

    public func addressBooks(from base: URL) throws -> [RemoteAddressBook] {
        var lastError: Error = DAVError.malformed("no CardDAV service at \(base.absoluteString)")
        for start in [base, wellKnown(base)] {
            do {
                let (entry, at) = try properties(
                    of: start,
                    [
                        "D:current-user-principal", "D:resourcetype",
                        "C:addressbook-home-set", "D:displayname",
                        "C:supported-address-data", "D:current-user-privilege-set",
                    ])
                if entry.resourceTypes.contains("addressbook") { return [book(entry, at)] }
                var home = entry.addressbookHomeSet.map { resolve($0, at) }
                if home == nil, let principal = entry.currentUserPrincipal.map({ resolve($0, at) }) {
                    let (found, foundAt) = try properties(of: principal, ["C:addressbook-home-set"])
                    home = found.addressbookHomeSet.map { resolve($0, foundAt) }
                }
                guard let home else { continue }
                return try books(in: home)
            } catch let error as DAVError {
                if case .unauthorized = error { throw error }
                if case .unsupportedAuthentication = error { throw error }
                if case .network = error { throw error }
                if case .unavailable = error { throw error }
                // Another host is for the person to confirm (`SyncAccountsWorker.add`), not to skip.
                if case .otherOrigin = error { throw error }
                lastError = error
            }
        }
        throw lastError
    }

    /// What the server says of one book now (its rights may have changed since it was added).
    public func book(at url: URL) throws -> RemoteAddressBook {
        let (entry, at) = try properties(
            of: url,
            [
                "D:resourcetype", "D:displayname", "C:supported-address-data",
                "D:current-user-privilege-set",
            ])
        return book(entry, at)
    }

    /// The address books one level under `home`.
    func books(in home: URL) throws -> [RemoteAddressBook] {
        let response = try transport.send(
            propfind(
                home, depth: "1",
                [
                    "D:resourcetype", "D:displayname",
                    "C:supported-address-data", "D:current-user-privilege-set",
                ]))
        try check(response, home)
        let at = response.url ?? home
        return try DAVMultistatus.parse(response.body).entries
            .filter { $0.resourceTypes.contains("addressbook") }
            .map { book($0, at) }
    }

    private func properties(of url: URL, _ names: [String]) throws -> (DAVMultistatus.Entry, URL) {
        let response = try transport.send(propfind(url, depth: "0", names))
        try check(response, url)
        let at = response.url ?? url
        guard let entry = try DAVMultistatus.parse(response.body).entries.first else {
            throw DAVError.malformed("PROPFIND \(url.absoluteString) listed nothing")
        }
        return (entry, at)
    }

    private func book(_ entry: DAVMultistatus.Entry, _ at: URL) -> RemoteAddressBook {
        var url = resolve(entry.href, at)
        if !url.absoluteString.hasSuffix("/") { url = URL(string: url.absoluteString + "/") ?? url }
        let name = entry.displayName.flatMap { $0.isEmpty ? nil : $0 } ?? url.lastPathComponent
        return RemoteAddressBook(
            url: url, displayName: name, acceptsVCard4: entry.addressDataVersions.contains("4.0"),
            readOnly: !RemoteAddressBook.writable(entry.privileges))
    }

    private func wellKnown(_ base: URL) -> URL {
        URL(string: "/.well-known/carddav", relativeTo: base)?.absoluteURL ?? base
    }

    private func resolve(_ href: String, _ at: URL) -> URL { URL(string: href, relativeTo: at)?.absoluteURL ?? at }

    private func propfind(_ url: URL, depth: String, _ names: [String]) -> DAVRequest {
        DAVRequest(
            method: "PROPFIND", url: url,
            headers: ["Depth": depth, "Content-Type": "application/xml; charset=utf-8"],
            body: Data(DAVXML.propfind(names).utf8))
    }

    private func check(_ response: DAVResponse, _ url: URL) throws {
        if response.status == 207 { return }
        if response.status == 401 { throw DAVError.unauthorized(url: url) }
        throw DAVError.status(response.status, method: "PROPFIND", url: url)
    }
}
