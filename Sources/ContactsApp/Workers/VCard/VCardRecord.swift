import Foundation

/// A card as it was received: its content lines, unfolded, in order, `VERSION` among them,
/// `BEGIN` and `END` not. Each line is what `VCardProperty.raw` keeps: the original text, or for
/// a quoted-printable or other-charset value the decoded line without `ENCODING` and `CHARSET`.
///
/// Kept as one text (the lines joined by LF, which no unfolded line holds), so an import makes one
/// string per card and the store one column, rather than one string per property.
public struct VCardRecord: Equatable, Hashable, Codable, Sendable {
    public private(set) var text: String

    public init(text: String) { self.text = text }

    public init(lines: [String]) { text = lines.joined(separator: "\n") }

    /// Split at each LF byte, the inverse of `init(lines:)`. Not at the Character "\n": CR LF is
    /// one Character, so a line ending in CR would swallow the next, and walking Characters was
    /// over half of an export's time (bench/FINDINGS.md, "card record").
    public var lines: [String] {
        guard !text.isEmpty else { return [] }
        return Self.withBytes(text) { bytes in
            var result: [String] = []
            var start = 0
            while let newline = UnsafeBufferPointer(rebasing: bytes[start...]).firstIndex(of: 0x0A) {
                let end = start + newline
                result.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                start = end + 1
            }
            result.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
            return result
        }
    }

    /// The version the card says it is (`VERSION:3.0`), 3.0 when it says nothing.
    public var version: VCardVersion { declaredVersion ?? .v3 }

    /// The version its VERSION line names; nil when it has none, or the first names none known.
    /// The one rule for which VERSION line counts: the reader reads a card's text by it (2.1's
    /// escapes) and the writer converts the card by it, so the two never disagree about a card
    /// with two VERSION lines (fuzz-vcard: `VERSION:GIN:VCARD` then `VERSION:2.1`).
    public var declaredVersion: VCardVersion? {
        Self.withBytes(text) { bytes in
            var start = 0
            while start < bytes.count {
                let end =
                    UnsafeBufferPointer(rebasing: bytes[start...]).firstIndex(of: 0x0A).map { start + $0 }
                    ?? bytes.count
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if line.count <= 16 && Self.startsWithVersionName(line) {
                    // `VERSION:4.0` as nearly every card says it, without a String to trim.
                    if line.count == 11 && line[9] == UInt8(ascii: ".") {
                        switch (line[8], line[10]) {
                        case (UInt8(ascii: "4"), UInt8(ascii: "0")): return .v4
                        case (UInt8(ascii: "3"), UInt8(ascii: "0")): return .v3
                        case (UInt8(ascii: "2"), UInt8(ascii: "1")): return .v21
                        default: break
                        }
                    }
                    let value = String(decoding: UnsafeBufferPointer(rebasing: line[8...]), as: UTF8.self)
                    return VCardVersion(versionValue: value)
                }
                start = end + 1
            }
            return nil
        }
    }

    /// Whether the bytes begin with `VERSION:`, in any case.
    static func startsWithVersionName(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard line.count >= 8 else { return false }
        for (index, letter) in "VERSION".utf8.enumerated() where line[index] & 0xDF != letter { return false }
        return line[7] == UInt8(ascii: ":")
    }

    private static func withBytes<T>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        text.utf8.withContiguousStorageIfAvailable(body) ?? Array(text.utf8).withUnsafeBufferPointer(body)
    }

    // Encoded as its text alone: journal images stay readable and small.
    public init(from decoder: Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// The vCard versions a card can be read in.
public enum VCardVersion: String, Sendable, CaseIterable {
    case v21 = "2.1"
    case v3 = "3.0"
    case v4 = "4.0"

    /// From a VERSION property's value: `4.0`, and `4` as ical4j writes it (`3`, `2` likewise).
    init?(versionValue: String) {
        let value = versionValue.trimmingSpaces
        switch value {
        case "4": self = .v4
        case "3": self = .v3
        case "2": self = .v21
        default: self.init(rawValue: value)
        }
    }
}
