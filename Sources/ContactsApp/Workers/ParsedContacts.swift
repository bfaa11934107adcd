/// What reading a contacts file (vCard or CSV) gives: the contacts it could read and, for each
/// part it could not, where and why. One bad card never stops the others from being read.
public struct ParsedContacts: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var contact: Contact
        /// 1-based line of the file where the card or row starts.
        public var line: Int
        public init(contact: Contact, line: Int) { self.contact = contact; self.line = line }
    }

    public struct Problem: Error, Equatable, Sendable {
        public var line: Int
        public var reason: String
        /// The file's name, when one import reads several (a folder); nil for the only file.
        public var file: String?
        public init(line: Int, reason: String, file: String? = nil) {
            self.line = line; self.reason = reason; self.file = file
        }
    }

    public var entries: [Entry] = []
    public var problems: [Problem] = []
    /// The file these came from, when one import reads several (a folder).
    public var file: String?

    public init(entries: [Entry] = [], problems: [Problem] = [], file: String? = nil) {
        self.entries = entries; self.problems = problems; self.file = file
    }
}

/// Parsed contacts handed out in batches as a file is read (`VCardReader` and `ContactsCSV`):
/// each batch holds up to `size` entries and problems; a file
/// with nothing in it still gives one (empty) batch.
struct ParsedBatches {
    let size: Int
    /// The batch being filled; readers add their entries and problems here.
    var current = ParsedContacts()
    private var handedOut = false

    init(size: Int) { self.size = size }

    /// Hands the batch to `body` and starts the next, once it holds `size` entries and problems
    /// (counting problems too: a file of a million bad rows is not held whole either).
    mutating func handOutIfFull(_ body: (ParsedContacts) throws -> Void) rethrows {
        guard current.entries.count + current.problems.count >= size else { return }
        handedOut = true
        try body(current)
        current = ParsedContacts()
    }

    /// Hands out what is left at the end of the file: the last batch, if it holds anything or
    /// none was handed out before.
    mutating func finish(_ body: (ParsedContacts) throws -> Void) rethrows {
        if !handedOut || !current.entries.isEmpty || !current.problems.isEmpty { try body(current) }
    }
}
