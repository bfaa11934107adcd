import Foundation

/// Contacts moved to another book (`move`).
public struct MovedContacts: Equatable, Sendable {
    public let contacts: [Contact]
    public let book: AddressBook
    /// How many of them were in a server's book, whose card there is deleted at the next sync
    /// (after the new book holds them).
    public let leavingServers: Int
    /// Copies (`copy`): new contacts in the book, the originals left where they were.
    public var copied = false
}

/// The address books the list's Interactor delegates (its seam: tests put a spy here).
public protocol ListContactsBooksLogic {
    /// Every book with its count, the local one first.
    func addressBooks() throws -> [AddressBook]
    /// Moves the contacts `references` name to the book named `book`.
    func move(_ references: [String], to book: String) throws -> MovedContacts
    /// Copies them there: new contacts (new UIDs), the originals untouched (a read-only book's too).
    func copy(_ references: [String], to book: String) throws -> MovedContacts
}

extension ListContactsBooksLogic {
    public func copy(_ references: [String], to book: String) throws -> MovedContacts {
        throw ContactsFailure.badInput("copy is not available here")
    }
}

extension ContactsWorker: ListContactsBooksLogic {
    var access: BookAccess { BookAccess(store: store) }

    public func checkEditable(_ contact: Contact) throws { try access.check([contact]) }

    /// The book of each contact, when more than one book is in use (so a person with one book
    /// sees nothing new): the accounts' books, and the local one if new contacts go there or
    /// some were moved there.
    public func bookNames(of contacts: [Contact]) -> [Int64: String] {
        // Asked first in one number: nearly every book is the local one alone, whose rows are not
        // worth reading (bench/FINDINGS.md, `pipe9`).
        guard let bookStore, !contacts.isEmpty, (try? bookStore.hasSeveralBooks()) == true,
            let books = try? bookStore.addressBooks(counting: false), books.count > 1
        else { return [:] }
        let names = (try? bookStore.bookNames(of: contacts.compactMap(\.id))) ?? [:]
        let remote = books.filter { !$0.isLocal }.count
        let localInUse =
            books.contains { $0.isLocal && $0.isDefault }
            || names.values.contains { name in
                books.contains { $0.isLocal && $0.name == name }
            }
        return remote + (localInUse ? 1 : 0) > 1 ? names : [:]
    }

    public func bookName(of contact: Contact) -> String? {
        contact.id.flatMap { bookNames(of: [contact])[$0] }
    }

    public func addressBooks() throws -> [AddressBook] {
        guard let bookStore else {
            let count = try translating { try store.page(ContactQuery(limit: 1, locatesMatches: false)).total }
            return [AddressBook(name: AddressBook.localName, isDefault: true, count: count)]
        }
        return try translating { try bookStore.addressBooks(counting: true) }
    }

    public func move(_ references: [String], to name: String) throws -> MovedContacts {
        guard let bookStore else { throw ContactsFailure.badInput("this book file has one address book only") }
        guard !references.isEmpty else {
            throw ContactsFailure.badInput("name the contacts, then the book: move 3 7 work")
        }
        let books = try translating { try bookStore.addressBooks(counting: false) }
        guard let target = books.first(where: { $0.name == name }) else {
            throw ContactsFailure.badInput(
                "there is no book named \(name); the books: "
                    + books.map(\.name).joined(separator: ", "))
        }
        if target.isReadOnly {
            throw ContactsFailure.readOnly(book: target.name, byServer: target.serverReadOnly, contact: nil)
        }
        var contacts: [Contact] = []
        for reference in references {
            let contact = try resolve(reference)
            if !contacts.contains(where: { $0.id == contact.id }) { contacts.append(contact) }
        }
        // Moving out of a read-only book is an edit of it: refused before anything moves.
        try access.check(contacts)
        let ids = contacts.compactMap(\.id)
        let before = try translating { try bookStore.bookNames(of: ids) }
        let leaving = ids.filter { id in
            books.contains { $0.name == before[id] && !$0.isLocal && $0.name != target.name }
        }.count
        let names =
            contacts.count <= 3 ? contacts.map(\.fullName).joined(separator: ", ") : "\(contacts.count) contacts"
        try translating { try bookStore.move(ids, to: target.name, summary: "moved \(names) to \(target.name)") }
        for id in ids { announce("updated", id) }
        return MovedContacts(contacts: contacts, book: target, leavingServers: leaving)
    }

    public func copy(_ references: [String], to name: String) throws -> MovedContacts {
        guard let bookStore else { throw ContactsFailure.badInput("this book file has one address book only") }
        guard !references.isEmpty else {
            throw ContactsFailure.badInput("name the contacts, then the book: copy 3 7 work")
        }
        let books = try translating { try bookStore.addressBooks(counting: false) }
        guard let target = books.first(where: { $0.name == name }) else {
            throw ContactsFailure.badInput(
                "there is no book named \(name); the books: " + books.map(\.name).joined(separator: ", "))
        }
        if target.isReadOnly {
            throw ContactsFailure.readOnly(book: target.name, byServer: target.serverReadOnly, contact: nil)
        }
        var originals: [Contact] = []
        for reference in references {
            let contact = try resolve(reference)
            if !originals.contains(where: { $0.id == contact.id }) { originals.append(contact) }
        }
        // Reading is all a copy asks of the originals: a read-only book's contacts may be copied.
        let stamp = now()
        let fresh = originals.map { original in
            var copy = original
            copy.id = nil; copy.version = 0
            copy.uid = makeUID(); copy.createdAt = stamp; copy.updatedAt = stamp
            return copy
        }
        let names =
            originals.count <= 3 ? originals.map(\.fullName).joined(separator: ", ") : "\(originals.count) contacts"
        // The copies and their book in one change set: one `undo` takes them all back.
        let copies = try translating {
            try bookStore.insertCopies(fresh, into: target.name, summary: "copied \(names) to \(target.name)")
        }
        for copy in copies { announce("created", copy.id) }
        var moved = MovedContacts(contacts: copies, book: target, leavingServers: 0)
        moved.copied = true
        return moved
    }

    /// `book readonly NAME on|off`: the person's own mark. The default book stays writable.
    public func setReadOnly(book name: String, _ readOnly: Bool) throws -> AddressBook {
        guard let bookStore else { throw ContactsFailure.badInput("this book file has one address book only") }
        let books = try translating { try bookStore.addressBooks(counting: false) }
        guard let book = books.first(where: { $0.name == name }) else {
            throw ContactsFailure.badInput("there is no book named \(name)")
        }
        if readOnly && book.isDefault {
            throw ContactsFailure.badInput(
                "book \(name) is where new contacts go; make another the default first "
                    + "(contactsbook book default NAME)")
        }
        try translating { try bookStore.setBookReadOnly(name, readOnly) }
        return try translating { try bookStore.addressBooks(counting: false) }.first { $0.name == name } ?? book
    }

    /// `book default NAME`: where new contacts go.
    public func setDefault(book name: String) throws -> AddressBook {
        guard let bookStore else { throw ContactsFailure.badInput("this book file has one address book only") }
        let books = try translating { try bookStore.addressBooks(counting: false) }
        guard let book = books.first(where: { $0.name == name }) else {
            throw ContactsFailure.badInput("there is no book named \(name)")
        }
        if book.isReadOnly { throw ContactsFailure.readOnly(book: name, byServer: book.serverReadOnly, contact: nil) }
        try translating { try bookStore.setDefaultBook(name) }
        return try translating { try bookStore.addressBooks(counting: false) }.first { $0.name == name } ?? book
    }
}
