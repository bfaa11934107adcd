import FuzzSupport
import JSONBytes
import SceneRPC

/// One input is a byte stream as a client could send it on stdin.
///
/// Checks, beyond no crash, leak or hang:
/// - the frame reader finds the same events whatever the chunking (the first byte picks a chunk
///   size, so messages split across reads are exercised), and never buffers past its limits;
/// - every message the reader hands out, and the whole input, that parses as JSON is written
///   back as JSON that parses to the same value and is written the same again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = input(start, count)
    let limits = FrameLimits(maxHeaderBytes: 128, maxBodyBytes: 2048)

    var whole = FrameReader(limits: limits)
    let expected = whole.push(bytes) + whole.finish()

    let chunkSize = Int(bytes.first ?? 0) % 13 + 1
    var chunked = FrameReader(limits: limits)
    var events: [FrameEvent] = []
    var offset = 0
    while offset < bytes.count {
        events += chunked.push(bytes[offset..<min(offset + chunkSize, bytes.count)])
        offset += chunkSize
    }
    events += chunked.finish()
    guard events == expected else {
        fatalError("chunks of \(chunkSize) bytes gave \(events), the whole input \(expected)")
    }

    for case .message(let body) in events {
        guard body.count <= limits.maxBodyBytes else { fatalError("a message of \(body.count) bytes passed the limit") }
        checkRoundTrip(body)
    }
    checkRoundTrip(bytes)
    return 0
}

/// Parse → write → parse gives the same value, and the same text.
private func checkRoundTrip(_ body: [UInt8]) {
    guard let value = try? JSONValue.parse(body) else { return }
    let text = value.serialized()
    let again: JSONValue
    do {
        again = try JSONValue.parse(text)
    } catch {
        fatalError("the writer's text does not parse (\(error)): \(String(decoding: text, as: UTF8.self))")
    }
    guard again == value else {
        fatalError("\(value) was written as \(String(decoding: text, as: UTF8.self)), read back as \(again)")
    }
    guard again.serialized() == text else { fatalError("\(value) is written two ways") }
}
