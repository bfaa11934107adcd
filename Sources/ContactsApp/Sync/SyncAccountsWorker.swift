import CProcessSupport
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

    /// How long the command may take: long enough to type a passphrase into an agent's
    /// prompt, short enough that a stuck command does not hold a sync for ever.
    public var timeout: TimeInterval
    /// More than a password can be: the rest would only be held in memory.
    public var maximumOutput: Int

    public init(timeout: TimeInterval = PasswordCommand.configuredTimeout(), maximumOutput: Int = 65_536) {
        self.timeout = timeout; self.maximumOutput = maximumOutput
    }

    /// `CONTACTSBOOK_PASSWORD_TIMEOUT` (seconds) when set to a positive number, else 30 s.
    public static func configuredTimeout(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> TimeInterval {
        environment["CONTACTSBOOK_PASSWORD_TIMEOUT"].flatMap(TimeInterval.init).flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 30
    }

    /// Runs the command with stdin from /dev/null (it must never read the session's input: the
    /// next JSON-RPC request or typed command would go to the server as the password), in a
    /// process group of its own that is killed on timeout and dies with contactsbook.
    public func password(for account: SyncAccount) throws -> String? {
        guard let command = account.passwordCommand, !command.isEmpty else { return nil }
        var output: UnsafeMutablePointer<CChar>?
        var length = 0
        var status: Int32 = 0
        let result = cprocess_run(command, timeout, maximumOutput, &output, &length, &status)
        let reason = errno
        defer { free(output) }
        switch result {
        case CPROCESS_EXITED: break
        case CPROCESS_TIMED_OUT:
            throw Failed(description: "account \(account.name): the password command did not finish within "
                + "\(Self.seconds(timeout)) (stopped; CONTACTSBOOK_PASSWORD_TIMEOUT sets the limit)")
        case CPROCESS_TOO_MUCH:
            throw Failed(description: "account \(account.name): the password command printed more than "
                + "\(maximumOutput) bytes (stopped)")
        default:
            throw Failed(description: "account \(account.name): cannot run the password command: \(String(cString: strerror(reason)))")
        }
        // The wait status: exited with 0, or killed by a signal.
        let exited = status & 0x7F == 0
        guard exited, (status >> 8) & 0xFF == 0 else {
            throw Failed(description: "account \(account.name): the password command failed ("
                + (exited ? "exit \((status >> 8) & 0xFF)" : "signal \(status & 0x7F)") + ")")
        }
        let data = output.map { Data(bytes: $0, count: length) } ?? Data()
        return Self.firstLine(of: data)
    }

    /// The first line, without its line ending (LF or CRLF): a command printing more lines
    /// (`printf 'hunter2\r\nlogin: ann\r\n'`) sends only its first as the password.
    static func firstLine(of data: Data) -> String {
        let line = data.prefix { $0 != 0x0A }
        return String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
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
        /// Discovery led to another origin than the URL given, and nobody confirmed it.
        case otherOrigin(account: String, given: DAVOrigin, found: URL)

        public var description: String {
            switch self {
            case .chooseBook(let books):
                return "the server has several address books; choose one with --book NAME:\n"
                    + books.map { "  \(TerminalText.sanitize($0.url.lastPathComponent))  \(TerminalText.sanitize($0.displayName))" }
                    .joined(separator: "\n")
            case .noBook(let name): return "the server has no address book named \(name)"
            case .unknownAccount(let name): return "there is no account named \(name)"
            case .invalid(let reason): return reason
            case .server(let account, .unauthorized): return "account \(account): the server refused the password (401)"
            case .server(let account, let error): return "account \(account): \(error)"
            case .password(let reason): return reason
            case .storage(let reason): return reason
            case .otherOrigin(let account, let given, let found):
                guard let origin = DAVOrigin(found), !(given.scheme == "https" && origin.scheme == "http") else {
                    return "account \(account): the server sends the account from https to plain http "
                        + "(\(found.absoluteString)); refused, nothing stored"
                }
                return "account \(account): the server sends the account to \(found.absoluteString), another host "
                    + "than \(given.hostAndPort); nothing stored and no password sent there. If you trust it, "
                    + "confirm on a terminal or pass --allow-host \(origin.hostAndPort)"

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
    ///
    /// Requests go only to `url`'s origin. When the server leads elsewhere (a redirect, a
    /// principal, home or book on another host), that origin is used only if `allowHosts` names
    /// it (`--allow-host`) or `confirm` says yes; else `Failure.otherOrigin`. https never goes
    /// down to http.
    public func add(name: String, url: String, user: String, passwordCommand: String?, book: String?,
                    isDefault: Bool = false, conflicts: ConflictWinner = .server,
                    allowHosts: [String] = [], confirm: @escaping (URL) -> Bool = { _ in false }) throws -> SyncAccount {
        guard !name.isEmpty, !name.contains(where: \.isWhitespace) else {
            throw Failure.invalid("an account name is one word")
        }
        guard let base = URL(string: url), let given = DAVOrigin(base) else {
            throw Failure.invalid("\(url) is not an http or https URL")
        }
        if try store.accounts().contains(where: { $0.name == name }) {
            throw Failure.invalid("there is already an account named \(name)")
        }
        var account = SyncAccount(name: name, serverURL: url, bookURL: "", user: user,
                                  passwordCommand: passwordCommand, isDefault: isDefault, conflicts: conflicts)
        // Each other origin met is asked about once, where discovery meets it.
        let transport = OriginGuardTransport(try self.transport(for: account), allowed: [given]) { url in
            guard let origin = DAVOrigin(url), !(given.scheme == "https" && origin.scheme == "http") else { return false }
            return allowHosts.contains(where: origin.isNamed(by:)) || confirm(url)
        }
        let books: [RemoteAddressBook]
        do { books = try CardDAVDiscovery(transport: transport).addressBooks(from: base) } catch DAVError.otherOrigin(let url) {
            throw Failure.otherOrigin(account: name, given: given, found: url)
        } catch let error as DAVError {
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
        // A book listed on another host: every sync would send the password there.
        guard transport.allows(chosen.url) else { throw Failure.otherOrigin(account: name, given: given, found: chosen.url) }
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
                guard let url = URL(string: account.bookURL), let origin = DAVOrigin(url) else {
                    throw Failure.invalid("bad book URL \(account.bookURL)")
                }
                // Every request of the sync goes to the book's origin, and nowhere else.
                let transport = OriginGuardTransport(try self.transport(for: account), allowed: [origin])
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
