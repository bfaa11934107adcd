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

    /// Split by bytes: a line ending in a raw CR, kept as it came, and the LF after it are one
    /// Character ("\r\n") that a split on "\n" would not split.
    public var lines: [String] {
        text.isEmpty ? [] : text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The version the card says it is (`VERSION:3.0`), 3.0 when it says nothing.
    public var version: VCardVersion {
        for line in text.utf8.split(separator: 0x0A) where line.count <= 16 {
            let upper = String(decoding: line, as: UTF8.self).uppercased()
            if upper.hasPrefix("VERSION:") {
                return VCardVersion(rawValue: String(upper.dropFirst(8)).trimmingSpaces) ?? .v3
            }
        }
        return .v3
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
}
