import SceneCore

/// The history scene (`history [CONTACT]`): the book's change sets, or one contact's. Its word is
/// the list's (`contacts/history`): the list shows this scene in its place
/// (`ListContactsRouter.routeToHistory`). Its ViewModel, `HistoryViewModel`, is the contact
/// scene's `history` too (`Formatting/HistoryFormatting.swift`).
public enum History {
    /// `history [CONTACT]`: the book's change sets, or one contact's (also of a deleted one).
    public enum ShowHistory {
        public struct Request: Equatable {
            public let reference: String
            public init(reference: String) { self.reference = reference }
        }
        public struct Response { public let changes: [ChangeSetRecord]; public let contact: Contact? }
    }
}
