import Foundation

/// The one check every change of contacts goes through (issue 30): a contact in a read-only
/// book (the server's rights, or the person's mark) is not changed, and nothing is added to a
/// read-only default book. Refused before anything is written, naming the book. The workers
/// that change contacts (`ContactsWorker`: save, delete, merge, move; the mail workers' adds)
/// call it; a store without books (the unit tests' in-memory one) has nothing read-only.
public struct BookAccess {
    let store: ContactStore

    public init(store: ContactStore) { self.store = store }

    private var books: AddressBookStore? { store as? AddressBookStore }

    /// Throws `ContactsFailure.readOnly` for the first of `contacts` in a read-only book.
    public func check(_ contacts: [Contact]) throws {
        guard let books else { return }
        // The usual case, no read-only book: one small read.
        let readOnly = try Self.translating { try books.addressBooks(counting: false) }.filter(\.isReadOnly)
        guard !readOnly.isEmpty else { return }
        let names = try Self.translating { try books.bookNames(of: contacts.compactMap(\.id)) }
        for contact in contacts {
            guard let id = contact.id, let name = names[id], let book = readOnly.first(where: { $0.name == name })
            else { continue }
            let shown = contact.fullName.isEmpty ? "" : " \(contact.fullName)"
            throw ContactsFailure.readOnly(book: book.name, byServer: book.serverReadOnly, contact: "#\(id)\(shown)")
        }
    }

    /// Throws `ContactsFailure.readOnly` when `group`'s card is linked to a read-only book: a change
    /// made here would never be pushed (a read-only book is only pulled) and would part from the server's.
    /// A group not pushed yet is in the book its first push sends it to (`group new --book`, else
    /// the default book), which may have become read-only since it was made.
    public func check(group: ContactGroup) throws {
        guard let books, let links = store as? GroupSyncStore else { return }
        let all = try Self.translating { try books.addressBooks(counting: false) }
        let readOnly = all.filter(\.isReadOnly)
        guard !readOnly.isEmpty else { return }
        var linked = try Self.translating { try links.groupBooks(uid: group.uid) }
        if linked.isEmpty {
            let chosen = try Self.translating { try links.chosenGroupBooks() }[group.uid]
            linked = (chosen ?? all.first(where: \.isDefault)?.name).map { [$0] } ?? []
        }
        guard let book = readOnly.first(where: { linked.contains($0.name) }) else { return }
        throw ContactsFailure.readOnly(book: book.name, byServer: book.serverReadOnly, contact: "group \(group.name)")
    }

    /// Throws `ContactsFailure.readOnly` when the default book, where new contacts go, is read-only.
    public func checkNewContacts() throws {
        guard let books else { return }
        guard let book = try Self.translating({ try books.addressBooks(counting: false) }).first(where: \.isDefault),
            book.isReadOnly
        else { return }
        throw ContactsFailure.readOnly(book: book.name, byServer: book.serverReadOnly, contact: nil)
    }

    static func translating<T>(_ work: () throws -> T) throws -> T {
        do { return try work() } catch let error as ContactStoreError {
            throw ContactsFailure.storage("\(error)")
        }
    }
}
