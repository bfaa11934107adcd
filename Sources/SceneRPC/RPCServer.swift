import Foundation
import JSONBytes
import Logging
import SceneCore

/// The JSON-RPC 2.0 front end of a session.
///
/// Synchronous, and I/O-free: `receive(_:)` takes bytes as they were read and returns whole
/// frames to write, `endOfInput()` handles EOF; `handleLine(_:)` answers one JSON line of the plain
/// line session. A request that works long looks for its cancellation between two steps in what
/// its driver says is waiting (`waitingInput`), keeping other frames for after; the descriptors
/// are read and written only by the driver, `run(input:output:)` (`RPCServer+FileDescriptors.swift`).
public final class RPCServer {
    private var reader: FrameReader
    private var writer = FrameWriter(framing: .newlineDelimited)
    private let dispatcher: RPCDispatcher
    let log: Log
    public private(set) var isFinished = false
    private var framingLost = false
    /// Where frames go while input is processed; set only inside `process`.
    private var output: FrameOutput?
    /// What the input holds now, without waiting: asked while a request works, for its
    /// cancellation. `run` sets it to a poll of its descriptor; fed by hand, nothing is waiting.
    var waitingInput: (() -> WaitingInput)?
    /// Messages read while a request was running (looking for its cancellation), answered after it.
    private var readDuringRequest: [FrameEvent] = []
    /// Set when the input ended while a request was running.
    private(set) var inputEndedDuringRequest = false
    /// The id of the request being handled, whether its client asked to stop it, and whether the
    /// app saw that (then the answer is "request cancelled", whatever the app displayed).
    private var running: JSONValue?
    private var runningCancelRequested = false
    private var runningCancelObserved = false

    /// - Parameters:
    ///   - session: the app's session; every method runs through it.
    ///   - info: the name and version reported by `initialize`.
    ///   - limits: header and body bounds of the framing.
    ///   - changes: where the app posts data changes, sent as `session/dataChanged`.
    ///   - progress: where the app reports long work, sent as `$/progress` (or MCP's
    ///     `notifications/progress`) while a request that carried a progress token is handled.
    ///   - log: where diagnostics go (stderr by default; never stdout).
    ///   - protocolHandler: another protocol (MCP) answering every request and notification in
    ///     place of the session's methods, over this server's framing, limits and errors.
    public init(
        session: Session, info: RPCServerInfo, limits: FrameLimits = FrameLimits(),
        changes: ChangeHub? = nil, progress: ProgressHub? = nil,
        log: @escaping Log = RPCServer.logToStandardError, protocolHandler: RPCProtocolHandler? = nil
    ) {
        reader = FrameReader(limits: limits)
        dispatcher = RPCDispatcher(session: session, info: info, log: log)
        dispatcher.protocolHandler = protocolHandler
        self.log = log
        changes?.observe { [weak dispatcher] change in
            dispatcher?.notify("session/dataChanged", (try? JSONValueEncoder.encode(change)) ?? .null)
        }
        progress?.observe { [weak dispatcher] event in dispatcher?.progress(event) }
        progress?.observeCancellation { [weak self] in self?.isRunningRequestCancelled() ?? false }
        dispatcher.onProgress = { [weak self] in self?.flushOutbox() }
    }

    /// Queues a server notification; it is written with the answers to the input being handled,
    /// or with the next ones (a protocol handler's own notices, such as MCP's resource updates).
    public func notify(_ method: String, _ params: JSONValue) {
        dispatcher.notify(method, params)
    }

    /// The framing detected from the client's first bytes (nil before any).
    public var framing: Framing? { reader.framing }

    public var lifecycle: RPCLifecycle { dispatcher.lifecycle }

    /// The process exit status: 0 after a clean end (EOF, or `shutdown` then `exit`),
    /// 1 after `exit` without `shutdown` or when framing was lost.
    public var exitStatus: Int32 {
        if framingLost { return 1 }
        if case .exited(let status) = dispatcher.lifecycle { return status }
        if let status = dispatcher.protocolHandler?.exitStatus { return status }
        return 0
    }

    /// Handles bytes just read; returns the frames to write, each whole, in order.
    public func receive(_ bytes: [UInt8]) -> [[UInt8]] {
        collecting { receive(bytes, emit: $0) }
    }

    /// Handles bytes just read, handing each frame to `emit` as soon as it is ready: a progress
    /// notification goes out while its request is still running, everything else in order.
    public func receive(_ bytes: [UInt8], emit: @escaping ([UInt8]) -> Void) {
        guard !isFinished else { return }
        process(reader.push(bytes), emit: emit)
    }

    /// Handles bytes just read, appending the frames to `buffer` (which flushes itself when it
    /// grows large, and when progress is posted mid-request); the caller flushes it afterwards.
    func receive<Bytes: Sequence>(_ bytes: Bytes, into buffer: FrameBuffer) where Bytes.Element == UInt8 {
        guard !isFinished else { return }
        process(reader.push(bytes), output: .buffer(buffer))
    }

    /// Handles end of input, appending the frames to `buffer`.
    func endOfInput(into buffer: FrameBuffer) {
        guard !isFinished else { return }
        process(reader.finish(), output: .buffer(buffer))
        isFinished = true
    }

    /// Sends changes another process made, unasked, as `session/dataChanged` (between requests:
    /// never inside another message), or hands them to the protocol handler, which tells them
    /// in its own words. Not before the client's first bytes say its framing.
    func announce(_ changes: [DataChange], into buffer: FrameBuffer) {
        guard !isFinished, reader.framing != nil, !changes.isEmpty else { return }
        post(changes)
        process([], output: .buffer(buffer))
    }

    /// Changes another process made (what a `ChangeWatch` found), as `announce(_:into:)` sends
    /// them; returns the frames to write.
    public func announce(_ changes: [DataChange]) -> [[UInt8]] {
        guard !isFinished, reader.framing != nil, !changes.isEmpty else { return [] }
        return collecting { emit in
            post(changes)
            process([], emit: emit)
        }
    }

    private func post(_ changes: [DataChange]) {
        if let handler = dispatcher.protocolHandler { return handler.receive(changesElsewhere: changes) }
        for change in changes {
            dispatcher.notify("session/dataChanged", (try? JSONValueEncoder.encode(change)) ?? .null)
        }
    }

    /// One frame read as messages, a batch held to this reader's limit.
    private func incoming(_ event: FrameEvent) -> Incoming {
        Incoming(
            event, maxBatchLength: reader.limits.maxBatchLength,
            nullParamsAbsent: dispatcher.protocolHandler?.readsNullParamsAsAbsent ?? false)
    }

    /// Handles end of input (a last unterminated line counts) and finishes the session.
    public func endOfInput() -> [[UInt8]] {
        collecting { endOfInput(emit: $0) }
    }

    /// Handles end of input, handing each frame to `emit` as soon as it is ready.
    public func endOfInput(emit: @escaping ([UInt8]) -> Void) {
        guard !isFinished else { return }
        process(reader.finish(), emit: emit)
        isFinished = true
    }

    private func collecting(_ body: (@escaping ([UInt8]) -> Void) -> Void) -> [[UInt8]] {
        final class Frames { var all: [[UInt8]] = [] }
        let frames = Frames()
        body { frames.all.append($0) }
        return frames.all
    }

    /// For the plain line session: answers a line that starts with `{` or `[` as newline-delimited
    /// JSON-RPC (initialize optional). Returns the JSON lines to print (notifications first, then
    /// the response), joined by "\n" without a final newline, or nil when there is nothing to print.
    public func handleLine(_ line: String) -> String? {
        guard !isFinished else { return nil }
        let frames = collecting { process([.message(Array(line.utf8))], framing: .newlineDelimited, emit: $0) }
        let lines = frames.map { frame in String(decoding: frame.dropLast(), as: UTF8.self) }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// The introspection document `session/describe` returns, pretty-printed, for `--api-info`.
    public static func apiInfo(sceneKinds: [SceneDescriptor], info: RPCServerInfo) -> String {
        let document = RPCDescription.document(
            catalog: MethodCatalog(sceneKinds: sceneKinds),
            sceneKinds: sceneKinds, info: info)
        return String(decoding: document.serialized(pretty: true), as: UTF8.self)
    }

    /// Where the server's diagnostics go, with how much each matters; the composition root
    /// hands them to its logger, which filters them by the level the user chose.
    public typealias Log = (Logger.Level, String) -> Void

    /// Writes a line to stderr, whatever its level: the default for servers built without a logger.
    public static func logToStandardError(_ level: Logger.Level, _ text: String) {
        let program = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "") } ?? ""
        FileHandle.standardError.write(Data("\(program.isEmpty ? "rpc" : program): \(text)\n".utf8))
    }

    /// Answers the events in order, writing each response right after the notifications its
    /// request caused (progress ones as soon as they are posted).
    private func process(_ events: [FrameEvent], framing: Framing? = nil, emit: @escaping ([UInt8]) -> Void) {
        process(events, framing: framing, output: .frames(emit))
    }

    func process(_ events: [FrameEvent], framing: Framing? = nil, output: FrameOutput) {
        if let detected = framing ?? reader.framing, writer.framing != detected || dispatcher.framing != detected {
            writer = FrameWriter(framing: detected)
            dispatcher.framing = detected
            dispatcher.requiresInitialize = detected == .contentLength
        }
        self.output = output
        defer { self.output = nil }
        var incoming = events.map { self.incoming($0) }
        var cancelled = Self.cancelledIDs(in: incoming)
        var next = 0
        while next < incoming.count, !isFinished {
            defer {
                next += 1
                // What was read while a request ran is answered next, in order.
                if !readDuringRequest.isEmpty {
                    let more = readDuringRequest.map { self.incoming($0) }
                    readDuringRequest = []
                    cancelled.formUnion(Self.cancelledIDs(in: more))
                    incoming += more
                }
            }
            switch incoming[next] {
            case .single(let message):
                let response = answer(message, &cancelled)
                sendOutbox()
                if let response { send(response) }
            case .batch(let messages):
                let responses = messages.compactMap { answer($0, &cancelled) }
                sendOutbox()
                if !responses.isEmpty { send(.batch(responses)) }
            case .lost(let reason):
                log(.error, "framing lost: \(reason); ending the session")
                framingLost = true
                isFinished = true
            }
            if case .exited = dispatcher.lifecycle { isFinished = true }
            if dispatcher.protocolHandler?.exitStatus != nil { isFinished = true }
        }
        // Changes the app posted outside any request still reach the client.
        sendOutbox()
    }

    private func send(_ message: OutgoingMessage) {
        switch output {
        case .frames(let emit)?:
            var body: [UInt8] = []
            message.appendCompact(to: &body)
            emit(writer.frame(body))
        case .buffer(let buffer)?: writer.append(message, to: buffer)
        case nil: break
        }
    }

    private func sendOutbox() {
        guard dispatcher.hasOutbox else { return }
        for message in dispatcher.takeOutbox() { send(message) }
    }

    /// Writes what is queued and buffered so far at once (called when progress is posted
    /// mid-request, with or without a token). Outside `process` there is nowhere to write, so
    /// it waits for the next input.
    private func flushOutbox() {
        guard output != nil else { return }
        sendOutbox()
        if case .buffer(let buffer)? = output { buffer.flush() }
    }

    private func answer(_ message: IncomingMessage, _ cancelled: inout Set<JSONValue>) -> OutgoingMessage? {
        if case .exited = dispatcher.lifecycle { return nil }
        if dispatcher.protocolHandler?.exitStatus != nil { return nil }
        var isCancelled = false
        guard case .request(let id, _, _) = message else { return dispatcher.handle(message, cancelled: false) }
        // Hashing the id for an empty set was 1 % of a pipelined request (issue 32).
        isCancelled = !cancelled.isEmpty && cancelled.remove(id) != nil
        running = id
        runningCancelRequested = false
        runningCancelObserved = false
        defer { running = nil }
        let response = dispatcher.handle(message, cancelled: isCancelled)
        return runningCancelObserved ? .error(id: id, .requestCancelled) : response
    }

    /// Asked by long work between two steps (through the `ProgressHub`): reads what the client
    /// has sent meanwhile, without waiting, and says whether it cancels the running request.
    /// A request read meanwhile is answered at once that the session is busy (it runs one at a
    /// time, and the work may take minutes), unless the running one is cancelled: then it is
    /// answered right after, as are notifications and batches.
    private func isRunningRequestCancelled() -> Bool {
        guard let id = running else { return false }
        for event in readWaitingInput() {
            let read = self.incoming(event)
            if read.messages.contains(where: { $0.cancelledID == id }) { runningCancelRequested = true }
            if !runningCancelRequested, case .single(.request(let other, _, _)) = read {
                send(.error(id: other, .busy(running: id)))
                flushOutbox()
                continue
            }
            readDuringRequest.append(event)
        }
        if runningCancelRequested { runningCancelObserved = true }
        return runningCancelRequested
    }

    /// The frames in what the driver's input holds now (nothing when it holds nothing, or when fed by hand).
    private func readWaitingInput() -> [FrameEvent] {
        guard let waitingInput, !inputEndedDuringRequest else { return [] }
        var events: [FrameEvent] = []
        while true {
            switch waitingInput() {
            case .nothing: return events
            case .ended:
                inputEndedDuringRequest = true
                return events
            case .bytes(let bytes): events += reader.push(bytes)
            }
        }
    }

    /// Requests read but not yet handled that a later cancellation in the same read names.
    /// Dispatch is synchronous, so only these can still be cancelled.
    private static func cancelledIDs(in incoming: [Incoming]) -> Set<JSONValue> {
        // Most reads hold no cancellation at all: then nothing is hashed.
        guard incoming.contains(where: \.holdsCancellation) else { return [] }
        var queued = Set<JSONValue>()
        var cancelled = Set<JSONValue>()
        for message in incoming.flatMap(\.messages) {
            if case .request(let id, _, _) = message { queued.insert(id) }
            if let id = message.cancelledID, queued.contains(id) { cancelled.insert(id) }
        }
        return cancelled
    }
}

/// What a driver's input holds at a moment, asked without waiting (`RPCServer.waitingInput`).
enum WaitingInput {
    case bytes(ArraySlice<UInt8>)
    /// Nothing yet; more may come.
    case nothing
    case ended
}

/// Where `process` writes frames: handed out one by one, or appended to a buffer that the
/// file-descriptor loop writes in one call once no complete frame is left in its input.
enum FrameOutput {
    case frames(([UInt8]) -> Void)
    case buffer(FrameBuffer)
}

/// A frame event decoded into messages.
private enum Incoming {
    case single(IncomingMessage)
    case batch([IncomingMessage])
    case lost(String)

    init(_ event: FrameEvent, maxBatchLength: Int, nullParamsAbsent: Bool = false) {
        switch event {
        case .message(let bytes):
            // The common case: an envelope read in place, without a dictionary.
            if let message = IncomingMessage(envelope: bytes, nullParamsAbsent: nullParamsAbsent) {
                self = .single(message)
                return
            }
            do {
                // A batch past the limit is counted, not kept: memory stays bounded by the limit.
                switch try JSONValue.parse(bytes, arrayLimit: maxBatchLength) {
                case (nil, let length):
                    self = .single(
                        .invalid(
                            id: .null,
                            .invalidRequest(
                                "a batch of \(length) messages exceeds the limit of \(maxBatchLength)",
                                data: ["length": .integer(length), "limit": .integer(maxBatchLength)])))
                case (.array(let elements)?, _) where elements.isEmpty:
                    self = .single(.invalid(id: .null, .invalidRequest("an empty batch")))
                case (.array(let elements)?, _):
                    self = .batch(elements.map { IncomingMessage($0, nullParamsAbsent: nullParamsAbsent) })
                case (let value?, _): self = .single(IncomingMessage(value, nullParamsAbsent: nullParamsAbsent))
                }
            } catch {
                switch error {
                case .invalidUTF8: self = .single(.invalid(id: .null, .parseError("the message is not valid UTF-8")))
                case .invalidJSON(let reason): self = .single(.invalid(id: .null, .parseError(reason)))
                }
            }
        case .oversized(let size, let limit):
            self = .single(
                .invalid(
                    id: .null,
                    .invalidRequest(
                        "a message of \(size) bytes exceeds the limit of \(limit)",
                        data: ["size": .integer(size), "limit": .integer(limit)])))
        case .framingLost(let reason):
            self = .lost(reason)
        }
    }

    /// Whether a message of it cancels a request; asked of every read, so without `messages`' array.
    var holdsCancellation: Bool {
        switch self {
        case .single(let message): return message.cancelledID != nil
        case .batch(let messages): return messages.contains { $0.cancelledID != nil }
        case .lost: return false
        }
    }

    var messages: [IncomingMessage] {
        switch self {
        case .single(let message): return [message]
        case .batch(let messages): return messages
        case .lost: return []
        }
    }
}
