import SceneCore

/// One contact, every field formatted; edit, delete, back.
public enum ShowContact {
    /// `photo save FILE`.
    public enum SavePhoto {
        public struct Request: Equatable { public let path: String }
        public struct Response { public let contact: Contact; public let photo: ContactPhoto; public let path: String }
        public struct ViewModel: Equatable { public let message: Message }
    }

    public enum FetchContact {
        public struct Request: Equatable {
            /// Re-read from the store (after an edit, or on `show`); otherwise only if the
            /// scene was given a newly saved contact.
            public let reload: Bool
        }
        public struct Response {
            public let contact: Contact
            /// The names of the groups it is a member of, by name.
            public var groups: [String] = []
            /// Its address book, when the file has more than one in use.
            public var book: String? = nil
        }
        public struct ViewModel: SceneCore.ViewModel, Equatable {
            public static let kind = "contactDetail"
            public struct Field: Encodable, Equatable, Sendable {
                public let label: String
                public let value: String
            }
            /// The contact as stored, for programs: nothing to parse out of display labels.
            public struct Record: Encodable, Equatable, Sendable {
                public let id: Int64
                public let uid: String
                public let version: Int
                public let givenName: String
                public let familyName: String
                /// `given-first` or `family-first`: how the name is written out (`NameOrder`).
                public let nameOrder: String
                public let nickname: String
                public let organization: String
                public let title: String
                public let phones: [LabeledValue]
                public let emails: [LabeledValue]
                public let addresses: [PostalAddress]
                /// Web pages (vCard URL), labelled like emails; since protocol 1.4.
                public let websites: [LabeledValue]
                /// Absent when not set; its `year` is absent when unknown.
                public let birthday: Birthday?
                public let tags: [String]
                public let notes: String
                /// The name as shown (`Contact.fullName`).
                public let displayName: String
                /// The card's own display name (FN) when the name parts do not give it, else empty.
                public let formattedName: String
                /// Absent without a photo.
                public let photo: Photo?

                public struct Photo: Encodable, Equatable, Sendable {
                    public let mediaType: String
                    /// Absent for a photo the card only links to.
                    public let bytes: Int?
                    public let uri: String?
                }
                /// ISO 8601 in UTC (`2023-11-14T22:13:20Z`).
                public let created: String
                public let updated: String
                /// The names of the groups it is a member of, by name; since protocol 1.6.
                public var groups: [String] = []
            }
            public let id: Int64
            public let uid: String
            public let name: String
            public let version: Int
            public let fields: [Field]
            public let contact: Record
            /// The contact's address book, when the file has more than one in use; since protocol 1.6.
            public var book: String? = nil
            public var layout: DisplayLayout {
                .record(heading: "#\(id) \(name)", fields: fields.map { .init($0.label, $0.value) })
            }
        }
    }

    /// `edit` on the contact shown: refused before the form opens when its book is read-only.
    public enum EditContact {
        public struct Request: Equatable { public init() {} }
        public struct Response { public let contact: Contact }
        public struct ViewModel: Equatable { public let id: Int64 }
    }

    /// `show CONTACT` and `edit CONTACT` on a contact: another contact, or this one again.
    public enum SelectContact {
        /// What the contact named is selected for.
        public enum Purpose: Equatable, Sendable { case show, edit }
        public struct Request: Equatable {
            public let reference: String
            public var purpose: Purpose = .show
        }
        public struct Response { public let contact: Contact; public let purpose: Purpose }
        public struct ViewModel: Equatable { public let id: Int64; public let purpose: Purpose }
    }

    public enum DeleteContact {
        public struct Request: Equatable {}
        public struct Response { public let contact: Contact }
        public struct ViewModel: Equatable { public let message: Message }
    }

    /// `history`: what changed in this contact, newest first.
    public enum ShowHistory {
        public struct Request: Equatable { public init() {} }
        public struct Response { public let changes: [ChangeSetRecord]; public let contact: Contact }
        /// The journal's listing, as the list's `history` shows it (`ContactFormatter.history`).
        public typealias ViewModel = HistoryViewModel
    }

    /// Contact names for Tab after `show` and `edit`.
    public enum CompleteReference {
        public struct Request: Equatable { public let prefix: String }
        public struct Response: Equatable { public let names: [String] }
        public struct ViewModel: Equatable { public let candidates: [String] }
    }
}
