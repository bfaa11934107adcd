import Foundation

/// One logical content line of a vCard file: the bytes after unfolding, and the physical line
/// (1-based) it starts on, for error messages.
struct VCardContentLine {
    var bytes: [UInt8]
    var line: Int
}

/// Splits a vCard file into logical content lines.
///
/// Works on bytes, not text, so that a writer that folded a line in the middle of a multi-byte
/// UTF-8 character (many do: RFC 6350 asks for 75 *octets*) is unfolded before anything is
/// decoded, and so that 2.1 values in Windows-1252 or ISO-8859-1 can be decoded per property.
enum VCardContentLines {
    private static let lf: UInt8 = 0x0A, cr: UInt8 = 0x0D, space: UInt8 = 0x20, tab: UInt8 = 0x09
    private static let equals: UInt8 = 0x3D, colon: UInt8 = 0x3A
    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Handles CRLF or LF endings, a leading byte-order mark, folding (a line break followed by
    /// one space or tab) and 2.1 quoted-printable soft line breaks (a QP value ending in `=`
    /// continues on the next line). Blank lines are dropped.
    static func split(_ data: Data) -> [VCardContentLine] {
        var result: [VCardContentLine] = []
        var splitter = Splitter()
        data.withUnsafeBytes { splitter.feed($0.bindMemory(to: UInt8.self)) { result.append($0) } }
        splitter.finish { result.append($0) }
        return result
    }

    /// `split`, a chunk of the file at a time: a line is handed out once the next line's first
    /// byte shows it is not continued, so a file of any size streams through a small buffer.
    struct Splitter {
        /// The last logical line, which the next physical line may still continue.
        private var pending: VCardContentLine?
        /// The start of a physical line whose end is in a later chunk.
        private var partial: [UInt8] = []
        private var lineNumber = 0
        private var atStart = true

        mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: (VCardContentLine) throws -> Void) rethrows {
            guard atStart else { return try feedLines(chunk, emit) }
            // The byte-order mark may itself arrive split across chunks.
            partial.append(contentsOf: chunk)
            if partial.count >= bom.count { try feedStart(emit) }
        }

        /// The first bytes, held until there are enough to tell a byte-order mark.
        private mutating func feedStart(_ emit: (VCardContentLine) throws -> Void) rethrows {
            atStart = false
            let buffered = partial
            partial = []
            let skip = buffered.starts(with: bom) ? bom.count : 0
            try buffered.withUnsafeBufferPointer { try feedLines(UnsafeBufferPointer(rebasing: $0[skip...]), emit) }
        }

        private mutating func feedLines(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (VCardContentLine) throws -> Void) rethrows {
            var start = 0
            while start < bytes.count {
                guard let newline = UnsafeBufferPointer(rebasing: bytes[start...]).firstIndex(of: lf) else {
                    partial.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
                    return
                }
                let end = start + newline
                if partial.isEmpty {
                    try physical(UnsafeBufferPointer(rebasing: bytes[start..<end]), emit)
                } else {
                    partial.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                    let line = partial
                    partial = []
                    try line.withUnsafeBufferPointer { try physical($0, emit) }
                }
                start = end + 1
            }
        }

        /// The end of the file: the last line, even without a line break.
        mutating func finish(_ emit: (VCardContentLine) throws -> Void) rethrows {
            if atStart { try feedStart(emit) }
            if !partial.isEmpty {
                let line = partial
                partial = []
                try line.withUnsafeBufferPointer { try physical($0, emit) }
            }
            if let last = pending { pending = nil; try emit(last) }
        }

        /// One physical line, without its LF.
        private mutating func physical(_ line: UnsafeBufferPointer<UInt8>, _ emit: (VCardContentLine) throws -> Void) rethrows {
            lineNumber += 1
            var count = line.count
            if count > 0 && line[count - 1] == cr { count -= 1 }
            let physical = UnsafeBufferPointer(rebasing: line[..<count])
            if pending != nil {
                if pending!.bytes.last == equals && isQuotedPrintable(pending!.bytes) {
                    pending!.bytes.removeLast()
                    pending!.bytes.append(contentsOf: physical)
                    return
                }
                if let first = physical.first, first == space || first == tab {
                    pending!.bytes.append(contentsOf: physical.dropFirst())
                    return
                }
            }
            guard !physical.allSatisfy({ $0 == space || $0 == tab }) else { return }
            if let last = pending { try emit(last) }
            pending = VCardContentLine(bytes: Array(physical), line: lineNumber)
        }
    }

    /// Whether the line's encoding is quoted-printable as `VCardProperty` reads it: its first
    /// ENCODING parameter (or 2.1's bare QUOTED-PRINTABLE, BASE64, ...) says so. Matched by
    /// parameter, not as text: an `X-A;CODING=QUOTED-PRINTABLE:...=` line is not QP, and its next
    /// line is a fold, not a continuation of a QP value.
    static func isQuotedPrintable(_ line: [UInt8]) -> Bool {
        let head = line.prefix { $0 != colon }
        guard head.count < line.count, head.contains(where: { $0 == UInt8(ascii: "Q") || $0 == UInt8(ascii: "q") })
        else { return false }
        var segments: [String] = [], start = head.startIndex, quoted = false
        for index in head.indices {
            if head[index] == UInt8(ascii: "\"") { quoted.toggle() }
            if head[index] == UInt8(ascii: ";") && !quoted {
                segments.append(String(decoding: head[start..<index], as: UTF8.self).uppercased())
                start = index + 1
            }
        }
        segments.append(String(decoding: head[start...], as: UTF8.self).uppercased())
        for segment in segments.dropFirst() {
            if let equals = segment.firstIndex(of: "=") {
                guard segment[..<equals] == "ENCODING" else { continue }
                return segment[segment.index(after: equals)...].prefix { $0 != "," } == "QUOTED-PRINTABLE"
            }
            if ["QUOTED-PRINTABLE", "BASE64", "B", "8BIT", "7BIT"].contains(segment) { return segment == "QUOTED-PRINTABLE" }
        }
        return false
    }
}
