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
        var bytes = [UInt8](data)
        if bytes.starts(with: bom) { bytes.removeFirst(bom.count) }
        var result: [VCardContentLine] = []
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            var end = bytes[start...].firstIndex(of: lf) ?? bytes.count
            let next = end + 1
            if end > start && bytes[end - 1] == cr { end -= 1 }
            lineNumber += 1
            append(bytes[start..<end], lineNumber, to: &result)
            start = next
        }
        return result
    }

    private static func append(_ physical: ArraySlice<UInt8>, _ number: Int, to result: inout [VCardContentLine]) {
        if let last = result.last {
            if isQuotedPrintable(last.bytes) && last.bytes.last == equals {
                result[result.count - 1].bytes.removeLast()
                result[result.count - 1].bytes += physical
                return
            }
            if let first = physical.first, first == space || first == tab {
                result[result.count - 1].bytes += physical.dropFirst()
                return
            }
        }
        guard !physical.allSatisfy({ $0 == space || $0 == tab }) else { return }
        result.append(VCardContentLine(bytes: Array(physical), line: number))
    }

    /// Whether the line's parameters (before the first colon) name quoted-printable encoding.
    static func isQuotedPrintable(_ line: [UInt8]) -> Bool {
        let head = line.prefix { $0 != colon }
        guard head.count < line.count, head.contains(where: { $0 == UInt8(ascii: "Q") || $0 == UInt8(ascii: "q") })
        else { return false }
        return String(decoding: head, as: UTF8.self).uppercased().contains("QUOTED-PRINTABLE")
    }
}
