import Foundation

/// A CSV file's bytes as CSV.swift's `CSVReader` reads them: pulled from the file a chunk at a
/// time (so memory stays flat whatever the file's length), a leading UTF-8 byte order mark
/// dropped, and always UTF-8: a byte that is not part of valid UTF-8 is read as Windows-1252,
/// what Outlook writes in the West. A whole file cannot be tried as UTF-8 first without holding
/// it (or reading a pipe twice); per byte, a file that is all UTF-8 or all Windows-1252 reads as
/// it did when it was decoded whole.
final class CSVInputStream: InputStream {
    /// Bytes asked of `nextChunk`'s caller at a time when it reads from memory.
    static let chunkSize = 1 << 16

    private let nextChunk: (inout [UInt8]) throws -> Bool
    private var chunk: [UInt8] = []
    /// UTF-8 ready for the reader, from `position` on.
    private var output: [UInt8] = []
    private var position = 0
    /// The start of a UTF-8 sequence cut off at the end of the last chunk, or of a byte order mark.
    private var carried: [UInt8] = []
    private var atStart = true, atEnd = false
    private var status = Stream.Status.notOpen
    /// What `nextChunk` threw, or `RowTooLong`; the stream ends there.
    private(set) var readError: Error?
    /// Bytes one row may take (`ContactLimits.maximumLineBytes`): CSV.swift holds a row whole,
    /// so a 100 MB field took 1 GB, and `/dev/zero`, one endless row, grew without end.
    let maximumRowBytes: Int
    /// Bytes handed to the reader since the row that starts on `rowLine` began.
    private var rowBytes = 0
    private var rowLine = 1

    /// Fields one row may hold (`ContactLimits.maximumCSVFields`): each is a String of its own
    /// in the reader's row, so an 8 MB row of commas held 8 million (330 MB for three rows).
    let maximumFields: Int
    /// Where the bytes handed to the reader are in the CSV's syntax, to count the fields of each
    /// row as they pass (the reader reads ahead, so its own rows cannot be followed).
    private var fields = FieldCounter()

    /// A row longer than `maximumRowBytes` (what the reader reads ahead counted with it), or of
    /// more fields than `maximumFields` (`fields`: `limit` counts fields).
    struct RowTooLong: Error, Equatable, CustomStringConvertible {
        var line: Int
        var limit: Int
        var fields = false
        var description: String {
            fields
                ? "the row of line \(line) has more than \(limit) fields: not a CSV file of contacts"
                : "the row of line \(line) is longer than \(limit) bytes: not a CSV file of contacts"
        }
    }

    init(
        maximumRowBytes: Int = ContactLimits.maximumLineBytes, maximumFields: Int = ContactLimits.maximumCSVFields,
        nextChunk: @escaping (inout [UInt8]) throws -> Bool
    ) {
        self.nextChunk = nextChunk
        self.maximumRowBytes = maximumRowBytes
        self.maximumFields = maximumFields
        super.init(data: Data())
    }

    /// The reader is about to read the row that starts on `line`.
    func startRow(line: Int) {
        rowBytes = 0
        rowLine = line
    }

    override func open() { status = .open }
    override func close() { status = .closed }
    override var streamStatus: Stream.Status { status }
    override var streamError: Error? { readError }

    /// True while bytes are left: `CSVReader` takes a read of zero bytes after a true for an error.
    override var hasBytesAvailable: Bool {
        fill()
        return position < output.count
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        fill()
        let count = min(length, output.count - position)
        rowBytes += count
        let crowded = output.withUnsafeBufferPointer {
            fields.take(
                UnsafeBufferPointer(rebasing: $0[position..<position + count]),
                maximum: maximumFields)
        }
        if rowBytes > maximumRowBytes || crowded != nil {
            if readError == nil {
                readError =
                    crowded.map { RowTooLong(line: $0, limit: maximumFields, fields: true) }
                    ?? RowTooLong(line: rowLine, limit: maximumRowBytes)
            }
            atEnd = true
            output = []
            position = 0
            return 0
        }
        output.withUnsafeBufferPointer { bytes in
            buffer.update(from: bytes.baseAddress! + position, count: count)
        }
        position += count
        return count
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
        length: UnsafeMutablePointer<Int>
    ) -> Bool { false }

    private func fill() {
        while position == output.count && !atEnd {
            output.removeAll(keepingCapacity: true)
            position = 0
            do {
                if try nextChunk(&chunk) {
                    transcode(chunk, isLast: false)
                } else {
                    atEnd = true
                    transcode([], isLast: true)
                }
            } catch {
                readError = error
                atEnd = true
            }
        }
    }

    private func transcode(_ bytes: [UInt8], isLast: Bool) {
        var input = carried.isEmpty ? bytes : carried + bytes
        carried = []
        if atStart {
            guard isLast || input.count >= Self.byteOrderMark.count else { return carried = input }
            if input.starts(with: Self.byteOrderMark) { input.removeFirst(Self.byteOrderMark.count) }
            atStart = false
        }
        if !isLast { carried = Self.unfinishedSequence(at: input) }
        let end = input.count - carried.count
        if String(validating: input[..<end], as: UTF8.self) != nil {
            output.append(contentsOf: input[..<end]) // the common case: all of it is UTF-8
            return
        }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = input[..<end].makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                output.append(contentsOf: scalar)
                offset += scalar.count
            case .error(let length):
                for byte in input[offset..<offset + length] {
                    output.append(contentsOf: Self.windows1252[Int(byte) - 0x80])
                }
                offset += length
            case .emptyInput:
                return
            }
        }
    }

    /// The last bytes of `bytes` if they begin a UTF-8 sequence that the next chunk may finish.
    private static func unfinishedSequence(at bytes: [UInt8]) -> [UInt8] {
        for back in 1..<min(4, bytes.count + 1) {
            let byte = bytes[bytes.count - back]
            guard byte & 0xC0 == 0x80 else {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                return length > back ? Array(bytes.suffix(back)) : []
            }
        }
        return []
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Follows RFC 4180 as CSV.swift reads it (a quote opens a quoted field only at its start;
    /// in one, `""` is a quote, and a quote then a comma or line break ends it), counting the
    /// fields of the row and the physical lines (CR, LF or CRLF each one) before it.
    struct FieldCounter {
        private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }
        private var state = State.fieldStart
        private var count = 1, line = 1, rowLine = 1, afterCR = false

        /// The line of the row whose fields passed `maximum` in `bytes`, or nil.
        mutating func take(_ bytes: UnsafeBufferPointer<UInt8>, maximum: Int) -> Int? {
            for byte in bytes {
                let isBreak = byte == 0x0D || byte == 0x0A
                if isBreak {
                    if byte == 0x0D || !afterCR { line += 1 }
                    afterCR = byte == 0x0D
                } else {
                    afterCR = false
                }
                switch state {
                case .quoted:
                    if byte == 0x22 { state = .quoteInQuoted }
                    continue
                case .quoteInQuoted:
                    // `""` is a quote; anything but a comma or line break CSV.swift keeps in the field.
                    guard byte == 0x2C || isBreak else { state = .quoted; continue }
                case .fieldStart:
                    if byte == 0x22 { state = .quoted; continue }
                case .unquoted:
                    break
                }
                if byte == 0x2C {
                    count += 1
                    state = .fieldStart
                    if count > maximum { return rowLine }
                } else if isBreak {
                    // A CRLF's LF starts no row of its own: the row after it begins on the next byte.
                    count = 1
                    state = .fieldStart
                    rowLine = line
                } else {
                    state = .unquoted
                }
            }
            return nil
        }
    }

    /// UTF-8 for the bytes 0x80 to 0xFF read as Windows-1252, as Foundation decodes them.
    private static let windows1252: [[UInt8]] = (0x80...0xFF).map { byte in
        Array((String(bytes: [UInt8(byte)], encoding: .windowsCP1252) ?? "\u{FFFD}").utf8)
    }
}
