import Foundation

/// A group of contacts: a card of its own (vCard 4.0's `KIND:group` with `MEMBER`, or Apple's
/// 3.0 `X-ADDRESSBOOKSERVER-KIND:group` with `X-ADDRESSBOOKSERVER-MEMBER`), never a person.
/// The card is the record, kept as it came; `name` and `members` are read from it
/// (`GroupCard.read`) and written back into it by `GroupCard.updated`, which touches only the
/// name and member lines.
public struct ContactGroup: Equatable, Codable, Sendable {
    public var id: Int64?
    public var uid: String
    public var name: String
    /// The members' UIDs (`urn:uuid:` taken off), in the card's order, each once. A member
    /// whose card is not in this book is kept all the same.
    public var members: [String]
    public var card: VCardRecord
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64? = nil, uid: String, name: String, members: [String] = [], card: VCardRecord,
        version: Int = 0, createdAt: Date = Date(timeIntervalSince1970: 0),
        updatedAt: Date = Date(timeIntervalSince1970: 0)
    ) {
        self.id = id; self.uid = uid; self.name = name; self.members = members; self.card = card
        self.version = version; self.createdAt = createdAt; self.updatedAt = updatedAt
    }

    /// Which of the two conventions the card is written in.
    public var convention: GroupConvention { GroupCard.convention(of: card) }
}

/// The two ways a group is written: vCard 4.0's `KIND:group` and `MEMBER`, or Apple's
/// `X-ADDRESSBOOKSERVER-KIND:group` and `X-ADDRESSBOOKSERVER-MEMBER` in 3.0 (iCloud, Fastmail,
/// Nextcloud's 3.0 cards, macOS Contacts).
public enum GroupConvention: String, Sendable, CaseIterable {
    case kind = "vcard4"
    case apple = "apple"
}

/// What `list` shows: every contact, the members of one group, or the contacts in no group.
public enum GroupFilter: Equatable, Sendable {
    /// The members of the group with this id.
    case members(of: Int64)
    /// The contacts that are members of no group.
    case ungrouped
}
