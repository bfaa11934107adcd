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
}
