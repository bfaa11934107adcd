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

    /// Writes one message to `sink` as one frame, in one call.
    public func write(_ message: JSONValue, to sink: FrameSink) {
        sink.write(frame(message.serialized()))
    }
}
