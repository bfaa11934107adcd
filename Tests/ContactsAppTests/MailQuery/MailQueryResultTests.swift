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

    func test_answer_entriesMappedAsTheyArrive_areTheLinesMappedAfter_withOrWithoutALookahead() throws {
        // Given: two entries (one with two addresses, one with none), the size limit hit
        let entries = [
            entry("zoe", "Zoë Lee", mail: "zoe@corp.test"),
            DirectoryEntry(
                source: "corp", dn: "uid=al,dc=corp",
                attributes: [
                    ("cn", [Data("Al\u{1B}[31m Lee".utf8)]), ("o", [Data("Acme".utf8)]),
                    ("mail", [Data("al@corp.test".utf8), Data("al2@corp.test".utf8)]),
                ]),
            entry("nobody", "No Mail", mail: "not an address"),
        ]
        client.answers = ["corp": DirectoryAnswer(entries: entries, more: true)]
        let map: @Sendable (DirectoryEntry) -> [MailQueryMatch] = { DirectoryPresenter().mailMatches(for: $0) }
        // When
        let now = try sut.answer(for: "lee", directories: SourcesFake([corp]), client: client, mapEntry: map)
        let ahead = try sut.answer(
            for: "lee", directories: SourcesFake([corp]), client: ClientFake(),
            lookahead: DirectoryLookahead(client: client), mapEntry: map)
        let unmapped = try sut.answer(for: "lee", directories: SourcesFake([corp]), client: client)
        // Then
        XCTAssertEqual(now.fromDirectories, DirectoryPresenter().mailMatches(now.directories))
        XCTAssertEqual(
            now.fromDirectories,
            [
                MailQueryMatch(address: "zoe@corp.test", name: "Zoë Lee", info: "corp directory"),
                MailQueryMatch(address: "al@corp.test", name: "Al [31m Lee", info: "corp directory · Acme"),
                MailQueryMatch(address: "al2@corp.test", name: "Al [31m Lee", info: "corp directory · Acme"),
            ])
        XCTAssertEqual(ahead, now)
        XCTAssertEqual(now.directories, unmapped.directories)
        XCTAssertEqual(unmapped.fromDirectories, [], "nothing mapped without a mapping")
        XCTAssertEqual(
            now.directories.notices, ["directory corp: more entries match than the 3 shown; type more of the name"])
    }

    func test_answer_aDirectoryThatFails_hasNoMappedLines_evenForEntriesMappedBeforeIt() throws {
        // Given: a directory that sends one entry, then times out
        final class FailsAfterOne: DirectoryClient, @unchecked Sendable {
            let first: DirectoryEntry
            init(_ first: DirectoryEntry) { self.first = first }
            func search(_ request: DirectoryRequest) -> DirectoryAnswer { search(request) { _ in } }
            func search(_ request: DirectoryRequest, eachEntry: (DirectoryEntry) -> Void) -> DirectoryAnswer {
                eachEntry(first)
                return DirectoryAnswer(failure: .directory(name: "corp", .timeout, "no complete answer within 3 s"))
            }
        }
        final class Count: @unchecked Sendable {
            let lock = NSLock()
            var value = 0
        }
        let mapped = Count()
        // When
        let answer = try sut.answer(
            for: "lee", directories: SourcesFake([corp]),
            client: FailsAfterOne(entry("zoe", "Zoë Lee", mail: "z@corp.test")),
            mapEntry: { entry in
                mapped.lock.withLock { mapped.value += 1 }
                return DirectoryPresenter().mailMatches(for: entry)
            })
        // Then: mapped as it came, but the answer is the failure's, as without a mapping
        XCTAssertEqual(mapped.value, 1)
        XCTAssertEqual(answer.fromDirectories, [])
        XCTAssertEqual(answer.directories.entries, [])
        XCTAssertEqual(answer.directories.notices, ["directory corp: no complete answer within 3 s"])
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

    func test_answer_asksWhetherThereAreSources_beforeReadingThem() throws {
        // Given: a store that says what it was asked
        final class Counting: DirectorySourceStore {
            var sources: [DirectorySource]
            var asked: [String] = []
            init(_ sources: [DirectorySource]) { self.sources = sources }
            func hasDirectorySources() throws -> Bool {
                asked.append("has")
                return !sources.isEmpty
            }
            func directorySources() throws -> [DirectorySource] {
                asked.append("list")
                return sources
            }
            func addDirectorySource(_ source: DirectorySource) throws {}
            func removeDirectorySource(named name: String) throws -> Bool { false }
        }
        let none = Counting([])
        let some = Counting([DirectorySource(name: "lab", server: "h", baseDN: "dc=x", security: .startTLS)])
        // When
        let withoutDirectories = try sut.answer(for: "lee", directories: none, client: ClientFake())
        _ = try sut.answer(for: "lee", directories: some, client: ClientFake())
        // Then: a book with no directory reads no source; one with some reads them all
        XCTAssertEqual(none.asked, ["has"])
        XCTAssertEqual(some.asked, ["has", "list"])
        XCTAssertEqual(withoutDirectories.directories, DirectorySearch())
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
        XCTAssertEqual(lookahead.wait().0, DirectorySearch())
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
