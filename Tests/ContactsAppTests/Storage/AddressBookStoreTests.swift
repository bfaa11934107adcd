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
        try sut.addAccount(
            account("home"),
            books: [
                AddressBook(name: "team", url: "http://h/team/", serverReadOnly: true),
                AddressBook(name: "book", url: "http://h/book/"),
            ])
        let ann = try contact("Ann"), bob = try contact("Bob")
        try sut.link(
            SyncItem(account: "team", href: "/team/bob.vcf", contactID: bob.id!, etag: "e", base: "", syncedVersion: 1))

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
        try sut.addAccount(
            account("home"),
            books: [
                AddressBook(name: "book", url: "http://h/book/"),
                AddressBook(name: "team", url: "http://h/team/"),
            ])
        let ann = try contact("Ann")
        try sut.link(
            SyncItem(account: "book", href: "/book/ann.vcf", contactID: ann.id!, etag: "e1", base: "", syncedVersion: 1)
        )

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
        try sut.link(
            SyncItem(account: "team", href: "/team/ann.vcf", contactID: ann.id!, etag: "e2", base: "", syncedVersion: 1)
        )
        // Then: the DELETE may go; once sent, the move is forgotten
        XCTAssertTrue(try sut.moveIsReady(move))
        try sut.finishMove(move)
        XCTAssertEqual(try sut.pendingMoves(account: "home"), [])
    }

    func test_move_backBeforeTheSync_linksItAgain_nothingToDelete() throws {
        // Given
        try sut.addAccount(
            account("home"),
            books: [
                AddressBook(name: "book", url: "http://h/book/"),
                AddressBook(name: "team", url: "http://h/team/"),
            ])
        let ann = try contact("Ann")
        try sut.link(
            SyncItem(account: "book", href: "/book/ann.vcf", contactID: ann.id!, etag: "e1", base: "", syncedVersion: 1)
        )
        try sut.move([ann.id!], to: "team")

        // When
        try sut.move([ann.id!], to: "book")

        // Then: linked to its card again as it was (base and synced version): nothing to push, no move left
        XCTAssertEqual(try sut.pendingMoves(account: "home"), [])
        XCTAssertEqual(try sut.movingHrefs(book: "book"), [])
        XCTAssertEqual(try sut.bookNames(of: [ann.id!]), [ann.id!: "book"])
        XCTAssertEqual(try sut.changedContacts(account: "book").map(\.id), [])
        XCTAssertEqual(try sut.itemsWithoutBase(account: "book").map(\.etag), ["e1"])
        XCTAssertEqual(try sut.unlinkedContacts(book: "team", isDefault: false).map(\.id), [])
    }

    func test_removeAccount_dropsItsBooks_theLocalBookTheDefaultAgain() throws {
        // Given
        try sut.addAccount(account("home"), books: [AddressBook(name: "book", url: "http://h/book/")])
        let ann = try contact("Ann")
        try sut.link(
            SyncItem(account: "book", href: "/book/ann.vcf", contactID: ann.id!, etag: "e", base: "", syncedVersion: 1))

        // When
        let linked = try sut.removeAccount(named: "home")

        // Then
        XCTAssertEqual(linked, 1)
        XCTAssertEqual(try sut.addressBooks(counting: true), [AddressBook(name: "local", isDefault: true, count: 1)])
    }

    func test_migration_namesEachAccountsBookAsTheAccount_keepingItsTokenAndDefault() throws {
        // Given: a file whose accounts were made before books (the migration undone by hand)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("books-\(UUID().uuidString).sqlite")
            .path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let store = try SQLiteContactStore(path: path)
            try store.addAccount(
                SyncAccount(
                    name: "home", serverURL: "http://h/", bookURL: "http://h/book/", user: "ann",
                    acceptsVCard4: true))
        }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
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
        XCTAssertEqual(
            try store.addressBooks(counting: false),
            [
                AddressBook(name: "this-file"),
                AddressBook(
                    name: "home", account: "home", url: "http://h/book/", acceptsVCard4: true, syncToken: "t7",
                    isDefault: true),
                AddressBook(name: "local", account: "local", url: "http://w/b/", syncToken: "t7"),
            ])
        XCTAssertEqual(try store.accounts().map(\.syncToken), ["t7", "t7"])
        XCTAssertEqual(try store.syncToken(book: "home"), "t7")
    }

    func test_theWorkersCheck_refusesEveryChangeOfAReadOnlyBooksContacts_beforeItStarts() throws {
        // Given
        try sut.addAccount(
            account("home"),
            books: [
                AddressBook(name: "book", url: "http://h/book/"),
                AddressBook(name: "team", url: "http://h/team/"),
            ])
        let ann = try contact("Ann"), bob = try contact("Bob")
        try sut.link(
            SyncItem(account: "team", href: "/team/bob.vcf", contactID: bob.id!, etag: "e", base: "", syncedVersion: 1))
        try sut.setServerReadOnly("team", true)
        let worker = ContactsWorker(environment: ContactsEnvironment(store: sut, pageSize: 20, defaultCountry: nil))
        let refused = ContactsFailure.readOnly(book: "team", byServer: true, contact: "#\(bob.id!) Bob Lee")

        // When / Then
        var edited = bob
        edited.title = "Boss"
        XCTAssertThrowsError(try worker.update(edited)) { XCTAssertEqual($0 as? ContactsFailure, refused) }
        XCTAssertThrowsError(try worker.delete(bob)) { XCTAssertEqual($0 as? ContactsFailure, refused) }
        XCTAssertThrowsError(try worker.merge(["#\(ann.id!)", "#\(bob.id!)"])) {
            XCTAssertEqual($0 as? ContactsFailure, refused)
        }
        XCTAssertThrowsError(try worker.move(["#\(bob.id!)"], to: "book")) {
            XCTAssertEqual($0 as? ContactsFailure, refused)
        }
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
        XCTAssertEqual(
            try sut.bookNames(of: [bob.id!, copied.contacts[0].id!]), [bob.id!: "team", copied.contacts[0].id!: "book"])
        XCTAssertThrowsError(try worker.copy(["#\(ann.id!)"], to: "team")) {
            XCTAssertEqual($0 as? ContactsFailure, .readOnly(book: "team", byServer: true, contact: nil))
        }

        // When the person marks the default book read-only: refused; a new contact then has nowhere to go
        XCTAssertThrowsError(try worker.setReadOnly(book: "book", true))
        try sut.setBookReadOnly("book", true)
        XCTAssertThrowsError(try worker.insert(Contact(givenName: "Cy"))) {
            XCTAssertEqual($0 as? ContactsFailure, .readOnly(book: "book", byServer: false, contact: nil))
        }
        XCTAssertEqual(
            ContactFormatter(timeZone: TimeZone(identifier: "UTC")!)
                .message(for: refused).text,
            "#\(bob.id!) Bob Lee is in book team, which is read-only (the server does not let us write it); nothing was changed"
        )
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

    func test_hasSeveralBooks_saysWhatTheListOfBooksSays() throws {
        // Given: the local book alone
        _ = try contact("Ann")
        // Then
        XCTAssertFalse(try sut.hasSeveralBooks())
        XCTAssertFalse(try ForwardingBooks(sut).hasSeveralBooks(), "the protocol's own answer")
        // When: an account's book beside it
        try sut.addAccount(account("home"), books: [AddressBook(name: "home", url: "http://h/book/")])
        // Then
        XCTAssertTrue(try sut.hasSeveralBooks())
        XCTAssertTrue(try ForwardingBooks(sut).hasSeveralBooks(), "the protocol's own answer")
        // And a closed book answers nothing
        try sut.close()
        XCTAssertThrowsError(try sut.hasSeveralBooks())
    }

    /// The books of another store, through the protocol's default `hasSeveralBooks`.
    private final class ForwardingBooks: AddressBookStore {
        let store: SQLiteContactStore
        init(_ store: SQLiteContactStore) { self.store = store }
        func addressBooks(counting: Bool) throws -> [AddressBook] { try store.addressBooks(counting: counting) }
        func bookNames(of ids: [Int64]) throws -> [Int64: String] { try store.bookNames(of: ids) }
        func setBookReadOnly(_ name: String, _ readOnly: Bool) throws {}
        func setDefaultBook(_ name: String) throws {}
        func move(_ ids: [Int64], to book: String, summary: String?) throws {}
        func insertCopies(_ contacts: [Contact], into book: String, summary: String) throws -> [Contact] { [] }
        func pendingMoves(account: String) throws -> [BookMove] { [] }
        func finishMove(_ move: BookMove) throws {}
        func moveIsReady(_ move: BookMove) throws -> Bool { true }
        func setServerReadOnly(_ name: String, _ readOnly: Bool) throws {}
    }

    func test_theWorkersBookStore_isTheEnvironments_givenOrCast() throws {
        // Given: two books in use
        try sut.addAccount(account("home"), books: [AddressBook(name: "home", url: "http://h/book/")])
        let ann = try contact("Ann")
        try sut.move([ann.id!], to: "local")
        // When: given by the composition root (no cast), or left to the environment's cast
        let given = ContactsWorker(
            environment: ContactsEnvironment(store: sut, pageSize: 20, defaultCountry: nil, books: sut))
        let cast = ContactsWorker(environment: ContactsEnvironment(store: sut, pageSize: 20, defaultCountry: nil))
        let none = ContactsWorker(environment: ContactsEnvironment(store: InMemoryContactStore()))
        // Then
        XCTAssertTrue(given.bookStore as AnyObject === sut)
        XCTAssertTrue(cast.bookStore as AnyObject === sut)
        XCTAssertNil(none.bookStore)
        XCTAssertEqual(given.bookNames(of: [ann]), [ann.id!: "local"])
        XCTAssertEqual(cast.bookNames(of: [ann]), [ann.id!: "local"])
    }

    func test_aGroupLinkedToAReadOnlyBook_isNotChanged_oneInAWritableBookIs() throws {
        // Given: a group on the read-only team book, another on the writable one
        try sut.addAccount(
            account("home"),
            books: [
                AddressBook(name: "team", url: "http://h/team/", serverReadOnly: true),
                AddressBook(name: "book", url: "http://h/book/"),
            ])
        let ann = try contact("Ann")
        let worker = ContactsWorker(environment: ContactsEnvironment(store: sut, pageSize: 20, defaultCountry: nil))
        let staff = try worker.newGroup(named: "Staff", book: nil),
            friends = try worker.newGroup(named: "Friends", book: nil)
        try sut.linkGroup(
            GroupLink(account: "team", href: "/team/staff.vcf", uid: staff.uid, etag: "e", base: "", card: ""))
        try sut.linkGroup(
            GroupLink(account: "book", href: "/book/friends.vcf", uid: friends.uid, etag: "e", base: "", card: ""))
        let refusal = ContactsFailure.readOnly(book: "team", byServer: true, contact: "group Staff")

        // When / Then: every change of Staff is refused before it is written, naming the book
        XCTAssertThrowsError(try worker.addMembers(["Ann"], to: "Staff")) {
            XCTAssertEqual($0 as? ContactsFailure, refusal)
        }
        XCTAssertThrowsError(try worker.renameGroup("Staff", to: "Crew")) {
            XCTAssertEqual($0 as? ContactsFailure, refusal)
        }
        XCTAssertThrowsError(try worker.deleteGroup(named: "Staff")) { XCTAssertEqual($0 as? ContactsFailure, refusal) }
        let kept = try worker.group(named: "Staff")
        XCTAssertEqual([kept.name, kept.card.text], [staff.name, staff.card.text])
        XCTAssertEqual(kept.version, staff.version)
        // and Friends changes as before
        XCTAssertEqual(try worker.addMembers(["Ann"], to: "Friends").group.members, [ann.uid])
    }

    // MARK: - Moves in the journal

    /// Two books of one account; Ann's card on the server in `book`, Bob not yet pushed (in
    /// `book`, the default, by no pin of his own).
    private func twoBooksAnnSyncedBobNot() throws -> (ann: Contact, bob: Contact, worker: ContactsWorker) {
        try sut.addAccount(
            account("home"),
            books: [
                AddressBook(name: "book", url: "http://h/book/"),
                AddressBook(name: "team", url: "http://h/team/"),
            ])
        let ann = try contact("Ann"), bob = try contact("Bob")
        try sut.link(
            SyncItem(account: "book", href: "/book/ann.vcf", contactID: ann.id!, etag: "e1", base: "", syncedVersion: 1)
        )
        return (
            ann, bob, ContactsWorker(environment: ContactsEnvironment(store: sut, pageSize: 20, defaultCountry: nil))
        )
    }

    func test_move_isOneChangeSet_undoPutsThemBackBeforeTheSync_redoMovesThemAgain() throws {
        // Given
        let (ann, bob, worker) = try twoBooksAnnSyncedBobNot()
        let ids = [ann.id!, bob.id!]
        _ = try worker.move(["#\(ann.id!)", "#\(bob.id!)"], to: "team")

        // Then: history shows it, for the book and for each contact
        let moved = try XCTUnwrap(sut.history(contactID: nil, limit: 5).first)
        XCTAssertEqual(moved.kind, .move)
        XCTAssertEqual(moved.summary, "moved Ann Lee, Bob Lee to team")
        XCTAssertEqual(
            moved.moves,
            [
                BookChange(contactID: ann.id!, from: "book", to: "team", fromPinned: false),
                BookChange(contactID: bob.id!, from: "book", to: "team", fromPinned: false),
            ])
        XCTAssertEqual(try sut.history(contactID: bob.id!, limit: 5).first?.id, moved.id)

        // When: undone before any sync
        let undone = try sut.undo(changeSet: nil)

        // Then: both in book again; Ann linked to her card as before (nothing to PUT to team, nothing to
        // DELETE from book); Bob in the default book by no pin, as he was
        XCTAssertEqual(undone.id, moved.id)
        XCTAssertEqual(try sut.bookNames(of: ids), [ann.id!: "book", bob.id!: "book"])
        XCTAssertEqual(try sut.pendingMoves(account: "home"), [])
        XCTAssertEqual(try sut.unlinkedContacts(book: "team", isDefault: false).map(\.id), [])
        XCTAssertEqual(try sut.unlinkedContacts(book: "book", isDefault: true).map(\.id), [bob.id])
        XCTAssertEqual(try sut.itemsWithoutBase(account: "book").map(\.href), ["/book/ann.vcf"])
        XCTAssertEqual(try sut.changedContacts(account: "book").map(\.id), [])
        XCTAssertTrue(try XCTUnwrap(sut.history(contactID: ann.id!, limit: 5).first).undone)

        // When: redone
        _ = try sut.redo()
        // Then: moved again, Ann's card waiting for its DELETE once team holds her
        XCTAssertEqual(try sut.bookNames(of: ids), [ann.id!: "team", bob.id!: "team"])
        XCTAssertEqual(
            try sut.pendingMoves(account: "home"),
            [BookMove(contactID: ann.id!, fromBook: "book", href: "/book/ann.vcf", etag: "e1", toBook: "team")])
        XCTAssertEqual(try sut.unlinkedContacts(book: "team", isDefault: false).map(\.id), ids)
    }

    func test_undoOfASyncedMove_isAMoveBack_aPUTThenADELETE_nothingLostNorDoubled() throws {
        // Given: the move went through a sync: PUT to team taken, then book's card deleted
        let (ann, _, worker) = try twoBooksAnnSyncedBobNot()
        _ = try worker.move(["#\(ann.id!)"], to: "team")
        try sut.link(
            SyncItem(account: "team", href: "/team/ann.vcf", contactID: ann.id!, etag: "e2", base: "", syncedVersion: 1)
        )
        try sut.finishMove(
            BookMove(contactID: ann.id!, fromBook: "book", href: "/book/ann.vcf", etag: "e1", toBook: "team"))

        // When
        _ = try sut.undo(changeSet: nil)

        // Then: in book again, to be PUT there; team's card deleted only once book holds her
        let back = BookMove(contactID: ann.id!, fromBook: "team", href: "/team/ann.vcf", etag: "e2", toBook: "book")
        XCTAssertEqual(try sut.bookNames(of: [ann.id!]), [ann.id!: "book"])
        XCTAssertTrue(try sut.unlinkedContacts(book: "book", isDefault: true).map(\.id).contains(ann.id))
        XCTAssertEqual(try sut.pendingMoves(account: "home"), [back])
        XCTAssertEqual(try sut.movingHrefs(book: "team"), ["/team/ann.vcf"])
        XCTAssertFalse(try sut.moveIsReady(back))
        try sut.link(
            SyncItem(
                account: "book", href: "/book/ann-2.vcf", contactID: ann.id!, etag: "e3", base: "", syncedVersion: 1))
        XCTAssertTrue(try sut.moveIsReady(back))
    }

    func test_undoOfAMoveWhoseDeleteFailed_linksTheOldCardAgain_andDeletesTheNewOne() throws {
        // Given: PUT to team taken, DELETE from book not (yet) done
        let (ann, _, worker) = try twoBooksAnnSyncedBobNot()
        _ = try worker.move(["#\(ann.id!)"], to: "team")
        try sut.link(
            SyncItem(account: "team", href: "/team/ann.vcf", contactID: ann.id!, etag: "e2", base: "", syncedVersion: 1)
        )

        // When
        _ = try sut.undo(changeSet: nil)

        // Then: book's card, still there, is hers again; team's copy goes at the next sync (no duplicate)
        XCTAssertEqual(try sut.bookNames(of: [ann.id!]), [ann.id!: "book"])
        XCTAssertEqual(try sut.itemsWithoutBase(account: "book").map(\.href), ["/book/ann.vcf"])
        let drop = BookMove(contactID: ann.id!, fromBook: "team", href: "/team/ann.vcf", etag: "e2", toBook: "book")
        XCTAssertEqual(try sut.pendingMoves(account: "home"), [drop])
        XCTAssertTrue(try sut.moveIsReady(drop))
        XCTAssertFalse(try sut.unlinkedContacts(book: "book", isDefault: true).map(\.id).contains(ann.id))
    }

    func test_undoOfAMove_isRefused_behindALaterMove_andIntoABookReadOnlyNow() throws {
        // Given
        let (ann, _, worker) = try twoBooksAnnSyncedBobNot()
        _ = try worker.move(["#\(ann.id!)"], to: "team")
        let first = try XCTUnwrap(sut.history(contactID: nil, limit: 1).first)
        _ = try worker.move(["#\(ann.id!)"], to: "local")

        // Then: not under the later move
        XCTAssertThrowsError(try sut.undo(changeSet: first.id)) { error in
            guard case .changedLater(let change, _)? = error as? JournalRefusal else { return XCTFail("\(error)") }
            XCTAssertEqual(change.id, first.id)
        }
        XCTAssertEqual(try sut.bookNames(of: [ann.id!]), [ann.id!: "local"])

        // When: the later one undone, and book made read-only by the server meanwhile
        _ = try sut.undo(changeSet: nil)
        try sut.setServerReadOnly("book", true)
        // Then
        XCTAssertThrowsError(try sut.undo(changeSet: nil)) { error in
            XCTAssertEqual(error as? JournalRefusal, .bookUnavailable(change: first, book: "book", readOnly: true))
        }
        XCTAssertEqual(try sut.bookNames(of: [ann.id!]), [ann.id!: "team"])
        XCTAssertEqual(
            ContactFormatter(timeZone: TimeZone(identifier: "UTC")!)
                .message(for: .journal(.bookUnavailable(change: first, book: "book", readOnly: true), action: "undo"))
                .text,
            "Cannot undo \"moved Ann Lee to team\": book book is read-only now. Nothing was changed.")
    }

    // MARK: - A new group's book

    func test_newGroup_isRefusedWhenTheDefaultBookIsReadOnly_namingIt_andGoesToTheBookNamed() throws {
        // Given: the default book became read-only on the server
        try sut.addAccount(
            account("home"),
            books: [
                AddressBook(name: "book", url: "http://h/book/"),
                AddressBook(name: "team", url: "http://h/team/"),
            ])
        try sut.setServerReadOnly("book", true)
        let worker = ContactsWorker(environment: ContactsEnvironment(store: sut, pageSize: 20, defaultCountry: nil))

        // When / Then: refused before anything is made
        XCTAssertThrowsError(try worker.newGroup(named: "Family", book: nil)) {
            XCTAssertEqual(
                $0 as? ContactsFailure, .readOnlyForGroups(book: "book", byServer: true, named: false, writable: "team")
            )
        }
        XCTAssertThrowsError(try worker.newGroup(named: "Family", book: "book")) {
            XCTAssertEqual(
                $0 as? ContactsFailure, .readOnlyForGroups(book: "book", byServer: true, named: true, writable: "team"))
        }
        XCTAssertThrowsError(try worker.newGroup(named: "Family", book: "nowhere")) {
            XCTAssertEqual(
                $0 as? ContactsFailure, .badInput("there is no book named nowhere; the books: local, book, team"))
        }
        XCTAssertEqual(try sut.groups(), [])
        XCTAssertEqual(
            ContactFormatter(timeZone: TimeZone(identifier: "UTC")!)
                .message(for: .readOnlyForGroups(book: "book", byServer: true, named: false, writable: "team")).text,
            "new groups go to book book, which is read-only (the server does not let us write it): a group there would "
                + "never reach the server; name a writable book: group new NAME --book team. Nothing was made.")

        // When: a writable book named
        let family = try worker.newGroup(named: "Family", book: "team")
        // Then: it goes there at its first push
        XCTAssertEqual(try sut.chosenGroupBooks(), [family.uid: "team"])
        XCTAssertEqual(try sut.groups().map(\.group.name), ["Family"])
        // and the account's removal forgets the choice with its books
        _ = try sut.removeAccount(named: "home")
        XCTAssertEqual(try sut.chosenGroupBooks(), [:])
    }

    func test_anUnpushedGroupMadeForABook_isRefusedOnceThatBookIsReadOnly_namingIt() throws {
        // Given: Family made for team (not pushed yet: linked nowhere), then team became read-only on the server
        try sut.addAccount(
            account("home"),
            books: [
                AddressBook(name: "book", url: "http://h/book/"),
                AddressBook(name: "team", url: "http://h/team/"),
            ])
        _ = try contact("Ann")
        let worker = ContactsWorker(environment: ContactsEnvironment(store: sut, pageSize: 20, defaultCountry: nil))
        let family = try worker.newGroup(named: "Family", book: "team"),
            friends = try worker.newGroup(named: "Friends", book: nil)
        try sut.setServerReadOnly("team", true)
        let refusal = ContactsFailure.readOnly(book: "team", byServer: true, contact: "group Family")

        // When / Then: every change of Family is refused before it is written, naming team
        XCTAssertThrowsError(try worker.addMembers(["Ann"], to: "Family")) {
            XCTAssertEqual($0 as? ContactsFailure, refusal)
        }
        XCTAssertThrowsError(try worker.renameGroup("Family", to: "Kin")) {
            XCTAssertEqual($0 as? ContactsFailure, refusal)
        }
        XCTAssertThrowsError(try worker.deleteGroup(named: "Family")) {
            XCTAssertEqual($0 as? ContactsFailure, refusal)
        }
        XCTAssertEqual(try worker.group(named: "Family").version, family.version)
        XCTAssertEqual(
            ContactFormatter(timeZone: TimeZone(identifier: "UTC")!)
                .message(for: refusal).text,
            "group Family is in book team, which is read-only (the server does not let us write it); nothing was changed"
        )
        // Friends, bound for the writable default book, changes as before
        XCTAssertEqual(try worker.addMembers(["Ann"], to: "Friends").group.members.count, 1)
        XCTAssertEqual(try worker.group(named: "Friends").uid, friends.uid)
        // and once team is writable again, so is Family
        try sut.setServerReadOnly("team", false)
        XCTAssertEqual(try worker.addMembers(["Ann"], to: "Family").group.members.count, 1)
    }

    func test_copy_isOneChangeSet_undoTakesEveryCopyBack_redoPutsThemInTheirBookAgain() throws {
        // Given: Ann and Bob in book (the default)
        let (ann, bob, worker) = try twoBooksAnnSyncedBobNot()
        let before = try sut.page(ContactQuery(limit: 10)).total

        // When: both copied to team
        let copied = try worker.copy(["#\(ann.id!)", "#\(bob.id!)"], to: "team")
        let ids = copied.contacts.compactMap(\.id)

        // Then: two new contacts in team, one change set saying so
        XCTAssertEqual(ids.count, 2)
        XCTAssertEqual(try sut.bookNames(of: ids), [ids[0]: "team", ids[1]: "team"])
        let change = try XCTUnwrap(sut.history(contactID: nil, limit: 5).first)
        XCTAssertEqual(change.kind, .add)
        XCTAssertEqual(change.summary, "copied Ann Lee, Bob Lee to team")
        XCTAssertEqual(Set(change.entries.map(\.contactID)), Set(ids))

        // When: undone
        let undone = try sut.undo(changeSet: nil)
        // Then: both copies gone at once, the originals where they were
        XCTAssertEqual(undone.id, change.id)
        XCTAssertEqual(try sut.contact(id: ids[0]), nil)
        XCTAssertEqual(try sut.contact(id: ids[1]), nil)
        XCTAssertEqual(try sut.page(ContactQuery(limit: 10)).total, before)
        XCTAssertEqual(try sut.unlinkedContacts(book: "team", isDefault: false).map(\.id), [])
        XCTAssertEqual(try sut.bookNames(of: [ann.id!, bob.id!]), [ann.id!: "book", bob.id!: "book"])

        // When: redone
        _ = try sut.redo()
        // Then: back under their ids, in team, to be pushed there
        XCTAssertEqual(try sut.bookNames(of: ids), [ids[0]: "team", ids[1]: "team"])
        XCTAssertEqual(try sut.unlinkedContacts(book: "team", isDefault: false).map(\.id), ids)
    }
}
