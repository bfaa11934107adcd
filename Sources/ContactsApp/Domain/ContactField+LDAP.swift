import Foundation

/// Where each field is read from in an LDAP directory (issue 31), declared beside the field table
/// (`ContactField.swift`): inetOrgPerson's attributes (RFC 2798, with RFC 4519's), then the names
/// Active Directory uses for the same thing. A `switch` without `default:`, so a new field is a
/// compile error here until someone says where directories keep it (or that they do not).
extension ContactField {
    /// One attribute read into the field: its name (as servers spell it; compared without case)
    /// and, for a labelled field, the label its values get.
    public struct LDAPSource: Sendable, Equatable {
        public let attribute: String
        public let label: String
        init(_ attribute: String, _ label: String = "") { self.attribute = attribute; self.label = label }
    }

    /// The attributes read into this field, first found first.
    public var ldapSources: [LDAPSource] {
        switch self {
        case .given: return [.init("givenName")]
        case .family: return [.init("sn")]
        // cn is every entry's name; displayName is how it prefers to be shown (and AD's).
        case .display: return [.init("displayName"), .init("cn")]
        case .nickname: return []
        // AD keeps the organisation in `company`, the unit in `department`.
        case .organization: return [.init("o"), .init("company"), .init("ou"), .init("department")]
        case .title: return [.init("title")]
        case .phone:
            return [
                .init("telephoneNumber", "work"), .init("mobile", "mobile"), .init("homePhone", "home"),
                .init("ipPhone", "work"), .init("pager", "pager"), .init("facsimileTelephoneNumber", "fax"),
            ]
        case .email: return [.init("mail", "work")]
        // The parts of one work address; `postalAddress` (lines separated by `$`) when none is there.
        case .address:
            return [
                .init("street", "work"), .init("streetAddress", "work"), .init("l", "work"), .init("st", "work"),
                .init("postalCode", "work"), .init("co", "work"), .init("c", "work"), .init("postalAddress", "work"),
            ]
        // labeledURI is "URL label"; AD's wWWHomePage a URL.
        case .website: return [.init("labeledURI", "work"), .init("wWWHomePage", "work")]
        case .birthday: return []
        case .notes: return [.init("description"), .init("info")]
        case .tag: return []
        }
    }

    /// The photo, which the contact keeps as a vCard PHOTO: inetOrgPerson's, then AD's.
    public static let ldapPhotoAttributes = ["jpegPhoto", "thumbnailPhoto"]

    /// Every attribute a directory search asks for: the fields', the photo's and the object's name.
    public static let ldapAttributes: [String] = {
        var seen = Set<String>()
        return (allCases.flatMap { $0.ldapSources.map(\.attribute) } + ldapPhotoAttributes)
            .filter { seen.insert($0.lowercased()).inserted }
    }()
}
