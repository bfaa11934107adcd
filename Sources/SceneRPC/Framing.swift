/// How messages are delimited on the byte stream. Detected from the first bytes; answers use the same.
public enum Framing: String, Equatable, Sendable {
    /// `Content-Length: N` headers, a blank line, then N bytes (LSP style; what editor clients speak).
    case contentLength
    /// One JSON text per line (scripts, MCP-style clients).
    case newlineDelimited
}

/// Bounds that keep a hostile or broken client from making the server buffer without end.
public struct FrameLimits: Equatable, Sendable {
    /// Bytes of one header block (Content-Length framing), terminator included.
    public var maxHeaderBytes: Int
    /// Bytes of one message body (or one line, for newline-delimited JSON).
    public var maxBodyBytes: Int
    /// Messages in one batch: a longer batch is refused whole (`-32600`). The body limit bounds
    /// what a batch asks; this bounds what its answer holds, every response being kept until the
    /// batch's array is written.
    public var maxBatchLength: Int

    public init(maxHeaderBytes: Int = 8 * 1024, maxBodyBytes: Int = 16 * 1024 * 1024, maxBatchLength: Int = 1_000) {
        self.maxHeaderBytes = maxHeaderBytes; self.maxBodyBytes = maxBodyBytes; self.maxBatchLength = maxBatchLength
    }
}

/// What the reader found in the stream, in order.
public enum FrameEvent: Equatable, Sendable {
    /// One message body, not yet parsed.
    case message([UInt8])
    /// A message longer than the limit was skipped; the stream goes on (answered `-32600`).
    case oversized(size: Int, limit: Int)
    /// The stream can no longer be split into messages (bad header, length overflow, cut off
    /// inside a frame). Nothing more is read; the server says why on stderr and ends.
    case framingLost(String)
}

/// Splits the incoming byte stream into messages, whatever the chunking.
///
/// Feed it bytes as `read(2)` returns them and call `finish()` at end of input. It skips a UTF-8
/// byte order mark, then decides the framing: `Content-...` headers mean Content-Length framing,
/// anything else newline-delimited JSON (so a stray word gets a parse error, not a lost stream).
public struct FrameReader {
    public let limits: FrameLimits
    /// Nil until enough bytes have arrived to tell.
    public internal(set) var framing: Framing?
    var buffer: [UInt8] = []
    /// Bytes of `buffer` already consumed; compacted lazily so byte-at-a-time input stays linear.
    var start = 0
    /// Where the search for the next newline resumes (no newline before it), for the same reason.
    var scanned = 0
    var state = State.detecting
    var checkedBOM = false

    enum State: Equatable {
        case detecting
        case headers
        case body(length: Int)
        /// Discarding an oversized body (`remaining` bytes) or line (`remaining` nil: to the next newline).
        case skipping(remaining: Int?)
        case lost
    }

    public init(limits: FrameLimits = FrameLimits()) { self.limits = limits }

    /// Whether framing was lost; nothing more will be returned.
    public var isLost: Bool { state == .lost }

    /// Takes newly arrived bytes and returns every event they complete.
    public mutating func push<Bytes: Sequence>(_ bytes: Bytes) -> [FrameEvent] where Bytes.Element == UInt8 {
        guard state != .lost else { return [] }
        buffer.append(contentsOf: bytes)
        let events = drain(atEnd: false)
        compact()
        return events
    }

    /// End of input: a last line without a newline is a message; a cut-off frame is reported.
    public mutating func finish() -> [FrameEvent] {
        guard state != .lost else { return [] }
        var events = drain(atEnd: true)
        switch state {
        case .headers where framing == .contentLength && pending.contains(where: { !isWhitespace($0) }),
            .body, .skipping(remaining: .some):
            events.append(lose("input ended inside a message"))
        default: break
        }
        buffer = []; start = 0; scanned = 0
        return events
    }

    var pending: ArraySlice<UInt8> { buffer[start...] }

    enum Step { case event(FrameEvent), progress, wait }

    private mutating func drain(atEnd: Bool) -> [FrameEvent] {
        var events: [FrameEvent] = []
        while true {
            switch step(atEnd: atEnd) {
            case .event(let event): events.append(event)
            case .progress: continue
            case .wait: return events
            }
        }
    }

    private mutating func step(atEnd: Bool) -> Step {
        switch state {
        case .detecting: return detect(atEnd: atEnd)
        case .headers: return framing == .newlineDelimited ? nextLine(atEnd: atEnd) : nextHeaderBlock()
        case .body(let length):
            guard pending.count >= length else { return .wait }
            let body = Array(buffer[start..<start + length])
            start += length
            state = .headers
            return .event(.message(body))
        case .skipping(let remaining): return skip(remaining)
        case .lost: return .wait
        }
    }

    private mutating func compact() {
        if start > 4096 && start * 2 > buffer.count {
            buffer.removeFirst(start)
            scanned = max(0, scanned - start)
            start = 0
        }
    }

    func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    mutating func lose(_ reason: String) -> FrameEvent {
        state = .lost; buffer = []; start = 0; scanned = 0
        return .framingLost(reason)
    }
}
