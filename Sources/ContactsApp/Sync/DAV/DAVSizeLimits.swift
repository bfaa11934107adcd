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
    public static let defaultCard = ContactLimits.maximumCardBytes

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
    public static func configured(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> DAVSizeLimits
    {
        DAVSizeLimits(
            answer: environment[Variable.answer].flatMap(bytes) ?? defaultAnswer,
            card: environment[Variable.card].flatMap(bytes) ?? defaultCard)
    }

    /// `1048576`, `1024K`, `1M`, `1G` as bytes; nil for anything else or for zero.
    static func bytes(_ text: String) -> Int? { ContactLimits.bytes(text) }

    /// `16 MiB`, `1 GiB`, `1000 bytes`: a limit as people read it.
    public static func words(_ bytes: Int) -> String { ContactLimits.words(bytes: bytes) }
}
