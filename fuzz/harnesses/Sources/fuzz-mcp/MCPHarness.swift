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
///   response, one array for a batch with requests in it; nothing after the framing is lost.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMCP(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = input(start, count)
    let limits = FrameLimits(maxHeaderBytes: 256, maxBodyBytes: 8192)
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

    let answered = frames.compactMap { answer(in: $0, framing: server.framing) }
    let expected = expectedAnswers(bytes, limits)
    guard answered == expected else {
        fatalError("answered \(answered.map(\.description)), the requests call for \(expected.map(\.description))")
    }
    return 0
}

// MARK: The server

private let created = Date(timeIntervalSince1970: 1_700_000_000)
private let book = [
    Contact(uid: "uid-ann", givenName: "Ann", familyName: "Lee", phones: [LabeledValue(label: "mobile", value: "+15551234567")],
            emails: [LabeledValue(label: "work", value: "ann@example.org")], birthday: Birthday(year: 1990, month: 5, day: 17),
            createdAt: created, updatedAt: created),
    Contact(uid: "uid-ann2", givenName: "Ann", familyName: "Lee", emails: [LabeledValue(label: "home", value: "ann@example.org")],
            createdAt: created, updatedAt: created),
    Contact(uid: "uid-taro", givenName: "太郎", familyName: "山田", phones: [LabeledValue(label: "home", value: "03-1234-5678")],
            createdAt: created, updatedAt: created),
    Contact(uid: "uid-acme", organization: "Acme Inc.", emails: [LabeledValue(label: "work", value: "info@acme.example")],
            createdAt: created, updatedAt: created),
]

/// The server `runMCPServer` (main.swift's composition root) builds, over an in-memory book.
private func makeServer(limits: FrameLimits) -> RPCServer {
    var uids = 0
    let changes = ChangeHub()
    let progress = ProgressHub()
    let environment = ContactsEnvironment(
        store: InMemoryContactStore(book), now: { created.addingTimeInterval(86_400) },
        makeUID: { uids += 1; return "uid-\(uids)" }, locale: Locale(identifier: "en_US_POSIX"), timeZone: .gmt,
        changes: changes, progress: progress)
    let session = ContactsSceneFactory.makeSession(environment: environment)
    let outside: Set<String> = ["import", "export", "sync"]
    let mcp = MCPServer(name: "contactsbook", version: "fuzz", instructions: "a contacts book",
                        tools: ContactsTools(session: session).all.filter { !outside.contains($0.name) },
                        resources: ContactResources(environment: environment))
    let server = RPCServer(session: session, info: RPCServerInfo(name: "contactsbook", version: "fuzz"), limits: limits,
                           progress: progress, log: { _, _ in }, protocolHandler: mcp)
    mcp.attach(to: server, changes: changes)
    return server
}

// MARK: What was answered

/// A response, or the responses of a batch, by id.
enum Answer: Equatable, CustomStringConvertible {
    case single(JSONValue)
    case batch([JSONValue])

    var description: String {
        switch self {
        case .single(let id): return id.text
        case .batch(let ids): return "[" + ids.map(\.text).joined(separator: ",") + "]"
        }
    }
}

/// The answer a frame holds, nil for a notification; stops at anything malformed.
private func answer(in frame: [UInt8], framing: Framing?) -> Answer? {
    let body: [UInt8]
    switch framing {
    case .newlineDelimited?:
        guard frame.last == UInt8(ascii: "\n") else { fatalError("a frame without its newline: \(text(frame))") }
        body = Array(frame.dropLast())
        guard !body.contains(UInt8(ascii: "\n")) else { fatalError("a line frame with a newline inside: \(text(frame))") }
    case .contentLength?:
        let header = Array("Content-Length: ".utf8)
        guard frame.starts(with: header),
              let end = frame.indices.first(where: { frame[$0...].starts(with: Array("\r\n\r\n".utf8)) }),
              let length = Int(String(decoding: frame[header.count..<end], as: UTF8.self)),
              length == frame.count - end - 4 else { fatalError("a Content-Length frame that says a wrong length: \(text(frame))") }
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
        return nil
    default:
        return .single(responseID(value, frame))
    }
}

/// The id of a well-formed response.
private func responseID(_ value: JSONValue, _ frame: [UInt8]) -> JSONValue {
    guard case .object(let members) = value, members["jsonrpc"] == "2.0", let id = members["id"],
          (members["result"] == nil) != (members["error"] == nil) else { fatalError("a malformed response: \(text(frame))") }
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

private func expectedAnswers(_ bytes: [UInt8], _ limits: FrameLimits) -> [Answer] {
    var reader = FrameReader(limits: limits)
    var answers: [Answer] = []
    for event in reader.push(bytes) + reader.finish() {
        switch event {
        case .framingLost: return answers
        case .oversized: answers.append(.single(.null))
        case .message(let body):
            switch try? JSONValue.parse(body) {
            case nil: answers.append(.single(.null)) // a parse error
            case .array(let elements)?:
                if elements.isEmpty { answers.append(.single(.null)); continue }
                let ids = elements.compactMap(expectedID)
                if !ids.isEmpty { answers.append(.batch(ids)) }
            case let value?:
                if let id = expectedID(value) { answers.append(.single(id)) }
            }
        }
    }
    return answers
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
