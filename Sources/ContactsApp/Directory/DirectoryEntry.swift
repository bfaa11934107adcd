import Foundation

/// One entry a directory returned: its DN and its attributes' values as the server sent them
/// (bytes: a value may be binary, a photo, or not UTF-8 at all).
public struct DirectoryEntry: Equatable, Sendable {
    /// The directory's name (`directory add NAME`).
    public let source: String
    public let dn: String
    /// Attribute names as the server spelled them, in the order it sent them.
    public var attributes: [(name: String, values: [Data])]

    public init(source: String, dn: String, attributes: [(name: String, values: [Data])] = []) {
        self.source = source; self.dn = dn; self.attributes = attributes
    }

    public static func == (a: DirectoryEntry, b: DirectoryEntry) -> Bool {
        a.source == b.source && a.dn == b.dn && a.attributes.map(\.name) == b.attributes.map(\.name)
            && a.attributes.map(\.values) == b.attributes.map(\.values)
    }

    /// The values of `attribute` (any case).
    public func values(_ attribute: String) -> [Data] {
        var found: [Data] = []
        for item in attributes where Self.sameAttribute(item.name, attribute) { found += item.values }
        return found
    }

    /// Attribute names are ASCII (RFC 4512's keystring) and compared without case, byte by byte:
    /// Foundation's `caseInsensitiveCompare` here was a third of a `query`'s CPU (bench/DIRECTORY.md).
    static func sameAttribute(_ a: String, _ b: String) -> Bool {
        // Most often spelled as asked.
        if a == b { return true }
        guard a.utf8.count == b.utf8.count else { return false }
        for (x, y) in zip(a.utf8, b.utf8) where x != y {
            let lower = x | 0x20
            guard lower == y | 0x20, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return false }
        }
        return true
    }

    /// The text values of `attribute`: values that are not UTF-8 are left out (a photo, a SID),
    /// control characters become spaces and a value is cut at `DirectoryEntry.maximumValueLength`.
    public func texts(_ attribute: String) -> [String] {
        values(attribute).compactMap(Self.text)
    }

    /// `texts(attribute).first` without making the others: a mail line reads one value of most
    /// of its attributes, for up to 50 entries while the mail client waits.
    public func firstText(_ attribute: String) -> String? {
        for item in attributes where Self.sameAttribute(item.name, attribute) {
            for value in item.values {
                if let text = Self.text(value) { return text }
            }
        }
        return nil
    }

    /// Longest text kept from one value: a directory's value could be megabytes.
    public static let maximumValueLength = 1_000

    static func text(_ data: Data) -> String? {
        // Printable ASCII, most of a directory's values (addresses, numbers, many names): nothing
        // to clean or cut, only spaces to trim; the same answer without a pass per scalar.
        // Read through a buffer pointer: `Data`'s own iterator went through its representation
        // at every byte (bench/DIRECTORY.md, `directory5`).
        let ascii =
            data.count <= maximumValueLength && data.withUnsafeBytes { $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
        if ascii {
            return data.withUnsafeBytes { bytes -> String? in
                guard let first = bytes.firstIndex(where: { $0 != 0x20 }),
                    let last = bytes.lastIndex(where: { $0 != 0x20 })
                else { return nil }
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[first...last]), as: UTF8.self)
            }
        }
        guard var text = String(validating: data, as: UTF8.self) else { return nil }
        // Scalar by scalar only when a control character (C0, DEL, C1) or a line or paragraph
        // separator is there to replace: a name in any script usually has none.
        if hasControls(data) {
            text = String(
                String.UnicodeScalarView(
                    text.unicodeScalars.map { scalar in
                        scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
                            ? " " : scalar
                    }))
        }
        if data.count > maximumValueLength, text.count > maximumValueLength {
            text = String(text.prefix(maximumValueLength)) + "…"
        }
        // Foundation's `.whitespaces` (Zs and tab) trimmed, without bridging to NSString; nothing to
        // trim when both ends are printable ASCII (most names in any script start or end in one).
        if let first = text.utf8.first, let last = text.utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F
        {
            return text
        }
        let scalars = text.unicodeScalars
        let blank = { (scalar: Unicode.Scalar) in scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        guard let first = scalars.firstIndex(where: { !blank($0) }), let last = scalars.lastIndex(where: { !blank($0) })
        else {
            return nil
        }
        // A slice of the text's own UTF-8, copied once: rebuilding a scalar view appended scalar
        // by scalar, most of a `query`'s mapping of 50 entries with non-ASCII names (bench/DIRECTORY.md).
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return text }
        return String(scalars[first...last])
    }

    /// Whether UTF-8 `data` holds a C0 control or DEL (one byte), a C1 control (0xC2 0x80-0x9F)
    /// or U+2028/U+2029 (0xE2 0x80 0xA8/0xA9).
    private static func hasControls(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var previous: UInt8 = 0
            var beforePrevious: UInt8 = 0
            for byte in bytes {
                if byte < 0x20 || byte == 0x7F { return true }
                if previous == 0xC2, (0x80...0x9F).contains(byte) { return true }
                if beforePrevious == 0xE2, previous == 0x80, byte == 0xA8 || byte == 0xA9 { return true }
                beforePrevious = previous
                previous = byte
            }
            return false
        }
    }
}

/// A directory's entry as a contact (issue 31): its attributes read into the fields through the
/// one mapping (`ContactField.ldapSources`), the photo as a vCard PHOTO, and where it came from
/// (SOURCE, RFC 6350's "where to get this card again", and `X-CONTACTSBOOK-DIRECTORY`).
public enum DirectoryMapping {
    /// The kept property naming the directory a copied contact came from.
    public static let sourceProperty = "X-CONTACTSBOOK-DIRECTORY"

    public static func contact(from entry: DirectoryEntry, server: String? = nil) -> Contact {
        var contact = read(entry, fields: allSources)
        // A name the book can show: the display name alone is enough for it, but the parts read better.
        if contact.givenName.isEmpty && contact.familyName.isEmpty && contact.formattedName.isEmpty {
            contact.formattedName = entry.dn
        }
        if let photo = photo(entry) {
            contact.extraProperties.append("PHOTO;ENCODING=b;TYPE=JPEG:" + photo.base64EncodedString())
        }
        if let server {
            contact.extraProperties.append("SOURCE:" + sourceURL(server: server, dn: entry.dn))
        }
        contact.extraProperties.append(sourceProperty + ":" + escapeVCardText(entry.source))
        return contact
    }

    /// The fields a mail client's line shows (name, organisation, addresses), read as `contact`
    /// reads them and nothing else: a `query` maps up to 50 entries per directory while the mail
    /// client waits, and has no use for their photos, phones or addresses.
    public static func mailContact(from entry: DirectoryEntry) -> Contact {
        var contact = read(entry, fields: mailSources)
        if contact.givenName.isEmpty && contact.familyName.isEmpty && contact.formattedName.isEmpty {
            contact.formattedName = entry.dn
        }
        return contact
    }

    static let mailFields: [ContactField] = [.given, .family, .display, .organization, .email]

    // Each field with where it is read from, made once: `ldapSources` builds its array at each call.
    private static let allSources = ContactField.allCases.map { ($0, $0.ldapSources) }
    private static let mailSources = mailFields.map { ($0, $0.ldapSources) }

    /// What a search for `mailContact` asks the server for: the attributes of those fields alone.
    public static let mailAttributes: [String] = {
        var seen = Set<String>()
        return mailFields.flatMap { $0.ldapSources.map(\.attribute) }.filter { seen.insert($0.lowercased()).inserted }
    }()

    private static func read(_ entry: DirectoryEntry, fields: [(ContactField, [ContactField.LDAPSource])]) -> Contact {
        var contact = Contact()
        for (field, sources) in fields {
            guard !sources.isEmpty else { continue }
            switch field {
            case .given: contact.givenName = first(entry, sources)
            case .family: contact.familyName = first(entry, sources)
            case .display: contact.formattedName = first(entry, sources)
            case .nickname: contact.nickname = first(entry, sources)
            case .organization:
                // The organisation, else the unit: a directory of one organisation often names only units.
                contact.organization = first(entry, sources)
            case .title: contact.title = first(entry, sources)
            case .phone: contact.phones = labelled(entry, sources)
            case .email: contact.emails = labelled(entry, sources).filter { ContactRules.isEmail($0.value) }
            case .address: contact.addresses = address(entry).map { [$0] } ?? []
            case .website:
                contact.websites = labelled(entry, sources).map {
                    // labeledURI: "https://example.org/~ann Ann's page": the URL is the first word.
                    LabeledValue(label: $0.label, value: String($0.value.split(separator: " ").first ?? ""))
                }
            case .birthday: break
            case .notes: contact.notes = entry.texts("description").first ?? entry.texts("info").first ?? ""
            case .tag: break
            }
        }
        return contact
    }

    /// The first photo value: JPEG (jpegPhoto, AD's thumbnailPhoto).
    public static func photo(_ entry: DirectoryEntry) -> Data? {
        ContactField.ldapPhotoAttributes.lazy.compactMap { entry.values($0).first }.first { !$0.isEmpty }
    }

    /// An LDAP URL for the entry (RFC 4516): the server, then the DN percent-encoded.
    public static func sourceURL(server: String, dn: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "=,-._~")
        return server + "/" + (dn.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    }

    private static func first(_ entry: DirectoryEntry, _ sources: [ContactField.LDAPSource]) -> String {
        for source in sources {
            if let text = entry.firstText(source.attribute) { return text }
        }
        return ""
    }

    private static func labelled(_ entry: DirectoryEntry, _ sources: [ContactField.LDAPSource]) -> [LabeledValue] {
        // Each value once, the first source's label kept. Compared in a list while it is short
        // (one or two addresses, usually): a set was a third of a mail line's mapping.
        var found: [LabeledValue] = []
        var seen: Set<String>?
        for source in sources {
            for text in entry.texts(source.attribute) {
                if found.count < 16 {
                    guard !found.contains(where: { $0.value == text }) else { continue }
                } else {
                    if seen == nil { seen = Set(found.map(\.value)) }
                    guard seen!.insert(text).inserted else { continue }
                }
                found.append(LabeledValue(label: source.label, value: text))
            }
        }
        return found
    }

    private static func address(_ entry: DirectoryEntry) -> PostalAddress? {
        let street = entry.texts("street").first ?? entry.texts("streetAddress").first ?? ""
        let address = PostalAddress(
            label: "work", street: street, city: entry.texts("l").first ?? "",
            region: entry.texts("st").first ?? "", postalCode: entry.texts("postalCode").first ?? "",
            country: entry.texts("co").first ?? entry.texts("c").first ?? "")
        if !address.components.isEmpty { return address }
        // postalAddress: "1 Main St$Springfield$USA", lines separated by `$`.
        guard let lines = entry.texts("postalAddress").first else { return nil }
        return PostalAddress(
            label: "work",
            street: lines.split(separator: "$").map {
                $0.trimmingCharacters(in: .whitespaces)
            }.joined(separator: ", "))
    }

    private static func escapeVCardText(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ",", with: "\\,")
            .replacingOccurrences(of: ";", with: "\\;")
    }
}
