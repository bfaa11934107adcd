import Foundation
import SceneCore

/// The words the command line, the list scene and JSON-RPC show for accounts and syncs.
public struct SyncPresenter {
    public init() {}

    /// `home: pulled 3, pushed 1, merged 1, conflicts 1 (Ann Lee: title "Chief" from the server
    /// kept over "Boss")`: each conflict names the contact, the field, and the value that lost.
    public func summary(_ summary: SyncSummary) -> String {
        var text =
            "\(summary.account): pulled \(summary.pulled), pushed \(summary.pushed), "
            + "merged \(summary.merged), conflicts \(summary.conflicts)"
        if !summary.conflicted.isEmpty {
            text +=
                " ("
                + summary.conflicted.map { contact in
                    "\(contact.name): " + contact.fields.map(conflict).joined(separator: ", ")
                }.joined(separator: "; ") + ")"
        }
        if summary.resurrected > 0 {
            text += "; kept \(summary.resurrected) deleted on one side and edited on the other"
        }
        if summary.resynced { text += "; the sync token was refused, compared every card" }
        if !summary.refused.isEmpty { text += "; " + refused(summary.refused) }
        if !summary.sharedUIDs.isEmpty { text += "; " + sharedUIDs(summary.sharedUIDs) }
        if !summary.failed.isEmpty {
            let count = summary.failed.count
            text +=
                "; \(count) card\(count == 1 ? "" : "s") failed, tried again at the next sync ("
                + summary.failed.map(failed).joined(separator: "; ") + ")"
        }
        // Names, values and hrefs come from the server: no escape sequence or control byte
        // reaches a terminal, a log or an editor's message line, whichever front end shows it.
        return TerminalText.sanitize(text)
    }

    /// `refused 2 hrefs outside the address book (nothing sent there): http://x/y.vcf, /z.vcf`,
    /// the first ten named.
    func refused(_ hrefs: [String]) -> String {
        let shown = hrefs.prefix(10).joined(separator: ", ") + (hrefs.count > 10 ? ", …" : "")
        return "refused \(hrefs.count) href\(hrefs.count == 1 ? "" : "s") outside the address book "
            + "(nothing sent there): \(shown)"
    }

    /// `2 cards with the UID ann, kept as two contacts: /book/a.vcf and /book/b.vcf`, one per
    /// card added beside another (the first ten).
    func sharedUIDs(_ shared: [SyncSummary.SharedUID]) -> String {
        let shown = shared.prefix(10).map {
            "2 cards with the UID \($0.uid), kept as two contacts: \($0.first) and \($0.second)"
        }
        return shown.joined(separator: "; ") + (shared.count > 10 ? "; and \(shared.count - 10) more" : "")
    }

    /// `Ann Lee: not sent, the server answered 415 Unsupported Media Type: ...` or
    /// `bad.vcf: not read here: ...`.
    func failed(_ card: SyncSummary.Failed) -> String {
        switch card.direction {
        case .push:
            let status = card.status.map { "\($0)" } ?? ""
            let words = [status, card.reason].filter { !$0.isEmpty }.joined(separator: " ")
            return "\(card.name): not sent, the server answered \(words.isEmpty ? "an error" : words)"
        case .pull:
            return "\(card.name): not read here: \(card.reason)"
        }
    }

    /// `account home: 2 cards failed (named above); they are tried again at the next sync`: the
    /// error a sync that went on past failed cards ends with.
    public func failedCards(_ summary: SyncSummary) -> String? {
        guard !summary.failed.isEmpty else { return nil }
        let count = summary.failed.count
        return "account \(summary.account): \(count) card\(count == 1 ? "" : "s") could not be synced; "
            + "\(count == 1 ? "it is" : "they are") tried again at the next sync"
    }

    /// `title "Chief" from the server kept over "Boss"`.
    func conflict(_ conflict: SyncMerge.Conflict) -> String {
        func quoted(_ value: String) -> String { value.isEmpty ? "(empty)" : "\"\(value)\"" }
        let side = conflict.winner == .server ? "from the server" : "from here"
        return "\(conflict.field) \(quoted(conflict.kept)) \(side) kept over \(quoted(conflict.lost))"
    }

    /// One line per account: name, user, address book, who wins conflicts, and `(default)`.
    public func accounts(_ accounts: [SyncAccount]) -> String {
        guard !accounts.isEmpty else {
            return "No accounts. Add one with: contactsbook account add NAME URL --user USER\n"
        }
        return accounts.map { account in
            "\(account.name)\t\(account.user)\t\(account.bookURL)\tconflicts: \(account.conflicts.rawValue)"
                + (account.isDefault ? "\t(default)" : "")
        }.joined(separator: "\n") + "\n"
    }

    /// `Added account home: https://dav.example.org/ann/contacts/ (default)`
    public func added(_ account: SyncAccount) -> String {
        "Added account \(account.name): \(account.bookURL)" + (account.isDefault ? " (default)" : "") + "\n"
    }

    /// With several books, or one the server does not let us write, a line for each:
    /// `  book work: https://dav.example.org/ann/work/ (read-only: the server does not let us write it)`.
    public func added(_ account: SyncAccount, books: [AddressBook]) -> String {
        var text = added(account)
        guard books.count > 1 || books.contains(where: \.serverReadOnly) else { return text }
        for book in books {
            // Names and URLs come from the server: sanitised, as the summaries are.
            text +=
                TerminalText.sanitize(
                    "  book \(book.name): \(book.url ?? "")" + (book.isDefault ? " (default)" : "")
                        + (book.serverReadOnly ? " (read-only: the server does not let us write it)" : "")) + "\n"
        }
        return text
    }

    /// `Account home: conflicts: local (default).`
    public func updated(_ account: SyncAccount) -> String {
        "Account \(account.name): conflicts: \(account.conflicts.rawValue)" + (account.isDefault ? " (default)" : "")
            + ".\n"
    }

    public func removed(_ name: String, contacts: Int) -> String {
        "Removed account \(name). Its \(contacts) contact\(contacts == 1 ? "" : "s") stay in the book, local-only "
            + "(nothing is deleted, here or on the server).\n"
    }
}
