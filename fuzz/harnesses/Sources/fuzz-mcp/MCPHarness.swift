import ContactsApp
import ContactsMCP
import Foundation
import FuzzSupport
import JSONBytes
import SceneCore
import SceneMCP
import SceneRPC

/// One input is what an agent could send `contactsbook --mcp` on stdin: JSON-RPC frames, either
/// framing, served by the MCP server over a fresh in-memory book of four contacts (fixed clock,
/// UIDs and locale). The tools that reach outside the book (import and export take a path, sync
/// the network) are left out: a mutated path would write anywhere.
///
/// Checks, beyond no crash, leak or hang:
/// - every frame written is well-formed JSON-RPC 2.0: a response (an id, and a result or an
///   error with an integer code and a message), a notification, or a batch of responses;
/// - the requests are answered in order, each exactly once with its own id, as the JSON-RPC
///   spec says reading the input independently of the server: one response per request or
///   invalid message (id null when it has none to give), none for a notification or a client's
///   response, one array for a batch with requests in it, one error for a batch past the limit;
///   nothing after the framing is lost. The one exception is a 2026 `subscriptions/listen`
///   request, which the server may hold open instead: then it sends exactly one
///   `notifications/subscriptions/acknowledged` naming that request's id, and no response.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMCP(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = input(start, count)
    // A small batch limit, so that batches past it are within the mutations' reach.
    let limits = FrameLimits(maxHeaderBytes: 256, maxBodyBytes: 8192, maxBatchLength: 8)
    let server = makeServer(limits: limits)
    // Chunked as a pipe could deliver it: the first byte picks the chunk size.
    let chunkSize = Int(bytes.first ?? 0) % 61 + 1
    var frames: [[UInt8]] = []
    var offset = 0
    while offset < bytes.count {
        frames += server.receive(Array(bytes[offset..<min(offset + chunkSize, bytes.count)]))
        offset += chunkSize
    }
    frames += server.endOfInput()

    var acknowledged: [JSONValue] = []
    let answered = frames.compactMap { answer(in: $0, framing: server.framing, acknowledged: &acknowledged) }
    var (expected, listens) = expectedAnswers(bytes, limits)
    // Each acknowledged listen request is one the input sent, and is not answered.
    for id in acknowledged {
        guard let index = listens.firstIndex(of: id) else {
            fatalError("a listen stream acknowledged for \(id.text), which no listen request in the input names")
        }
        listens.remove(at: index)
        if let at = expected.firstIndex(where: { $0.removingOne(id) != $0 }) {
            if let rest = expected[at].removingOne(id) { expected[at] = rest } else { expected.remove(at: at) }
        }
    }
    guard answered == expected else {
        fatalError("answered \(answered.map(\.description)), the requests call for \(expected.map(\.description))")
    }
    return 0
}

// MARK: The server

private let created = Date(timeIntervalSince1970: 1_700_000_000)
private let book = [
    Contact(
        uid: "uid-ann", givenName: "Ann", familyName: "Lee",
        phones: [LabeledValue(label: "mobile", value: "+15551234567")],
        emails: [LabeledValue(label: "work", value: "ann@example.org")],
        birthday: Birthday(year: 1990, month: 5, day: 17),
        createdAt: created, updatedAt: created),
    Contact(
        uid: "uid-ann2", givenName: "Ann", familyName: "Lee",
        emails: [LabeledValue(label: "home", value: "ann@example.org")],
        createdAt: created, updatedAt: created),
    Contact(
        uid: "uid-taro", givenName: "太郎", familyName: "山田",
        phones: [LabeledValue(label: "home", value: "03-1234-5678")],
        createdAt: created, updatedAt: created),
    Contact(
        uid: "uid-acme", organization: "Acme Inc.", emails: [LabeledValue(label: "work", value: "info@acme.example")],
        createdAt: created, updatedAt: created),
]

/// The server `runMCPServer` (main.swift's composition root) builds, over an in-memory book.
private func makeServer(limits: FrameLimits) -> RPCServer {
    var uids = 0
    let changes = ChangeHub()
    let progress = ProgressHub()
    let environment = ContactsEnvironment(
        store: InMemoryContactStore(book), now: { created.addingTimeInterval(86_400) },
        makeUID: {
            uids += 1; return "uid-\(uids)"
        }, locale: Locale(identifier: "en_US_POSIX"), timeZone: .gmt,
        changes: changes, progress: progress)
    let session = ContactsSceneFactory.makeSession(environment: environment)
    let outside: Set<String> = ["import", "export", "sync"]
    let mcp = MCPServer(
        name: "contactsbook", version: "fuzz", instructions: "a contacts book",
        tools: ContactsTools(session: session).all.filter { !outside.contains($0.name) },
        resources: ContactResources(environment: environment))
    let server = RPCServer(
        session: session, info: RPCServerInfo(name: "contactsbook", version: "fuzz"), limits: limits,
        progress: progress, log: { _, _ in }, protocolHandler: mcp)
    mcp.attach(to: server, changes: changes)
    return server
}

// MARK: What was answered

/// A response, or the responses of a batch, by id.
enum Answer: Equatable, CustomStringConvertible {
    case single(JSONValue)
    case batch([JSONValue])

    /// This answer without one response of `id`, nil when nothing is left; the first such id.
    func removingOne(_ id: JSONValue) -> Answer? {
        switch self {
        case .single(let only): return only == id ? nil : self
        case .batch(var ids):
            guard let index = ids.firstIndex(of: id) else { return self }
            ids.remove(at: index)
            return ids.isEmpty ? nil : .batch(ids)
        }
    }

    var description: String {
        switch self {
        case .single(let id): return id.text
        case .batch(let ids): return "[" + ids.map(\.text).joined(separator: ",") + "]"
        }
    }
}

/// The answer a frame holds, nil for a notification; stops at anything malformed.
private func answer(in frame: [UInt8], framing: Framing?, acknowledged: inout [JSONValue]) -> Answer? {
    let body: [UInt8]
    switch framing {
    case .newlineDelimited?:
        guard frame.last == UInt8(ascii: "\n") else { fatalError("a frame without its newline: \(text(frame))") }
        body = Array(frame.dropLast())
        guard !body.contains(UInt8(ascii: "\n")) else {
            fatalError("a line frame with a newline inside: \(text(frame))")
        }
    case .contentLength?:
        let header = Array("Content-Length: ".utf8)
        guard frame.starts(with: header),
            let end = frame.indices.first(where: { frame[$0...].starts(with: Array("\r\n\r\n".utf8)) }),
            let length = Int(String(decoding: frame[header.count..<end], as: UTF8.self)),
            length == frame.count - end - 4
        else { fatalError("a Content-Length frame that says a wrong length: \(text(frame))") }
        body = Array(frame[(end + 4)...])
    case nil:
        fatalError("a frame written before any framing was read: \(text(frame))")
    }
    let value: JSONValue
    do { value = try JSONValue.parse(body) } catch { fatalError("a frame that is not JSON (\(error)): \(text(frame))") }
    switch value {
    case .array(let responses):
        guard !responses.isEmpty else { fatalError("an empty batch answered") }
        return .batch(responses.map { responseID($0, frame) })
    case .object(let members) where members["method"] != nil:
        guard members["jsonrpc"] == "2.0", case .string? = members["method"], members["id"] == nil else {
            fatalError("a malformed notification: \(text(frame))")
        }
        if members["method"] == "notifications/subscriptions/acknowledged" {
            guard let id = members["params"]?["_meta"]?["io.modelcontextprotocol/subscriptionId"] else {
                fatalError("an acknowledgement without its request's id: \(text(frame))")
            }
            acknowledged.append(id)
        }
        return nil
    default:
        return .single(responseID(value, frame))
    }
}

/// The id of a well-formed response.
private func responseID(_ value: JSONValue, _ frame: [UInt8]) -> JSONValue {
    guard case .object(let members) = value, members["jsonrpc"] == "2.0", let id = members["id"],
        (members["result"] == nil) != (members["error"] == nil)
    else { fatalError("a malformed response: \(text(frame))") }
    if let error = members["error"] {
        guard case .integer? = error["code"], case .string? = error["message"] else {
            fatalError("a malformed error: \(text(frame))")
        }
    }
    switch id {
    case .string, .integer, .double, .null: return id
    default: fatalError("a response with an id that is no id: \(text(frame))")
    }
}

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes.prefix(600), as: UTF8.self) }

// MARK: What the requests call for (JSON-RPC 2.0, read here, not by the server)

/// The answers, and the ids of the `subscriptions/listen` requests (which may be held open instead).
private func expectedAnswers(_ bytes: [UInt8], _ limits: FrameLimits) -> ([Answer], listens: [JSONValue]) {
    var reader = FrameReader(limits: limits)
    var answers: [Answer] = []
    var listens: [JSONValue] = []
    func noteListen(_ message: JSONValue) {
        if case .object(let members) = message, members["method"] == "subscriptions/listen",
            let id = members["id"], expectedID(message) == id
        {
            listens.append(id)
        }
    }
    for event in reader.push(bytes) + reader.finish() {
        switch event {
        case .framingLost: return (answers, listens)
        case .oversized: answers.append(.single(.null))
        case .message(let body):
            switch try? JSONValue.parse(body) {
            case nil: answers.append(.single(.null)) // a parse error
            case .array(let elements)?:
                if elements.isEmpty || elements.count > limits.maxBatchLength {
                    answers.append(.single(.null)); continue
                }
                elements.forEach(noteListen)
                let ids = elements.compactMap(expectedID)
                if !ids.isEmpty { answers.append(.batch(ids)) }
            case let value?:
                noteListen(value)
                if let id = expectedID(value) { answers.append(.single(id)) }
            }
        }
    }
    return (answers, listens)
}

/// The id a message's response carries, or nil when it gets none (a notification, a client's response).
private func expectedID(_ message: JSONValue) -> JSONValue? {
    guard case .object(let members) = message else { return .null }
    let id = members["id"]
    switch id {
    case nil, .string?, .integer?, .double?, .null?: break
    default: return .null // an id that is no id: answered, without it
    }
    guard members["jsonrpc"] == "2.0" else { return id ?? .null }
    guard let method = members["method"] else {
        return id != nil && (members["result"] != nil || members["error"] != nil) ? nil : id ?? .null
    }
    guard case .string = method else { return id ?? .null }
    switch members["params"] {
    case nil, .object?, .array?: return id // a request, or a notification when it has no id
    default: return id ?? .null
    }
}
