import SceneCore

/// The trash scene (`trash`, `restore`, `purge`): the deleted contacts, one brought back, or
/// erased for good. Its words are the list's (`contacts/trash`, …): the list shows this scene in
/// its place (`ListContactsRouter.routeToTrash`). `TrashViewModel` is in `Formatting/HistoryFormatting.swift`.
public enum Trash {
    /// `trash`: the deleted contacts.
    public enum ShowTrash {
        public struct Request: Equatable { public init() {} }
        public struct Response { public let items: [TrashedContact] }
    }

    /// `restore CONTACT`: a deleted contact back, whole.
    public enum RestoreContact {
        public struct Request: Equatable {
            public let reference: String
            public init(reference: String) { self.reference = reference }
        }
        public struct Response { public let contact: Contact }
        /// "Restored Bob Stone (#9)".
        public struct ViewModel: Equatable { public let message: Message }
    }

    /// `purge [CONTACT]`: erased for good once confirmed (asked in the REPL; `purge yes`,
    /// `purge CONTACT yes` elsewhere).
    public enum PurgeContacts {
        public struct Request: Equatable {
            /// A trashed contact; empty (or "yes", as `purge yes` reads) for the whole trash.
            public let reference: String
            public let confirmed: Bool
            public init(reference: String, confirmed: Bool = false) {
                self.reference = reference; self.confirmed = confirmed
            }
        }
        public struct Response {
            public let purged: Int
        }
        /// "Purged 1 contact for good, with its history".
        public struct ViewModel: Equatable { public let message: Message }
        /// Nothing erased yet: what would be, one contact or the whole trash (nil).
        public struct ConfirmationResponse {
            public let contact: Contact?
            public let trashCount: Int
        }
        /// What the ViewController asks, with the contact's number to name it exactly on yes.
        public struct ConfirmationViewModel: Equatable {
            public let id: Int64?
            public let question: String
            public let declined: String
            public let refusal: String
        }
    }
}
