import SceneCore

/// The duplicates scene (`duplicates`, `merge`): contacts that are probably one person, and
/// their merge. Its words are the list's (`contacts/duplicates`, `contacts/merge`): the list
/// shows this scene in its place (`ListContactsRouter.routeToDuplicates`).
public enum Duplicates {
    /// Contacts that are probably one person, strongest groups first, each saying why.
    public enum FindDuplicates {
        public struct Request: Equatable { public init() {} }
        public struct Response {
            public let groups: [DuplicateGroup]
        }
        public struct ViewModel: SceneCore.ViewModel, Equatable {
            public static let kind = "duplicateGroups"

            /// Why a group's contacts look like one person.
            public struct Reason: Encodable, Equatable, Sendable {
                /// `email`, `phone` or `name`.
                public let kind: String
                /// The shared email, phone (international form) or, for names, the shared
                /// organisation or `@domain`.
                public let value: String
                /// "same email ann@example.com"
                public let text: String
            }

            public struct Group: Encodable, Equatable, Sendable {
                /// 1-based, strongest first.
                public let number: Int
                public let reasons: [Reason]
                public let rows: [ListContacts.Row]
                /// The command that merges the group into its first contact: `merge 3 7`.
                public let merge: String
            }

            public let groups: [Group]
            /// "2 groups of possible duplicates; merge one with merge 3 7"
            public let caption: String

            /// Each group a table captioned with why; a blank line between groups.
            public var layout: DisplayLayout {
                let columns: [DisplayLayout.Column] = [
                    .init("#", alignRight: true), .init("Name"), .init("Organization"),
                    .init("Email"), .init("Phone"),
                ]
                var parts: [DisplayLayout] = []
                for group in groups {
                    parts.append(
                        .table(
                            columns: columns,
                            rows: group.rows.map { ["\($0.id)", $0.name, $0.organization, $0.email, $0.phone] },
                            caption: "Group \(group.number): " + group.reasons.map(\.text).joined(separator: "; ")))
                    parts.append(.lines([""]))
                }
                return .group(parts + [.lines([caption])])
            }
        }
    }

    /// Contacts merged into the first.
    public enum MergeContacts {
        public struct Request: Equatable {
            /// Numbers (`3`, `#3`) or names, the first kept.
            public let references: [String]
            public init(references: [String]) { self.references = references }
        }
        public struct Response {
            public let result: MergedContacts
        }
        public struct ViewModel: SceneCore.ViewModel, Equatable {
            public static let kind = "contactsMerged"

            /// A value of a single field the merge did not keep.
            public struct Difference: Encodable, Equatable, Sendable {
                public let field: String
                public let kept: String
                public let dropped: String
                /// The id of the contact it came from.
                public let from: Int64
            }

            /// The kept contact.
            public let id: Int64
            public let name: String
            public let removed: [Int64]
            public let differences: [Difference]
            /// "Merged #7 Anne Lee into #3 Ann Lee"
            public let text: String
            public let differenceLines: [String]

            public var layout: DisplayLayout { .lines([text] + differenceLines) }
        }
    }
}
