import Foundation
import SceneCore

/// Runs an account's `--password-command` (as vdirsyncer's `fetch = command` does) and takes
/// the first line of its output: works with `pass show`, `secret-tool lookup`, an `echo`.
public protocol PasswordSource {
    func password(for account: SyncAccount) throws -> String?
}

public struct PasswordCommand: PasswordSource {
    public struct Failed: Error, CustomStringConvertible {
        public var description: String
    }

    public init() {}

    public func password(for account: SyncAccount) throws -> String? {
        guard let command = account.passwordCommand, !command.isEmpty else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch {
            throw Failed(description: "account \(account.name): cannot run the password command: \(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(description: "account \(account.name): the password command failed (exit \(process.terminationStatus))")
        }
        let text = String(decoding: data, as: UTF8.self)
        return String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}

/// The sync the list's Interactor delegates (its seam: tests put a spy here).
public protocol ContactsSyncLogic {
    /// Syncs the account `name`, or every account; one result per account, in name order.
    /// Throws `SyncAccountsWorker.Failure.unknownAccount` for a name that is no account.
    func sync(name: String?) throws -> [Result<SyncSummary, SyncAccountsWorker.Failure>]
}

/// The accounts and their syncs, as the command line, the list scene and JSON-RPC use them.
public final class SyncAccountsWorker: ContactsSyncLogic {
    /// Why an account could not be added or synced, in words for people.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The server has several address books and `--book` named none of them.
        case chooseBook([RemoteAddressBook])
        case noBook(String)
        case unknownAccount(String)
        case invalid(String)
        case server(account: String, DAVError)
        case password(String)
        case storage(String)

        public var description: String {
            switch self {
            case .chooseBook(let books):
                return "the server has several address books; choose one with --book NAME:\n"
                    + books.map { "  \($0.url.lastPathComponent)  \($0.displayName)" }.joined(separator: "\n")
            case .noBook(let name): return "the server has no address book named \(name)"
            case .unknownAccount(let name): return "there is no account named \(name)"
            case .invalid(let reason): return reason
            case .server(let account, .unauthorized): return "account \(account): the server refused the password (401)"
            case .server(let account, let error): return "account \(account): \(error)"
            case .password(let reason): return reason
            case .storage(let reason): return reason
            }
        }
    }

    private let store: SyncStateStore & ContactStore
    private let passwords: PasswordSource
    private let makeTransport: (DAVCredentials?) -> DAVTransport
    private let now: () -> Date
    private let progress: ProgressReporter?
    /// Handed to each `SyncWorker`: a sync in a session announces its changes.
    private let changes: ChangeNotifier?

    public init(store: SyncStateStore & ContactStore, passwords: PasswordSource = PasswordCommand(),
                makeTransport: @escaping (DAVCredentials?) -> DAVTransport = { DAVTransports.standard(credentials: $0) },
                now: @escaping () -> Date = Date.init, progress: ProgressReporter? = nil, changes: ChangeNotifier? = nil) {
        self.store = store; self.passwords = passwords; self.makeTransport = makeTransport
        self.now = now; self.progress = progress; self.changes = changes
    }

    /// Finds the address book at `url` and adds the account; with several books, `book` (its
    /// last path component or display name) chooses.
    public func add(name: String, url: String, user: String, passwordCommand: String?, book: String?,
                    isDefault: Bool = false, conflicts: ConflictWinner = .server) throws -> SyncAccount {
        guard !name.isEmpty, !name.contains(where: \.isWhitespace) else {
            throw Failure.invalid("an account name is one word")
        }
        guard let base = URL(string: url), let scheme = base.scheme, ["http", "https"].contains(scheme), base.host != nil else {
            throw Failure.invalid("\(url) is not an http or https URL")
        }
        if try store.accounts().contains(where: { $0.name == name }) {
            throw Failure.invalid("there is already an account named \(name)")
        }
        var account = SyncAccount(name: name, serverURL: url, bookURL: "", user: user,
                                  passwordCommand: passwordCommand, isDefault: isDefault, conflicts: conflicts)
        let transport = try self.transport(for: account)
        let books: [RemoteAddressBook]
        do { books = try CardDAVDiscovery(transport: transport).addressBooks(from: base) } catch let error as DAVError {
            throw Failure.server(account: name, error)
        }
        let chosen: RemoteAddressBook
        if let book {
            guard let found = books.first(where: { $0.url.lastPathComponent == book || $0.displayName == book }) else {
                throw books.isEmpty ? Failure.noBook(book) : Failure.chooseBook(books)
            }
            chosen = found
        } else {
            guard books.count == 1, let only = books.first else {
                throw books.isEmpty ? Failure.invalid("account \(name): the server lists no address book") : Failure.chooseBook(books)
            }
            chosen = only
        }
        account.bookURL = chosen.url.absoluteString
        account.acceptsVCard4 = chosen.acceptsVCard4
        try store.addAccount(account)
        return try store.accounts().first { $0.name == name } ?? account
    }

    public func accounts() throws -> [SyncAccount] { try store.accounts() }

    /// Changes an account's settings (`account set`): who wins conflicts, and whether it becomes
    /// the default account. Returns the account as it now is.
    public func update(name: String, conflicts: ConflictWinner?, makeDefault: Bool) throws -> SyncAccount {
        guard try store.accounts().contains(where: { $0.name == name }) else { throw Failure.unknownAccount(name) }
        guard conflicts != nil || makeDefault else { throw Failure.invalid("say what to change: --conflicts server|local, --default") }
        try store.updateAccount(named: name, conflicts: conflicts, makeDefault: makeDefault)
        guard let account = try store.accounts().first(where: { $0.name == name }) else { throw Failure.unknownAccount(name) }
        return account
    }

    /// Removes an account; its contacts stay in the book, local-only. Returns how many.
    public func remove(name: String) throws -> Int {
        guard try store.accounts().contains(where: { $0.name == name }) else { throw Failure.unknownAccount(name) }
        return try store.removeAccount(named: name)
    }

    /// Syncs `name`, or every account when nil; one result per account, in name order.
    public func sync(name: String?) throws -> [Result<SyncSummary, Failure>] {
        let all = try store.accounts()
        let chosen = name.map { wanted in all.filter { $0.name == wanted } } ?? all
        if let name, chosen.isEmpty { throw Failure.unknownAccount(name) }
        return chosen.map { account in
            do {
                let transport = try self.transport(for: account)
                guard let url = URL(string: account.bookURL) else { throw Failure.invalid("bad book URL \(account.bookURL)") }
                let client = CardDAVClient(book: url, transport: transport, vcardVersion: account.acceptsVCard4 ? "4.0" : "3.0")
                return .success(try SyncWorker(store: store, now: now, progress: progress, changes: changes)
                    .sync(account, book: client))
            } catch let failure as Failure {
                return .failure(failure)
            } catch let error as DAVError {
                return .failure(.server(account: account.name, error))
            } catch {
                return .failure(.storage("account \(account.name): \(error)"))
            }
        }
    }

    private func transport(for account: SyncAccount) throws -> DAVTransport {
        let password: String?
        do { password = try passwords.password(for: account) } catch {
            throw Failure.password("\(error)")
        }
        return makeTransport(password.map { DAVCredentials(user: account.user, password: $0) })
    }
}
