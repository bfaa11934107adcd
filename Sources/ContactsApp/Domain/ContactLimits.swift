import Foundation

/// Limits the app and its front ends share, named once.
public enum ContactLimits {
    /// Largest page of the list a person or client may ask for: a page is read whole into memory.
    public static let maximumPageSize = 500
    /// Longest search text, in characters: the index lookups of a search grow with its text (a
    /// search of 20 MB of letters took 1.4 GB in a release build), and no contact holds a longer word to find.
    public static let maximumSearchLength = 1_000
    /// Most contacts a change notice names: past it, clients are told `reload` without ids (read
    /// the list again), so a large import or first sync neither holds nor sends an id per contact.
    public static let maximumNoticeIDs = 1_000
    /// Most problems (and, apart, warnings) an import's report keeps, each with its line; the
    /// rest are counted. A person reads the first fifty (the list's presenter shows those).
    public static let maximumProblemsKept = 1_000
    /// Longest line an import reads: a vCard's logical (unfolded) line, a CSV's row. Large
    /// enough for a photo; past it a card is unreadable, and where nothing can be skipped (a
    /// line outside any card, a CSV row) the import stops, naming the line: a 100 MB field
    /// peaked at 1 GB, and `/dev/zero` read as vCard grew without end.
    public static let maximumLineBytes = 8 << 20
    /// Most fields a CSV row may hold: the reader makes a string of each (an 8 MB row of commas,
    /// 8 million of them, took 330 MB). Google's and Outlook's exports have under a hundred columns.
    public static let maximumCSVFields = 10_000
    /// Most bytes one card of an import may hold (its lines, unfolded), the sync's cap for one card
    /// too: a card is held whole until its END:VCARD, so `BEGIN:VCARD` and an endless run of lines
    /// grew memory with the file. Past it the card is named and skipped, the rest read.
    /// `CONTACTSBOOK_IMPORT_MAX_CARD` sets it for an import (`importCardVariable`).
    public static let maximumCardBytes = 16 << 20
    /// Most lines one card may hold: a line held costs about 100 bytes besides its own, so a card
    /// of millions of short lines is bounded by their count. Real cards hold a few hundred.
    public static let maximumCardLines = 100_000
    public static let importCardVariable = "CONTACTSBOOK_IMPORT_MAX_CARD"

    /// `1048576`, `1024K`, `1M`, `1G` as bytes; nil for anything else or for zero.
    public static func bytes(_ text: String) -> Int? {
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
    public static func words(bytes: Int) -> String {
        for (unit, name) in [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        where bytes >= unit && bytes % unit == 0 {
            return "\(bytes / unit) \(name)"
        }
        if bytes >= 1 << 20 { return String(format: "%.1f MiB", Double(bytes) / Double(1 << 20)) }
        return "\(bytes) bytes"
    }
}
