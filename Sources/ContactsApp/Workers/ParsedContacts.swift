/// What reading a contacts file (vCard or CSV) gives: the contacts it could read and, for each
/// part it could not, where and why. One bad card never stops the others from being read.
public struct ParsedContacts: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var contact: Contact
        /// 1-based line of the file where the card or row starts.
        public var line: Int
        /// The groups a CSV row names in our `groups` column, by name.
        public var groups: [String] = []
        public init(contact: Contact, line: Int, groups: [String] = []) {
            self.contact = contact; self.line = line; self.groups = groups
        }
    }

    public struct Problem: Error, Equatable, Sendable {
        /// What the reader did about it; the import's sentence counts each kind.
        public enum Kind: String, Equatable, Sendable {
            /// A card or row that could not be read (a problem).
            case unreadable
            /// Lines outside any card, skipped (`ParsedContacts.skippedLines` counts the lines).
            case skipped
            /// A value kept as it is although it is not valid (an EMAIL that is no address).
            case invalid
            /// A value the reader changed or dropped, or a name it gave a card without one.
            case changed
        }

        /// The line it is about: the line of the value, not of its card, when it is a value's.
        public var line: Int
        public var reason: String
        /// The file's name, when one import reads several (a folder); nil for the only file.
        public var file: String?
        public var kind: Kind
        public init(line: Int, reason: String, file: String? = nil, kind: Kind = .unreadable) {
            self.line = line; self.reason = reason; self.file = file; self.kind = kind
        }
    }

    public var entries: [Entry] = []
    /// Cards or rows that could not be read (kind `unreadable`): each one card or row.
    public var problems: [Problem] = []
    /// Everything else the reader has to say, by line: text skipped outside the cards, values
    /// kept but not valid, and what it changed or dropped.
    public var warnings: [Problem] = []
    /// Lines outside any card that were skipped (a `skipped` warning names each run of them).
    public var skippedLines = 0
    /// The file these came from, when one import reads several (a folder).
    public var file: String?

    public init(
        entries: [Entry] = [], problems: [Problem] = [], warnings: [Problem] = [], skippedLines: Int = 0,
        file: String? = nil
    ) {
        self.entries = entries; self.problems = problems; self.warnings = warnings
        self.skippedLines = skippedLines; self.file = file
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

    /// Hands the batch to `body` and starts the next, once it holds `size` entries, problems and
    /// warnings (counting those too: a file of a million bad rows is not held whole either).
    mutating func handOutIfFull(_ body: (ParsedContacts) throws -> Void) rethrows {
        guard current.entries.count + current.problems.count + current.warnings.count >= size else { return }
        handedOut = true
        try body(current)
        current = ParsedContacts()
    }

    /// Hands out what is left at the end of the file: the last batch, if it holds anything or
    /// none was handed out before.
    mutating func finish(_ body: (ParsedContacts) throws -> Void) rethrows {
        if !handedOut || !current.entries.isEmpty || !current.problems.isEmpty || !current.warnings.isEmpty
            || current.skippedLines > 0
        {
            try body(current)
        }
    }
}
