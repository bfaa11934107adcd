import Foundation
import XCTest

@testable import ContactsApp

final class AddFromMailWorkerTests: XCTestCase {
    private var store: SQLiteContactStore!
    private var sut: AddFromMailWorker!
    private var clock = Seeds.now

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try SQLiteContactStore(path: ":memory:")
        _ = try store.insert(Seeds.Contacts.ann) // ann@example.org, #1
        sut = makeWorker()
    }

    override func tearDown() {
        sut = nil
        store = nil
        super.tearDown()
    }

    private func makeWorker() -> AddFromMailWorker {
        var environment = Seeds.environment(store: store)
        environment.journal = store
        environment.now = { [unowned self] in clock }
        return AddFromMailWorker(environment: environment, seen: store)
    }

    private func message(_ name: String) throws -> MailMessage {
        MailMessage.parse(try MailMessageTests.fixture(name))
    }

    func test_candidates_senderOnly_orEveryone_knownOnesNamed() throws {
        // When
        let senders = try sut.candidates(in: try message("jose-to-ann.eml"), all: false)
        let everyone = try sut.candidates(in: try message("jose-to-ann.eml"), all: true)

        // Then
        XCTAssertEqual(senders.map(\.mailbox.address), ["jose@correo.es"])
        XCTAssertEqual(senders.map(\.status), [.new])
        XCTAssertEqual(
            everyone.map(\.mailbox.address),
            [
                "jose@correo.es", "ann@example.org", "bjorn@example.se",
                "ann.lee@home.example", "a@x.example", "b@x.example",
            ])
        XCTAssertEqual(everyone[1].status, .known([Seeds.stored(Seeds.Contacts.ann, id: 1)]))
        XCTAssertEqual(everyone[1].field, .to)
    }

    func test_add_isOneChangeSet_thatUndoTakesBack() throws {
        // Given
        let candidates = try sut.candidates(in: try message("thunderbird-reply.eml"), all: true)

        // When
        let saved = try sut.add(candidates.filter { $0.status == .new }.map(\.mailbox))

        // Then: names split, particles and "Family, Given" respected
        XCTAssertEqual(
            saved.map { [$0.givenName, $0.familyName, $0.emails.first?.value ?? ""] },
            [
                ["Zoë", "Adams", "zoe@example.org"], ["Zoe", "Adams", "zoe.adams@work.example"],
                ["José", "Ñúñez", "jose@correo.es"],
                ["Mary", "Kowalczyk", "mary@kowalczyk.example"], ["Seán", "O'Brien", "sean@obrien.example"],
            ])
        XCTAssertEqual(saved.map(\.createdAt), Array(repeating: Seeds.now, count: 5))
        let history = try store.history(contactID: nil, limit: 10)
        XCTAssertEqual(history.map(\.summary), ["added Zoë Adams and 4 more from mail", "added Ann Lee"])
        XCTAssertEqual(history.first?.kind, .add)
        _ = try store.undo(changeSet: nil)
        XCTAssertEqual(try store.page(ContactQuery()).total, 1)
    }

    func test_contactForAMailboxWithoutAName_isNamedByItsAddress() {
        let contact = AddFromMailWorker.contact(for: .init(name: "", address: "dev@lists.example"))
        XCTAssertEqual(contact.fullName, "dev@lists.example")
        XCTAssertEqual(AddFromMailWorker.splitName("Ludwig van Beethoven").family, "van Beethoven")
        XCTAssertEqual(AddFromMailWorker.splitName("jose@correo.es").given, "")
        XCTAssertEqual(AddFromMailWorker.splitName("Cher").given, "Cher")
    }

    func test_recordSeen_countsEachValidAddressOncePerMessage_withTheLastTime() throws {
        // When: the same message twice, a day apart
        try sut.recordSeen(try message("list-latin9.eml"))
        clock = Seeds.now.addingTimeInterval(86_400)
        try sut.recordSeen(try message("list-latin9.eml"))

        // Then: dev@ is in To and Reply-To but counts once per message; not-an-address is not kept
        XCTAssertEqual(
            try store.seenAddresses(),
            [
                SeenAddress(address: "caisse@exemple.fr", count: 2, lastSeen: clock),
                SeenAddress(address: "dev@lists.example", count: 2, lastSeen: clock),
                SeenAddress(address: "francois@exemple.fr", count: 2, lastSeen: clock),
            ])
    }
}
