import JSONBytes
import SceneCore
import SceneRPC

/// What an app serves over `LSPServer`: its capabilities and the requests beyond the
/// lifecycle and document sync, and what it does when documents or its data change.
public protocol LSPFeatures: AnyObject {
    /// Server capabilities the app adds to `initialize`'s (`completionProvider`, `hoverProvider`...).
    var capabilities: [String: JSONValue] { get }
    /// Answers a request; throws `RPCError.methodNotFound` for one it does not serve.
    func answer(method: String, params: JSONValue?, server: LSPServer) throws -> JSONValue
    /// A document was opened or edited (its text is the new one).
    func documentChanged(_ document: LSPDocument, server: LSPServer)
    /// A document was closed.
    func documentClosed(uri: String, server: LSPServer)
    /// Data changed: this session's (`changed == false`) or another process's.
    func dataChanged(_ changes: [DataChange], server: LSPServer)
}

/// The Language Server Protocol (3.17) spoken over SceneRPC's JSON-RPC layer: the lifecycle
/// (`initialize`, `initialized`, `shutdown`, `exit`), text document sync (full and
/// incremental), the position encoding agreed with the client, and the errors LSP names.
/// Framing, limits, batches and `$/cancelRequest` stay the RPC server's. It knows nothing of the
/// app: an `LSPFeatures` answers everything else.
public final class LSPServer: RPCProtocolHandler {
    enum State: Equatable { case awaitingInitialize, running, shuttingDown }

    public let name: String
    public let version: String
    private let features: LSPFeatures
    private let log: RPCServer.Log
    private var state = State.awaitingInitialize
    public private(set) var exitStatus: Int32?
    /// What `character` counts on this connection: UTF-16 unless the client offered UTF-8.
    public private(set) var encoding = PositionEncoding.utf16
    /// The client's `initialize` params (its capabilities), for features that depend on them.
    public private(set) var clientParams: JSONValue?
    private var documents: [String: LSPDocument] = [:]
    private var notify: ((String, JSONValue) -> Void)?

    public init(
        name: String, version: String, features: LSPFeatures,
        log: @escaping RPCServer.Log = RPCServer.logToStandardError
    ) {
        self.name = name; self.version = version; self.features = features; self.log = log
    }

    /// Sends the features' notifications through `server`, and tells them of the app's changes
    /// made in this session (`changes`; other processes' come through `receive(changesElsewhere:)`).
    public func attach(to server: RPCServer, changes: ChangeHub?) {
        attach(send: { [weak server] method, params in server?.notify(method, params) }, changes: changes)
    }

    /// `attach(to:changes:)` with notifications handed to `send` (tests read them there).
    public func attach(send: @escaping (String, JSONValue) -> Void, changes: ChangeHub?) {
        notify = send
        changes?.observe { [weak self] change in
            guard let self, self.state == .running else { return }
            self.features.dataChanged([change], server: self)
        }
    }

    /// Queues a server notification (`textDocument/publishDiagnostics`, `window/showMessage`).
    public func send(_ method: String, _ params: JSONValue) { notify?(method, params) }

    public func document(_ uri: String) -> LSPDocument? { documents[uri] }

    /// The open documents, in URI order (so notices go out in a stable order).
    public var openDocuments: [LSPDocument] { documents.keys.sorted().compactMap { documents[$0] } }

    /// The document a request names, or an invalid-params error when it is not open.
    public func openDocument(_ uri: String) throws -> LSPDocument {
        guard let document = documents[uri] else {
            throw LSPParams.invalid("textDocument.uri", "names a document that is not open: \(uri)")
        }
        return document
    }

    // MARK: RPCProtocolHandler

    public func answer(method: String, params: JSONValue?) throws -> JSONValue {
        switch (state, method) {
        case (_, "initialize"): return try initialize(params)
        case (.awaitingInitialize, _): throw RPCError.serverNotInitialized
        case (.shuttingDown, _):
            throw RPCError.invalidRequest("the server is shutting down; only exit is accepted")
        case (.running, "shutdown"):
            state = .shuttingDown
            return .null
        case (.running, _):
            return try features.answer(method: method, params: params, server: self)
        }
    }

    public func receive(notification method: String, params: JSONValue?) {
        if method == "exit" {
            exitStatus = state == .shuttingDown ? 0 : 1
            return
        }
        // LSP: notifications before `initialize` are dropped (only `exit` counts).
        guard state == .running else { return }
        do {
            switch method {
            case "textDocument/didOpen": try open(params)
            case "textDocument/didChange": try change(params)
            case "textDocument/didClose":
                let uri = try LSPParams.documentURI(params)
                documents[uri] = nil
                features.documentClosed(uri: uri, server: self)
            default:
                // `initialized`, `$/cancelRequest` (matched by the RPC server), `didSave`,
                // `$/setTrace`, `workspace/didChangeConfiguration`...: nothing to do.
                break
            }
        } catch let error as RPCError {
            log(.warning, "\(method): \(error.message)")
        } catch {
            log(.warning, "\(method): \(error)")
        }
    }

    /// Emacs's eglot 1.9 (Debian's) sends `shutdown` and `exit` with `"params": null`.
    public var readsNullParamsAsAbsent: Bool { true }

    public func receive(changesElsewhere changes: [DataChange]) {
        guard state == .running, !changes.isEmpty else { return }
        features.dataChanged(changes, server: self)
    }

    // MARK: Lifecycle and sync

    private func initialize(_ params: JSONValue?) throws -> JSONValue {
        guard state == .awaitingInitialize, clientParams == nil else {
            throw RPCError.invalidRequest("initialize may be sent only once")
        }
        switch params {
        case nil, .object?: break
        default: throw LSPParams.invalid("params", "must be an object")
        }
        let offered = params?["capabilities"]?["general"]?["positionEncodings"]
        if case .array(let kinds)? = offered, kinds.contains(.string(PositionEncoding.utf8.rawValue)) {
            encoding = .utf8
        }
        clientParams = params ?? [:]
        state = .running
        var capabilities = features.capabilities
        capabilities["positionEncoding"] = .string(encoding.rawValue)
        // Incremental: a keystroke sends the few characters typed, not the whole draft.
        capabilities["textDocumentSync"] = ["openClose": true, "change": 2]
        return [
            "capabilities": .object(capabilities), "serverInfo": ["name": .string(name), "version": .string(version)],
        ]
    }

    private func open(_ params: JSONValue?) throws {
        let members = try LSPParams.object(params)
        guard case .object(let item)? = members["textDocument"] else {
            throw LSPParams.invalid("textDocument", "is required (a TextDocumentItem)")
        }
        guard case .string(let uri)? = item["uri"], case .string(let text)? = item["text"] else {
            throw LSPParams.invalid("textDocument", "needs a uri and a text (strings)")
        }
        let languageID: String
        if case .string(let id)? = item["languageId"] { languageID = id } else { languageID = "" }
        var version = 0
        if case .integer(let number)? = item["version"] { version = number }
        let document = LSPDocument(uri: uri, languageID: languageID, version: version, text: text)
        documents[uri] = document
        features.documentChanged(document, server: self)
    }

    private func change(_ params: JSONValue?) throws {
        let uri = try LSPParams.documentURI(params)
        guard var document = documents[uri] else {
            throw LSPParams.invalid("textDocument.uri", "names a document that is not open: \(uri)")
        }
        guard case .array(let changes)? = try LSPParams.object(params)["contentChanges"] else {
            throw LSPParams.invalid("contentChanges", "is required (an array)")
        }
        // Checked whole before any is applied: a bad change leaves the document as it was.
        let edits: [(text: String, range: LSPRange?)] = try changes.enumerated().map { index, change in
            guard case .string(let text)? = change["text"] else {
                throw LSPParams.invalid("contentChanges[\(index)].text", "is required (a string)")
            }
            var range: LSPRange?
            if let value = change["range"], value != .null {
                range = try LSPRange(json: value, name: "contentChanges[\(index)].range")
            }
            return (text, range)
        }
        for edit in edits { document.apply(edit.text, in: edit.range, encoding: encoding) }
        if case .integer(let version)? = params?["textDocument"]?["version"] { document.setVersion(version) }
        documents[uri] = document
        features.documentChanged(document, server: self)
    }
}
