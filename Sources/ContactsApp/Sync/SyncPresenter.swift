import Foundation

/// The words the command line, the list scene and JSON-RPC show for accounts and syncs.
public struct SyncPresenter {
    public init() {}

    /// `home: pulled 3, pushed 1, merged 1, conflicts 1 (Ann Lee)`.
    public func summary(_ summary: SyncSummary) -> String {
        var text = "\(summary.account): pulled \(summary.pulled), pushed \(summary.pushed), "
            + "merged \(summary.merged), conflicts \(summary.conflicts)"
        if !summary.conflicted.isEmpty { text += " (\(summary.conflicted.joined(separator: ", ")))" }
        if summary.resurrected > 0 { text += "; kept \(summary.resurrected) deleted on one side and edited on the other" }
        if summary.resynced { text += "; the sync token was refused, compared every card" }
        return text
    }

    /// One line per account: name, user, address book, and `(default)`.
    public func accounts(_ accounts: [SyncAccount]) -> String {
        guard !accounts.isEmpty else { return "No accounts. Add one with: contactsbook account add NAME URL --user USER\n" }
        return accounts.map { account in
            "\(account.name)\t\(account.user)\t\(account.bookURL)" + (account.isDefault ? "\t(default)" : "")
        }.joined(separator: "\n") + "\n"
    }

    public func removed(_ name: String, contacts: Int) -> String {
        "Removed account \(name). Its \(contacts) contact\(contacts == 1 ? "" : "s") stay in the book, local-only "
            + "(nothing is deleted, here or on the server).\n"
    }
}
