import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decodes the values of 2.1 cards that name their `CHARSET` (`SHIFT_JIS`, `ISO-8859-1`,
/// `WINDOWS-1252`, `GB2312`, ...): Foundation for the two it knows everywhere, iconv for every
/// other encoding the C library has. A byte that is not valid in the charset costs itself, not
/// the value: it becomes U+FFFD and is counted, so the import can say so.
///
/// One per reading of a file (not shared between threads): it keeps each charset's iconv
/// descriptor open, since opening one loads a conversion module.
final class VCardCharsets {
    /// The text, and how many bytes (or cut-off sequences) were replaced by U+FFFD.
    struct Decoded {
        var text: String
        var replaced: Int
    }

    private var converters: [String: iconv_t] = [:]
    private var unknown: Set<String> = []

    deinit {
        for converter in converters.values { iconv_close(converter) }
    }

    /// Nil when neither Foundation nor iconv knows the charset.
    func decode(_ bytes: [UInt8], charset: String) -> Decoded? {
        switch charset {
        case "UTF-8", "UTF8":
            // Validated in one pass (Android writes CHARSET=UTF-8 on most 2.1 values); the
            // scalar-by-scalar repair only for text that needs it.
            if let text = VCardProperty.utf8(bytes[...]) { return Decoded(text: text, replaced: 0) }
            return Self.utf8(bytes)
        case "WINDOWS-1252", "CP1252":
            if let text = String(bytes: bytes, encoding: .windowsCP1252) { return Decoded(text: text, replaced: 0) }
        case "ISO-8859-1", "LATIN1", "ISO8859-1":
            if let text = String(bytes: bytes, encoding: .isoLatin1) { return Decoded(text: text, replaced: 0) }
        default:
            break
        }
        guard let converter = converter(for: charset) else { return nil }
        return Self.convert(bytes, with: converter)
    }

    /// UTF-8, each ill-formed sequence replaced by U+FFFD (as `String(decoding:)` does) and counted.
    static func utf8(_ bytes: [UInt8]) -> Decoded {
        var scalars = String.UnicodeScalarView(), replaced = 0
        var iterator = bytes.makeIterator(), decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .error: scalars.append("\u{FFFD}"); replaced += 1
            case .emptyInput: break loop
            }
        }
        return Decoded(text: String(scalars), replaced: replaced)
    }

    private func converter(for charset: String) -> iconv_t? {
        if let open = converters[charset] { return open }
        guard !unknown.contains(charset) else { return nil }
        let converter = iconv_open("UTF-8", charset)
        guard let converter, converter != iconv_t(bitPattern: -1) else {
            unknown.insert(charset)
            return nil
        }
        converters[charset] = converter
        return converter
    }

    /// iconv to UTF-8; at a byte iconv cannot convert, U+FFFD and on with the next byte.
    private static func convert(_ bytes: [UInt8], with converter: iconv_t) -> Decoded {
        iconv(converter, nil, nil, nil, nil) // back to the initial shift state
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2 + 16)
        var replaced = 0
        var buffer = [CChar](repeating: 0, count: max(64, bytes.count * 4))
        bytes.withUnsafeBufferPointer { input in
            input.withMemoryRebound(to: CChar.self) { input in
                var inPointer = UnsafeMutablePointer(mutating: input.baseAddress)
                var inLeft = input.count
                while true {
                    let (result, error, written) = buffer.withUnsafeMutableBufferPointer { out -> (Int, Int32, Int) in
                        var outPointer = out.baseAddress
                        var outLeft = out.count
                        let result = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                        return (result, errno, out.count - outLeft)
                    }
                    output.append(contentsOf: buffer[..<written].lazy.map { UInt8(bitPattern: $0) })
                    if result != -1 { break }
                    if error == E2BIG { continue }
                    // EILSEQ: a byte not valid here; EINVAL: a sequence cut off by the value's end.
                    output.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    replaced += 1
                    iconv(converter, nil, nil, nil, nil)
                    if error != EILSEQ || inLeft == 0 { break }
                    inPointer = inPointer.map { $0 + 1 }
                    inLeft -= 1
                    if inLeft == 0 { break }
                }
            }
        }
        return Decoded(text: String(decoding: output, as: UTF8.self), replaced: replaced)
    }
}
