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
            // The header, known once the body is written, goes before it; made on the stack (an
            // array and a `String` for each frame were 3 % of a pipelined request, issue 32).
            var length = out.count - start
            var header: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &header) { buffer in
                // Right to left: CR LF CR LF, the digits, then "Content-Length: " (16 + 20 + 4 ≤ 40).
                var at = buffer.count - 4
                buffer[at] = 0x0D; buffer[at + 1] = 0x0A; buffer[at + 2] = 0x0D; buffer[at + 3] = 0x0A
                repeat {
                    at -= 1
                    buffer[at] = UInt8(ascii: "0") + UInt8(length % 10)
                    length /= 10
                } while length > 0
                let prefix: StaticString = "Content-Length: "
                at -= prefix.utf8CodeUnitCount
                UnsafeMutableRawBufferPointer(rebasing: buffer[at...]).copyMemory(
                    from: UnsafeRawBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
                out.insert(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[at...]), at: start)
            }
        }
    }

    /// Writes one message to `sink` as one frame, in one call.
    public func write(_ message: JSONValue, to sink: FrameSink) {
        sink.write(frame(message.serialized()))
    }
}
