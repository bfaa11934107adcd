import Foundation

@testable import ContactsApp

/// A store that hands every call to another one: test doubles subclass it and override only
/// what they watch or break.
class ForwardingContactStore: ContactStore {
    let inner: ContactStore
    init(inner: ContactStore) { self.inner = inner }

    func page(_ query: ContactQuery) throws -> ContactPage { try inner.page(query) }
    func contact(id: Int64) throws -> Contact? { try inner.contact(id: id) }
    func insert(_ contact: Contact) throws -> Contact { try inner.insert(contact) }
    func update(_ contact: Contact) throws -> Contact { try inner.update(contact) }
    func delete(id: Int64, expectedVersion: Int?) throws { try inner.delete(id: id, expectedVersion: expectedVersion) }
    func position(of id: Int64, sort: ContactsApp.SortOrder) throws -> Int { try inner.position(of: id, sort: sort) }
    func contacts(uids: [String]) throws -> [Contact] { try inner.contacts(uids: uids) }
    func importContacts(inserting: [Contact], updating: [Contact]) throws -> [Contact] {
        try inner.importContacts(inserting: inserting, updating: updating)
    }
    func importInBatches(_ body: (ContactImportTransaction) throws -> Void) throws -> ImportedIDs {
        try inner.importInBatches(body)
    }
    func forEachBatch(
        search: String, sort: ContactsApp.SortOrder, batchSize: Int,
        _ body: ([Contact]) throws -> Void
    ) throws -> Int {
        try inner.forEachBatch(search: search, sort: sort, batchSize: batchSize, body)
    }
    func sharedUIDs() throws -> [String: [Int64]] { try inner.sharedUIDs() }
    func sharedMatchKeys(defaultCountry: String?) throws -> [SharedMatchKey] {
        try inner.sharedMatchKeys(defaultCountry: defaultCountry)
    }
    func contacts(ids: [Int64]) throws -> [Contact] { try inner.contacts(ids: ids) }
    func contactsWithBirthdays() throws -> [Contact] { try inner.contactsWithBirthdays() }
    func merge(keeping kept: Contact, removing: [Contact]) throws -> Contact {
        try inner.merge(keeping: kept, removing: removing)
    }
}

/// An import session that hands every call to another one, after `willSave` has seen each
/// batch (and may refuse it by throwing): how test doubles watch or break an import's saves.
final class WatchedImportSession: ContactImportSession {
    typealias Batch = (inserting: [Contact], prepared: [PreparedContact?], updating: [Contact])
    let inner: ContactImportSession
    let willSave: (Batch) throws -> Void
    init(inner: ContactImportSession, willSave: @escaping (Batch) throws -> Void) {
        self.inner = inner
        self.willSave = willSave
    }

    var bookWasEmpty: Bool { inner.bookWasEmpty }
    func contacts(uids: [String]) throws -> [Contact] { try inner.contacts(uids: uids) }
    func save(inserting: [Contact], prepared: [PreparedContact?], updating: [Contact]) throws {
        try willSave((inserting, prepared, updating))
        try inner.save(inserting: inserting, prepared: prepared, updating: updating)
    }
    func addedUIDs(among uids: [String]) throws -> Set<String> { try inner.addedUIDs(among: uids) }
}
