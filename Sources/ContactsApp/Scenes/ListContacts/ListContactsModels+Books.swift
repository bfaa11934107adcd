import SceneCore

extension ListContacts {
    /// `books`: the address books, with their contacts and rights.
    public enum ShowBooks {
        public struct Request: Equatable { public init() {} }
        public struct Response { public let books: [AddressBook] }
        public struct ViewModel: SceneCore.ViewModel, Equatable {
            public static let kind = "bookList"
            public struct Book: Encodable, Equatable, Sendable {
                public let name: String
                /// The account it syncs with; absent for the local book.
                public let account: String?
                public let url: String?
                public let contacts: Int
                /// `server` (its rights), `marked` (by the person), absent when writable.
                public let readOnly: String?
                public let isDefault: Bool
            }
            public let books: [Book]
            public let caption: String
            public var layout: DisplayLayout {
                .table(
                    columns: [.init("Book"), .init("Account"), .init("Contacts", alignRight: true), .init("")],
                    rows: books.map { book in
                        [
                            book.name, book.account ?? "(this file)", "\(book.contacts)",
                            ([
                                book.isDefault ? "default" : nil,
                                book.readOnly.map { $0 == "server" ? "read-only (server)" : "read-only" },
                            ]
                            .compactMap { $0 }).joined(separator: ", "),
                        ]
                    },
                    caption: caption)
            }
        }
    }

    /// `move CONTACT... BOOK`.
    public enum MoveContacts {
        public struct Request: Equatable {
            public let references: [String]
            public let book: String
            /// `copy`: new contacts in the book, the originals left where they are.
            public var copy = false
        }
        public struct Response { public let moved: MovedContacts }
        public struct ViewModel: SceneCore.ViewModel, Equatable {
            public static let kind = "contactsMoved"
            public let ids: [Int64]
            public let book: String
            public let text: String
            public var layout: DisplayLayout { .message(.success(text)) }
        }
    }
}
