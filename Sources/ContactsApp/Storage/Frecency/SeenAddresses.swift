import Foundation

/// One mail address as `contactsbook add-email` has seen it: how often, and when last.
public struct SeenAddress: Equatable, Sendable {
    /// `MatchKeys.email` of the address (trimmed, lower case).
    public let address: String
    public let count: Int
    public let lastSeen: Date
    public init(address: String, count: Int, lastSeen: Date) {
        self.address = address; self.count = count; self.lastSeen = lastSeen
    }
}

/// Frecency: how often and how recently a person writes to an address, as one number. Each
/// sighting counts for less the older it is against the book's latest one (halved every
/// `halfLife`), so the ranking depends on the book alone, never on today's clock.
public enum Frecency {
    public static let halfLife: TimeInterval = 30 * 86_400

    public static func score(_ seen: SeenAddress, latest: Date) -> Double {
        let age = max(0, latest.timeIntervalSince(seen.lastSeen))
        return Double(seen.count) * pow(0.5, age / halfLife)
    }

    /// Each contact's score: the sum over its addresses seen. `latest` is the book's latest sighting.
    static func scores(_ seen: [(contactID: Int64, seen: SeenAddress)], latest: Date) -> [Int64: Double] {
        var scores: [Int64: Double] = [:]
        for (id, address) in seen { scores[id, default: 0] += score(address, latest: latest) }
        return scores
    }

    /// A search's page with the contacts written to first: `ranked` (the matches with a score,
    /// highest first), then the other matches in `ordinary` order. `ordinary(offset, limit)`
    /// reads the plain order; `total` is the number of matches.
    ///
    /// The plain order is read from its start to the page's end (the ranked contacts are taken
    /// out of it wherever they are): a first page costs one read of `limit` plus the ranked,
    /// a deeper page more, which only a search that matches someone written to pays.
    static func page(
        ranked: [Contact], offset: Int, limit: Int,
        ordinary: (_ offset: Int, _ limit: Int) throws -> [Contact]
    ) throws -> [Contact] {
        let head = offset < ranked.count ? Array(ranked[offset..<min(ranked.count, offset + limit)]) : []
        let wanted = limit - head.count
        guard wanted > 0 else { return head }
        let skip = max(0, offset - ranked.count)
        let rankedIDs = Set(ranked.compactMap(\.id))
        let rest = try ordinary(0, skip + wanted + ranked.count).filter { !rankedIDs.contains($0.id ?? -1) }
        return head + rest.dropFirst(skip).prefix(wanted)
    }

    /// `matches` ordered by score, highest first; equal scores keep their order.
    static func ranked(_ matches: [Contact], scores: [Int64: Double]) -> [Contact] {
        matches.enumerated().sorted { a, b in
            let (x, y) = (scores[a.element.id ?? 0] ?? 0, scores[b.element.id ?? 0] ?? 0)
            return x != y ? x > y : a.offset < b.offset
        }.map(\.element)
    }
}

/// Where the book keeps the addresses seen in mail (`contactsbook add-email`), for frecency:
/// `page` ranks a search's matches by it. Not journalled: undo takes back changes to contacts,
/// not what was read.
public protocol SeenAddressStore: AnyObject {
    /// Each address's count grows by one and its last sighting becomes `at` (an address given
    /// twice counts once).
    func recordSeen(addresses: [String], at: Date) throws
    /// Every address seen, in address order.
    func seenAddresses() throws -> [SeenAddress]
    /// The contacts holding `address` (compared as `MatchKeys.email`), by id.
    func contacts(withEmail address: String) throws -> [Contact]
}
