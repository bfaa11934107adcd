import SceneCore

extension ListContacts {
    /// The directories' answer to a search (issue 31), shown after the book's own rows, each row
    /// labelled with its directory and numbered within it (`corp:2`), for `show` and `copy`.
    public enum SearchDirectories {
        public struct Request: Equatable { public let search: String }
        public struct Response {
            public let search: DirectorySearch
        }
        public struct ViewModel: SceneCore.ViewModel, Equatable {
            public static let kind = "directoryResults"
            public struct Row: Encodable, Equatable, Sendable {
                /// `corp:2`: what `show` and `copy` take.
                public let reference: String
                public let directory: String
                public let dn: String
                public let name: String
                public let organization: String
                public let email: String
                public let phone: String
            }
            public let rows: [Row]
            /// One line per directory that failed, was slow or had more to give.
            public let notices: [String]
            public let caption: String

            public var layout: DisplayLayout {
                let table = DisplayLayout.table(
                    columns: [
                        .init("Directory"), .init("Name"), .init("Organization"), .init("Email"), .init("Phone"),
                    ],
                    rows: rows.map { [$0.reference, $0.name, $0.organization, $0.email, $0.phone] }, caption: caption)
                return notices.isEmpty ? table : .group([table, .lines(notices)])
            }
        }
    }

    /// `show corp:2`: a directory's entry, every field, as the detail shows a contact.
    public enum ShowDirectoryEntry {
        public struct Request: Equatable { public let reference: String }
        public struct Response {
            public let entry: DirectoryEntry
            public let contact: Contact
        }
        public struct ViewModel: SceneCore.ViewModel, Equatable {
            public static let kind = "directoryEntry"
            public struct Field: Encodable, Equatable, Sendable {
                public let label: String
                public let value: String
            }
            public let directory: String
            public let dn: String
            public let name: String
            public let fields: [Field]
            /// The photo (jpegPhoto) as a data: URI, for programs that can show one.
            public let photo: String?

            public var layout: DisplayLayout {
                .record(heading: name, fields: fields.map { .init($0.label, $0.value) })
            }
        }
    }

    /// `copy corp:2`: the entry saved as a new contact (journalled; the card remembers its source).
    public enum CopyDirectoryEntry {
        public struct Request: Equatable { public let reference: String }
        public struct Response { public let contact: Contact; public let directory: String }
    }
}
