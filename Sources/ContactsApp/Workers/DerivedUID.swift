import Foundation

/// UIDs for imported cards that have none (or repeat one already used in the file).
///
/// The UID is derived from the card's content, so importing the same file again finds the same
/// contacts instead of adding them twice, while two different people, having different content,
/// never share one. Hand-written FNV-1a: Swift's `Hasher` is seeded per process, and a
/// cryptographic hash package would be a heavy dependency for a non-secret identifier.
enum DerivedUID {
    /// `urn:uuid:...` from the contact's fields and its original UID; if that is taken in this
    /// file already (the same card twice), the next occurrence gets the next derivation.
    /// `isTaken` says whether a derivation is taken (an import asks its store).
    static func make(for contact: Contact, isTaken: (String) throws -> Bool) rethrows -> String {
        let key = content(of: contact)
        var occurrence = 0
        while true {
            let uid = derivation(key, occurrence)
            if try !isTaken(uid) { return uid }
            occurrence += 1
        }
    }

    /// The first derivation `make` tries: what it gives when nothing is taken.
    static func first(for contact: Contact) -> String { derivation(content(of: contact), 0) }

    private static func derivation(_ key: String, _ occurrence: Int) -> String { uuid(key + "\u{1E}\(occurrence)") }

    static func content(of contact: Contact) -> String {
        let parts =
            [
                contact.uid, contact.givenName, contact.familyName, contact.nickname, contact.organization,
                contact.title, contact.birthday?.isoString ?? "", contact.allNotes,
            ]
            + contact.emails.map { $0.label + ":" + $0.value } + contact.phones.map { $0.label + ":" + $0.value }
            + contact.addresses.map { ([$0.label] + $0.components).joined(separator: ";") } + contact.tags
        return parts.joined(separator: "\u{1F}")
    }

    /// A version-8 (custom) UUID from two FNV-1a 64-bit hashes with different offsets.
    static func uuid(_ text: String) -> String {
        func fnv(_ offset: UInt64) -> UInt64 {
            text.utf8.reduce(offset) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        }
        var bytes =
            withUnsafeBytes(of: fnv(0xcbf2_9ce4_8422_2325).bigEndian, Array.init)
            + withUnsafeBytes(of: fnv(0x6c62_272e_07bb_0142).bigEndian, Array.init)
        bytes[6] = (bytes[6] & 0x0F) | 0x80 // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80 // RFC 9562 variant
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let groups = [
            hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4),
            hex.dropFirst(16).prefix(4), hex.dropFirst(20),
        ]
        return "urn:uuid:" + groups.joined(separator: "-")
    }
}
