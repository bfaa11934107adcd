import Foundation
import SceneCore

/// Why a contacts operation failed, in the app's terms; Presenters turn it into a message.
public enum ContactsFailure: Error, Equatable {
    case notFound(reference: String)
    /// A name matched several contacts; the user must pick one by id.
    case ambiguous(reference: String, matches: [Contact])
    /// Someone saved the contact after this edit began from `yourVersion`; `current` is as stored now.
    case stale(current: Contact, yourVersion: Int)
    case invalid([FieldError])
    /// A request that cannot be carried out as asked (no such item to remove, ...).
    case badInput(String)
    case storage(String)
    /// The client asked to stop long work (an import, an export); nothing of it was kept.
    case cancelled(String)
    /// The journal refused `action` (undo, redo, restore, purge); nothing was changed.
    case journal(JournalRefusal, action: String)
    /// `contact` (nil: a new contact) is in `book`, which is read-only: nothing was changed.
    case readOnly(book: String, byServer: Bool, contact: String?)
    /// A new group would go to `book` (`named`: the person named it; else the default book),
    /// which is read-only; `writable` is a book that is not. Nothing was made.
    case readOnlyForGroups(book: String, byServer: Bool, named: Bool, writable: String?)
}

extension ContactsFailure {
    /// The failure an Interactor presents for any error a Worker threw: Workers speak
    /// `ContactsFailure`; anything else is an unexpected storage or I/O problem.
    public init(_ error: Error) {
        self = error as? ContactsFailure ?? .storage(String(describing: error))
    }
}

/// A problem with one field of a form, keyed as the user names it ("email 2", "birthday").
public struct FieldError: Equatable, Sendable {
    public let field: String
    public let message: String
    public init(_ field: String, _ message: String) { self.field = field; self.message = message }
}

/// The storage work the list's Interactor delegates (its seam: tests put a spy here).
public protocol ListContactsStorageLogic {
    func page(_ query: ContactQuery) throws -> ContactPage
    func contact(id: Int64) throws -> Contact
    func resolve(_ reference: String) throws -> Contact
    func delete(_ contact: Contact) throws
    func names(startingWith prefix: String, sort: SortOrder) -> [String]
}

/// The storage work the contact screen's Interactor delegates.
public protocol ShowContactStorageLogic {
    func contact(id: Int64) throws -> Contact
    func resolve(_ reference: String) throws -> Contact
    func delete(_ contact: Contact) throws
    func names(startingWith prefix: String, sort: SortOrder) -> [String]
    /// As the list's: `edit` refused before the form opens for a contact of a read-only book.
    func checkEditable(_ contact: Contact) throws
    /// The name of the contact's book when the file has more than one in use; else nil.
    func bookName(of contact: Contact) -> String?
}

extension ListContactsStorageLogic {
    public func checkEditable(_ contact: Contact) throws {}
}

extension ShowContactStorageLogic {
    public func checkEditable(_ contact: Contact) throws {}
    public func bookName(of contact: Contact) -> String? { nil }
}

/// The storage work the form's Interactor delegates.
public protocol EditContactStorageLogic {
    func insert(_ contact: Contact) throws -> Contact
    func update(_ contact: Contact) throws -> Contact
    /// Where a contact stands in the whole list in this order (0-based), and how many the list holds.
    func place(of id: Int64, sort: SortOrder) throws -> (position: Int, total: Int)
}

/// Storage work the Interactors delegate: reading pages, finding a contact the user named,
/// saving and deleting, with the store's errors translated to `ContactsFailure`.
/// One worker serves every scene, each through the protocol of its own seam.
public final class ContactsWorker: ListContactsStorageLogic, ShowContactStorageLogic, EditContactStorageLogic {
    let store: ContactStore
    let now: () -> Date
    let makeUID: () -> String
    let changes: ChangeNotifier?
    /// The machine's time zone is looked up only when needed (`ContactsEnvironment.timeZone`).
    var timeZone: TimeZone { givenTimeZone ?? .current }
    private let givenTimeZone: TimeZone?
    let defaultCountry: String?
    /// The store's address books (the environment's, not a cast of the store: a piped `search`'s
    /// first cast scanned every conformance in the binary, 0.28M instructions).
    let bookStore: AddressBookStore?

    public init(environment: ContactsEnvironment) {
        store = environment.store; now = environment.now; makeUID = environment.makeUID
        changes = environment.changes; givenTimeZone = environment.givenTimeZone;
        defaultCountry = environment.defaultCountry; bookStore = environment.books
    }

    public func page(_ query: ContactQuery) throws -> ContactPage {
        if let book = query.book, let bookStore,
            try !translating({ try bookStore.addressBooks(counting: false) }).contains(where: { $0.name == book })
        {
            throw ContactsFailure.badInput("there is no book named \(book)")
        }
        var page = try translating { try store.page(query) }
        page.books = bookNames(of: page.contacts)
        return page
    }

    /// The names that complete `typed` (`NameCompletion`): contacts a search for it finds
    /// whose name has a word starting with it, at most `limit`, in `sort`'s order.
    public func completeNames(_ typed: String, sort: SortOrder, limit: Int = 20) throws -> [String] {
        // A search also finds emails, tags and notes, which the names then leave out: a few
        // more than `limit` are read so those rarely crowd names out.
        let found = try page(ContactQuery(search: typed, sort: sort, page: 1, limit: limit * 3)).contacts
        return Array(NameCompletion.names(found, name: \.fullName, typed: typed).prefix(limit))
    }

    public func contact(id: Int64) throws -> Contact {
        guard let contact = try translating({ try store.contact(id: id) }) else {
            throw ContactsFailure.notFound(reference: "#\(id)")
        }
        return contact
    }

    /// Finds the contact a user means: an id ("3" or "#3"), a UID, or a name that matches one
    /// contact (or exactly one by full name among several).
    public func resolve(_ reference: String) throws -> Contact {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.hasPrefix("#") ? String(trimmed.dropFirst()) : trimmed
        if let id = Int64(digits) { return try contact(id: id) }
        // Two contacts may share a UID (two servers hold it): then the UID names neither.
        let byUID = try translating({ try store.contacts(uids: [trimmed]) })
        if byUID.count == 1 { return byUID[0] }
        if byUID.count > 1 { throw ContactsFailure.ambiguous(reference: trimmed, matches: byUID) }
        let matches = try page(ContactQuery(search: trimmed, sort: .last, page: 1, limit: 10)).contacts
        if matches.count == 1 { return matches[0] }
        let exact = matches.filter { ContactKeys.fold($0.fullName) == ContactKeys.fold(trimmed) }
        if exact.count == 1 { return exact[0] }
        if matches.isEmpty { throw ContactsFailure.notFound(reference: trimmed) }
        throw ContactsFailure.ambiguous(reference: trimmed, matches: matches)
    }

    /// Contact names starting with what was typed, for completion: numbers are typed, not
    /// completed; nothing typed offers the first names of the list. A failed read offers
    /// nothing: completion must never interrupt typing with an error.
    public func names(startingWith prefix: String, sort: SortOrder) -> [String] {
        let prefix = prefix.trimmingCharacters(in: .whitespaces)
        if prefix.first?.isNumber == true { return [] }
        return (try? completeNames(prefix, sort: sort)) ?? []
    }

    /// Stores a new contact, stamping its UID and times.
    public func insert(_ contact: Contact) throws -> Contact {
        try access.checkNewContacts()
        var new = contact
        new.uid = new.uid.isEmpty ? makeUID() : new.uid
        new.createdAt = now()
        new.updatedAt = new.createdAt
        let inserted = try translating { try store.insert(new) }
        announce("created", inserted.id)
        return inserted
    }

    /// Saves an edit made from `contact.version`; refused if someone saved in between.
    public func update(_ contact: Contact) throws -> Contact {
        try access.check([contact])
        var changed = contact
        changed.updatedAt = now()
        let updated = try translating({ try store.update(changed) }, editing: contact)
        announce("updated", updated.id)
        return updated
    }

    public func delete(_ contact: Contact) throws {
        guard let id = contact.id else { return }
        try access.check([contact])
        try translating({ try store.delete(id: id, expectedVersion: contact.version) }, editing: contact)
        announce("deleted", id)
    }

    func announce(_ kind: String, _ id: Int64?) {
        guard let id else { return }
        changes?.post(DataChange(topic: "contacts", kind: kind, ids: [String(id)]))
    }

    /// 0-based place of a contact in the whole list in this order.
    public func position(of id: Int64, sort: SortOrder) throws -> Int {
        try translating { try store.position(of: id, sort: sort) }
    }

    public func place(of id: Int64, sort: SortOrder) throws -> (position: Int, total: Int) {
        (try position(of: id, sort: sort), try page(ContactQuery(search: "", sort: sort, page: 1, limit: 1)).total)
    }

    func translating<T>(_ work: () throws -> T, editing contact: Contact? = nil) throws -> T {
        do {
            return try work()
        } catch let error as ContactStoreError {
            switch error {
            case .notFound(let id): throw ContactsFailure.notFound(reference: "#\(id)")
            case .staleVersion(let id, let expected, let actual):
                var current = (try? store.contact(id: id)) ?? contact ?? Contact()
                current.version = actual
                throw ContactsFailure.stale(current: current, yourVersion: expected)
            case .storage(let message): throw ContactsFailure.storage(message)
            }
        }
    }
}
