import Foundation

/// The three small parsers behind `FrameReader`: detection, header blocks, lines.
extension FrameReader {
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let headerPrefix = Array("content-".utf8)

    /// Skips a BOM and leading whitespace, then looks at up to 8 bytes to choose the framing.
    mutating func detect(atEnd: Bool) -> Step {
        if !checkedBOM {
            let head = Array(pending.prefix(3))
            if head.count < 3 && Self.byteOrderMark.starts(with: head) && !atEnd { return .wait }
            if head == Self.byteOrderMark { start += 3 }
            checkedBOM = true
        }
        while let first = pending.first, isWhitespace(first) { start += 1 }
        guard !pending.isEmpty else { return .wait }
        let head = pending.prefix(Self.headerPrefix.count).map(Self.lowercased)
        if head.count < Self.headerPrefix.count && Self.headerPrefix.starts(with: head) && !atEnd { return .wait }
        framing = head == Self.headerPrefix ? .contentLength : .newlineDelimited
        state = .headers
        scanned = start
        return .progress
    }

    /// Reads one header block when it is complete and moves on to its body.
    ///
    /// Byte by byte, without a String per header (that was a third of a small request's time):
    /// names compare ASCII-case-insensitively and values are trimmed of spaces and tabs, which is
    /// what decoding, `lowercased()` and trimming the text did for every name that can mean
    /// Content-Length.
    mutating func nextHeaderBlock() -> Step {
        var lineStart = start
        var sawHeader = false
        var length: ArraySlice<UInt8>?
        var conflicting = false
        while let newline = Self.firstNewline(in: buffer, from: lineStart) {
            var lineEnd = newline
            if lineEnd > lineStart && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = buffer[lineStart..<lineEnd]
            lineStart = newline + 1
            if lineStart - start > limits.maxHeaderBytes {
                return .event(lose("header block longer than \(limits.maxHeaderBytes) bytes"))
            }
            if line.isEmpty {
                // Blank lines before the first header are tolerated (a stray CRLF after a body).
                if !sawHeader { start = lineStart; continue }
                start = lineStart
                return beginBody(length: length, conflicting: conflicting)
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                return .event(lose("malformed header line '\(String(decoding: line, as: UTF8.self))'"))
            }
            sawHeader = true
            guard Self.isContentLength(Self.trimmed(line[..<colon])) else { continue }
            let value = Self.trimmed(line[(colon + 1)...])
            if let first = length {
                if !Self.sameText(first, value) { conflicting = true }
            } else {
                length = value
            }
        }
        if buffer.count - start > limits.maxHeaderBytes {
            return .event(lose("header block longer than \(limits.maxHeaderBytes) bytes"))
        }
        return .wait
    }

    private mutating func beginBody(length value: ArraySlice<UInt8>?, conflicting: Bool) -> Step {
        // Content-Type (and any other header) is accepted and ignored: bodies are always UTF-8 JSON.
        guard let value else { return .event(lose("missing Content-Length header")) }
        guard !conflicting else { return .event(lose("conflicting Content-Length headers")) }
        guard let length = Self.parseLength(value) else {
            return .event(
                lose(
                    "Content-Length '\(String(decoding: value, as: UTF8.self))' is not a byte count that fits in \(Int.max)"
                ))
        }
        if length > limits.maxBodyBytes {
            state = .skipping(remaining: length)
            return .event(.oversized(size: length, limit: limits.maxBodyBytes))
        }
        state = .body(length: length)
        return .progress
    }

    private static let contentLength = Array("content-length".utf8)

    private static func isContentLength(_ name: ArraySlice<UInt8>) -> Bool {
        name.count == contentLength.count && zip(name, contentLength).allSatisfy { lowercased($0) == $1 }
    }

    /// Equal as text: the same bytes, or (rarely) different bytes that Swift's `String` equality
    /// still calls equal, as the header values were compared before.
    private static func sameText(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        a.elementsEqual(b) || String(decoding: a, as: UTF8.self) == String(decoding: b, as: UTF8.self)
    }

    static func parseLength(_ text: String) -> Int? { parseLength(ArraySlice(text.utf8)) }

    /// Decimal digits only, with overflow checked (no sign, no spaces inside, no hex).
    static func parseLength(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard (0x30...0x39).contains(byte) else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - 0x30))
            if overflow1 || overflow2 { return nil }
            value = sum
        }
        return value
    }

    /// The next non-blank line of newline-delimited JSON (or the unterminated last one at EOF).
    mutating func nextLine(atEnd: Bool) -> Step {
        guard let newline = Self.firstNewline(in: buffer, from: max(start, scanned)) else {
            scanned = buffer.count
            if pending.count > limits.maxBodyBytes {
                let size = pending.count
                start = buffer.count
                state = .skipping(remaining: nil)
                return .event(.oversized(size: size, limit: limits.maxBodyBytes))
            }
            guard atEnd, !pending.isEmpty else { return .wait }
            return take(pending, next: buffer.count)
        }
        return take(buffer[start..<newline], next: newline + 1)
    }

    /// The index of the first LF at or after `from`, by `memchr` (a generic search was 4 % of a
    /// pipelined request, issue 32).
    private static func firstNewline(in bytes: [UInt8], from: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            guard from < buffer.count, let base = buffer.baseAddress,
                let found = memchr(base + from, 0x0A, buffer.count - from)
            else { return nil }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }
    }

    private mutating func take(_ line: ArraySlice<UInt8>, next: Int) -> Step {
        var line = line
        if line.last == 0x0D { line = line.dropLast() }
        start = next
        scanned = next
        if line.allSatisfy(isWhitespace) { return .progress }
        if line.count > limits.maxBodyBytes { return .event(.oversized(size: line.count, limit: limits.maxBodyBytes)) }
        return .event(.message(Array(line)))
    }

    /// Discards an oversized body, or an oversized line up to its newline.
    mutating func skip(_ remaining: Int?) -> Step {
        if let remaining {
            let taken = min(remaining, pending.count)
            start += taken
            state = taken == remaining ? .headers : .skipping(remaining: remaining - taken)
            return taken == remaining ? .progress : .wait
        }
        guard let newline = pending.firstIndex(of: 0x0A) else { start = buffer.count; return .wait }
        start = newline + 1
        scanned = start
        state = .headers
        return .progress
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    /// Without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        return bytes
    }
}
