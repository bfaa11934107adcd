import Foundation

/// How much a server may send a sync: an answer's body in all, and one card.
///
/// A multistatus answer is read as it arrives (`DAVMultistatusStream`), so its size costs time,
/// not memory; the cap on an answer stops a server that never ends one (an endless body grew
/// the process with it, 2.5 GB for 2.5 GB sent). A card is held whole while it is read, so its
/// own cap bounds memory; a card over it is named and skipped, the rest of the sync goes on.
public struct DAVSizeLimits: Equatable, Sendable {
    /// Bytes of one answer's body.
    public var answer: Int
    /// Bytes of one card (its `address-data`, or the body of a GET), and of any answer the
    /// transport holds whole (an error page, a PUT's answer).
    public var card: Int

    public static let defaultAnswer = 1 << 30
    public static let defaultCard = 16 << 20

    public init(answer: Int = DAVSizeLimits.defaultAnswer, card: Int = DAVSizeLimits.defaultCard) {
        self.answer = answer; self.card = card
    }

    /// The environment variables that set the limits.
    public enum Variable {
        public static let answer = "CONTACTSBOOK_SYNC_MAX_ANSWER"
        public static let card = "CONTACTSBOOK_SYNC_MAX_CARD"
    }

    /// The limits the environment sets (`CONTACTSBOOK_SYNC_MAX_ANSWER`, `CONTACTSBOOK_SYNC_MAX_CARD`:
    /// bytes, or with `K`, `M` or `G` for KiB, MiB, GiB); a value that is not one is ignored.
    public static func configured(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> DAVSizeLimits {
        DAVSizeLimits(answer: environment[Variable.answer].flatMap(bytes) ?? defaultAnswer,
                      card: environment[Variable.card].flatMap(bytes) ?? defaultCard)
    }

    /// `1048576`, `1024K`, `1M`, `1G` as bytes; nil for anything else or for zero.
    static func bytes(_ text: String) -> Int? {
        var digits = Substring(text.trimmingCharacters(in: .whitespaces))
        var unit = 1
        switch digits.last.map({ $0.uppercased() }) {
        case "K": unit = 1 << 10
        case "M": unit = 1 << 20
        case "G": unit = 1 << 30
        default: break
        }
        if unit > 1 { digits = digits.dropLast() }
        guard let count = Int(digits), count > 0 else { return nil }
        let (value, overflow) = count.multipliedReportingOverflow(by: unit)
        return overflow ? nil : value
    }

    /// `16 MiB`, `1 GiB`, `1000 bytes`: a limit as people read it.
    public static func words(_ bytes: Int) -> String {
        for (unit, name) in [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")] where bytes >= unit && bytes % unit == 0 {
            return "\(bytes / unit) \(name)"
        }
        if bytes >= 1 << 20 { return String(format: "%.1f MiB", Double(bytes) / Double(1 << 20)) }
        return "\(bytes) bytes"
    }
}
