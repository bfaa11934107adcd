import SceneCore

/// One contact, every field formatted; edit, delete, back.
public enum ShowContact {
    public enum FetchContact {
        public struct Request: Equatable {
            /// Re-read from the store (after an edit, or on `show`); otherwise only if the
            /// scene was given a newly saved contact.
            public let reload: Bool
        }
        public struct Response { public let contact: Contact }
        public struct ViewModel: SceneCore.ViewModel, Equatable {
            public static let kind = "contactDetail"
            public struct Field: Encodable, Equatable, Sendable {
                public let label: String
                public let value: String
            }
            public let id: Int64
            public let uid: String
            public let name: String
            public let version: Int
            public let fields: [Field]
            public var layout: DisplayLayout {
                .record(heading: "#\(id) \(name)", fields: fields.map { .init($0.label, $0.value) })
            }
        }
    }

    public enum DeleteContact {
        public struct Request: Equatable {}
        public struct Response { public let contact: Contact }
    }

    /// `history`: what changed in this contact, newest first.
    public enum ShowHistory {
        public struct Request: Equatable { public init() {} }
        public struct Response { public let changes: [ChangeSetRecord]; public let contact: Contact }
    }
}
