import ContactsApp
import Foundation
import JSONBytes
import SceneCore
import SceneLSP
import SceneRPC

/// The book in an editor's mail buffer, served over `LSPServer`: in the address fields of any
/// open document (a mail draft), completion of addresses, hover on an address, code actions
/// that add unknown recipients, and diagnostics on unknown and invalid addresses; plus the
/// commands plugins' pickers run (search, show, add), each a whole task with no state kept.
public final class ContactsLanguageFeatures: LSPFeatures {
    public enum Command {
        public static let addAddress = "contactsbook.addAddress"
        public static let addUnknown = "contactsbook.addUnknown"
        public static let search = "contactsbook.search"
        public static let show = "contactsbook.show"
        public static let all = [addAddress, addUnknown, search, show]
    }

    /// LSP 3.17's RequestFailed: the request was valid, the book could not answer it.
    public static let requestFailedCode = -32803
    /// Contacts read for one completion (each gives one item per address): more than a
    /// completion menu shows; the list is asked again as the word grows.
    public static let completionContacts = 25
    public static let maximumSearchLimit = 500

    private let worker: MailAddressWorker
    private let markdown: ContactMarkdown
    private let log: RPCServer.Log
    /// The diagnostics last published per document, so a change elsewhere re-sends only those that differ.
    private var published: [String: JSONValue] = [:]

    public init(environment: ContactsEnvironment, log: @escaping RPCServer.Log = RPCServer.logToStandardError) {
        worker = MailAddressWorker(environment: environment)
        markdown = ContactMarkdown(environment: environment)
        self.log = log
        // A directory that cannot answer is said once on stderr (the client's log), not at every keystroke.
        var said = Set<String>()
        worker.directoryNotices = { notices in
            for notice in notices where said.insert(notice).inserted { log(.warning, notice) }
        }
    }

    public var capabilities: [String: JSONValue] {
        [
            "completionProvider": [
                "resolveProvider": false, "triggerCharacters": [], "completionItem": ["labelDetailsSupport": false],
            ],
            "hoverProvider": true,
            "codeActionProvider": ["codeActionKinds": ["quickfix"], "resolveProvider": false],
            "executeCommandProvider": ["commands": .array(Command.all.map { .string($0) })],
        ]
    }

    public func answer(method: String, params: JSONValue?, server: LSPServer) throws -> JSONValue {
        do {
            switch method {
            case "textDocument/completion": return try completion(params, server)
            case "textDocument/hover": return try hover(params, server)
            case "textDocument/codeAction": return try codeActions(params, server)
            case "workspace/executeCommand": return try execute(params, server)
            default:
                throw RPCError(
                    code: RPCError.methodNotFoundCode, message: "method not found: \(method)",
                    data: ["method": .string(method)])
            }
        } catch let failure as ContactsFailure {
            throw RPCError(code: Self.requestFailedCode, message: "\(failure)")
        }
    }

    public func documentChanged(_ document: LSPDocument, server: LSPServer) {
        publish(document, server, always: true)
    }

    public func documentClosed(uri: String, server: LSPServer) {
        // LSP: the server clears what it published for a document closed.
        if published.removeValue(forKey: uri) != nil {
            server.send("textDocument/publishDiagnostics", ["uri": .string(uri), "diagnostics": []])
        }
    }

    public func dataChanged(_ changes: [DataChange], server: LSPServer) {
        guard changes.contains(where: { $0.topic == "contacts" }) else { return }
        for document in server.openDocuments { publish(document, server, always: false) }
    }

    /// The document read as a draft from its header lines alone: a long body (a quoted thread)
    /// is never split into lines on each keystroke.
    static func draft(_ document: LSPDocument) -> MailDraft {
        var lines: [String] = []
        for index in 0..<document.lineCount {
            let bytes = document.lineBytes(index)
            if bytes.isEmpty { break }
            let line = String(decoding: bytes, as: UTF8.self)
            if line == MailDraft.messageModeSeparator { break }
            lines.append(line)
        }
        return MailDraft(lines: lines)
    }

    // MARK: Completion

    private func completion(_ params: JSONValue?, _ server: LSPServer) throws -> JSONValue {
        let (uri, position) = try LSPParams.documentPosition(params)
        let document = try server.openDocument(uri)
        let column = document.utf8Column(of: position, encoding: server.encoding)
        let draft = Self.draft(document)
        guard let site = draft.completionSite(at: .init(line: position.line, column: column)) else {
            return ["isIncomplete": false, "items": []]
        }
        guard !site.search.isEmpty else { return ["isIncomplete": true, "items": []] }
        let range = LSPRange(
            start: document.position(line: site.line, utf8Column: site.startColumn, encoding: server.encoding),
            end: document.position(line: site.line, utf8Column: site.endColumn, encoding: server.encoding))
        // What the client compares items with (the text from the edit's start to the cursor):
        // the book already chose them, accent-blind and inside words, so every client keeps them.
        let line = document.lineBytes(site.line)
        let typed = String(
            decoding: line.dropFirst(site.startColumn).prefix(max(0, column - site.startColumn)), as: UTF8.self)
        let completions = try worker.completions(for: site.search, limit: Self.completionContacts)
        let width = String(completions.count).count
        let items: [JSONValue] = completions.enumerated().map { rank, completion in
            // A group is one item whose text is its members' addresses.
            let text =
                completion.match.members.map { members in
                    members.map { MailAddressText.address(name: $0.name, email: $0.address) }.joined(separator: ", ")
                } ?? MailAddressText.address(name: completion.match.name, email: completion.match.address)
            let label = completion.match.members == nil ? text : "\(completion.match.name) (\(completion.match.info))"
            var item: [String: JSONValue] = [
                "label": .string(label), "kind": 18, "filterText": .string(typed),
                "sortText": .string(String(repeating: "0", count: width - String(rank).count) + String(rank)),
                "textEdit": ["range": range.json, "newText": .string(text)],
            ]
            if !completion.match.info.isEmpty { item["detail"] = .string(completion.match.info) }
            if let documentation = markdown.completionDocumentation(
                completion.contact, completing: completion.match.address)
            {
                item["documentation"] = ["kind": "markdown", "value": .string(documentation)]
            }
            return .object(item)
        }
        // Incomplete: the book is asked again as the word grows (it holds more than one page).
        return ["isIncomplete": true, "items": .array(items)]
    }

    // MARK: Hover

    private func hover(_ params: JSONValue?, _ server: LSPServer) throws -> JSONValue {
        let (uri, position) = try LSPParams.documentPosition(params)
        let document = try server.openDocument(uri)
        let draft = Self.draft(document)
        let location = MailDraft.Location(
            line: position.line, column: document.utf8Column(of: position, encoding: server.encoding))
        guard location.line < draft.headerLineCount, let address = draft.address(at: location) else { return .null }
        let value: String
        if let problem = address.problem {
            value = markdown.invalid(text(of: address, in: document), problem: problem)
        } else {
            let contacts = try worker.contacts(withEmail: address.email)
            value =
                contacts.isEmpty
                ? markdown.unknown(address.email) : contacts.map(markdown.card).joined(separator: "\n\n---\n\n")
        }
        return [
            "contents": ["kind": "markdown", "value": .string(value)],
            "range": range(of: address, in: document, server).json,
        ]
    }

    // MARK: Code actions

    private func codeActions(_ params: JSONValue?, _ server: LSPServer) throws -> JSONValue {
        let uri = try LSPParams.documentURI(params)
        let document = try server.openDocument(uri)
        let requested = try LSPRange(json: try LSPParams.object(params)["range"], name: "range")
        var only: [String]?
        if case .array(let kinds)? = params?["context"]?["only"] {
            only = kinds.compactMap { if case .string(let kind) = $0 { return kind } else { return nil } }
        }
        // LSP: a kind asked for covers its sub-kinds ("quickfix" is under "", itself and no other).
        if let only, !only.contains(where: { kind in kind.isEmpty || kind == "quickfix" }) { return [] }
        let draft = Self.draft(document)
        let from = MailDraft.Location(
            line: requested.start.line, column: document.utf8Column(of: requested.start, encoding: server.encoding))
        let to = MailDraft.Location(
            line: requested.end.line, column: document.utf8Column(of: requested.end, encoding: server.encoding))
        let unknown = try unknownRecipients(draft)
        let published = diagnostics(for: draft, unknown: unknown, in: document, server)
        var actions: [JSONValue] = []
        for address in draft.addresses where address.start <= to && from <= address.end {
            guard address.problem == nil, unknown.contains(address.email) else { continue }
            let text = MailAddressText.address(name: address.displayName, email: address.email)
            let title = "Add \(text) to contacts"
            actions.append([
                "title": .string(title), "kind": "quickfix",
                "diagnostics": .array(
                    published.filter {
                        $0["data"]?["email"] == .string(address.email)
                            && $0["range"] == range(of: address, in: document, server).json
                    }),
                "command": [
                    "title": .string(title), "command": .string(Command.addAddress),
                    "arguments": [["name": .string(address.displayName), "email": .string(address.email)]],
                ],
            ])
        }
        if !unknown.isEmpty {
            let title = "Add every unknown recipient"
            actions.append([
                "title": .string(title), "kind": "quickfix",
                "command": [
                    "title": .string(title), "command": .string(Command.addUnknown),
                    "arguments": [.string(uri)],
                ],
            ])
        }
        return .array(actions)
    }

    /// The valid addresses of the draft's headers that no contact holds.
    private func unknownRecipients(_ draft: MailDraft) throws -> Set<String> {
        try worker.unknown(draft.addresses.filter { $0.problem == nil }.map(\.email))
    }

    // MARK: Commands

    private func execute(_ params: JSONValue?, _ server: LSPServer) throws -> JSONValue {
        let command = try LSPParams.string(params, "command")
        var arguments: [JSONValue] = []
        switch try LSPParams.object(params)["arguments"] {
        case nil, .null?: break
        case .array(let items)?: arguments = items
        default: throw LSPParams.invalid("arguments", "must be an array")
        }
        switch command {
        case Command.addAddress:
            let recipient = try Self.recipient(arguments.first)
            return try added(try worker.add([recipient]), asked: [recipient], server)
        case Command.addUnknown:
            guard case .string(let uri)? = arguments.first else {
                throw LSPParams.invalid("arguments[0]", "must be the URI of an open document")
            }
            let draft = Self.draft(try server.openDocument(uri))
            let recipients = draft.addresses.filter { $0.problem == nil }.map {
                MailRecipient(name: $0.displayName, email: $0.email)
            }
            return try added(try worker.add(recipients), asked: recipients, server)
        case Command.search:
            let text = try LSPParams.optionalString(arguments.first, "arguments[0]") ?? ""
            var limit = 20
            switch arguments.count > 1 ? arguments[1] : JSONValue?.none {
            case nil, .null?: break
            case .integer(let number)? where (1...Self.maximumSearchLimit).contains(number): limit = number
            default: throw LSPParams.invalid("arguments[1]", "must be a limit from 1 to \(Self.maximumSearchLimit)")
            }
            let page = try worker.search(text, limit: limit)
            return ["total": .integer(page.total), "contacts": .array(page.contacts.map(Self.json))]
        case Command.show:
            let reference: String
            switch arguments.first {
            case .string(let text)?: reference = text
            case .integer(let id)?: reference = String(id)
            default: throw LSPParams.invalid("arguments[0]", "must name a contact: its number, UID, email or name")
            }
            let contact = try worker.resolve(reference)
            var result = Self.json(contact)
            if case .object(var members) = result {
                members["markdown"] = .string(markdown.card(contact))
                result = .object(members)
            }
            return result
        default:
            throw RPCError(
                code: RPCError.invalidParamsCode, message: "invalid params: unknown command \(command)",
                data: ["parameter": "command", "commands": .array(Command.all.map { .string($0) })])
        }
    }

    /// The result of an add: the contacts added and the addresses that were in the book
    /// already; a message for the person; diagnostics refreshed.
    private func added(_ contacts: [Contact], asked: [MailRecipient], _ server: LSPServer) throws -> JSONValue {
        let new = Set(contacts.flatMap { $0.emails.map(\.value) })
        let known = asked.map(\.email).filter { !new.contains($0) && !$0.isEmpty }
        let message =
            contacts.isEmpty
            ? "Nothing to add: \(known.isEmpty ? "no valid address" : "already in your contacts")"
            : "Added "
                + contacts.map { MailAddressText.address(name: $0.fullName, email: $0.emails.first?.value ?? "") }
                .joined(separator: ", ") + " to contacts"
        server.send("window/showMessage", ["type": 3, "message": .string(message)])
        for document in server.openDocuments { publish(document, server, always: false) }
        return [
            "added": .array(contacts.map(Self.json)), "known": .array(known.map { .string($0) }),
            "message": .string(message),
        ]
    }

    /// An address to add: `{"email": ..., "name": ...}` or the text `Name <email>`.
    static func recipient(_ argument: JSONValue?) throws -> MailRecipient {
        switch argument {
        case .string(let text)?:
            let draft = MailDraft(lines: ["To: " + text])
            guard draft.addresses.count == 1, let address = draft.addresses.first else {
                throw LSPParams.invalid("arguments[0]", "must be one address, such as Name <name@example.org>")
            }
            if let problem = address.problem { throw LSPParams.invalid("arguments[0]", problem) }
            return MailRecipient(name: address.displayName, email: address.email)
        case .object(let members)?:
            guard case .string(let email)? = members["email"] else {
                throw LSPParams.invalid("arguments[0].email", "is required (a string)")
            }
            let name = try LSPParams.optionalString(members["name"], "arguments[0].name") ?? ""
            if let problem = ParsedAddress.addrSpecProblem(email) {
                throw LSPParams.invalid("arguments[0].email", problem)
            }
            return MailRecipient(name: name, email: email)
        default:
            throw LSPParams.invalid("arguments[0]", "must be an address: {\"email\", \"name\"} or \"Name <email>\"")
        }
    }

    /// A contact as the pickers read it: every email and phone, and each address ready to insert.
    static func json(_ contact: Contact) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .integer(Int(contact.id ?? 0)), "uid": .string(contact.uid), "name": .string(contact.fullName),
            "organization": .string(contact.organization), "title": .string(contact.title),
            "emails": .array(contact.emails.map { ["label": .string($0.label), "value": .string($0.value)] }),
            "phones": .array(contact.phones.map { ["label": .string($0.label), "value": .string($0.value)] }),
            "addresses": .array(
                contact.emails.map { .string(MailAddressText.address(name: contact.fullName, email: $0.value)) }),
        ]
        if let birthday = contact.birthday { members["birthday"] = .string(birthday.isoString) }
        return .object(members)
    }

    // MARK: Diagnostics

    /// Publishes the document's diagnostics: always after an edit (their places moved), and
    /// after a change to the book only when they differ from those last sent.
    private func publish(_ document: LSPDocument, _ server: LSPServer, always: Bool) {
        let draft = Self.draft(document)
        let unknown: Set<String>
        do { unknown = try unknownRecipients(draft) } catch {
            return log(.warning, "diagnostics of \(document.uri): \(error)")
        }
        let diagnostics = JSONValue.array(diagnostics(for: draft, unknown: unknown, in: document, server))
        guard always || published[document.uri] != diagnostics else { return }
        published[document.uri] = diagnostics
        server.send(
            "textDocument/publishDiagnostics",
            ["uri": .string(document.uri), "version": .integer(document.version), "diagnostics": diagnostics])
    }

    private func diagnostics(for draft: MailDraft, unknown: Set<String>, in document: LSPDocument, _ server: LSPServer)
        -> [JSONValue]
    {
        draft.addresses.compactMap { address in
            let range = range(of: address, in: document, server).json
            if let problem = address.problem {
                return [
                    "range": range, "severity": 2, "source": "contactsbook", "code": "invalid-address",
                    "message": .string("\(text(of: address, in: document)) is not a valid address: it \(problem)"),
                ]
            }
            guard unknown.contains(address.email) else { return nil }
            return [
                "range": range, "severity": 4, "source": "contactsbook", "code": "unknown-address",
                "message": .string("\(address.email) is not in your contacts"),
                "data": ["name": .string(address.displayName), "email": .string(address.email)],
            ]
        }
    }

    private func range(of address: MailDraft.Address, in document: LSPDocument, _ server: LSPServer) -> LSPRange {
        LSPRange(
            start: document.position(
                line: address.start.line, utf8Column: address.start.column, encoding: server.encoding),
            end: document.position(line: address.end.line, utf8Column: address.end.column, encoding: server.encoding))
    }

    /// The address as written (its lines joined by a space when folded).
    private func text(of address: MailDraft.Address, in document: LSPDocument) -> String {
        (address.start.line...address.end.line).map { line -> String in
            let bytes = document.lineBytes(line)
            let from = line == address.start.line ? address.start.column : 0
            let to = line == address.end.line ? address.end.column : bytes.count
            return String(decoding: bytes.dropFirst(from).prefix(max(0, to - from)), as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
        }.joined(separator: " ")
    }
}
