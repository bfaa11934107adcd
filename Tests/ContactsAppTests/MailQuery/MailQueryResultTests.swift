import Foundation
import XCTest

@testable import ContactsApp

/// `contactsbook query`'s answer (`MailQueryWorker.answer`): the book's matches and a fake
/// directory's, the book's handed out first while the directories are asked.
final class MailQueryResultTests: XCTestCase {
    typealias SourcesFake = DirectoryWorkerTests.SourcesFake
    typealias ClientFake = DirectoryWorkerTests.DirectoryClientFake

    let corp = DirectorySource(name: "corp", server: "ldap://ldap.corp.test", baseDN: "dc=corp", security: .startTLS)
    var client: ClientFake!
    var sut: MailQueryWorker!

    override func setUp() {
        super.setUp()
        client = ClientFake()
        sut = MailQueryWorker(store: Seeds.book())
    }

    func entry(_ uid: String, _ name: String, mail: String) -> DirectoryEntry {
        DirectoryEntry(
            source: "corp", dn: "uid=\(uid),dc=corp",
            attributes: [("cn", [Data(name.utf8)]), ("mail", [Data(mail.utf8)])])
    }

    func test_answer_theBooksMatchesFirst_thenTheDirectorys() throws {
        // Given
        client.answers = ["corp": DirectoryAnswer(entries: [entry("zoe", "Zoë Lee", mail: "zoe@corp.test")])]
        var handedFirst: [[MailQueryMatch]] = []
        // When
        let answer = try sut.answer(for: "lee", directories: SourcesFake([corp]), client: client) {
            handedFirst.append($0)
        }
        // Then
        let book = [MailQueryMatch(address: "ann@example.org", name: "Ann Lee", info: "work")]
        XCTAssertEqual(answer.book, book)
        XCTAssertEqual(handedFirst, [book])
        XCTAssertEqual(answer.directories.entries.map(\.dn), ["uid=zoe,dc=corp"])
        XCTAssertEqual(answer.directories.notices, [])
        XCTAssertEqual(client.requests.map(\.source.name), ["corp"])
    }

    func test_answer_aFailingDirectory_isANotice_andTheBookStands() throws {
        // Given
        client.answers = [
            "corp": DirectoryAnswer(failure: .directory(name: "corp", .connect, "cannot reach ldap.corp.test"))
        ]
        // When
        let answer = try sut.answer(for: "lee", directories: SourcesFake([corp]), client: client)
        // Then
        XCTAssertEqual(answer.book.map(\.address), ["ann@example.org"])
        XCTAssertEqual(answer.directories.entries, [])
        XCTAssertEqual(answer.directories.notices.count, 1)
        XCTAssertEqual(answer.directories.notices.first?.contains("cannot reach ldap.corp.test"), true)
    }

    func test_answer_withoutDirectories_asksNone_andHandsNothingFirst() throws {
        // Given
        var handedFirst = 0
        // When
        let answer = try sut.answer(for: "lee", directories: SourcesFake([]), client: client) { _ in handedFirst += 1 }
        // Then
        XCTAssertEqual(answer.book.map(\.address), ["ann@example.org"])
        XCTAssertEqual(answer.directories, DirectorySearch())
        XCTAssertEqual(handedFirst, 0)
        XCTAssertEqual(client.requests, [])
    }
}
