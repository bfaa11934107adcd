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
    public static func configuredTimeout(
        _ environment: [String: String] = environmentVariables(["CONTACTSBOOK_PASSWORD_TIMEOUT"])
    )
        -> TimeInterval
    {
        environment["CONTACTSBOOK_PASSWORD_TIMEOUT"].flatMap(TimeInterval.init).flatMap {
            $0 > 0 && $0.isFinite ? $0 : nil
        } ?? 30
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
            throw Failed(
                description: "account \(account.name): the password command did not finish within "
                    + "\(Self.seconds(timeout)) (stopped; CONTACTSBOOK_PASSWORD_TIMEOUT sets the limit)")
        case CPROCESS_TOO_MUCH:
            throw Failed(
                description: "account \(account.name): the password command printed more than "
                    + "\(maximumOutput) bytes (stopped)")
        default:
            throw Failed(
                description:
                    "account \(account.name): cannot run the password command: \(String(cString: strerror(reason)))")
        }
        // The wait status: exited with 0, or killed by a signal.
        let exited = status & 0x7F == 0
        guard exited, (status >> 8) & 0xFF == 0 else {
            throw Failed(
                description: "account \(account.name): the password command failed ("
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
                return
                    "the server has several address books; choose with --book NAME (repeatable) or take every one with --all-books:\n"
                    + books.map {
                        "  \(TerminalText.sanitize($0.url.lastPathComponent))  \(TerminalText.sanitize($0.displayName))"
                    }
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

        /// For `otherOrigin`: the host a person may allow (`--allow-host`, or yes on a terminal);
        /// nil for any other failure, and for https sent down to plain http, which is never allowed.
        public var allowableHost: String? {
            guard case .otherOrigin(_, let given, let found) = self, let origin = DAVOrigin(found),
                !(given.scheme == "https" && origin.scheme == "http")
            else { return nil }
            return origin.hostAndPort
        }
    }

    private let store: SyncStateStore & ContactStore
    private let passwords: PasswordSource
    private let makeTransport: (DAVCredentials?) -> DAVTransport
    private let now: () -> Date
    private let progress: ProgressReporter?
    /// Handed to each `SyncWorker`: a sync in a session announces its changes.
    private let changes: ChangeNotifier?

    public init(
        store: SyncStateStore & ContactStore, passwords: PasswordSource = PasswordCommand(),
        makeTransport: @escaping (DAVCredentials?) -> DAVTransport = { DAVTransports.standard(credentials: $0) },
        now: @escaping () -> Date = Date.init, progress: ProgressReporter? = nil, changes: ChangeNotifier? = nil
    ) {
        self.store = store; self.passwords = passwords; self.makeTransport = makeTransport
        self.now = now; self.progress = progress; self.changes = changes
    }

    /// Finds the address books at `url` and adds the account with one of them: the only one,
    /// or the one `book` names (its last path component or display name).
    public func add(
        name: String, url: String, user: String, passwordCommand: String?, book: String?,
        isDefault: Bool = false, conflicts: ConflictWinner = .server,
        allowHosts: [String] = [], confirm: @escaping (URL) -> Bool = { _ in false }
    ) throws -> SyncAccount {
        try add(
            name: name, url: url, user: user, passwordCommand: passwordCommand, books: book.map { [$0] } ?? [],
            allBooks: false, isDefault: isDefault, conflicts: conflicts, allowHosts: allowHosts, confirm: confirm)
    }

    /// Finds the address books at `url` and adds the account with the ones `books` names (each
    /// by its last path component or display name), or every one with `allBooks`, or the only
    /// one. A book taken alone is named as the account; several are named by their last path
    /// component (the account's name first when another book has that name).
    ///
    /// Requests go only to `url`'s origin. When the server leads elsewhere (a redirect, a
    /// principal, home or book on another host), that origin is used only if `allowHosts` names
    /// it (`--allow-host`) or `confirm` says yes; else `Failure.otherOrigin`. https never goes
    /// down to http.
    public func add(
        name: String, url: String, user: String, passwordCommand: String?, books wanted: [String],
        allBooks: Bool, isDefault: Bool = false, conflicts: ConflictWinner = .server,
        allowHosts: [String] = [], confirm: @escaping (URL) -> Bool = { _ in false }
    ) throws -> SyncAccount {
        guard !name.isEmpty, !name.contains(where: \.isWhitespace) else {
            throw Failure.invalid("an account name is one word")
        }
        guard let base = URL(string: url), let given = DAVOrigin(base) else {
            throw Failure.invalid("\(url) is not an http or https URL")
        }
        if try store.accounts().contains(where: { $0.name == name }) {
            throw Failure.invalid("there is already an account named \(name)")
        }
        var account = SyncAccount(
            name: name, serverURL: url, bookURL: "", user: user,
            passwordCommand: passwordCommand, isDefault: isDefault, conflicts: conflicts)
        // Each other origin met is asked about once, where discovery meets it.
        let transport = OriginGuardTransport(try self.transport(for: account), allowed: [given]) { url in
            guard let origin = DAVOrigin(url), !(given.scheme == "https" && origin.scheme == "http") else {
                return false
            }
            return allowHosts.contains(where: origin.isNamed(by:)) || confirm(url)
        }
        let books: [RemoteAddressBook]
        do { books = try CardDAVDiscovery(transport: transport).addressBooks(from: base) } catch DAVError.otherOrigin(
            let url)
        {
            throw Failure.otherOrigin(account: name, given: given, found: url)
        } catch let error as DAVError {
            throw Failure.server(account: name, error)
        }
        var chosen: [RemoteAddressBook] = []
        if allBooks {
            guard !books.isEmpty else { throw Failure.invalid("account \(name): the server lists no address book") }
            chosen = books
        } else if !wanted.isEmpty {
            for book in wanted {
                guard let found = books.first(where: { $0.url.lastPathComponent == book || $0.displayName == book })
                else {
                    throw books.isEmpty ? Failure.noBook(book) : Failure.chooseBook(books)
                }
                if !chosen.contains(found) { chosen.append(found) }
            }
        } else {
            guard books.count == 1, let only = books.first else {
                throw books.isEmpty
                    ? Failure.invalid("account \(name): the server lists no address book") : Failure.chooseBook(books)
            }
            chosen = [only]
        }
        // A book listed on another host: every sync would send the password there.
        for book in chosen where !transport.allows(book.url) {
            throw Failure.otherOrigin(account: name, given: given, found: book.url)
        }
        account.bookURL = chosen[0].url.absoluteString
        account.acceptsVCard4 = chosen[0].acceptsVCard4
        let taken = Set(try (store as? AddressBookStore)?.addressBooks(counting: false).map(\.name) ?? [])
        try store.addAccount(account, books: Self.named(chosen, account: name, taken: taken))
        return try store.accounts().first { $0.name == name } ?? account
    }

    /// The books' names: the account's for a book alone; else each one's last path component
    /// as one word, the account's name before it when that is taken (a number after a name
    /// still taken: `local-2` for an account named as the local book).
    static func named(_ books: [RemoteAddressBook], account: String, taken: Set<String>) -> [AddressBook] {
        var used = taken
        return books.map { book in
            var name = account
            if books.count > 1 {
                let last = book.url.lastPathComponent.removingPercentEncoding ?? book.url.lastPathComponent
                let word = String(TerminalText.sanitize(last).map { $0.isWhitespace || $0 == "/" ? "-" : $0 })
                name = word.isEmpty || used.contains(word) ? "\(account)-\(word.isEmpty ? "book" : word)" : word
            }
            var unique = name, number = 2
            while used.contains(unique) { unique = "\(name)-\(number)"; number += 1 }
            used.insert(unique)
            return AddressBook(
                name: unique, account: account, url: book.url.absoluteString, displayName: book.displayName,
                acceptsVCard4: book.acceptsVCard4, serverReadOnly: book.readOnly)
        }
    }

    public func accounts() throws -> [SyncAccount] { try store.accounts() }

    /// The books of account `name` (none for a store without books).
    public func books(of name: String) throws -> [AddressBook] {
        try (store as? AddressBookStore)?.addressBooks(counting: false).filter { $0.account == name } ?? []
    }

    /// Changes an account's settings (`account set`): who wins conflicts, and whether it becomes
    /// the default account. Returns the account as it now is.
    public func update(name: String, conflicts: ConflictWinner?, makeDefault: Bool) throws -> SyncAccount {
        guard try store.accounts().contains(where: { $0.name == name }) else { throw Failure.unknownAccount(name) }
        guard conflicts != nil || makeDefault else {
            throw Failure.invalid("say what to change: --conflicts server|local, --default")
        }
        try store.updateAccount(named: name, conflicts: conflicts, makeDefault: makeDefault)
        guard let account = try store.accounts().first(where: { $0.name == name }) else {
            throw Failure.unknownAccount(name)
        }
        return account
    }

    /// Removes an account; its contacts stay in the book, local-only. Returns how many.
    public func remove(name: String) throws -> Int {
        guard try store.accounts().contains(where: { $0.name == name }) else { throw Failure.unknownAccount(name) }
        return try store.removeAccount(named: name)
    }

    /// Syncs `name`, or every account when nil; one result per book, accounts in name order.
    public func sync(name: String?) throws -> [Result<SyncSummary, Failure>] {
        let all = try store.accounts()
        let chosen = name.map { wanted in all.filter { $0.name == wanted } } ?? all
        if let name, chosen.isEmpty { throw Failure.unknownAccount(name) }
        let allBooks = try (store as? AddressBookStore)?.addressBooks(counting: false)
        return chosen.flatMap { account in
            // A store without books: the account's one book, as before.
            let books =
                allBooks?.filter { $0.account == account.name }
                ?? [
                    AddressBook(
                        name: account.name, account: account.name, url: account.bookURL,
                        acceptsVCard4: account.acceptsVCard4, syncToken: account.syncToken, isDefault: account.isDefault
                    )
                ]
            return sync(account, books)
        }
    }

    /// Each book of one account, then the DELETEs of the moves out of them that are due.
    private func sync(_ account: SyncAccount, _ books: [AddressBook]) -> [Result<SyncSummary, Failure>] {
        let transport: DAVTransport
        do { transport = try self.transport(for: account) } catch let failure as Failure {
            return [.failure(failure)]
        } catch {
            return [.failure(.storage("account \(account.name): \(error)"))]
        }
        var clients: [String: CardDAVClient] = [:]
        var results: [String: Result<SyncSummary, Failure>] = [:]
        for book in books {
            let label = book.name == account.name ? account.name : "\(account.name) (book \(book.name))"
            do {
                guard let text = book.url, let url = URL(string: text), let origin = DAVOrigin(url) else {
                    throw Failure.invalid("bad book URL \(book.url ?? "")")
                }
                // Every request of the sync goes to the book's origin, and nowhere else.
                let guarded = OriginGuardTransport(transport, allowed: [origin])
                var readOnly = book.serverReadOnly
                // The server may have changed our rights since: asked again. An answer that is no
                // book's properties keeps what was known; another host, a refused password or a
                // server down stops this book's sync as the sync itself would.
                var found: RemoteAddressBook?
                do { found = try CardDAVDiscovery(transport: guarded).book(at: url) } catch DAVError.status, DAVError
                    .malformed
                {
                    found = nil
                }
                if let found {
                    if found.readOnly != readOnly {
                        try? (store as? AddressBookStore)?.setServerReadOnly(book.name, found.readOnly)
                    }
                    readOnly = found.readOnly
                }
                let client = CardDAVClient(
                    book: url, transport: guarded, vcardVersion: book.acceptsVCard4 ? "4.0" : "3.0")
                clients[book.name] = client
                var target = account
                target.name = book.name; target.bookURL = text; target.acceptsVCard4 = book.acceptsVCard4
                target.syncToken = book.syncToken; target.isDefault = book.isDefault
                target.readOnly = readOnly || book.markedReadOnly
                var summary = try SyncWorker(store: store, now: now, progress: progress, changes: changes)
                    .sync(target, book: client)
                summary.account = label
                results[book.name] = .success(summary)
            } catch let failure as Failure {
                results[book.name] = .failure(failure)
            } catch let error as DAVError {
                results[book.name] = .failure(.server(account: label, error))
            } catch {
                results[book.name] = .failure(.storage("account \(label): \(error)"))
            }
        }
        finishMoves(account, clients, &results)
        return books.compactMap { results[$0.name] }
    }

    /// The second step of each `move` out of this account's books: the card deleted from its
    /// old book once the contact is safe in its new one. A DELETE that fails leaves the move
    /// for the next sync; a card changed there since is left there (nothing lost).
    private func finishMoves(
        _ account: SyncAccount, _ clients: [String: CardDAVClient],
        _ results: inout [String: Result<SyncSummary, Failure>]
    ) {
        guard let books = store as? AddressBookStore, let moves = try? books.pendingMoves(account: account.name) else {
            return
        }
        for move in moves {
            guard let client = clients[move.fromBook], case .success(var summary)? = results[move.fromBook],
                (try? books.moveIsReady(move)) == true
            else { continue }
            do {
                try client.delete(href: move.href, etag: move.etag)
                try books.finishMove(move)
                summary.pushed += 1
            } catch DAVError.preconditionFailed, DAVError.outsideBook {
                // Changed on the server since the move: kept there; the next sync brings it back.
                try? books.finishMove(move)
            } catch let error as DAVError {
                summary.failed.append(SyncWorker.failed(SyncWorker.resourceName(move.href), error))
            } catch {
                summary.failed.append(
                    .init(
                        name: SyncWorker.resourceName(move.href), direction: .push,
                        reason: TerminalText.sanitize("\(error)")))
            }
            results[move.fromBook] = .success(summary)
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
