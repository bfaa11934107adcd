import Foundation

/// A person or organisation in the book.
///
/// Empty strings mean "not set": it keeps the model flat for storage, forms and export alike.
public struct Contact: Equatable, Codable, Sendable {
    /// Row id in the store; `nil` until the contact is first saved.
    public var id: Int64?
    /// Stable identifier that survives export and import (vCard `UID`).
    public var uid: String
    public var givenName: String
    public var familyName: String
    public var nickname: String
    public var organization: String
    public var title: String
    public var phones: [LabeledValue]
    public var emails: [LabeledValue]
    public var addresses: [PostalAddress]
    /// Web pages (vCard `URL`), labelled like emails.
    public var websites: [LabeledValue]
    public var birthday: Birthday?
    public var notes: String
    public var tags: [String]
    public var createdAt: Date
    public var updatedAt: Date
    /// Incremented on every save; an update must name the version it started from.
    public var version: Int
    /// vCard properties the model has no field for (`X-` properties, `IMPP`, `RELATED`, `PHOTO`,
    /// a second `ORG`, ...), each one raw content line as read, unfolded (`item1.IMPP;X-SERVICE-TYPE=Skype:...`).
    /// Kept so an import followed by an export loses nothing; never shown (photos are large).
    public var extraProperties: [String]
    /// Given name first ("Ann Lee") or family name first ("山田 太郎"): how the name is written out.
    public var nameOrder: NameOrder
    /// The display name (vCard `FN`) as the card wrote it, when it is not what the name parts
    /// give ("John Doe III", "Acme Support"); empty when it follows from them.
    public var formattedName: String
    /// The vCard this contact came from, property by property, as received: the record that
    /// export and sync write back. The fields above are a view over it, and a save patches only
    /// the properties whose fields changed (`CardPatch`). Nil for a contact made here or read
    /// from CSV, which is written from its fields.
    public var card: VCardRecord?

    public init(
        id: Int64? = nil, uid: String = "", givenName: String = "", familyName: String = "",
        nickname: String = "", organization: String = "", title: String = "",
        phones: [LabeledValue] = [], emails: [LabeledValue] = [], addresses: [PostalAddress] = [],
        birthday: Birthday? = nil, notes: String = "", tags: [String] = [],
        createdAt: Date = Date(timeIntervalSince1970: 0), updatedAt: Date = Date(timeIntervalSince1970: 0),
        version: Int = 0, extraProperties: [String] = [], nameOrder: NameOrder = .givenFirst,
        formattedName: String = "", card: VCardRecord? = nil, websites: [LabeledValue] = []
    ) {
        self.id = id; self.uid = uid; self.givenName = givenName; self.familyName = familyName
        self.nickname = nickname; self.organization = organization; self.title = title
        self.phones = phones; self.emails = emails; self.addresses = addresses
        self.birthday = birthday; self.notes = notes; self.tags = tags
        self.createdAt = createdAt; self.updatedAt = updatedAt; self.version = version
        self.extraProperties = extraProperties; self.nameOrder = nameOrder
        self.formattedName = formattedName; self.card = card; self.websites = websites
    }
}

/// A phone number or email address with its label ("work", "mobile", ...).
public struct LabeledValue: Equatable, Codable, Sendable {
    public var label: String
    public var value: String
    public init(label: String, value: String) { self.label = label; self.value = value }
}

/// A postal address, in the components vCard's `ADR` uses.
public struct PostalAddress: Equatable, Codable, Sendable {
    public var label: String
    public var street: String
    public var city: String
    public var region: String
    public var postalCode: String
    public var country: String

    public init(
        label: String, street: String = "", city: String = "", region: String = "",
        postalCode: String = "", country: String = ""
    ) {
        self.label = label; self.street = street; self.city = city; self.region = region
        self.postalCode = postalCode; self.country = country
    }

    /// The non-empty components in order, for display and search.
    public var components: [String] {
        [street, city, region, postalCode, country].filter { !$0.isEmpty }
    }
}

/// The order of the list.
public enum SortOrder: String, Codable, Sendable, CaseIterable {
    /// Given name, then family name.
    case first
    /// Family name, then given name.
    case last
}

extension Contact {
    /// The digits of every phone number, so "555 12" finds "+1 (555) 123-4567".
    public var phoneDigits: [String] {
        phones.map { phone in
            // ASCII text, as numbers nearly always are, byte by byte: each byte is one character.
            let utf8 = phone.value.utf8
            guard utf8.allSatisfy({ $0 < 0x80 }) else { return phone.value.filter(\.isASCIIDigit) }
            // Written once into the string, not into an array first.
            return String(unsafeUninitializedCapacity: utf8.count) { out in
                var count = 0
                for byte in utf8 where byte >= 0x30 && byte <= 0x39 {
                    out[count] = byte
                    count += 1
                }
                return count
            }
        }.filter { !$0.isEmpty }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
