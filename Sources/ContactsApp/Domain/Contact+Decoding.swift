import Foundation

/// Reading a contact from JSON written by any version of the program: the change journal keeps
/// each contact's images (`JournalImage`, `change_entry`, `contact_trash`) for as long as the
/// book lives, so undo, redo, history, trash and restore read images written before fields were
/// added, and after fields we no longer have. The synthesised decoder threw on the first key it
/// missed; these decoders take each field's default when it is absent and ignore unknown keys.
///
/// Adding a field to `Contact`: one `CodingKeys` case and one `decodeIfPresent` line below, with
/// the default `Contact.init` gives it. The encoder stays synthesised from the same keys.
extension Contact {
    /// In the order of the stored properties (a test holds them to it).
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, uid, givenName, familyName, nickname, organization, title, phones, emails, addresses, websites
        case birthday, notes, tags, createdAt, updatedAt, version, extraProperties, nameOrder
        case formattedName, card
    }

    public init(from decoder: Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        // The essentials: every image since the first journal has them, and without them it is
        // not a contact (undo compares the version; restore gives the uid back).
        let uid = try values.decode(String.self, forKey: .uid)
        let createdAt = try values.decode(Date.self, forKey: .createdAt)
        let updatedAt = try values.decode(Date.self, forKey: .updatedAt)
        let version = try values.decode(Int.self, forKey: .version)
        self.init(uid: uid, createdAt: createdAt, updatedAt: updatedAt, version: version)
        id = try values.decodeIfPresent(Int64.self, forKey: .id)
        givenName = try values.decodeIfPresent(String.self, forKey: .givenName) ?? ""
        familyName = try values.decodeIfPresent(String.self, forKey: .familyName) ?? ""
        nickname = try values.decodeIfPresent(String.self, forKey: .nickname) ?? ""
        organization = try values.decodeIfPresent(String.self, forKey: .organization) ?? ""
        title = try values.decodeIfPresent(String.self, forKey: .title) ?? ""
        phones = try values.decodeIfPresent([LabeledValue].self, forKey: .phones) ?? []
        emails = try values.decodeIfPresent([LabeledValue].self, forKey: .emails) ?? []
        addresses = try values.decodeIfPresent([PostalAddress].self, forKey: .addresses) ?? []
        websites = try values.decodeIfPresent([LabeledValue].self, forKey: .websites) ?? []
        birthday = try values.decodeIfPresent(Birthday.self, forKey: .birthday)
        notes = try values.decodeIfPresent(String.self, forKey: .notes) ?? ""
        tags = try values.decodeIfPresent([String].self, forKey: .tags) ?? []
        extraProperties = try values.decodeIfPresent([String].self, forKey: .extraProperties) ?? []
        // A name order this version does not know (a newer one's) reads as the default.
        nameOrder =
            try values.decodeIfPresent(String.self, forKey: .nameOrder).flatMap(NameOrder.init(rawValue:))
            ?? .givenFirst
        formattedName = try values.decodeIfPresent(String.self, forKey: .formattedName) ?? ""
        card = try values.decodeIfPresent(VCardRecord.self, forKey: .card)
    }
}

extension LabeledValue {
    enum CodingKeys: String, CodingKey {
        case label, value
    }

    public init(from decoder: Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        let label = try values.decodeIfPresent(String.self, forKey: .label) ?? ""
        let value = try values.decode(String.self, forKey: .value)
        self.init(label: label, value: value)
    }
}

extension PostalAddress {
    enum CodingKeys: String, CodingKey {
        case label, street, city, region, postalCode, country
    }

    public init(from decoder: Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        let label = try values.decodeIfPresent(String.self, forKey: .label) ?? ""
        self.init(label: label)
        street = try values.decodeIfPresent(String.self, forKey: .street) ?? ""
        city = try values.decodeIfPresent(String.self, forKey: .city) ?? ""
        region = try values.decodeIfPresent(String.self, forKey: .region) ?? ""
        postalCode = try values.decodeIfPresent(String.self, forKey: .postalCode) ?? ""
        country = try values.decodeIfPresent(String.self, forKey: .country) ?? ""
    }
}
