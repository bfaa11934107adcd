import XCTest

@testable import ContactsApp

/// The directories' worker with an injected fake directory (no server): what it asks, what it
/// keeps of the answers, and how a failing directory is said and rested.
final class DirectoryWorkerTests: XCTestCase {
    final class SourcesFake: DirectorySourceStore {
        var sources: [DirectorySource]
        init(_ sources: [DirectorySource]) { self.sources = sources }
        func directorySources() throws -> [DirectorySource] { sources }
        func addDirectorySource(_ source: DirectorySource) throws { sources.append(source) }
        func removeDirectorySource(named name: String) throws -> Bool {
            let before = sources.count
            sources.removeAll { $0.name == name }
            return sources.count < before
        }
    }

    /// A directory in memory: answers per source name, and every request it got; `calls` says in
    /// which order it was prepared and asked.
    final class DirectoryClientFake: DirectoryClient, @unchecked Sendable {
        let lock = NSLock()
        var answers: [String: DirectoryAnswer] = [:]
        private(set) var requests: [DirectoryRequest] = []
        private(set) var calls: [String] = []
        func search(_ request: DirectoryRequest) -> DirectoryAnswer {
            lock.withLock {
                requests.append(request)
                calls.append("search \(request.source.name)")
                return answers[request.source.name] ?? DirectoryAnswer()
            }
        }
        func prepare() {
            lock.withLock { calls.append("prepare") }
        }
    }

    let corp = DirectorySource(
        name: "corp", server: "ldap://ldap.corp.test", baseDN: "dc=corp", bindDN: "cn=reader",
        passwordCommand: "pass show ldap", security: .startTLS)
    let lab = DirectorySource(
        name: "lab", server: "ldaps://ldap.lab.test", baseDN: "dc=lab", security: .ldaps, timeLimit: 1)
    var client: DirectoryClientFake!
    var clock = Date(timeIntervalSince1970: 1_000)
    var passwordsAsked = 0
    var sut: DirectoryWorker!

    override func setUp() {
        super.setUp()
        client = DirectoryClientFake()
        sut = DirectoryWorker(
            sources: SourcesFake([corp, lab]), client: client,
            passwords: { [unowned self] _ in
                passwordsAsked += 1; return "s3cret"
            }, now: { [unowned self] in clock })
    }

    func person(_ source: String, _ uid: String, _ name: String, mail: String) -> DirectoryEntry {
        DirectoryEntry(
            source: source, dn: "uid=\(uid),dc=\(source)",
            attributes: [("cn", [Data(name.utf8)]), ("mail", [Data(mail.utf8)])])
    }

    func test_search_asksEveryDirectory_withItsFilter_andTheBindPasswordOnlyWhereItBinds() {
        // Given
        client.answers = [
            "corp": DirectoryAnswer(entries: [person("corp", "ann", "Ann Lee", mail: "ann@corp.test")]),
            "lab": DirectoryAnswer(entries: [person("lab", "al", "Al Lee", mail: "al@lab.test")]),
        ]
        // When
        let found = sut.search("lee")
        // Then
        XCTAssertEqual(found.entries.map(\.dn), ["uid=ann,dc=corp", "uid=al,dc=lab"], "in the sources' order")
        XCTAssertEqual(found.notices, [])
        let requests = client.requests.sorted { $0.source.name < $1.source.name }
        XCTAssertEqual(requests.map(\.filter), [LDAPFilter.search("lee"), LDAPFilter.search("lee")])
        XCTAssertEqual(requests.map(\.password), ["s3cret", nil])
        XCTAssertEqual(requests.map(\.sizeLimit), [DirectorySource.defaultSizeLimit, DirectorySource.defaultSizeLimit])
        XCTAssertEqual(requests.map(\.attributes), [DirectoryRequest.everyAttribute, DirectoryRequest.everyAttribute])
    }

    func test_search_forAddresses_asksOnlyTheirAttributes() {
        // When: what `query` asks
        _ = sut.search("lee", in: [corp], attributes: DirectoryMapping.mailAttributes)
        // Then
        XCTAssertEqual(client.requests.map(\.attributes), [DirectoryMapping.mailAttributes])
    }

    func test_search_runsThePasswordCommandOncePerDirectory() {
        _ = sut.search("lee")
        _ = sut.search("ann")
        XCTAssertEqual(passwordsAsked, 1)
    }

    func test_aDirectoryThatFails_isANotice_theOthersAnswer_andItRestsAMinute() {
        // Given
        client.answers = [
            "corp": DirectoryAnswer(failure: .directory(name: "corp", .timeout, "no complete answer within 3 s")),
            "lab": DirectoryAnswer(entries: [person("lab", "al", "Al Lee", mail: "al@lab.test")]),
        ]
        // When
        let first = sut.search("lee")
        clock += DirectoryWorker.restAfterFailure - 1
        let second = sut.search("lee")
        clock += 1
        let third = sut.search("lee")
        // Then
        XCTAssertEqual(first.notices, ["directory corp: no complete answer within 3 s"])
        XCTAssertEqual(first.entries.map(\.source), ["lab"])
        XCTAssertEqual(second.notices, [], "said once: not asked while it rests")
        XCTAssertEqual(second.entries.map(\.source), ["lab"])
        XCTAssertEqual(third.notices, ["directory corp: no complete answer within 3 s"], "asked again after its rest")
        XCTAssertEqual(client.requests.filter { $0.source.name == "corp" }.count, 2)
    }

    func test_searchWithAMapping_mapsEachEntryAsTheClientHandsIt_inTheSourcesOrder() {
        // Given: a client that hands each entry over before its answer is complete, as libldap's does
        final class Streaming: DirectoryClient, @unchecked Sendable {
            let lock = NSLock()
            var events: [String] = []
            let answers: [String: [DirectoryEntry]]
            init(_ answers: [String: [DirectoryEntry]]) { self.answers = answers }
            func search(_ request: DirectoryRequest) -> DirectoryAnswer { search(request) { _ in } }
            func search(_ request: DirectoryRequest, eachEntry: (DirectoryEntry) -> Void) -> DirectoryAnswer {
                let entries = answers[request.source.name] ?? []
                for entry in entries {
                    lock.withLock { events.append("sent \(entry.dn)") }
                    eachEntry(entry)
                }
                lock.withLock { events.append("done \(request.source.name)") }
                return DirectoryAnswer(entries: entries)
            }
        }
        let streaming = Streaming([
            "corp": [
                person("corp", "ann", "Ann Lee", mail: "ann@corp.test"),
                person("corp", "bo", "Bo Lee", mail: "bo@corp.test"),
            ],
            "lab": [person("lab", "al", "Al Lee", mail: "al@lab.test")],
        ])
        let sut = DirectoryWorker(sources: SourcesFake([corp, lab]), client: streaming, passwords: { _ in "s3cret" })
        // When
        let (search, mapped) = sut.search(
            "lee", in: [corp, lab], attributes: DirectoryMapping.mailAttributes,
            mapping: { entry -> [String] in
                streaming.lock.withLock { streaming.events.append("mapped \(entry.dn)") }
                return [entry.dn]
            })
        // Then: each entry mapped before the next was sent; what was made in the sources' order
        XCTAssertEqual(mapped, ["uid=ann,dc=corp", "uid=bo,dc=corp", "uid=al,dc=lab"])
        XCTAssertEqual(search.entries.map(\.dn), mapped)
        let corpEvents = streaming.events.filter { $0.hasSuffix("corp") }
        XCTAssertEqual(
            corpEvents,
            [
                "sent uid=ann,dc=corp", "mapped uid=ann,dc=corp", "sent uid=bo,dc=corp", "mapped uid=bo,dc=corp",
                "done corp",
            ])
    }

    func test_aRefusedBind_isNotRested_soAFixedPasswordWorksAtOnce() {
        client.answers = ["corp": DirectoryAnswer(failure: .directory(name: "corp", .bind, "refused"))]
        _ = sut.search("lee")
        _ = sut.search("lee")
        XCTAssertEqual(client.requests.filter { $0.source.name == "corp" }.count, 2)
    }

    func test_aSizeLimitHit_saysMoreExist() {
        client.answers = [
            "lab": DirectoryAnswer(entries: [person("lab", "al", "Al Lee", mail: "al@lab.test")], more: true)
        ]
        XCTAssertEqual(
            sut.search("lee").notices,
            ["directory lab: more entries match than the 1 shown; type more of the name"])
    }

    func test_noWords_askNoDirectory() {
        XCTAssertEqual(sut.search("   "), DirectorySearch())
        // Blanks of any script (tab, no-break space, ideographic space) are no words either.
        XCTAssertEqual(sut.search("\t\u{00A0}\u{3000}"), DirectorySearch())
        // A line break is no word for the filter: each directory's answer is empty, nothing is asked.
        XCTAssertEqual(sut.search("\n").answers, [DirectoryAnswer(), DirectoryAnswer()])
        XCTAssertTrue(client.requests.isEmpty)
    }

    func test_oneDirectory_isAskedAndAnswers_likeSeveral() {
        // Given: one directory, asked on the caller's thread (no concurrentPerform)
        client.answers = [
            "lab": DirectoryAnswer(entries: [person("lab", "al", "Al Lee", mail: "al@lab.test")], more: true)
        ]
        // When
        let found = sut.search("lee", in: [lab], attributes: DirectoryMapping.mailAttributes)
        // Then
        XCTAssertEqual(found.entries.map(\.dn), ["uid=al,dc=lab"])
        XCTAssertEqual(found.notices, ["directory lab: more entries match than the 1 shown; type more of the name"])
        XCTAssertEqual(client.requests.map(\.filter), [LDAPFilter.search("lee")])
        XCTAssertEqual(client.requests.map(\.password), [nil])
    }

    func test_entry_asksForTheDNAsBase_oneEntry() throws {
        client.answers = ["lab": DirectoryAnswer(entries: [person("lab", "al", "Al Lee", mail: "al@lab.test")])]
        let entry = try sut.entry(name: "lab", dn: "uid=al,dc=lab")
        XCTAssertEqual(entry.dn, "uid=al,dc=lab")
        XCTAssertEqual(client.requests.last?.base, "uid=al,dc=lab")
        XCTAssertEqual(client.requests.last?.sizeLimit, 1)
        XCTAssertThrowsError(try sut.entry(name: "nope", dn: "uid=al,dc=lab")) {
            XCTAssertEqual($0 as? DirectoryFailure, .unknown("nope"))
        }
    }

    func test_add_checksWhatItIsGiven() {
        XCTAssertThrowsError(
            try sut.add(
                name: "x", url: "ldap://h/dc=x", bindDN: "cn=r", passwordCommand: nil, filter: nil,
                plaintext: false, caFile: nil, sizeLimit: nil, timeLimit: nil)
        ) {
            XCTAssertEqual("\($0)", "directory x: --bind-dn needs --password-command (the password is never stored)")
        }
        XCTAssertThrowsError(
            try sut.add(
                name: "x", url: "ldap://h/dc=x", bindDN: nil, passwordCommand: nil, filter: nil,
                plaintext: false, caFile: nil, sizeLimit: 0, timeLimit: nil))
        XCTAssertThrowsError(
            try sut.add(
                name: "x", url: "ldap://h/dc=x", bindDN: nil, passwordCommand: nil, filter: nil,
                plaintext: false, caFile: nil, sizeLimit: nil, timeLimit: 0))
    }

    func test_copy_savesTheEntryInOneJournalledChangeSet_rememberingItsSource() throws {
        // Given
        let store = try SQLiteContactStore(path: ":memory:")
        try store.addDirectorySource(lab)
        let worker = DirectoryWorker(
            sources: store, journal: store, client: client, makeUID: { "uid-1" },
            now: { Date(timeIntervalSince1970: 1_000) })
        // When
        let copied = try worker.copy(person("lab", "al", "Al Lee", mail: "al@lab.test"))
        // Then
        XCTAssertEqual(copied.uid, "uid-1")
        XCTAssertEqual(copied.emails, [LabeledValue(label: "work", value: "al@lab.test")])
        XCTAssertEqual(copied.createdAt, Date(timeIntervalSince1970: 1_000))
        XCTAssertTrue(copied.extraProperties.contains("SOURCE:ldaps://ldap.lab.test/uid=al,dc=lab"))
        XCTAssertTrue(copied.extraProperties.contains("X-CONTACTSBOOK-DIRECTORY:lab"))
        let history = try store.history(contactID: nil, limit: 5)
        XCTAssertEqual(history.map(\.summary), ["copied Al Lee from directory lab"])
        XCTAssertEqual(history.first?.kind, .add)
    }

    func test_copy_intoADefaultBookTheServerMadeReadOnly_isRefusedNamingIt_nothingSaved() throws {
        // Given: an account whose one book, the default, the server does not let us write
        let store = try SQLiteContactStore(path: ":memory:")
        try store.addDirectorySource(lab)
        try store.addAccount(
            SyncAccount(name: "home", serverURL: "http://h/", bookURL: "", user: "ann"),
            books: [AddressBook(name: "book", url: "http://h/book/")])
        try store.setServerReadOnly("book", true)
        let worker = DirectoryWorker(
            sources: store, journal: store, client: client, makeUID: { "uid-1" },
            now: { Date(timeIntervalSince1970: 1_000) })
        // When / Then
        XCTAssertThrowsError(try worker.copy(person("lab", "al", "Al Lee", mail: "al@lab.test"))) {
            XCTAssertEqual($0 as? ContactsFailure, .readOnly(book: "book", byServer: true, contact: nil))
        }
        XCTAssertEqual(try store.page(ContactQuery(limit: 5)).total, 0)
        XCTAssertEqual(try store.history(contactID: nil, limit: 5).map(\.summary), [])
    }

    func test_sourcesInTheBook_areAddedListedAndRemoved_withoutAnyPassword() throws {
        let store = try SQLiteContactStore(path: ":memory:")
        XCTAssertEqual(try store.directorySources(), [], "a new book has none")
        XCTAssertFalse(try store.hasDirectorySources())
        try store.addDirectorySource(corp)
        try store.addDirectorySource(lab)
        XCTAssertEqual(try store.directorySources(), [corp, lab])
        XCTAssertTrue(try store.hasDirectorySources())
        XCTAssertThrowsError(try store.addDirectorySource(corp))
        XCTAssertTrue(try store.removeDirectorySource(named: "corp"))
        XCTAssertFalse(try store.removeDirectorySource(named: "corp"))
        XCTAssertEqual(try store.directorySources(), [lab])
        XCTAssertTrue(try store.removeDirectorySource(named: "lab"))
        XCTAssertFalse(try store.hasDirectorySources())
    }

    func test_hasSources_isWhetherTheStoreListsAny_falseWhenItCannotSay() throws {
        // Given: the sources of a fake (the protocol's own answer) and of a book
        let fake = SourcesFake([])
        let store = try SQLiteContactStore(path: ":memory:")
        let workers = [DirectoryWorker(sources: fake, client: client), DirectoryWorker(sources: store, client: client)]
        // Then
        XCTAssertEqual(workers.map(\.hasSources), [false, false])
        // When
        fake.sources = [corp]
        try store.addDirectorySource(corp)
        // Then
        XCTAssertEqual(workers.map(\.hasSources), [true, true])
        // When: the book is closed, it cannot say
        try store.close()
        XCTAssertFalse(workers[1].hasSources)
    }
}
