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
    mutating func nextHeaderBlock() -> Step {
        var lineStart = start
        var headers: [(name: String, value: String)] = []
        while let newline = buffer[lineStart...].firstIndex(of: 0x0A) {
            var line = buffer[lineStart..<newline]
            if line.last == 0x0D { line = line.dropLast() }
            lineStart = newline + 1
            if lineStart - start > limits.maxHeaderBytes {
                return .event(lose("header block longer than \(limits.maxHeaderBytes) bytes"))
            }
            if line.isEmpty {
                // Blank lines before the first header are tolerated (a stray CRLF after a body).
                if headers.isEmpty { start = lineStart; continue }
                start = lineStart
                return beginBody(headers)
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                return .event(lose("malformed header line '\(String(decoding: line, as: UTF8.self))'"))
            }
            headers.append((Self.trimmed(line[..<colon]).lowercased(), Self.trimmed(line[(colon + 1)...])))
        }
        if buffer.count - start > limits.maxHeaderBytes {
            return .event(lose("header block longer than \(limits.maxHeaderBytes) bytes"))
        }
        return .wait
    }

    private mutating func beginBody(_ headers: [(name: String, value: String)]) -> Step {
        // Content-Type (and any other header) is accepted and ignored: bodies are always UTF-8 JSON.
        let lengths = headers.filter { $0.name == "content-length" }.map(\.value)
        guard let text = lengths.first else { return .event(lose("missing Content-Length header")) }
        guard Set(lengths).count == 1 else { return .event(lose("conflicting Content-Length headers")) }
        guard let length = Self.parseLength(text) else {
            return .event(lose("Content-Length '\(text)' is not a byte count that fits in \(Int.max)"))
        }
        if length > limits.maxBodyBytes {
            state = .skipping(remaining: length)
            return .event(.oversized(size: length, limit: limits.maxBodyBytes))
        }
        state = .body(length: length)
        return .progress
    }

    /// Decimal digits only, with overflow checked (no sign, no spaces inside, no hex).
    static func parseLength(_ text: String) -> Int? {
        guard !text.isEmpty else { return nil }
        var value = 0
        for byte in text.utf8 {
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
        guard let newline = buffer[max(start, scanned)...].firstIndex(of: 0x0A) else {
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

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
    }
}
