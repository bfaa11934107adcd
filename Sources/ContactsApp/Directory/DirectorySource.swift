import Foundation

/// An organisation's LDAP directory, searched live beside the book (issue 31): never copied
/// into it, never holding a password (a command prints it when a search needs it).
public struct DirectorySource: Equatable, Sendable {
    /// How the connection is protected. StartTLS or LDAPS, certificates checked, unless the
    /// person asks for plain text (`--plaintext`, for a server on their own machine).
    public enum Security: String, Sendable, CaseIterable {
        case startTLS = "starttls"
        case ldaps
        case plaintext
    }

    public var name: String
    /// `ldap[s]://HOST[:PORT]` without the base.
    public var server: String
    public var baseDN: String
    /// Nil: anonymous.
    public var bindDN: String?
    public var passwordCommand: String?
    /// What entries are people; nil: `DirectorySource.defaultFilter`.
    public var filter: String?
    public var security: Security
    public var caFile: String?
    /// Entries one search returns at most; past it the answer says more exist.
    public var sizeLimit: Int
    /// Seconds one search may take, connection included.
    public var timeLimit: Double

    /// inetOrgPerson entries, and `person` for Active Directory's users and older schemas.
    public static let defaultFilter = "(|(objectClass=inetOrgPerson)(objectClass=person))"
    public static let defaultSizeLimit = 50
    public static let defaultTimeLimit = 3.0

    public init(
        name: String, server: String, baseDN: String, bindDN: String? = nil, passwordCommand: String? = nil,
        filter: String? = nil, security: Security, caFile: String? = nil,
        sizeLimit: Int = DirectorySource.defaultSizeLimit, timeLimit: Double = DirectorySource.defaultTimeLimit
    ) {
        self.name = name; self.server = server; self.baseDN = baseDN; self.bindDN = bindDN
        self.passwordCommand = passwordCommand; self.filter = filter; self.security = security; self.caFile = caFile
        self.sizeLimit = sizeLimit; self.timeLimit = timeLimit
    }

    public var peopleFilter: String { filter ?? Self.defaultFilter }

    /// The address as given: `ldaps://ldap.example.org/ou=people,dc=example,dc=org`.
    public var url: String { server + "/" + baseDN }

    /// Reads `ldap[s]://HOST[:PORT]/BASE-DN` (the base percent-decoded, as RFC 4516 writes it).
    /// `ldaps` is LDAPS; `ldap` is StartTLS unless `plaintext`.
    public static func parse(name: String, url: String, plaintext: Bool) throws -> (
        server: String, base: String, security: Security
    ) {
        let lower = url.lowercased()
        let scheme: String
        if lower.hasPrefix("ldaps://") {
            scheme = "ldaps"
        } else if lower.hasPrefix("ldap://") {
            scheme = "ldap"
        } else {
            throw DirectoryFailure.invalid(
                "directory \(name): the address is ldap://HOST[:PORT]/BASE-DN or ldaps://..., not '\(url)'")
        }
        let rest = url.dropFirst(scheme.count + 3)
        let hostPort = rest.prefix { $0 != "/" }
        let basePart = rest.dropFirst(hostPort.count).dropFirst()
        let host: Substring
        var port: Substring = ""
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else {
                throw DirectoryFailure.invalid("directory \(name): '\(hostPort)' is not a host")
            }
            host = hostPort[hostPort.startIndex...close]
            let after = hostPort[hostPort.index(after: close)...]
            if after.hasPrefix(":") {
                port = after.dropFirst()
            } else if !after.isEmpty {
                throw DirectoryFailure.invalid("directory \(name): '\(hostPort)' is not a host")
            }
        } else if let colon = hostPort.firstIndex(of: ":") {
            host = hostPort[..<colon]; port = hostPort[hostPort.index(after: colon)...]
        } else {
            host = hostPort
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || "@?#".contains($0) }) else {
            throw DirectoryFailure.invalid("directory \(name): the address names no host: '\(url)'")
        }
        if !port.isEmpty {
            guard let number = Int(port), (1...65535).contains(number) else {
                throw DirectoryFailure.invalid("directory \(name): '\(port)' is not a port (1-65535)")
            }
        }
        guard let base = String(basePart).removingPercentEncoding, !base.trimmingCharacters(in: .whitespaces).isEmpty,
            !base.contains("?")
        else {
            throw DirectoryFailure.invalid(
                "directory \(name): the address ends with the base DN to search under, "
                    + "as in ldaps://ldap.example.org/ou=people,dc=example,dc=org")
        }
        let security: Security = scheme == "ldaps" ? .ldaps : (plaintext ? .plaintext : .startTLS)
        return ("\(scheme)://\(host)" + (port.isEmpty ? "" : ":\(port)"), base, security)
    }
}

/// Why a directory could not be added, or answer, in words for people. The password is never
/// part of one.
public enum DirectoryFailure: Error, Equatable, CustomStringConvertible {
    case invalid(String)
    case unknown(String)
    case storage(String)
    /// The directory's own failure: its name, then what went wrong.
    case directory(name: String, Reason, String)

    public enum Reason: String, Sendable, Equatable {
        case noLibrary, connect, timeout, bind, tls, search, password
    }

    public var description: String {
        switch self {
        case .invalid(let text), .storage(let text): return text
        case .unknown(let name): return "there is no directory named \(name)"
        case .directory(let name, _, let text): return "directory \(name): \(text)"
        }
    }
}
