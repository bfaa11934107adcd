import JSONBytes

/// Where whole frames go. The server's file-descriptor sink writes each with one `write(2)` loop
/// under no interleaving, so two frames can never mix on the wire.
public protocol FrameSink: AnyObject {
    func write(_ frame: [UInt8])
}

/// Frames outgoing messages in the framing the client spoke.
public struct FrameWriter {
    public let framing: Framing

    public init(framing: Framing) { self.framing = framing }

    /// One whole frame: header and body (Content-Length), or the JSON text and a newline.
    public func frame(_ body: [UInt8]) -> [UInt8] {
        switch framing {
        case .contentLength: return Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        case .newlineDelimited: return body + [0x0A]
        }
    }

    /// Appends one message as one whole frame to `buffer` (the file-descriptor loop's path:
    /// written straight into the output bytes, no intermediate arrays).
    func append(_ message: OutgoingMessage, to buffer: FrameBuffer) {
        buffer.append { append(message, to: &$0) }
    }

    /// Appends one whole frame, the same bytes `frame(message.json.serialized())` returns.
    func append(_ message: OutgoingMessage, to out: inout [UInt8]) {
        let start = out.count
        message.appendCompact(to: &out)
        switch framing {
        case .newlineDelimited: out.append(0x0A)
        case .contentLength:
            var header: [UInt8] = Array("Content-Length: ".utf8)
            header.append(contentsOf: String(out.count - start).utf8)
            header.append(contentsOf: [0x0D, 0x0A, 0x0D, 0x0A])
            out.insert(contentsOf: header, at: start)
        }
    }

    /// Writes one message to `sink` as one frame, in one call.
    public func write(_ message: JSONValue, to sink: FrameSink) {
        sink.write(frame(message.serialized()))
    }
}
