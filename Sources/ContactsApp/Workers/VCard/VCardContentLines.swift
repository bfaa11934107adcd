import Foundation

/// One logical content line of a vCard file: the bytes after unfolding, and the physical line
/// (1-based) it starts on, for error messages.
struct VCardContentLine {
    var bytes: [UInt8]
    var line: Int
    /// What the splitter had to guess in joining this line (a 2.1 backslash continuation), by
    /// physical line, for the import's report. Nil for nearly every line (nil costs nothing to
    /// release; an empty array still goes through the runtime).
    var remarks: [(line: Int, reason: String)]?
    /// Longer than the splitter's limit: the bytes past it were dropped as they came (an
    /// endless line, `/dev/zero`, never grows memory), and the line is unreadable.
    var overlong = false
}

/// Splits a vCard file into logical content lines.
///
/// Works on bytes, not text, so that a writer that folded a line in the middle of a multi-byte
/// UTF-8 character (many do: RFC 6350 asks for 75 *octets*) is unfolded before anything is
/// decoded, and so that 2.1 values in Windows-1252 or ISO-8859-1 can be decoded per property.
enum VCardContentLines {
    private static let lf: UInt8 = 0x0A, cr: UInt8 = 0x0D, space: UInt8 = 0x20, tab: UInt8 = 0x09
    private static let equals: UInt8 = 0x3D, colon: UInt8 = 0x3A, backslash: UInt8 = 0x5C
    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Handles CRLF, LF, CR CR LF (iOS 6 writes it) or bare CR (classic Mac OS) endings, a
    /// leading byte-order mark, folding (a line break followed by one space or tab), 2.1
    /// quoted-printable soft line breaks (a QP value ending in `=` continues on the next line)
    /// and 2.1 backslash continuations (see `physical`). Blank lines are dropped.
    static func split(_ data: Data, maximumLineBytes: Int = .max) -> [VCardContentLine] {
        var result: [VCardContentLine] = []
        var splitter = Splitter(maximumLineBytes: maximumLineBytes)
        data.withUnsafeBytes { splitter.feed($0.bindMemory(to: UInt8.self)) { result.append($0) } }
        splitter.finish { result.append($0) }
        return result
    }

    /// How the file ends its lines, decided once from its first line break: a CR inside a line
    /// of an LF file is part of a value (fuzz-vcard found writers that leave one), so a CR ends
    /// a line only in a file whose first line ended with a CR alone; and a CR before the CRLF
    /// is taken as part of the line end only in a file whose first line ended CR CR LF (a value
    /// folded right after a CR it holds ends its line with CR CR LF too).
    private enum LineEnds: Equatable { case undecided, lf, crcrlf, cr }

    /// `split`, a chunk of the file at a time: a line is handed out once the next line's first
    /// byte shows it is not continued, so a file of any size streams through a small buffer.
    struct Splitter {
        /// The last logical line, which the next physical line may still continue.
        private var pending: VCardContentLine?
        /// The physical line `pending` ends on (a backslash continuation names it).
        private var pendingEnd = 0
        /// The start of a physical line whose end is in a later chunk (or, until the line ends
        /// are decided, every byte so far).
        private var partial: [UInt8] = []
        private var lineNumber = 0
        private var ends = LineEnds.undecided
        /// CR files: the last line ended with a CR, so an LF right after it belongs to that end.
        private var afterCR = false
        /// Bytes of one line (physical or unfolded) kept; past them the line is `overlong`.
        let maximumLineBytes: Int
        /// The physical line being read passed `maximumLineBytes` and was handed out: the rest
        /// of it is dropped as it comes.
        private var partialOverlong = false

        init(maximumLineBytes: Int = .max) { self.maximumLineBytes = maximumLineBytes }

        /// The start of a physical line, kept up to the limit; past it, the line is handed out
        /// at once (it may never end: `/dev/zero` has no line break) and its rest dropped.
        private mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (VCardContentLine) throws -> Void)
            rethrows
        {
            guard !partialOverlong else { return }
            let room = maximumLineBytes - partial.count
            guard bytes.count > room else { return partial.append(contentsOf: bytes) }
            partial.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<max(0, room)]))
            partialOverlong = true
            let head = partial
            partial = []
            try head.withUnsafeBufferPointer { try physical($0, overlong: true, emit) }
            // Not held for a continuation: the reader must see it now.
            if let line = pending, line.overlong { pending = nil; try emit(line) }
        }

        /// Adds a continuation to the pending logical line, or marks it overlong.
        private mutating func continuePending<C: Collection>(with bytes: C) where C.Element == UInt8 {
            guard !pending!.overlong else { return }
            if pending!.bytes.count + bytes.count > maximumLineBytes {
                pending!.overlong = true
            } else {
                pending!.bytes.append(contentsOf: bytes)
            }
        }

        mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: (VCardContentLine) throws -> Void) rethrows {
            guard ends == .undecided else { return try feedLines(chunk, emit) }
            // The byte-order mark and the first line break may arrive split across chunks.
            partial.append(contentsOf: chunk)
            if let decided = Self.lineEnds(partial) {
                try start(decided, emit)
            } else if partial.count > maximumLineBytes {
                // No line break in all that: whatever it is, its first line is overlong.
                try start(.lf, emit)
            }
        }

        /// LF when the first line break is an LF or CRLF, CR CR LF when it is two or more CRs
        /// and an LF, CR when it is CRs followed by anything else; nil while the bytes so far
        /// cannot tell.
        private static func lineEnds(_ bytes: [UInt8]) -> LineEnds? {
            guard let first = bytes.firstIndex(where: { $0 == lf || $0 == cr }) else { return nil }
            if bytes[first] == lf { return .lf }
            var index = first
            while index < bytes.count && bytes[index] == cr { index += 1 }
            guard index < bytes.count else { return nil }
            return bytes[index] != lf ? .cr : index - first >= 2 ? .crcrlf : .lf
        }

        /// The first bytes, held until the line ends are known; the byte-order mark skipped.
        private mutating func start(_ decided: LineEnds, _ emit: (VCardContentLine) throws -> Void) rethrows {
            ends = decided
            let buffered = partial
            partial = []
            let skip = buffered.starts(with: bom) ? bom.count : 0
            try buffered.withUnsafeBufferPointer { try feedLines(UnsafeBufferPointer(rebasing: $0[skip...]), emit) }
        }

        private mutating func feedLines(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (VCardContentLine) throws -> Void)
            rethrows
        {
            if ends == .cr { return try feedCRLines(bytes, emit) }
            var start = 0
            while start < bytes.count {
                guard let newline = UnsafeBufferPointer(rebasing: bytes[start...]).firstIndex(of: lf) else {
                    try keep(UnsafeBufferPointer(rebasing: bytes[start...]), emit)
                    return
                }
                let end = start + newline
                try line(UnsafeBufferPointer(rebasing: bytes[start..<end]), emit)
                start = end + 1
            }
        }

        /// A file whose lines end in a CR (an LF right after one is part of that line end).
        private mutating func feedCRLines(
            _ bytes: UnsafeBufferPointer<UInt8>, _ emit: (VCardContentLine) throws -> Void
        ) rethrows {
            var start = 0, index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if afterCR {
                    afterCR = false
                    if byte == lf { start = index + 1; index += 1; continue }
                }
                if byte == cr || byte == lf {
                    try line(UnsafeBufferPointer(rebasing: bytes[start..<index]), emit)
                    afterCR = byte == cr
                    start = index + 1
                }
                index += 1
            }
            if start < bytes.count { try keep(UnsafeBufferPointer(rebasing: bytes[start...]), emit) }
        }

        /// A physical line that ends in this chunk: joined to its start from earlier chunks.
        private mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (VCardContentLine) throws -> Void)
            rethrows
        {
            if partialOverlong {
                // The end of a line handed out already.
                partialOverlong = false
                return
            }
            if partial.isEmpty && bytes.count <= maximumLineBytes { return try physical(bytes, emit) }
            try keep(bytes, emit)
            if partialOverlong { partialOverlong = false; return }
            let whole = partial
            partial = []
            try whole.withUnsafeBufferPointer { try physical($0, emit) }
        }

        /// The end of the file: the last line, even without a line break.
        mutating func finish(_ emit: (VCardContentLine) throws -> Void) rethrows {
            if ends == .undecided { try start(.lf, emit) }
            if partialOverlong {
                partialOverlong = false
            } else if !partial.isEmpty {
                let line = partial
                partial = []
                try line.withUnsafeBufferPointer { try physical($0, emit) }
            }
            if let last = pending { pending = nil; try emit(last) }
        }

        /// One physical line, without its line break.
        private mutating func physical(
            _ line: UnsafeBufferPointer<UInt8>, overlong: Bool = false,
            _ emit: (VCardContentLine) throws -> Void
        ) rethrows {
            lineNumber += 1
            var count = line.count
            if count > 0 && line[count - 1] == cr {
                count -= 1
                // iOS 6 ends its lines with CR CR LF.
                if ends == .crcrlf && count > 0 && line[count - 1] == cr { count -= 1 }
            }
            let physical = UnsafeBufferPointer(rebasing: line[..<count])
            if pending != nil {
                let last = pending!.bytes.last
                if last == equals && !pending!.overlong && isQuotedPrintable(pending!.bytes) && !Self.isEnd(physical) {
                    pending!.bytes.removeLast()
                    continuePending(with: physical)
                    if overlong { pending!.overlong = true }
                    pendingEnd = lineNumber
                    return
                }
                if let first = physical.first, first == space || first == tab {
                    // vCard 2.1 folds as RFC 822 does: the line break goes, the white space after
                    // it stays (`"Omega"` + ` <omega@...>`); 3.0 and 4.0 drop one space or tab.
                    continuePending(with: foldsKeepSpace.last == true ? physical[...] : physical.dropFirst())
                    if overlong { pending!.overlong = true }
                    pendingEnd = lineNumber
                    return
                }
                if last == backslash, !physical.isEmpty, Self.endsInEscapingBackslash(pending!.bytes),
                    !Self.startsLikeAProperty(physical)
                {
                    // A 2.1 value continued after a backslash (Android's test card
                    // v21_adr_multiple_line.vcf, a street on three lines): the backslash
                    // escapes the line break, so it reads as `\n`, a line break in the value.
                    continuePending(with: [UInt8(ascii: "n")])
                    continuePending(with: physical)
                    if overlong { pending!.overlong = true }
                    pending!.remarks =
                        (pending!.remarks ?? []) + [
                            (pendingEnd, "the value continues on the next line after a backslash: read as a line break")
                        ]
                    pendingEnd = lineNumber
                    return
                }
            }
            guard overlong || !physical.allSatisfy({ $0 == space || $0 == tab }) else { return }
            if let last = pending { try emit(last) }
            pending = VCardContentLine(bytes: Array(physical), line: lineNumber, overlong: overlong)
            pendingEnd = lineNumber
            noteVersion(physical)
        }

        /// For each card open (a 2.1 AGENT's card nests in its card), whether it said VERSION:2.1,
        /// whose folds keep their white space. A card folds as 3.0 until its VERSION is read.
        private var foldsKeepSpace: [Bool] = []

        /// Follows BEGIN:VCARD, END:VCARD and VERSION by their first bytes (every line comes here).
        private mutating func noteVersion(_ line: UnsafeBufferPointer<UInt8>) {
            guard let first = line.first else { return }
            switch first | 0x20 {
            case UInt8(ascii: "b"):
                if Self.isLine(line, "BEGIN:VCARD") { foldsKeepSpace.append(false) }
            case UInt8(ascii: "e"):
                if Self.isLine(line, "END:VCARD"), !foldsKeepSpace.isEmpty { foldsKeepSpace.removeLast() }
            case UInt8(ascii: "v"):
                guard line.count >= 8, Self.isLine(UnsafeBufferPointer(rebasing: line[..<8]), "VERSION:"),
                    !foldsKeepSpace.isEmpty
                else { return }
                let value = line[8...].drop { $0 == space || $0 == tab }
                foldsKeepSpace[foldsKeepSpace.count - 1] =
                    value.starts(with: "2.1".utf8)
                    && value.dropFirst(3).allSatisfy { $0 == space || $0 == tab }
            default: return
            }
        }

        /// The bytes spell `text` (upper-case ASCII letters and punctuation) in any case, spaces around allowed.
        private static func isLine(_ line: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
            var bytes = line[...]
            while let last = bytes.last, last == space || last == tab { bytes = bytes.dropLast() }
            guard bytes.count == text.utf8CodeUnitCount else { return false }
            let expected = text.utf8Start
            for (offset, byte) in bytes.enumerated() {
                let want = expected[offset]
                guard want >= 0x41 && want <= 0x5A ? byte & 0xDF == want : byte == want else { return false }
            }
            return true
        }

        /// `END:VCARD`, which a quoted-printable value ending in `=` must not swallow.
        private static func isEnd(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
            line.count == 9 && zip(line, "END:VCARD".utf8).allSatisfy { ($0 == 0x3A ? $0 : $0 & 0xDF) == $1 }
        }

        /// An odd number of backslashes at the end: the last one escapes what follows.
        private static func endsInEscapingBackslash(_ bytes: [UInt8]) -> Bool {
            var count = 0
            for byte in bytes.reversed() { if byte == backslash { count += 1 } else { break } }
            return count % 2 == 1
        }

        /// A line with a colon is taken for a property (never a continuation), whatever its
        /// name: `b;c;;;`, the rest of an address, has none.
        private static func startsLikeAProperty(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
            line.contains(colon)
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
            if ["QUOTED-PRINTABLE", "BASE64", "B", "8BIT", "7BIT"].contains(segment) {
                return segment == "QUOTED-PRINTABLE"
            }
        }
        return false
    }
}
