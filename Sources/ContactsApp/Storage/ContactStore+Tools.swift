import Foundation

/// A key of the duplicate index that several contacts share: what `duplicates` starts from.
public struct SharedMatchKey: Equatable, Sendable {
    public let kind: DuplicateReason.Kind
    /// An email key, a phone in its international form (`MatchKeys.phone`), or a name block.
    public let key: String
    /// The contacts sharing it, ascending, at least two.
    public let ids: [Int64]
    /// A phone some of them wrote without its country code, in a book without a country.
    public let withoutCountryCode: Bool
    public init(kind: DuplicateReason.Kind, key: String, ids: [Int64], withoutCountryCode: Bool = false) {
        self.kind = kind; self.key = key; self.ids = ids; self.withoutCountryCode = withoutCountryCode
    }
}

/// Collects `(kind, stored key, id)` rows of the duplicate index and keeps what two contacts
/// or more share: the same email, the same phone (put in its international form with the
/// book's country first, so numbers written with and without their country code meet), or, in
/// one name block (`NameKey`), nearly the same given name. One pass into dictionaries, then
/// comparisons only between the distinct given names of one block: never every pair of contacts.
struct SharedKeyCollector {
    let defaultCountry: String?
    private var idsByKey: [SharedKeyID: Set<Int64>] = [:]
    /// Per name block, the contacts by their folded given name.
    private var blocks: [String: (place: String, idsByGiven: [String: [Int64]])] = [:]

    init(defaultCountry: String?) { self.defaultCountry = defaultCountry }

    private struct SharedKeyID: Hashable { let kind: DuplicateReason.Kind; let key: String }

    mutating func add(_ kind: DuplicateReason.Kind, _ storedKey: String, id: Int64) {
        switch kind {
        case .uid, .email: idsByKey[SharedKeyID(kind: kind, key: storedKey), default: []].insert(id)
        case .phone:
            let key = PhoneCountry.international(storedKey, defaultCountry: defaultCountry)
            idsByKey[SharedKeyID(kind: kind, key: key), default: []].insert(id)
        case .name:
            guard let name = NameKey(stored: storedKey) else { return }
            blocks[name.block, default: (name.place, [:])].idsByGiven[name.given, default: []].append(id)
        }
    }

    /// The keys held by two contacts or more, in kind and key order; for names, the key is the
    /// shared place and each entry one set of contacts with nearly the same name.
    func shared() -> [SharedMatchKey] {
        var shared = idsByKey.compactMap { key, ids in
            ids.count > 1 ? SharedMatchKey(kind: key.kind, key: key.key, ids: ids.sorted()) : nil
        }
        for (_, block) in blocks {
            shared += Self.nearNames(block.idsByGiven).map { SharedMatchKey(kind: .name, key: block.place, ids: $0) }
        }
        shared += nationalPhoneMatches()
        return shared.sorted {
            ($0.kind.rawValue, $0.key, $0.ids.first ?? 0) < ($1.kind.rawValue, $1.key, $1.ids.first ?? 0)
        }
    }

    /// A number written without its country code that `PhoneCountry` could not complete (no
    /// book country) meets the `+` number whose national significant number it is:
    /// `(555) 000-1111` and `+1 555 000 1111`, `020 7946 0000` (its trunk `0` dropped) and
    /// `+44 20 7946 0000`. Only when one `+` number fits, whatever its code's length (1 to 3
    /// digits), and for national numbers of `minimumNationalDigits` or more.
    func nationalPhoneMatches() -> [SharedMatchKey] {
        var internationalByNational: [String: Set<String>] = [:]
        for key in idsByKey.keys where key.kind == .phone && key.key.hasPrefix("+") {
            let digits = key.key.dropFirst()
            for codeLength in 1...3 where digits.count - codeLength >= Self.minimumNationalDigits {
                internationalByNational[String(digits.dropFirst(codeLength)), default: []].insert(key.key)
            }
        }
        guard !internationalByNational.isEmpty else { return [] }
        var matches: [SharedMatchKey] = []
        for (key, ids) in idsByKey where key.kind == .phone && !key.key.hasPrefix("+") {
            var fits = internationalByNational[key.key] ?? []
            if key.key.hasPrefix("0") { fits.formUnion(internationalByNational[String(key.key.dropFirst())] ?? []) }
            // `1 555 000 1111`: the code written, its `+` not
            if idsByKey[SharedKeyID(kind: .phone, key: "+" + key.key)] != nil { fits.insert("+" + key.key) }
            guard fits.count == 1, let international = fits.first,
                let others = idsByKey[SharedKeyID(kind: .phone, key: international)]
            else { continue }
            let all = ids.union(others)
            if all.count > 1 {
                matches.append(
                    SharedMatchKey(kind: .phone, key: international, ids: all.sorted(), withoutCountryCode: true))
            }
        }
        return matches
    }

    /// Fewer digits than this, without a country code, are too short to pair across codes.
    static let minimumNationalDigits = 6

    /// The sets of two contacts or more whose given names are equal or nearly so
    /// (`MatchKeys.nearlySameGivenName`), joined through each other (Rob ~ Robert ~ Roberto).
    static func nearNames(_ idsByGiven: [String: [Int64]]) -> [[Int64]] {
        let givens = idsByGiven.keys.sorted()
        var sets = UnionFind(count: givens.count)
        for i in givens.indices {
            for j in givens.indices where j > i && MatchKeys.nearlySameGivenName(givens[i], givens[j]) {
                sets.join(i, j)
            }
        }
        var idsByRoot: [Int: Set<Int64>] = [:]
        for (index, given) in givens.enumerated() {
            idsByRoot[sets.root(index), default: []].formUnion(idsByGiven[given] ?? [])
        }
        return idsByRoot.values.filter { $0.count > 1 }.map { $0.sorted() }
    }
}

/// Disjoint sets of `0..<count` (union by size, path halving).
struct UnionFind {
    private var parent: [Int]
    private var size: [Int]

    init(count: Int) { parent = Array(0..<count); size = Array(repeating: 1, count: count) }

    mutating func root(_ element: Int) -> Int {
        var element = element
        while parent[element] != element {
            parent[element] = parent[parent[element]]
            element = parent[element]
        }
        return element
    }

    mutating func join(_ a: Int, _ b: Int) {
        var (x, y) = (root(a), root(b))
        guard x != y else { return }
        if size[x] < size[y] { swap(&x, &y) }
        parent[y] = x
        size[x] += size[y]
    }
}

extension ContactStore {
    /// Every contact's keys through `forEachBatch`: right for small stores; `SQLiteContactStore`
    /// reads its duplicate index instead.
    public func sharedMatchKeys(defaultCountry: String?) throws -> [SharedMatchKey] {
        var collector = SharedKeyCollector(defaultCountry: defaultCountry)
        _ = try forEachBatch(search: "", sort: .last, batchSize: 500) { batch in
            for contact in batch {
                guard let id = contact.id else { continue }
                collector.add(.uid, contact.uid, id: id)
                for (kind, key) in MatchKeys.storedKeys(contact) { collector.add(kind, key, id: id) }
            }
        }
        return collector.shared()
    }

    /// Every contact's UID through `forEachBatch`; `SQLiteContactStore` groups its UID index.
    public func sharedUIDs() throws -> [String: [Int64]] {
        var ids: [String: [Int64]] = [:]
        _ = try forEachBatch(search: "", sort: .last, batchSize: 500) { batch in
            for contact in batch { if let id = contact.id { ids[contact.uid, default: []].append(id) } }
        }
        return ids.filter { $0.value.count > 1 }.mapValues { $0.sorted() }
    }

    /// Each key searched for (the search finds an email by its words), then checked exactly;
    /// `SQLiteContactStore` reads its duplicate index instead.
    public func contactIDs(withEmailKeys keys: [String]) throws -> [String: [Int64]] {
        var found: [String: [Int64]] = [:]
        for key in Set(keys) {
            _ = try forEachBatch(search: key, sort: .last, batchSize: 500) { batch in
                for contact in batch where contact.emails.contains(where: { MatchKeys.email($0.value) == key }) {
                    if let id = contact.id { found[key, default: []].append(id) }
                }
            }
        }
        return found
    }

    /// The contacts with these ids that exist, in the order asked.
    public func contacts(ids: [Int64]) throws -> [Contact] {
        try ids.compactMap { try contact(id: $0) }
    }

    /// Every contact with a birthday, through `forEachBatch`; `SQLiteContactStore` asks SQL for them.
    public func contactsWithBirthdays() throws -> [Contact] {
        var found: [Contact] = []
        _ = try forEachBatch(search: "", sort: .last, batchSize: 500) { batch in
            found += batch.filter { $0.birthday != nil }
        }
        return found
    }
}
