import Foundation
import SceneCore

/// The CardDAV accounts a book syncs with (`contactsbook account add|set|list|remove`): one VIP
/// cycle, whose front end, the command line, only shows the ViewModels (`AccountCommand.swift`).
public enum ManageAccounts {
    /// `account add`: finds the server's address books and adds the account with them.
    public enum AddAccount {
        public struct Request: Equatable {
            public var name: String
            public var url: String
            public var user: String
            public var passwordCommand: String?
            /// The books wanted by name; none: the only one (or every one with `allBooks`).
            public var books: [String] = []
            public var allBooks = false
            public var isDefault = false
            public var conflicts: ConflictWinner = .server
            /// Other hosts the server may send the account to (`--allow-host`, or a question answered yes).
            public var allowHosts: [String] = []
            public init(
                name: String, url: String, user: String, passwordCommand: String?, books: [String] = [],
                allBooks: Bool = false, isDefault: Bool = false, conflicts: ConflictWinner = .server,
                allowHosts: [String] = []
            ) {
                self.name = name; self.url = url; self.user = user; self.passwordCommand = passwordCommand
                self.books = books; self.allBooks = allBooks; self.isDefault = isDefault; self.conflicts = conflicts
                self.allowHosts = allowHosts
            }
        }
        public struct Response { public let account: SyncAccount; public let books: [AddressBook] }
        /// `Added account home: https://…/ (default)`, and a line per book when there are several.
        public struct ViewModel: Equatable { public let text: String }

        /// The server sends the account to another host: asked before anything goes there.
        public struct OtherHostResponse { public let failure: SyncAccountsWorker.Failure; public let host: String }
    }

    /// `account set`: who wins conflicts, and whether it is the default account.
    public enum ChangeAccount {
        public struct Request: Equatable {
            public let name: String
            public let conflicts: ConflictWinner?
            public let makeDefault: Bool
            public init(name: String, conflicts: ConflictWinner?, makeDefault: Bool) {
                self.name = name; self.conflicts = conflicts; self.makeDefault = makeDefault
            }
        }
        public struct Response { public let account: SyncAccount }
        public struct ViewModel: Equatable { public let text: String }
    }

    /// `account list`.
    public enum ListAccounts {
        public struct Request: Equatable { public init() {} }
        public struct Response { public let accounts: [SyncAccount] }
        /// A line per account (name, user, book, who wins conflicts, default), or how to add one.
        public struct ViewModel: Equatable { public let text: String }
    }

    /// `account remove`: its contacts stay in the book, local-only; asked first unless confirmed.
    public enum RemoveAccount {
        public struct Request: Equatable {
            public let name: String
            /// The person agreed (`--yes`, or yes to the question).
            public var confirmed = false
            public init(name: String, confirmed: Bool = false) { self.name = name; self.confirmed = confirmed }
        }
        public struct Response { public let name: String; public let contacts: Int }
        public struct ViewModel: Equatable { public let text: String }
        /// Not confirmed yet: the question to put.
        public struct ConfirmationResponse { public let name: String }
    }

    /// A question to put before going on. Where nobody can be asked, `refusal` is the error.
    public struct ConfirmationViewModel: Equatable {
        public let question: String
        public let declined: Message
        public let refusal: String
        /// For an account sent to another host: the host a yes allows (`AddAccount.Request.allowHosts`).
        public var allowHost: String? = nil
    }

    /// What the cycle displayed last, kept by the ViewController for its front end.
    public enum Displayed: Equatable {
        case added(AddAccount.ViewModel)
        case changed(ChangeAccount.ViewModel)
        case accounts(ListAccounts.ViewModel)
        case removed(RemoveAccount.ViewModel)
        case confirmation(ConfirmationViewModel)
        /// Why it failed, in words for people.
        case failure(String)
    }
}
