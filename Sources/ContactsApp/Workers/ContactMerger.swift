import Foundation

/// Merges contacts into the first, as `merge` does: emails, phones, addresses and tags are
/// the union, without repeats (compared by `MatchKeys`); each single field is the first's unless
/// it is empty, else the first non-empty value among the others; any other value that differs
/// is reported, so nothing is dropped unseen. Pure: the Worker saves the result.
public struct ContactMerger {
    /// For comparing phones written with and without their country code.
    public let defaultCountry: String?

    public init(defaultCountry: String?) { self.defaultCountry = defaultCountry }

    /// A value of a single field that the merge did not keep.
    public struct Difference: Equatable, Sendable {
        /// The field as the form names it ("nickname", "birthday").
        public let field: String
        public let kept: String
        public let dropped: String
        /// The contact it came from.
        public let from: Contact
    }

    public struct Result: Equatable, Sendable {
        /// The first contact with the others' values merged in (same id, uid and version).
        public let merged: Contact
        public let differences: [Difference]
    }

    /// `contacts[0]` with the others merged into it; `contacts` holds two or more.
    public func merge(_ contacts: [Contact]) -> Result {
        guard var merged = contacts.first else { return Result(merged: Contact(), differences: []) }
        var differences: [Difference] = []
        for other in contacts.dropFirst() {
            for field in Self.singleFields {
                let kept = field.get(merged), offered = field.get(other)
                if kept.isEmpty {
                    field.set(&merged, other)
                } else if !offered.isEmpty, field.compare(kept) != field.compare(offered) {
                    differences.append(Difference(field: field.name, kept: kept, dropped: offered, from: other))
                }
            }
            merged.emails = union(merged.emails, other.emails) { MatchKeys.email($0.value) ?? $0.value }
            merged.phones = union(merged.phones, other.phones) {
                MatchKeys.phone($0.value, defaultCountry: defaultCountry) ?? $0.value
            }
            merged.addresses = union(merged.addresses, other.addresses, key: MatchKeys.address)
            merged.tags = union(merged.tags, other.tags, key: MatchKeys.tag)
            merged.extraProperties = union(merged.extraProperties, other.extraProperties) { $0 }
        }
        return Result(merged: merged, differences: differences)
    }

    private func union<T>(_ kept: [T], _ offered: [T], key: (T) -> String) -> [T] {
        var seen = Set(kept.map(key))
        return kept + offered.filter { seen.insert(key($0)).inserted }
    }

    /// A single-valued field: how to read it as text, compare it and take it from another contact.
    private struct SingleField {
        let name: String
        let get: (Contact) -> String
        let set: (inout Contact, Contact) -> Void
        var compare: (String) -> String = MatchKeys.name
    }

    private static let singleFields: [SingleField] = [
        SingleField(name: "given", get: \.givenName, set: { $0.givenName = $1.givenName }),
        SingleField(name: "family", get: \.familyName, set: { $0.familyName = $1.familyName }),
        SingleField(name: "nickname", get: \.nickname, set: { $0.nickname = $1.nickname }),
        SingleField(name: "organization", get: \.organization, set: { $0.organization = $1.organization }),
        SingleField(name: "title", get: \.title, set: { $0.title = $1.title }),
        SingleField(name: "birthday", get: { $0.birthday?.isoString ?? "" }, set: { $0.birthday = $1.birthday }, compare: { $0 }),
        SingleField(name: "notes", get: \.notes, set: { $0.notes = $1.notes }, compare: { $0 }),
    ]
}
