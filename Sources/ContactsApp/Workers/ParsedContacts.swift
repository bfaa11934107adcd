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
        public init(line: Int, reason: String) { self.line = line; self.reason = reason }
    }

    public var entries: [Entry] = []
    public var problems: [Problem] = []

    public init(entries: [Entry] = [], problems: [Problem] = []) {
        self.entries = entries; self.problems = problems
    }
}
