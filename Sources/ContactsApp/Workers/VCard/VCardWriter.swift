import Foundation

/// Writes contacts as vCard 4.0 (RFC 6350), or 3.0 (RFC 2426) for older programs.
///
/// Lines end in CRLF and are folded at 75 octets without splitting a UTF-8 character; text is
/// escaped. Properties kept from an import (`Contact.extraProperties`) are written back as
/// they came. Labels that are vCard types (`home`, `work`, `mobile` as `cell`, ...) become
/// `TYPE`s; any other label is written the way Apple and Google do, as an `itemN.X-ABLabel`.
public struct VCardWriter {
    public enum Version: String, Sendable {
        case v3 = "3.0"
        case v4 = "4.0"
    }

    public let version: Version

    public init(version: Version = .v4) { self.version = version }

    /// One card, every line folded and ending in CRLF.
    public func card(for contact: Contact) -> String {
        var lines = ["BEGIN:VCARD", "VERSION:\(version.rawValue)"]
        var groups = Groups(taken: contact.extraProperties)
        if !contact.uid.isEmpty { lines.append("UID:" + VCardText.escape(contact.uid)) }
        lines.append("FN:" + VCardText.escape(contact.fullName))
        let prefix = extra(VCardReader.namePrefixProperty, in: contact), suffix = extra(VCardReader.nameSuffixProperty, in: contact)
        lines.append("N:" + [contact.familyName, contact.givenName, "", prefix, suffix].map(VCardText.escape).joined(separator: ";"))
        if !contact.nickname.isEmpty { lines.append("NICKNAME:" + VCardText.escape(contact.nickname)) }
        if !contact.organization.isEmpty { lines.append("ORG:" + VCardText.escape(contact.organization)) }
        if !contact.title.isEmpty { lines.append("TITLE:" + VCardText.escape(contact.title)) }
        for phone in contact.phones {
            lines += labelled("TEL", phone.label, VCardText.escape(phone.value), known: Self.phoneTypes, &groups)
        }
        for email in contact.emails {
            lines += labelled("EMAIL", email.label, VCardText.escape(email.value), known: Self.placeTypes, &groups)
        }
        for address in contact.addresses {
            let parts = ["", "", address.street, address.city, address.region, address.postalCode, address.country]
            lines += labelled("ADR", address.label, parts.map(VCardText.escape).joined(separator: ";"),
                              known: Self.placeTypes, &groups)
        }
        if let birthday = contact.birthday { lines.append(self.birthday(birthday)) }
        if !contact.notes.isEmpty { lines.append("NOTE:" + VCardText.escape(contact.notes)) }
        if !contact.tags.isEmpty { lines.append("CATEGORIES:" + contact.tags.map(VCardText.escape).joined(separator: ",")) }
        lines.append("REV:" + Self.timestamp(contact.updatedAt))
        lines += contact.extraProperties.filter { !Self.isNameAffix($0) }
        lines.append("END:VCARD")
        return lines.map(Self.fold).joined()
    }

    // MARK: - Labels

    /// Labels that are `TYPE`s of `TEL` in both versions (the label "mobile" is `cell`).
    static let phoneTypes: Set<String> = ["home", "work", "cell", "fax", "pager", "voice", "text", "video", "textphone"]
    /// Labels that are `TYPE`s of `EMAIL` and `ADR`.
    static let placeTypes: Set<String> = ["home", "work"]

    private func labelled(_ name: String, _ label: String, _ value: String, known: Set<String>,
                          _ groups: inout Groups) -> [String] {
        let words = label.lowercased().split(separator: " ").map { $0 == "mobile" ? "cell" : String($0) }
        if label.isEmpty || label.lowercased() == "other" { return ["\(name):\(value)"] }
        if words.allSatisfy(known.contains) { return ["\(name);TYPE=\(words.joined(separator: ",")):\(value)"] }
        let group = groups.next()
        return ["\(group).\(name):\(value)", "\(group).X-ABLabel:" + VCardText.escape(label)]
    }

    /// Group names for custom labels that no kept property already uses.
    private struct Groups {
        var taken: Set<String>
        var counter = 0

        init(taken extras: [String]) {
            taken = Set(extras.compactMap { line in
                let name = line.prefix { $0 != ":" && $0 != ";" }
                return name.firstIndex(of: ".").map { name[..<$0].lowercased() }
            })
        }

        mutating func next() -> String {
            repeat { counter += 1 } while taken.contains("item\(counter)")
            return "item\(counter)"
        }
    }

    // MARK: - Values

    /// 4.0: `19900517` or `--0517`. 3.0 has no form without a year: Apple's `1604` with
    /// `X-APPLE-OMIT-YEAR`, which Apple, Google and this reader understand.
    private func birthday(_ birthday: Birthday) -> String {
        let monthDay = String(format: "%02d%02d", birthday.month, birthday.day)
        switch (version, birthday.year) {
        case (.v4, let year?): return "BDAY:" + String(format: "%04d", year) + monthDay
        case (.v4, nil): return "BDAY:--" + monthDay
        case (.v3, let year?): return "BDAY:" + String(format: "%04d-%02d-%02d", year, birthday.month, birthday.day)
        case (.v3, nil): return "BDAY;X-APPLE-OMIT-YEAR=1604:" + String(format: "1604-%02d-%02d", birthday.month, birthday.day)
        }
    }

    private func extra(_ name: String, in contact: Contact) -> String {
        guard let line = contact.extraProperties.first(where: { $0.hasPrefix(name + ":") }) else { return "" }
        return VCardText.unescape(String(line.dropFirst(name.count + 1)))
    }

    private static func isNameAffix(_ line: String) -> Bool {
        line.hasPrefix(VCardReader.namePrefixProperty + ":") || line.hasPrefix(VCardReader.nameSuffixProperty + ":")
    }

    /// `20231114T221320Z`, in UTC whatever the machine's time zone.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0,
                      c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    // MARK: - Folding

    /// The line with CRLF, folded so no physical line exceeds 75 octets (CRLF not counted);
    /// a fold never falls inside a UTF-8 character.
    static func fold(_ line: String) -> String {
        let bytes = Array(line.utf8)
        guard bytes.count > 75 else { return line + "\r\n" }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 70 * 3 + 2)
        var start = 0, limit = 75
        while start < bytes.count {
            var end = min(start + limit, bytes.count)
            while end < bytes.count && end > start + 1 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            if start > 0 { out.append(0x20) }
            out += bytes[start..<end]
            out += [0x0D, 0x0A]
            start = end
            limit = 74 // the leading space of a continuation counts
        }
        return String(decoding: out, as: UTF8.self)
    }
}
