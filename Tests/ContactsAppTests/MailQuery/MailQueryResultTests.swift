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

    func test_answer_withALookahead_itPreparesFirst_thenAsksTheBooksSources() throws {
        // Given: the thread `query` starts before the book is open
        client.answers = ["corp": DirectoryAnswer(entries: [entry("zoe", "Zoë Lee", mail: "zoe@corp.test")])]
        let lookahead = DirectoryLookahead(client: client)
        var handedFirst: [[MailQueryMatch]] = []
        // When: another client is passed too, the lookahead's asks
        let answer = try sut.answer(
            for: "lee", directories: SourcesFake([corp]), client: ClientFake(), lookahead: lookahead
        ) { handedFirst.append($0) }
        // Then
        XCTAssertEqual(client.calls, ["prepare", "search corp"])
        XCTAssertEqual(handedFirst.map { $0.map(\.address) }, [["ann@example.org"]])
        XCTAssertEqual(answer.book.map(\.address), ["ann@example.org"])
        XCTAssertEqual(answer.directories.entries.map(\.dn), ["uid=zoe,dc=corp"])
    }

    func test_answer_withALookahead_butNoSourceInTheBook_asksNone_likeWithout() throws {
        // Given: a header that said "directories" while the book lists none (another process
        // removed the last one and the header in the file is behind its WAL)
        let lookahead = DirectoryLookahead(client: client)
        var handedFirst = 0
        // When
        let answer = try sut.answer(for: "lee", directories: SourcesFake([]), client: client, lookahead: lookahead) {
            _ in handedFirst += 1
        }
        // Then: only the library was prepared; the answer is the one without a lookahead
        XCTAssertEqual(client.calls, ["prepare"])
        XCTAssertEqual(client.requests, [])
        XCTAssertEqual(answer, try sut.answer(for: "lee", directories: SourcesFake([]), client: ClientFake()))
        XCTAssertEqual(handedFirst, 0)
    }

    func test_answer_whenTheSourcesCannotBeRead_throws_andReleasesTheLookahead() {
        // Given
        final class Unreadable: DirectorySourceStore {
            func directorySources() throws -> [DirectorySource] { throw ContactStoreError.storage("disk I/O error") }
            func addDirectorySource(_ source: DirectorySource) throws {}
            func removeDirectorySource(named name: String) throws -> Bool { false }
        }
        let lookahead = DirectoryLookahead(client: client)
        // When
        XCTAssertThrowsError(
            try sut.answer(for: "lee", directories: Unreadable(), client: client, lookahead: lookahead))
        // Then: handed nothing, it finishes (a wait on it returns) having asked no directory
        XCTAssertEqual(lookahead.wait(), DirectorySearch())
        XCTAssertEqual(client.calls, ["prepare"])
    }

    func test_aLookaheadAbandoned_finishesHavingAskedNothing() {
        // Given: the book's header said "directories" but the book could not be opened
        let lookahead = DirectoryLookahead(client: client)
        // When
        lookahead.abandon()
        // Then: it has finished (the wait returned) with only the library prepared
        XCTAssertEqual(client.calls, ["prepare"])
        XCTAssertEqual(client.requests, [])
    }
}
