import CProcessSupport
import Foundation

/// What every directory answered to one search, in the sources' name order.
public struct DirectorySearch: Equatable, Sendable {
    public var answers: [DirectoryAnswer]
    public init(answers: [DirectoryAnswer] = []) { self.answers = answers }

    public var entries: [DirectoryEntry] { answers.flatMap(\.entries) }
    /// One line per directory that failed or was cut short: said once, on stderr or as a notice.
    public var notices: [String] {
        answers.compactMap { answer in
            if let failure = answer.failure { return failure.description }
            if answer.more, let source = answer.entries.first?.source {
                return
                    "directory \(source): more entries match than the \(answer.entries.count) shown; type more of the name"
            }
            return nil
        }
    }
}

/// The directories' seam for the scenes and the mail query (tests put a spy or a fake here).
public protocol ContactsDirectoryLogic: AnyObject {
    /// Asks every directory for `text`, all at once; costs at most the longest time limit.
    func search(_ text: String) -> DirectorySearch
    /// Whether any directory is set up (nothing is asked, and libldap is not loaded, without one).
    var hasSources: Bool { get }
    /// Saves the entry as a new contact, in one journalled change set; returns it saved. Throws
    /// `ContactsFailure.readOnly` when the default book, where it would go, is read-only.
    func copy(_ entry: DirectoryEntry) throws -> Contact
}

/// The directory sources and their live searches (issue 31): add, list, remove, test; search
/// with a server-side filter from the text; one entry by its DN; an entry copied into the book.
public final class DirectoryWorker: ContactsDirectoryLogic {
    private let sources: DirectorySourceStore
    private let client: DirectoryClient
    /// Where `copy` saves (journalled); nil: a worker that only searches.
    private let journal: ContactJournal?
    private let makeUID: () -> String
    private let now: () -> Date
    private let passwords: (DirectorySource) throws -> String?
    private let lock = NSLock()
    /// A directory that could not be reached or timed out, and until when it is not asked
    /// again: a long session (--lsp, --mcp, the REPL) pays a dead directory's time limit and
    /// hears of it once, not at every keystroke.
    private var restingUntil: [String: Date] = [:]
    public static let restAfterFailure: TimeInterval = 60
    /// A password command runs once per process and directory, not once per search.
    private var knownPasswords: [String: String] = [:]

    public init(
        sources: DirectorySourceStore, journal: ContactJournal? = nil, client: DirectoryClient = OpenLDAPClient(),
        passwords: @escaping (DirectorySource) throws -> String? = DirectoryPassword.run,
        makeUID: @escaping () -> String = { UUID().uuidString.lowercased() }, now: @escaping () -> Date = Date.init
    ) {
        self.sources = sources; self.journal = journal; self.client = client; self.passwords = passwords
        self.makeUID = makeUID; self.now = now
    }

    // MARK: Sources

    public func add(
        name: String, url: String, bindDN: String?, passwordCommand: String?, filter: String?,
        plaintext: Bool, caFile: String?, sizeLimit: Int?, timeLimit: Double?
    ) throws -> DirectorySource {
        guard !name.isEmpty, !name.contains(where: { $0.isWhitespace || $0.isNewline }), name.count <= 64 else {
            throw DirectoryFailure.invalid("a directory name is one word")
        }
        let (server, base, security) = try DirectorySource.parse(name: name, url: url, plaintext: plaintext)
        if plaintext && security == .ldaps {
            throw DirectoryFailure.invalid(
                "directory \(name): --plaintext is for ldap:// addresses; ldaps:// is always TLS")
        }
        if let filter, let problem = LDAPFilter.validate(filter) {
            throw DirectoryFailure.invalid("directory \(name): --filter: \(problem)")
        }
        if bindDN != nil, passwordCommand == nil {
            throw DirectoryFailure.invalid(
                "directory \(name): --bind-dn needs --password-command (the password is never stored)")
        }
        if passwordCommand != nil, bindDN == nil {
            throw DirectoryFailure.invalid("directory \(name): --password-command goes with --bind-dn")
        }
        if let caFile {
            guard security != .plaintext else {
                throw DirectoryFailure.invalid(
                    "directory \(name): --ca-file is for StartTLS or ldaps://, not --plaintext")
            }
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw DirectoryFailure.invalid("directory \(name): cannot read the CA file \(caFile)")
            }
        }
        if let sizeLimit, !(1...1000).contains(sizeLimit) {
            throw DirectoryFailure.invalid("directory \(name): --size-limit is from 1 to 1000")
        }
        if let timeLimit, !(timeLimit > 0 && timeLimit <= 60) {
            throw DirectoryFailure.invalid("directory \(name): --time-limit is more than 0 and at most 60 seconds")
        }
        let caPath = caFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let source = DirectorySource(
            name: name, server: server, baseDN: base, bindDN: bindDN,
            passwordCommand: passwordCommand, filter: filter, security: security, caFile: caPath,
            sizeLimit: sizeLimit ?? DirectorySource.defaultSizeLimit,
            timeLimit: timeLimit ?? DirectorySource.defaultTimeLimit)
        do { try sources.addDirectorySource(source) } catch { throw DirectoryFailure.storage(Self.words(error)) }
        return source
    }

    /// Read at each search: another process may have added or removed one.
    public func list() throws -> [DirectorySource] {
        do { return try sources.directorySources() } catch { throw DirectoryFailure.storage(Self.words(error)) }
    }

    public func remove(name: String) throws {
        let removed: Bool
        do { removed = try sources.removeDirectorySource(named: name) } catch {
            throw DirectoryFailure.storage(Self.words(error))
        }
        guard removed else { throw DirectoryFailure.unknown(name) }
    }

    public var hasSources: Bool { (try? sources.hasDirectorySources()) == true }

    public func source(named name: String) throws -> DirectorySource {
        guard let source = try list().first(where: { $0.name == name }) else { throw DirectoryFailure.unknown(name) }
        return source
    }

    // MARK: Searches

    /// Connects, binds and asks for one person: what `directory test` reports.
    public func test(name: String) throws -> DirectoryAnswer {
        let source = try self.source(named: name)
        return ask(DirectoryRequest(source: source, filter: source.peopleFilter, sizeLimit: 1))
    }

    public func search(_ text: String) -> DirectorySearch {
        search(text, in: (try? list()) ?? [])
    }

    /// Asks `sources` (read already: `query` asks them while it searches the book) for
    /// `attributes` of each entry (`DirectoryMapping.mailAttributes` for addresses alone).
    public func search(
        _ text: String, in sources: [DirectorySource],
        attributes: [String] = DirectoryRequest.everyAttribute
    ) -> DirectorySearch {
        search(text, in: sources, attributes: attributes, mapping: { (_: DirectoryEntry) -> [Never] in [] }).search
    }

    /// `search`, with each entry also handed to `mapping` as it arrives, on the thread asking its
    /// directory (`query` makes its mail lines there while the next entries are on their way):
    /// what it made, in the answers' order, for the directories that answered (none for one that
    /// failed or timed out, whose entries the answer leaves out too).
    public func search<Mapped>(
        _ text: String, in sources: [DirectorySource], attributes: [String],
        mapping: @escaping (DirectoryEntry) -> [Mapped]
    ) -> (search: DirectorySearch, mapped: [Mapped]) {
        let moment = now()
        let all = sources.filter { source in lock.withLock { restingUntil[source.name].map { moment >= $0 } ?? true } }
        // Only blanks (Foundation's `.whitespaces`: Zs and tab) ask nothing. Checked scalar by scalar:
        // `trimmingCharacters(in:)` bridged to NSString, on the way to the server (bench/DIRECTORY.md).
        let blank = text.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        guard !all.isEmpty, !blank else { return (DirectorySearch(), []) }
        var answers = [DirectoryAnswer](repeating: DirectoryAnswer(), count: all.count)
        var mapped = [[Mapped]](repeating: [], count: all.count)
        let results = NSLock()
        let askOne = { (index: Int) in
            let source = all[index]
            var made: [Mapped] = []
            let answer =
                LDAPFilter.search(text, people: source.peopleFilter).map {
                    self.ask(DirectoryRequest(source: source, filter: $0, attributes: attributes)) { entry in
                        made += mapping(entry)
                    }
                } ?? DirectoryAnswer()
            if answer.failure != nil { made = [] }
            results.withLock {
                answers[index] = answer
                mapped[index] = made
            }
        }
        // Every directory at once: the search costs the longest time limit, not their sum. One
        // directory (the usual case) is asked on this thread: `concurrentPerform` started another.
        if all.count == 1 {
            askOne(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: all.count, execute: askOne)
        }
        for (source, answer) in zip(all, answers) {
            if case .directory(_, let reason, _)? = answer.failure, [.connect, .timeout, .noLibrary].contains(reason) {
                lock.withLock { restingUntil[source.name] = moment.addingTimeInterval(Self.restAfterFailure) }
            }
        }
        return (DirectorySearch(answers: answers), mapped.flatMap { $0 })
    }

    /// The entry at `dn` in directory `name` (for `show` and `copy`).
    public func entry(name: String, dn: String) throws -> DirectoryEntry {
        let source = try self.source(named: name)
        guard !dn.isEmpty, !dn.contains(where: \.isNewline) else {
            throw DirectoryFailure.invalid("'\(dn)' is not a DN")
        }
        let answer = ask(DirectoryRequest(source: source, filter: source.peopleFilter, base: dn, sizeLimit: 1))
        if let failure = answer.failure {
            if case .directory(_, .search, _) = failure {
                throw DirectoryFailure.directory(name: name, .search, "no person at \(dn)")
            }
            throw failure
        }
        guard
            let entry = answer.entries.first(where: { $0.dn.caseInsensitiveCompare(dn) == .orderedSame })
                ?? answer.entries.first
        else {
            throw DirectoryFailure.directory(name: name, .search, "no person at \(dn)")
        }
        return entry
    }

    /// The entry as a contact, with where it came from.
    public func contact(name: String, dn: String) throws -> Contact {
        let source = try self.source(named: name)
        return DirectoryMapping.contact(from: try entry(name: name, dn: dn), server: source.server)
    }

    /// One change set, `add`, that `undo` takes back like any other; the card remembers the
    /// directory and the entry's LDAP URL.
    public func copy(_ entry: DirectoryEntry) throws -> Contact {
        guard let journal else { throw DirectoryFailure.storage("this book cannot keep copies") }
        // A new contact goes to the default book: refused, naming it, when that book is read-only
        // (issue 30), as `add` is.
        if let store = journal as? ContactStore { try BookAccess(store: store).checkNewContacts() }
        let server = try? source(named: entry.source).server
        var contact = DirectoryMapping.contact(from: entry, server: server)
        contact.uid = makeUID()
        contact.createdAt = now()
        contact.updatedAt = contact.createdAt
        do {
            return try journal.recordChangeSet(
                kind: .add, summary: "copied \(contact.fullName) from directory \(entry.source)",
                origin: nil
            ) { try $0.insert(contact, keepingID: false) }
        } catch {
            throw DirectoryFailure.storage(Self.words(error))
        }
    }

    /// A store's error in words ("There is already a directory named corp.").
    static func words(_ error: Error) -> String {
        if case .storage(let text)? = error as? ContactStoreError { return text }
        return "\(error)"
    }

    private func ask(_ request: DirectoryRequest, eachEntry: ((DirectoryEntry) -> Void)? = nil) -> DirectoryAnswer {
        var request = request
        if request.source.bindDN != nil {
            do {
                request.password = try password(for: request.source)
            } catch {
                return DirectoryAnswer(failure: .directory(name: request.source.name, .password, "\(error)"))
            }
        }
        guard let eachEntry else { return client.search(request) }
        return client.search(request, eachEntry: eachEntry)
    }

    private func password(for source: DirectorySource) throws -> String? {
        if let known = lock.withLock({ knownPasswords[source.name] }) { return known }
        let password = try passwords(source)
        if let password { lock.withLock { knownPasswords[source.name] = password } }
        return password
    }
}

/// A directory's `--password-command`, run as a CardDAV account's is (`PasswordCommand`): sh -c,
/// stdin from /dev/null, in a process group of its own killed at CONTACTSBOOK_PASSWORD_TIMEOUT;
/// the first line it prints. Never stored, never logged.
public enum DirectoryPassword {
    public struct Failed: Error, CustomStringConvertible {
        public var description: String
    }

    public static func run(_ source: DirectorySource) throws -> String? {
        guard let command = source.passwordCommand, !command.isEmpty else { return nil }
        let timeout = PasswordCommand.configuredTimeout()
        var output: UnsafeMutablePointer<CChar>?
        var length = 0
        var status: Int32 = 0
        let result = cprocess_run(command, timeout, 65_536, &output, &length, &status)
        let reason = errno
        defer { free(output) }
        switch result {
        case CPROCESS_EXITED: break
        case CPROCESS_TIMED_OUT:
            throw Failed(
                description: "the password command did not finish within \(Int(timeout)) s (stopped; "
                    + "CONTACTSBOOK_PASSWORD_TIMEOUT sets the limit)")
        case CPROCESS_TOO_MUCH: throw Failed(description: "the password command printed too much (stopped)")
        default: throw Failed(description: "cannot run the password command: \(String(cString: strerror(reason)))")
        }
        let exited = status & 0x7F == 0
        guard exited, (status >> 8) & 0xFF == 0 else {
            throw Failed(
                description: "the password command failed ("
                    + (exited ? "exit \((status >> 8) & 0xFF)" : "signal \(status & 0x7F)") + ")")
        }
        let data = output.map { Data(bytes: $0, count: length) } ?? Data()
        return PasswordCommand.firstLine(of: data)
    }
}
