import GRDB

/// The export's read of the book: every contact matching a search, in order, in batches.
extension SQLiteContactStore {
    /// A vCard export writes a contact that keeps its card from the card, its UID and the parts
    /// of its name alone (`VCardWriter`): the typed lists (phones, emails, addresses as JSON) are
    /// neither selected nor decoded for it. Decoding them was 41 % of an export's time
    /// (bench/FINDINGS.md, "card record (issue 25)"). A contact without a card is read whole.
    public func forEachBatchForVCardExport(
        search: String, sort: SortOrder, batchSize: Int,
        _ body: ([Contact]) throws -> Void
    ) throws -> Int {
        try walk(
            search: search, sort: sort, batchSize: batchSize, select: Self.exportSelect,
            read: Self.exportContact(from:), body)
    }

    /// What the writer reads of a contact with a card (`VCardWriter.append`): its card, its UID,
    /// and what `fullName` and the FN and N it adds to a card without them are made of.
    static let columnsWrittenFromCards: Set<String> = [
        "id", "uid", "given", "family", "organization", "name_order", "formatted_name", "card", "version",
        "created_at", "updated_at",
    ]

    /// `readColumns`, each column the writer does not read of a carded contact NULL for one.
    static let exportSelect = readColumnList.map {
        columnsWrittenFromCards.contains($0.name) ? $0.name : "CASE WHEN card IS NULL THEN \($0.name) END"
    }.joined(separator: ", ")

    private static let cardAt = readColumnList.firstIndex { $0.name == "card" }!

    /// The columns of `readColumnList` read for a carded contact, with their positions, found
    /// once: asking the set for each column's name hashed 11 names a row.
    private static let columnsReadForCards = readColumnList.enumerated().filter {
        columnsWrittenFromCards.contains($0.element.name)
    }

    /// A row selected with `exportSelect`: a contact without a card whole, one with a card with
    /// the columns the writer reads, its other fields empty.
    static func exportContact(from row: Row) throws -> Contact {
        guard !row.hasNull(atIndex: cardAt) else { return try contact(from: row) }
        var contact = Contact()
        for (at, column) in columnsReadForCards { try column.read?(row, at, &contact) }
        return contact
    }

    /// One read transaction and one statement walking the (sort key, id) index: an export of
    /// 1M contacts in pages found by OFFSET re-read the index up to each page (quadratic).
    func walk(
        search: String, sort: SortOrder, batchSize: Int, select: String, read: (Row) throws -> Contact,
        _ body: ([Contact]) throws -> Void
    ) throws -> Int {
        let parsed = ContactSearch(search)
        let sortColumn = Self.sortColumn(sort)
        var bodyError: Error?
        let count: Int = try guarded {
            try reader.read { db in
                let (filter, arguments) = Self.filter(try ResolvedSearch(parsed, db))
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT \(select) FROM contact WHERE \(filter) ORDER BY \(sortColumn), id",
                    arguments: arguments)
                var batch: [Contact] = [], count = 0
                batch.reserveCapacity(batchSize)
                func flush() -> Bool {
                    guard !batch.isEmpty else { return true }
                    do { try body(batch) } catch { bodyError = error; return false }
                    count += batch.count
                    batch.removeAll(keepingCapacity: true)
                    return true
                }
                while let row = try rows.next() {
                    batch.append(try read(row))
                    if batch.count >= batchSize, !flush() { return count }
                }
                _ = flush()
                return count
            }
        }
        // The caller's own failure (writing the file) is not a storage error.
        if let bodyError { throw bodyError }
        return count
    }
}
