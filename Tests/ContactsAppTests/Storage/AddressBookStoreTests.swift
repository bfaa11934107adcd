import Foundation
import GRDB
import XCTest
@testable import ContactsApp

/// The address books in the book file (issue 30): which book a contact is in, moves, the
/// migration of one-book accounts, and the one read-only check the workers make.
final class AddressBookStoreTests: XCTestCase {
    var sut: SQLiteContactStore!

    override func setUpWithError() throws {
        try super.setUpWithError()
        sut = try SQLiteContactStore(path: ":memory:")
    }

    func account(_ name: String) -> SyncAccount {
        SyncAccount(name: name, serverURL: "http://h/", bookURL: "", user: "ann")
    }

    func contact(_ given: String) throws -> Contact {
        try sut.insert(Contact(uid: given.lowercased(), givenName: given, familyName: "Lee"))
    }

    func test_aNewFile_hasTheLocalBookAlone_theDefault() throws {
        // Given
        _ = try contact("Ann")
        // When
        let books = try sut.addressBooks(counting: true)
        // Then
        XCTAssertEqual(books, [AddressBook(name: "local", isDefault: true, count: 1)])
    }

    func test_anAccountsBooks_theFirstWritableTheDefault_contactsInTheBookOfTheirLink() throws {
        // Given
        try sut.addAccount(account("home"), books: [
            AddressBook(name: "team", url: "http://h/team/", serverReadOnly: true),
            AddressBook(name: "book", url: "http://h/book/")])
        let ann = try contact("Ann"), bob = try contact("Bob")
        try sut.link(SyncItem(account: "team", href: "/team/bob.vcf", contactID: bob.id!, etag: "e", base: "", syncedVersion: 1))

        // When
        let books = try sut.addressBooks(counting: true)

        // Then: Ann, linked nowhere, is in the default book, where she is pushed next
        XCTAssertEqual(books.map(\.name), ["local", "book", "team"])
        XCTAssertEqual(books.map(\.isDefault), [false, true, false])
        XCTAssertEqual(books.map(\.count), [0, 1, 1])
        XCTAssertEqual(try sut.bookNames(of: [ann.id!, bob.id!]), [ann.id!: "book", bob.id!: "team"])
        XCTAssertEqual(try sut.unlinkedContacts(book: "book", isDefault: true).map(\.id), [ann.id])
        XCTAssertEqual(try sut.accounts().map(\.isDefault), [true])
    }

    func test_move_outOfAServersBook_keepsItsCardForTheDeleteUntilTheNewBookHoldsIt() throws {
        // Given
        try sut.addAccount(account("home"), books: [AddressBook(name: "book", url: "http://h/book/"),
                                                    AddressBook(name: "team", url: "http://h/team/")])
        let ann = try contact("Ann")
        try sut.link(SyncItem(account: "book", href: "/book/ann.vcf", contactID: ann.id!, etag: "e1", base: "", syncedVersion: 1))

        // When
        try sut.move([ann.id!], to: "team")

        // Then: in team now, pushed there next; book's card waits for its DELETE, not pulled back
        let move = BookMove(contactID: ann.id!, fromBook: "book", href: "/book/ann.vcf", etag: "e1", toBook: "team")
        XCTAssertEqual(try sut.bookNames(of: [ann.id!]), [ann.id!: "team"])
        XCTAssertEqual(try sut.unlinkedContacts(book: "team", isDefault: false).map(\.id), [ann.id])
        XCTAssertEqual(try sut.unlinkedContacts(book: "book", isDefault: true).map(\.id), [])
        XCTAssertEqual(try sut.pendingMoves(account: "home"), [move])
        XCTAssertEqual(try sut.movingHrefs(book: "book"), ["/book/ann.vcf"])
        XCTAssertFalse(try sut.moveIsReady(move))

        // When: the PUT to team was taken
        try sut.link(SyncItem(account: "team", href: "/team/ann.vcf", contactID: ann.id!, etag: "e2", base: "", syncedVersion: 1))
        // Then: the DELETE may go; once sent, the move is forgotten
        XCTAssertTrue(try sut.moveIsReady(move))
        try sut.finishMove(move)
        XCTAssertEqual(try sut.pendingMoves(account: "home"), [])
    }

    func test_move_backBeforeTheSync_linksItAgain_nothingToDelete() throws {
        // Given
        try sut.addAccount(account("home"), books: [AddressBook(name: "book", url: "http://h/book/"),
                                                    AddressBook(name: "team", url: "http://h/team/")])
        let ann = try contact("Ann")
        try sut.link(SyncItem(account: "book", href: "/book/ann.vcf", contactID: ann.id!, etag: "e1", base: "", syncedVersion: 1))
        try sut.move([ann.id!], to: "team")

        // When
        try sut.move([ann.id!], to: "book")

        // Then: linked to its card again, sent over its ETag at the next sync; no move left
        XCTAssertEqual(try sut.pendingMoves(account: "home"), [])
        XCTAssertEqual(try sut.movingHrefs(book: "book"), [])
        XCTAssertEqual(try sut.bookNames(of: [ann.id!]), [ann.id!: "book"])
        XCTAssertEqual(try sut.changedContacts(account: "book").map(\.id), [ann.id])
        XCTAssertEqual(try sut.itemsWithoutBase(account: "book").map(\.etag), ["e1"])
        XCTAssertEqual(try sut.unlinkedContacts(book: "team", isDefault: false).map(\.id), [])
    }

    func test_removeAccount_dropsItsBooks_theLocalBookTheDefaultAgain() throws {
        // Given
        try sut.addAccount(account("home"), books: [AddressBook(name: "book", url: "http://h/book/")])
        let ann = try contact("Ann")
        try sut.link(SyncItem(account: "book", href: "/book/ann.vcf", contactID: ann.id!, etag: "e", base: "", syncedVersion: 1))

        // When
        let linked = try sut.removeAccount(named: "home")

        // Then
        XCTAssertEqual(linked, 1)
        XCTAssertEqual(try sut.addressBooks(counting: true), [AddressBook(name: "local", isDefault: true, count: 1)])
    }

    func test_migration_namesEachAccountsBookAsTheAccount_keepingItsTokenAndDefault() throws {
        // Given: a file whose accounts were made before books (the migration undone by hand)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("books-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let store = try SQLiteContactStore(path: path)
            try store.addAccount(SyncAccount(name: "home", serverURL: "http://h/", bookURL: "http://h/book/", user: "ann",
                                             acceptsVCard4: true))
        }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO sync_account (name, server_url, book_url, user, vcard4, is_default) VALUES ('local', 'http://w/', 'http://w/b/', 'ann', 0, 0)
                """)
            try db.execute(sql: "UPDATE sync_account SET sync_token = 't7', is_default = (name = 'home')")
            try db.execute(sql: "DROP TABLE address_book; DROP TABLE book_pin; DROP TABLE book_move")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'add address books'")
        }
        try queue.close()

        // When
        let store = try SQLiteContactStore(path: path)

        // Then: an account named `local` leaves that name to its book
        XCTAssertEqual(try store.addressBooks(counting: false), [
            AddressBook(name: "this-file"),
            AddressBook(name: "home", account: "home", url: "http://h/book/", acceptsVCard4: true, syncToken: "t7",
                        isDefault: true),
            AddressBook(name: "local", account: "local", url: "http://w/b/", syncToken: "t7")])
        XCTAssertEqual(try store.accounts().map(\.syncToken), ["t7", "t7"])
        XCTAssertEqual(try store.syncToken(book: "home"), "t7")
    }

    func test_theWorkersCheck_refusesEveryChangeOfAReadOnlyBooksContacts_beforeItStarts() throws {
        // Given
        try sut.addAccount(account("home"), books: [AddressBook(name: "book", url: "http://h/book/"),
                                                    AddressBook(name: "team", url: "http://h/team/")])
        let ann = try contact("Ann"), bob = try contact("Bob")
        try sut.link(SyncItem(account: "team", href: "/team/bob.vcf", contactID: bob.id!, etag: "e", base: "", syncedVersion: 1))
        try sut.setServerReadOnly("team", true)
        let worker = ContactsWorker(environment: ContactsEnvironment(store: sut, pageSize: 20, defaultCountry: nil))
        let refused = ContactsFailure.readOnly(book: "team", byServer: true, contact: "#\(bob.id!) Bob Lee")

        // When / Then
        var edited = bob
        edited.title = "Boss"
        XCTAssertThrowsError(try worker.update(edited)) { XCTAssertEqual($0 as? ContactsFailure, refused) }
        XCTAssertThrowsError(try worker.delete(bob)) { XCTAssertEqual($0 as? ContactsFailure, refused) }
        XCTAssertThrowsError(try worker.merge(["#\(ann.id!)", "#\(bob.id!)"])) { XCTAssertEqual($0 as? ContactsFailure, refused) }
        XCTAssertThrowsError(try worker.move(["#\(bob.id!)"], to: "book")) { XCTAssertEqual($0 as? ContactsFailure, refused) }
        XCTAssertThrowsError(try worker.move(["#\(ann.id!)"], to: "team")) {
            XCTAssertEqual($0 as? ContactsFailure, .readOnly(book: "team", byServer: true, contact: nil))
        }
        XCTAssertThrowsError(try worker.checkEditable(bob))
        XCTAssertNoThrow(try worker.checkEditable(ann))
        XCTAssertEqual(try sut.contact(id: bob.id!)?.version, bob.version)
        // Still read: searched and paged as any other
        XCTAssertEqual(try worker.page(ContactQuery(search: "bob")).contacts.map(\.id), [bob.id])
        XCTAssertEqual(try worker.page(ContactQuery(book: "team")).contacts.map(\.id), [bob.id])
        XCTAssertEqual(try worker.page(ContactQuery(book: "team")).books, [bob.id!: "team"])

        // A copy out of it is a new contact in the writable book; the original stays
        let copied = try worker.copy(["#\(bob.id!)"], to: "book")
        XCTAssertTrue(copied.copied)
        XCTAssertNotEqual(copied.contacts.first?.uid, bob.uid)
        XCTAssertEqual(copied.contacts.first?.fullName, "Bob Lee")
        XCTAssertEqual(try sut.bookNames(of: [bob.id!, copied.contacts[0].id!]), [bob.id!: "team", copied.contacts[0].id!: "book"])
        XCTAssertThrowsError(try worker.copy(["#\(ann.id!)"], to: "team")) {
            XCTAssertEqual($0 as? ContactsFailure, .readOnly(book: "team", byServer: true, contact: nil))
        }

        // When the person marks the default book read-only: refused; a new contact then has nowhere to go
        XCTAssertThrowsError(try worker.setReadOnly(book: "book", true))
        try sut.setBookReadOnly("book", true)
        XCTAssertThrowsError(try worker.insert(Contact(givenName: "Cy"))) {
            XCTAssertEqual($0 as? ContactsFailure, .readOnly(book: "book", byServer: false, contact: nil))
        }
        XCTAssertEqual(ContactFormatter(locale: Locale(identifier: "en_US_POSIX"), timeZone: TimeZone(identifier: "UTC")!)
            .message(for: refused).text,
            "#\(bob.id!) Bob Lee is in book team, which is read-only (the server does not let us write it); nothing was changed")
    }

    func test_oneBookInUse_showsNoBook() throws {
        // Given: one account with one book, new contacts going to it
        try sut.addAccount(account("home"), books: [AddressBook(name: "home", url: "http://h/book/")])
        let ann = try contact("Ann")
        let worker = ContactsWorker(environment: ContactsEnvironment(store: sut, pageSize: 20, defaultCountry: nil))
        // Then
        XCTAssertEqual(worker.bookNames(of: [ann]), [:])
        // When: a contact is moved to the local book, two are in use
        try sut.move([ann.id!], to: "local")
        XCTAssertEqual(worker.bookNames(of: [ann]), [ann.id!: "local"])
    }

    func test_aGroupLinkedToAReadOnlyBook_isNotChanged_oneInAWritableBookIs() throws {
        // Given: a group on the read-only team book, another on the writable one
        try sut.addAccount(account("home"), books: [
            AddressBook(name: "team", url: "http://h/team/", serverReadOnly: true),
            AddressBook(name: "book", url: "http://h/book/")])
        let ann = try contact("Ann")
        let worker = ContactsWorker(environment: ContactsEnvironment(store: sut, pageSize: 20, defaultCountry: nil))
        let staff = try worker.newGroup(named: "Staff"), friends = try worker.newGroup(named: "Friends")
        try sut.linkGroup(GroupLink(account: "team", href: "/team/staff.vcf", uid: staff.uid, etag: "e", base: "", card: ""))
        try sut.linkGroup(GroupLink(account: "book", href: "/book/friends.vcf", uid: friends.uid, etag: "e", base: "", card: ""))
        let refusal = ContactsFailure.readOnly(book: "team", byServer: true, contact: "group Staff")

        // When / Then: every change of Staff is refused before it is written, naming the book
        XCTAssertThrowsError(try worker.addMembers(["Ann"], to: "Staff")) { XCTAssertEqual($0 as? ContactsFailure, refusal) }
        XCTAssertThrowsError(try worker.renameGroup("Staff", to: "Crew")) { XCTAssertEqual($0 as? ContactsFailure, refusal) }
        XCTAssertThrowsError(try worker.deleteGroup(named: "Staff")) { XCTAssertEqual($0 as? ContactsFailure, refusal) }
        let kept = try worker.group(named: "Staff")
        XCTAssertEqual([kept.name, kept.card.text], [staff.name, staff.card.text])
        XCTAssertEqual(kept.version, staff.version)
        // and Friends changes as before
        XCTAssertEqual(try worker.addMembers(["Ann"], to: "Friends").group.members, [ann.uid])
    }
}
