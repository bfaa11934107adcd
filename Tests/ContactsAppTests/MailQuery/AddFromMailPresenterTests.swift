import Foundation
import XCTest

@testable import ContactsApp

final class AddFromMailPresenterTests: XCTestCase {
    private let sut = AddFromMailPresenter(formatter: Seeds.formatter)
    private let jose = MailCandidate(
        mailbox: .init(name: "José Ñúñez", address: "jose@correo.es"), field: .from, status: .new)

    func test_question_namesTheMailboxAsMailWritesIt() {
        XCTAssertEqual(sut.question(jose), "Add José Ñúñez <jose@correo.es>? [y/N] ")
        let quoted = MailCandidate(mailbox: .init(name: "Lee, Ann", address: "ann@x.example"), field: .cc, status: .new)
        XCTAssertEqual(sut.question(quoted), "Add \"Lee, Ann\" <ann@x.example>? [y/N] ")
    }

    func test_skipped_namesWhoHoldsAKnownAddress_andSaysWhatIsNoAddress() {
        let known = MailCandidate(
            mailbox: .init(name: "Ann", address: "ann@example.org"), field: .to,
            status: .known([Seeds.stored(Seeds.Contacts.ann, id: 1)]))
        let invalid = MailCandidate(mailbox: .init(name: "", address: "not@"), field: .bcc, status: .invalid)
        XCTAssertEqual(
            sut.skipped([jose, known, invalid]),
            ["Known: ann@example.org is Ann Lee (#1)'s", "Skipped not@: not an email address"])
    }

    func test_added_andNotAsked() {
        var saved = AddFromMailWorker.contact(for: jose.mailbox)
        saved.id = 7
        XCTAssertEqual(sut.added([saved]), ["Added José Ñúñez <jose@correo.es> as #7"])
        XCTAssertEqual(
            sut.notAsked([jose]), ["Not added (nobody to ask; --yes adds without asking): José Ñúñez <jose@correo.es>"])
        XCTAssertEqual(sut.declined(jose), "Not added: José Ñúñez <jose@correo.es>")
    }

    func test_namesFromAMessage_reachTheTerminalWithoutControlCharacters() {
        let hostile = MailCandidate(
            mailbox: .init(name: "Eve\u{1B}[2J", address: "eve@x.example"), field: .from, status: .new)
        XCTAssertEqual(sut.question(hostile), "Add \"Eve?[2J\" <eve@x.example>? [y/N] ")
    }

    func test_failure_inTheWordsOfTheOtherCommands() {
        XCTAssertEqual(sut.failure(ContactStoreError.storage("The book is locked.")), "The book is locked.")
        XCTAssertEqual(
            sut.nothingFound(all: false), "No sender in this message (no From: header; is it a mail message?)")
    }
}
