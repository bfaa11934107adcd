import Foundation

/// Merges contacts into the first, as `merge` does, each field as the field table says
/// (`ContactField.Declaration.merge`): emails, phones, addresses, websites and tags are the
/// union, without repeats (compared by `key`); each single field is the first's unless it is
/// empty, else the first non-empty value among the others; any other value that differs is
/// reported, so nothing is dropped unseen. Pure: the Worker saves the result.
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
            for field in ContactField.allCases {
                let kept = merged[field], offered = other[field]
                switch field.declaration.merge {
                case .first:
                    continue
                case .firstNonEmpty:
                    if kept.isEmpty {
                        merged[field] = offered
                    } else if !offered.isEmpty, key(field, Self.text(kept)) != key(field, Self.text(offered)) {
                        differences.append(
                            Difference(
                                field: field.rawValue, kept: Self.text(kept), dropped: Self.text(offered),
                                from: other))
                    }
                case .union:
                    switch (kept, offered) {
                    case (.items(let kept), .items(let offered)):
                        merged[field] = .items(union(kept, offered) { key(field, $0.value) })
                    case (.addresses(let kept), .addresses(let offered)):
                        merged[field] = .addresses(union(kept, offered, key: MatchKeys.address))
                    case (.words(let kept), .words(let offered)):
                        merged[field] = .words(union(kept, offered) { key(field, $0) })
                    default:
                        assertionFailure("\(field) is no list to join")
                    }
                }
            }
            merged.extraProperties = union(merged.extraProperties, other.extraProperties) { $0 }
        }
        return Result(merged: merged, differences: differences)
    }

    /// What two values of a field are compared by: a switch, so a new field is compared on purpose.
    func key(_ field: ContactField, _ value: String) -> String {
        switch field {
        case .given, .family, .display, .nickname, .organization, .title: return MatchKeys.name(value)
        case .birthday, .notes: return value
        case .email: return MatchKeys.email(value) ?? value
        case .phone: return MatchKeys.phone(value, defaultCountry: defaultCountry) ?? value
        case .address: return value // addresses are compared whole (`MatchKeys.address`)
        case .website: return MatchKeys.website(value)
        case .tag: return MatchKeys.tag(value)
        }
    }

    /// A single field's value as text (the birthday in ISO form).
    static func text(_ value: ContactFieldValue) -> String {
        switch value {
        case .text(let text): return text
        case .date(let date): return date?.isoString ?? ""
        case .items, .addresses, .words: return ""
        }
    }

    private func union<T>(_ kept: [T], _ offered: [T], key: (T) -> String) -> [T] {
        var seen = Set(kept.map(key))
        return kept + offered.filter { seen.insert(key($0)).inserted }
    }
}
