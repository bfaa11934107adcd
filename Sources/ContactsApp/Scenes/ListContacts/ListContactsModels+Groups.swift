import SceneCore

/// The list's groups: `groups`, and `group new|rename|delete|add|remove`.
extension ListContacts {
    /// How `list` chooses its contacts: all, a group's members (`--group NAME`), or those in no
    /// group (`--ungrouped`).
    public struct ListFilter: Equatable, Sendable {
        public var group: String?
        public var ungrouped: Bool
        public init(group: String? = nil, ungrouped: Bool = false) { self.group = group; self.ungrouped = ungrouped }
        public static let all = ListFilter()
    }

    /// `groups`: every group with its size.
    public enum ListGroups {
        public struct Request: Equatable { public init() {} }
        public struct Response { public let groups: [GroupSummary] }
        public struct ViewModel: SceneCore.ViewModel, Equatable {
            public static let kind = "contactGroups"

            public struct Group: Encodable, Equatable, Sendable {
                public let id: Int64
                public let uid: String
                public let name: String
                /// Every member the card names.
                public let size: Int
                /// The members whose card is in this book.
                public let inBook: Int
                /// The members' UIDs, in the card's order.
                public let members: [String]
                /// `vcard4` (KIND:group, MEMBER) or `apple` (X-ADDRESSBOOKSERVER-KIND, -MEMBER).
                public let convention: String
            }

            public let groups: [Group]
            /// "2 groups"
            public let caption: String

            public var layout: DisplayLayout {
                .table(
                    columns: [.init("Group"), .init("Members", alignRight: true)],
                    rows: groups.map {
                        [$0.name, $0.size == $0.inBook ? "\($0.size)" : "\($0.size) (\($0.inBook) in this book)"]
                    },
                    caption: caption)
            }
        }
    }

    /// `group new|rename|delete|add|remove`.
    public enum ChangeGroup {
        public enum Action: String, CaseIterable, Sendable { case new, rename, delete, add, remove }
        public struct Request: Equatable {
            public let action: Action
            public let name: String
            /// The new name (rename), or the contacts (add, remove): numbers, UIDs or names.
            public let values: [String]
            /// new: the book the group goes to (nil: the default book).
            public let book: String?
            public init(action: Action, name: String, values: [String] = [], book: String? = nil) {
                self.action = action; self.name = name; self.values = values; self.book = book
            }
        }
        public struct Response {
            public let action: Action
            public let group: ContactGroup
            /// The name before a rename.
            public var oldName: String? = nil
            /// The contacts added or removed.
            public var changed: [Contact] = []
            /// The contacts named that were members already (add) or were not (remove).
            public var unchanged: [Contact] = []
        }
        public struct ViewModel: SceneCore.ViewModel, Equatable {
            public static let kind = "groupChanged"
            /// `new`, `rename`, `delete`, `add` or `remove`.
            public let action: String
            public let id: Int64
            public let uid: String
            public let name: String
            /// The members' UIDs after the change (before it, for a delete).
            public let members: [String]
            /// The ids of the contacts added or removed.
            public let changed: [Int64]
            /// "Added Ann Lee to Family (3 members)"
            public let text: String
            /// What was left as it was: "Bob Stone was a member already".
            public let notes: [String]

            public var layout: DisplayLayout { .lines([text] + notes) }
        }
    }
}
