import XCTest

@testable import ContactsApp

/// The behaviour every `ContactStore` must have, checked against `InMemoryContactStore` and
/// `SQLiteContactStore` (on a real file) alike so the test double cannot drift from the real store.
///
/// Each test runs its body once per store; failures are prefixed with the store's name.
/// (A base class with one subclass per store would be tidier, but XCTest's test discovery on
/// Linux does not run inherited test methods.)
final class ContactStoreContractTests: XCTestCase {
    static let stores: [(name: String, make: (URL) throws -> ContactStore)] = [
        ("InMemoryContactStore", { _ in InMemoryContactStore() }),
        ("SQLiteContactStore", { try SQLiteContactStore(path: $0.appendingPathComponent("contacts.sqlite").path) }),
        // Keeping no matching ids: every page plan searches the indexes again.
        (
            "SQLiteContactStore keeping no matches",
            {
                try SQLiteContactStore(
                    path: $0.appendingPathComponent("contacts.sqlite").path,
                    tuning: .init(listedMatches: 0, keepsMatchSet: false))
            }
        ),
        // Buckets of 2 page anchors: pages past the fourth contact are found through them.
        (
            "SQLiteContactStore, anchorBucket 2",
            {
                try SQLiteContactStore(path: $0.appendingPathComponent("contacts.sqlite").path, anchorBucket: 2)
            }
        ),
        // A search whose matches are a run of the sort index, however few, is paged as that run,
        // its length counted through buckets of 2 anchors.
        (
            "SQLiteContactStore, whole clusters from 1 match",
            {
                try SQLiteContactStore(
                    path: $0.appendingPathComponent("contacts.sqlite").path, anchorBucket: 2,
                    tuning: .init(shortestRun: 1))
            }
        ),
    ]

    var sut: ContactStore!
    private var storeName = ""

    func forEachStore(_ body: () throws -> Void) {
        for store in Self.stores {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("ContactStoreContract-\(UUID().uuidString)")
            defer {
                sut = nil
                try? FileManager.default.removeItem(at: directory)
            }
            storeName = store.name
            do {
                sut = try store.make(directory)
                try body()
            } catch {
                XCTFail("unexpected error: \(error)")
            }
        }
    }

    override func recordFailure(
        withDescription description: String, inFile filePath: String,
        atLine lineNumber: Int, expected: Bool
    ) {
        super.recordFailure(
            withDescription: "[\(storeName)] \(description)", inFile: filePath,
            atLine: lineNumber, expected: expected)
    }

    @discardableResult
    func seed(_ contacts: [Contact] = StoreSeeds.book) throws -> [Contact] {
        try contacts.map { try sut.insert($0) }
    }

    func names(_ query: ContactQuery) throws -> [String] {
        try sut.page(query).contacts.map { $0.familyName.isEmpty ? $0.organization : $0.familyName }
    }

    func search(_ text: String) throws -> [String] {
        try names(ContactQuery(search: text, limit: 100))
    }

    // MARK: - Saving

    func test_insert_assignsIdAndVersion1_andKeepsEveryField() {
        forEachStore {
            // When
            let saved = try sut.insert(StoreSeeds.full)
            // Then
            XCTAssertNotNil(saved.id)
            XCTAssertEqual(saved.version, 1)
            var expected = StoreSeeds.full
            expected.id = saved.id
            expected.version = 1
            XCTAssertEqual(saved, expected)
            XCTAssertEqual(try sut.contact(id: saved.id!), expected)
        }
    }

    func test_insert_keepsBirthdayWithoutYear() {
        forEachStore {
            // Given
            var contact = StoreSeeds.ann
            contact.birthday = Birthday(year: nil, month: 2, day: 29)
            // When
            let saved = try sut.insert(contact)
            // Then
            XCTAssertEqual(try sut.contact(id: saved.id!)?.birthday, Birthday(year: nil, month: 2, day: 29))
        }
    }

    func test_insert_withoutUID_isRefused() {
        forEachStore {
            // Given
            var contact = StoreSeeds.ann
            contact.uid = ""
            // Then
            XCTAssertThrowsError(try sut.insert(contact)) {
                XCTAssertEqual($0 as? ContactStoreError, .storage("missing uid"))
            }
        }
    }

    func test_insert_aUIDTwice_keepsTwoContacts_foundOldestFirst_andShared() {
        // Two servers may hold one card (issue 26): each is a contact of its own.
        forEachStore {
            // Given
            let first = try sut.insert(StoreSeeds.ann)
            // When
            let second = try sut.insert(StoreSeeds.ann)
            // Then
            XCTAssertNotEqual(first.id, second.id)
            XCTAssertEqual(try sut.contacts(uids: [StoreSeeds.ann.uid]).map(\.id), [first.id, second.id])
            XCTAssertEqual(
                try sut.sharedUIDs(), [StoreSeeds.ann.uid: [try XCTUnwrap(first.id), try XCTUnwrap(second.id)]])
            XCTAssertEqual(
                try sut.sharedMatchKeys(defaultCountry: nil).filter { $0.kind == .uid }.map(\.ids),
                [[try XCTUnwrap(first.id), try XCTUnwrap(second.id)]])
        }
    }

    func test_sharedUIDs_areEachUIDHeldMoreThanOnce_withItsIDsInOrder_andNoOther() {
        forEachStore {
            // Given: a UID three times, one twice between them, one once
            var twin = StoreSeeds.ann
            twin.uid = "twin"
            let first = try sut.insert(StoreSeeds.ann)
            let twins = [try sut.insert(twin), try sut.insert(twin)].compactMap(\.id)
            let second = try sut.insert(StoreSeeds.ann)
            _ = try sut.insert(StoreSeeds.al)
            let third = try sut.insert(StoreSeeds.ann)
            // When
            let shared = try sut.sharedUIDs()
            // Then
            XCTAssertEqual(shared, [StoreSeeds.ann.uid: [first, second, third].compactMap(\.id), "twin": twins])
        }
    }

    func test_update_incrementsVersion_andPersists() {
        forEachStore {
            // Given
            var contact = try sut.insert(StoreSeeds.ann)
            contact.givenName = "Anne"
            contact.updatedAt = StoreSeeds.edited
            // When
            let saved = try sut.update(contact)
            // Then
            XCTAssertEqual(saved.version, 2)
            XCTAssertEqual(try sut.contact(id: contact.id!), saved)
        }
    }

    func test_update_withStaleVersion_isRefused_andKeepsStoredContact() {
        forEachStore {
            // Given: two edits start from version 1; the first is saved
            let original = try sut.insert(StoreSeeds.ann)
            var first = original, second = original
            first.givenName = "First"
            second.givenName = "Second"
            let saved = try sut.update(first)
            // Then
            XCTAssertThrowsError(try sut.update(second)) {
                XCTAssertEqual($0 as? ContactStoreError, .staleVersion(id: original.id!, expected: 1, actual: 2))
            }
            XCTAssertEqual(try sut.contact(id: original.id!), saved)
        }
    }

    func test_update_missingContact_throwsNotFound() {
        forEachStore {
            // Given
            var contact = StoreSeeds.ann
            contact.id = 999
            contact.version = 1
            // Then
            XCTAssertThrowsError(try sut.update(contact)) {
                XCTAssertEqual($0 as? ContactStoreError, .notFound(id: 999))
            }
        }
    }

    func test_delete_withCurrentVersion_removesContact() {
        forEachStore {
            // Given
            let saved = try sut.insert(StoreSeeds.ann)
            // When
            try sut.delete(id: saved.id!, expectedVersion: 1)
            // Then
            XCTAssertNil(try sut.contact(id: saved.id!))
            XCTAssertEqual(try sut.page(ContactQuery()).total, 0)
        }
    }

    func test_delete_withStaleVersion_isRefused() {
        forEachStore {
            // Given
            let saved = try sut.update(try sut.insert(StoreSeeds.ann))
            // Then
            XCTAssertThrowsError(try sut.delete(id: saved.id!, expectedVersion: 1)) {
                XCTAssertEqual($0 as? ContactStoreError, .staleVersion(id: saved.id!, expected: 1, actual: 2))
            }
            XCTAssertEqual(try sut.contact(id: saved.id!), saved)
        }
    }

    func test_delete_withoutVersion_removesWhateverIsStored() {
        forEachStore {
            // Given
            let saved = try sut.update(try sut.insert(StoreSeeds.ann))
            // When
            try sut.delete(id: saved.id!, expectedVersion: nil)
            // Then
            XCTAssertNil(try sut.contact(id: saved.id!))
        }
    }

    func test_delete_missingContact_throwsNotFound() {
        forEachStore {
            for version in [1, nil] as [Int?] {
                XCTAssertThrowsError(try sut.delete(id: 42, expectedVersion: version)) {
                    XCTAssertEqual($0 as? ContactStoreError, .notFound(id: 42))
                }
            }
        }
    }

    func test_contact_missing_isNil() {
        forEachStore {
            XCTAssertNil(try sut.contact(id: 7))
        }
    }

    // MARK: - Order and paging

    func test_page_byLastName_ignoresCaseAndDiacritics() {
        forEachStore {
            // Given
            try seed()
            // When
            let page = try names(ContactQuery(sort: .last))
            // Then: "zoë adams" is not pushed after capitals, "Ñúñez" sorts as "nunez"
            XCTAssertEqual(page, ["Acme Corp", "adams", "Lee", "Leeds", "Ñúñez", "Zola"])
        }
    }

    func test_page_byFirstName_ignoresCaseAndDiacritics() {
        forEachStore {
            // Given
            try seed()
            // When
            let page = try sut.page(ContactQuery(sort: .first)).contacts
            // Then
            XCTAssertEqual(
                page.map { $0.givenName.isEmpty ? $0.organization : $0.givenName },
                ["Acme Corp", "Al", "Ann", "Émile", "José", "zoë"])
        }
    }

    func test_page_sameName_isOrderedById() {
        forEachStore {
            // Given
            let saved = try seed([
                StoreSeeds.contact("Sam", "Smith", uid: "a"), StoreSeeds.contact("Sam", "Smith", uid: "b"),
            ])
            // Then
            XCTAssertEqual(try sut.page(ContactQuery()).contacts.map(\.id), saved.map(\.id))
        }
    }

    func test_page_secondOfThree() {
        forEachStore {
            // Given
            try seed(StoreSeeds.numbered(7))
            // When
            let page = try sut.page(ContactQuery(page: 2, limit: 3))
            // Then
            XCTAssertEqual(page.contacts.map(\.familyName), ["P04", "P05", "P06"])
            XCTAssertEqual(page.total, 7)
        }
    }

    func test_page_lastPageIsPartial() {
        forEachStore {
            // Given
            try seed(StoreSeeds.numbered(7))
            // When
            let page = try sut.page(ContactQuery(page: 3, limit: 3))
            // Then
            XCTAssertEqual(page.contacts.map(\.familyName), ["P07"])
            XCTAssertEqual(page.total, 7)
        }
    }

    func test_page_beyondEnd_isEmptyWithTotal() {
        forEachStore {
            // Given
            try seed(StoreSeeds.numbered(7))
            // When
            let page = try sut.page(ContactQuery(page: 4, limit: 3))
            // Then
            XCTAssertEqual(page, ContactPage(contacts: [], total: 7))
        }
    }

    func test_page_pastTheEnd_whenAsked_isTheLastPage_inTheSameRead() {
        forEachStore {
            // Given
            try seed(
                StoreSeeds.numbered(7) + [
                    StoreSeeds.contact("Mary", "Kowalczyk", emails: ["marykowalczyk@example.org"]),
                    StoreSeeds.contact("Ann", "Brown", emails: ["marykowalczyk@example.com"]),
                ])
            func last(_ query: ContactQuery) throws -> ContactPage {
                var query = query
                query.lastPageWhenPastTheEnd = true
                return try sut.page(query)
            }
            // Then: the whole book (9), a page past its end and an absurd one are its last page
            XCTAssertEqual(try last(ContactQuery(page: 4, limit: 4)).contacts.map(\.familyName), ["P07"])
            XCTAssertEqual(try last(ContactQuery(page: .max, limit: 4)).contacts.map(\.familyName), ["P07"])
            // A page within the book is itself
            XCTAssertEqual(
                try last(ContactQuery(page: 2, limit: 4)).contacts.map(\.familyName), ["P03", "P04", "P05", "P06"])
            // A search: at word starts, and found inside words too (Brown's handle)
            XCTAssertEqual(try last(ContactQuery(search: "x", page: 5, limit: 2)).contacts.map(\.familyName), ["P07"])
            XCTAssertEqual(
                try last(ContactQuery(search: "kowal", page: 3, limit: 1)).contacts.map(\.familyName), ["Brown"])
            // Nothing matches: no page at all
            XCTAssertEqual(
                try last(ContactQuery(search: "zed", page: 3, limit: 2)), ContactPage(contacts: [], total: 0))
            // Without asking, past the end stays empty
            XCTAssertEqual(try sut.page(ContactQuery(page: 4, limit: 4)).contacts, [])
        }
    }

    func test_page_outOfRangeNumbers_areClamped() {
        forEachStore {
            // Given
            try seed(StoreSeeds.numbered(3))
            // Then: page 0 is page 1; an absurd page is past the end, not an overflow
            XCTAssertEqual(try sut.page(ContactQuery(page: 0, limit: 2)).contacts.map(\.familyName), ["P01", "P02"])
            XCTAssertEqual(try sut.page(ContactQuery(page: .max, limit: 2)), ContactPage(contacts: [], total: 3))
            XCTAssertEqual(try sut.page(ContactQuery(limit: -1)), ContactPage(contacts: [], total: 3))
        }
    }

    func test_position_countsContactsBeforeInEachOrder() {
        forEachStore {
            // Given
            let saved = try seed()
            let jose = saved[2]
            // Then: last: acme, adams, lee, leeds, [nunez]; first: acme, al, ann, emile, [jose]
            XCTAssertEqual(try sut.position(of: jose.id!, sort: .last), 4)
            XCTAssertEqual(try sut.position(of: jose.id!, sort: .first), 4)
            XCTAssertEqual(try sut.position(of: saved[5].id!, sort: .last), 0)
        }
    }

    func test_position_missingContact_throwsNotFound() {
        forEachStore {
            XCTAssertThrowsError(try sut.position(of: 5, sort: .last)) {
                XCTAssertEqual($0 as? ContactStoreError, .notFound(id: 5))
            }
        }
    }

    // MARK: - Search

    func test_search_byNamePrefix() {
        forEachStore {
            try seed()
            XCTAssertEqual(try search("le"), ["Lee", "Leeds"])
            XCTAssertEqual(try search("LEED"), ["Leeds"])
            XCTAssertEqual(try search("ee"), [], "fewer than 3 letters: prefixes of words, not inside them")
        }
    }

    func test_search_ignoresDiacritics_bothWays() {
        forEachStore {
            try seed()
            XCTAssertEqual(try search("nunez"), ["Ñúñez"])
            XCTAssertEqual(try search("Ñúñ"), ["Ñúñez"])
            XCTAssertEqual(try search("emile"), ["Zola"])
        }
    }

    func test_search_byNicknameAndOrganization() {
        forEachStore {
            try seed()
            XCTAssertEqual(try search("nan"), ["Lee"])
            XCTAssertEqual(try search("glob"), ["Leeds"])
            XCTAssertEqual(try search("acme co"), ["Acme Corp"])
        }
    }

    func test_search_byEmailFragment() {
        forEachStore {
            try seed()
            XCTAssertEqual(try search("ann@exa"), ["Lee"])
            XCTAssertEqual(try search("example"), ["Lee"])
            XCTAssertEqual(try search("correo.es"), ["Ñúñez"])
        }
    }

    func test_search_lettersAndDigitsAreSeparateWords() {
        forEachStore {
            // Given: numbered email handles, as mail providers hand them out
            try seed([
                StoreSeeds.contact("Ann", "Kowalczyk", emails: ["ann.kowalczyk1023@mail.test"]),
                StoreSeeds.contact("Bob", "Adams", emails: ["b0b2x@mail.test"]),
                StoreSeeds.contact("Cleo", "Young", emails: ["cleo.young@mail.test"]),
                StoreSeeds.contact("Olga", "Brown", emails: ["636x@mail.test"]),
                StoreSeeds.contact("Józef", "Wójcik", emails: ["józef.wójcik7@mail.test"]),
            ])
            XCTAssertEqual(try search("jozef.wojcik7"), ["Wójcik"])
            XCTAssertEqual(try search("józef.wójcik"), ["Wójcik"])
            XCTAssertEqual(try search("wójcik8"), [])
            // Then: a handle is found whole, by its start, and by its number
            XCTAssertEqual(try search("kowalczyk1023"), ["Kowalczyk"])
            XCTAssertEqual(try search("ann.kowalczyk10"), ["Kowalczyk"])
            XCTAssertEqual(try search("1023"), ["Kowalczyk"])
            XCTAssertEqual(try search("b0b2"), ["Adams"])
            XCTAssertEqual(try search("2x@mail"), ["Adams"])
            // but not by another number, nor by a number's middle
            XCTAssertEqual(try search("kowalczyk1024"), [])
            XCTAssertEqual(try search("023"), [])
            XCTAssertEqual(try search("kowal"), ["Kowalczyk"])
            // A name followed by a number in the next field is a phrase like any other
            XCTAssertEqual(try search("brown636"), ["Brown"])
            XCTAssertEqual(try search("olga.brown63"), ["Brown"])
            XCTAssertEqual(try search("brown636x@"), ["Brown"])
            XCTAssertEqual(try search("brown637"), [])
            XCTAssertEqual(try search("ANN.KOWALCZYK102"), ["Kowalczyk"])
        }
    }

    /// A term whose word starts the sort keys of a quarter of its matches or more is paged by
    /// reading that run of the sort index; the other matches (given names, organisations,
    /// emails) sort before or after the run, or inside it. Every page in both orders against
    /// the plain rule.
    func test_search_matchesClusteredInTheSortOrder_andAroundIt_pageByTheRule() {
        forEachStore {
            // Given: 12 Kowalczyks (together under K by last name), and Kowal matches elsewhere
            var book = (0..<12).map { StoreSeeds.contact(["Ann", "Zoe", "Bob"][$0 % 3], "Kowalczyk", uid: "k\($0)") }
            book += [
                StoreSeeds.contact("Kowalski", "Adams", uid: "before"), // given name; sorts before K
                StoreSeeds.contact("Eve", "Young", uid: "after", emails: ["kowal7@mail.test"]),
                StoreSeeds.contact("", "", uid: "org", organization: "Kowal Ltd"), // sorts inside the run
                StoreSeeds.contact("Kowalska", "Zola", uid: "last"),
                StoreSeeds.contact("Ann", "Lee", uid: "other"),
            ]
            try seed(book)
            let reference = InMemoryContactStore(book)
            for text in ["kowal", "Kowalczyk", "kowal ann", "kowalczyk zoe", "ann"] {
                for sort in [SortOrder.last, .first] {
                    let all = try reference.page(ContactQuery(search: text, sort: sort, page: 1, limit: 1000))
                    XCTAssertGreaterThan(all.total, 0, text)
                    for limit in [1, 3, 7] {
                        for page in 1...(all.total / limit + 2) {
                            // When
                            let got = try sut.page(ContactQuery(search: text, sort: sort, page: page, limit: limit))
                            // Then
                            let start = min((page - 1) * limit, all.total), end = min(start + limit, all.total)
                            XCTAssertEqual(got.total, all.total, "\(text) \(sort)")
                            XCTAssertEqual(
                                got.contacts.map(\.uid), all.contacts[start..<end].map(\.uid),
                                "\(text) \(sort) page \(page) of \(limit)")
                        }
                    }
                }
            }
            let kowal = try sut.page(ContactQuery(search: "kowal", sort: .last, limit: 100)).contacts.map(\.uid)
            XCTAssertEqual(kowal.first, "before")
            XCTAssertEqual(Array(kowal.suffix(2)), ["after", "last"])
            XCTAssertEqual(kowal.count, 16)
        }
    }

    func test_search_threeLettersOrMore_matchInsideWords_ofNamesOrganisationsAndEmails() {
        forEachStore {
            try seed()
            XCTAssertEqual(try search("ñez"), ["Ñúñez"])
            XCTAssertEqual(try search("úñe"), ["Ñúñez"])
            XCTAssertEqual(try search("cme"), ["Acme Corp"])
            XCTAssertEqual(try search("lobex"), ["Leeds"])
            XCTAssertEqual(try search("orreo"), ["Ñúñez"])
            XCTAssertEqual(try search("nunez"), ["Ñúñez"], "jnunez@ and Ñúñez: one match")
            XCTAssertEqual(try search("ola"), ["Zola"])
            XCTAssertEqual(try search("ola em"), ["Zola"], "every term, at word starts or inside")
            XCTAssertEqual(try search("ol"), [], "2 letters: word starts only")
            XCTAssertEqual(try search("ee"), [])
        }
    }

    func test_search_matchesAtWordStartsComeFirst_thenInsideWords_eachInSortOrder() {
        forEachStore {
            // Given: two Lees, and two whose names hold "lee" inside, one sorting before them
            try seed([
                StoreSeeds.contact("Ann", "Lee"), StoreSeeds.contact("Al", "Leeds"),
                StoreSeeds.contact("Zoe", "Ashlee"), StoreSeeds.contact("Kim", "Brolee"),
            ])
            // When / Then
            XCTAssertEqual(try search("lee"), ["Lee", "Leeds", "Ashlee", "Brolee"])
            XCTAssertEqual(
                try names(ContactQuery(search: "lee", sort: .first, limit: 100)),
                ["Leeds", "Lee", "Brolee", "Ashlee"])
            // and pages run on from the word starts into the rest
            for (page, expected) in [(1, ["Lee", "Leeds", "Ashlee"]), (2, ["Brolee"]), (3, [])] {
                let got = try sut.page(ContactQuery(search: "lee", page: page, limit: 3))
                XCTAssertEqual(got.total, 4)
                XCTAssertEqual(got.contacts.map(\.familyName), expected, "page \(page)")
            }
            XCTAssertEqual(try names(ContactQuery(search: "lee", page: 2, limit: 1)), ["Leeds"])
            XCTAssertEqual(try names(ContactQuery(search: "lee", page: 3, limit: 1)), ["Ashlee"])
        }
    }

    func test_search_handleMadeOfTheName_isAWordStartMatch_andTheSameHandleAloneStillMatchesInside() {
        forEachStore {
            // Given: a handle made of Mary Kowalczyk's names
            try seed([StoreSeeds.contact("Mary", "Kowalczyk", emails: ["marykowalczyk@example.org"])])
            // Then: "kowal" finds her at a word start, "rykow" only inside her handle
            XCTAssertEqual(try search("kowal"), ["Kowalczyk"])
            XCTAssertEqual(try search("rykow"), ["Kowalczyk"])
            // When: someone else holds the same handle without the name
            try seed([StoreSeeds.contact("Ann", "Brown", emails: ["marykowalczyk@example.com"])])
            // Then: word starts first, then inside words
            XCTAssertEqual(try search("kowal"), ["Kowalczyk", "Brown"])
            let page = try sut.page(ContactQuery(search: "kowal", page: 2, limit: 1))
            XCTAssertEqual(page.total, 2)
            XCTAssertEqual(page.contacts.map(\.familyName), ["Brown"])
        }
    }

    func test_search_handleMadeOfTheName_stillMatchesInside_afterTheNameIsEdited() {
        forEachStore {
            // Given
            let mary = try seed([StoreSeeds.contact("Mary", "Kowalczyk", emails: ["marykowalczyk@example.org"])])[0]
            // When: her family name no longer holds the handle's end
            var edited = mary
            edited.familyName = "Nowak"
            _ = try sut.update(edited)
            // Then: the handle still finds her, inside a word
            XCTAssertEqual(try search("kowal"), ["Nowak"])
            XCTAssertEqual(try sut.page(ContactQuery(search: "kowal", limit: 10)).total, 1)
        }
    }

    func test_search_afterAnImport_handleMadeOfTheName_isAWordStartMatch_andAloneStillMatchesInside() {
        forEachStore {
            // Given: the handle made of Mary Kowalczyk's names, and the same one alone, imported together
            let mary = StoreSeeds.contact("Mary", "Kowalczyk", emails: ["marykowalczyk@example.org"])
            let ann = StoreSeeds.contact("Ann", "Brown", emails: ["marykowalczyk@example.com"])
            // When
            _ = try sut.importInBatches { try $0.save(inserting: [mary, ann], updating: []) }
            // Then
            XCTAssertEqual(try search("kowal"), ["Kowalczyk", "Brown"])
            XCTAssertEqual(try search("rykow"), ["Brown", "Kowalczyk"])
        }
    }

    func test_search_findsTagsNotesAndAddresses() {
        forEachStore {
            // Given
            var ann = StoreSeeds.ann
            ann.tags = ["friends", "book-club"]
            ann.notes = "Met at the Lisbon conference"
            ann.addresses = [PostalAddress(label: "home", street: "1 Elm Row", city: "Springfield", country: "USA")]
            try seed([ann, StoreSeeds.al])
            // Then
            XCTAssertEqual(try search("friends"), ["Lee"])
            XCTAssertEqual(try search("club"), ["Lee"])
            XCTAssertEqual(try search("lisbon conf"), ["Lee"])
            XCTAssertEqual(try search("springf"), ["Lee"])
            XCTAssertEqual(try search("ringfield"), ["Lee"])
            XCTAssertEqual(try search("elm row"), ["Lee"])
            XCTAssertEqual(try search("enemies"), [])
        }
    }

    func test_search_saysWhichFieldMatched_preferringOneThatIsNotTheName() {
        forEachStore {
            // Given
            var ann = StoreSeeds.ann
            ann.tags = ["friends"]
            ann.notes = "Met at the Lisbon conference"
            ann.addresses = [PostalAddress(label: "home", street: "1 Elm Row", city: "Springfield")]
            let id = try XCTUnwrap(try sut.insert(ann).id)
            func match(_ text: String) throws -> SearchMatch? { try sut.page(ContactQuery(search: text)).matches[id] }
            // Then
            XCTAssertEqual(try match("lee"), SearchMatch(field: .name, text: "Ann Lee"))
            XCTAssertEqual(try match("nan"), SearchMatch(field: .nickname, text: "Nan"))
            XCTAssertEqual(try match("friends"), SearchMatch(field: .tag, text: "friends"))
            XCTAssertEqual(try match("ann friends"), SearchMatch(field: .tag, text: "friends"))
            XCTAssertEqual(try match("xample"), SearchMatch(field: .email, text: "ann@example.com"))
            XCTAssertEqual(try match("lisbon"), SearchMatch(field: .note, text: "Met at the Lisbon conference"))
            XCTAssertEqual(try match("springfield"), SearchMatch(field: .address, text: "1 Elm Row, Springfield"))
            XCTAssertEqual(try match("555 123"), SearchMatch(field: .phone, text: "+1 (555) 123-4567"))
            XCTAssertEqual(try sut.page(ContactQuery()).matches, [:], "no search, no match")
        }
    }

    func test_search_saysTheFirstFieldInOrder_whateverOrderTheTermsAskThem() {
        forEachStore {
            // Given: a word in an email, a note and an address; the given name in a note too
            var ann = StoreSeeds.ann
            ann.emails = [LabeledValue(label: "work", value: "lisbon@example.com")]
            ann.notes = "Lisbon with Ann"
            ann.addresses = [PostalAddress(label: "home", street: "1 Lisbon Row", city: "Porto")]
            ann.websites = [LabeledValue(label: "", value: "https://porto.example")]
            let id = try XCTUnwrap(try sut.insert(ann).id)
            func match(_ text: String) throws -> SearchMatch? { try sut.page(ContactQuery(search: text)).matches[id] }
            // Then: each term's first field in order, the first that is not the name of them
            XCTAssertEqual(try match("lisbon"), SearchMatch(field: .email, text: "lisbon@example.com"))
            XCTAssertEqual(try match("ann lisbon"), SearchMatch(field: .email, text: "lisbon@example.com"))
            XCTAssertEqual(try match("lisbon ann"), SearchMatch(field: .email, text: "lisbon@example.com"))
            XCTAssertEqual(try match("ann"), SearchMatch(field: .name, text: "Ann Lee"))
            XCTAssertEqual(try match("porto lee"), SearchMatch(field: .address, text: "1 Lisbon Row, Porto"))
            XCTAssertEqual(try match("lee porto ann"), SearchMatch(field: .address, text: "1 Lisbon Row, Porto"))
            XCTAssertEqual(try match("lee 4567"), SearchMatch(field: .phone, text: "+1 (555) 123-4567"))
        }
    }

    func test_search_withoutLocatingMatches_findsTheSameContactsAndSaysNothingOfWhere() {
        forEachStore {
            // Given
            try seed()
            let located = try sut.page(ContactQuery(search: "lee"))
            // When the query does not ask where the search found each contact
            let page = try sut.page(ContactQuery(search: "lee", locatesMatches: false))
            // Then the same contacts and total come back, without matches
            XCTAssertFalse(located.matches.isEmpty)
            XCTAssertEqual(page.contacts, located.contacts)
            XCTAssertEqual(page.total, located.total)
            XCTAssertEqual(page.matches, [:])
        }
    }

    func test_search_byPhoneDigits_inAnyFormatting() {
        forEachStore {
            try seed()
            XCTAssertEqual(try search("555-1234"), ["Lee"])
            XCTAssertEqual(try search("(555)"), ["Lee"])
            XCTAssertEqual(try search("4567"), ["Lee"])
            XCTAssertEqual(try search("7946.0958"), ["Leeds"])
            XCTAssertEqual(try search("+1 (555) 123-4567"), ["Lee"], "a whole number typed with spaces")
        }
    }

    func test_search_fewerThanThreeDigits_doesNotSearchPhones() {
        forEachStore {
            try seed()
            XCTAssertEqual(try search("45"), [])
        }
    }

    func test_search_everyTermMustMatch() {
        forEachStore {
            try seed()
            XCTAssertEqual(try search("ann lee"), ["Lee"])
            XCTAssertEqual(try search("lee 555"), ["Lee"])
            XCTAssertEqual(try search("ann zola"), [])
        }
    }

    func test_search_withFTSSyntax_neverThrows() {
        forEachStore {
            // Given
            try seed()
            // When / Then: each is an ordinary search, whatever it finds
            for text in [
                "\"", "*", "(", ")", "AND", "OR", "NOT ann", "NEAR(a b)", "ann\"", "\"ann", "-ann",
                "^ann", "family:lee", "a'b", "{x}", "ann*", "\"\"", "+", "555-", "((555))",
            ] {
                XCTAssertNoThrow(try sut.page(ContactQuery(search: text)), text)
            }
            XCTAssertEqual(try search("\"ann"), ["Lee"])
            XCTAssertEqual(try search("family:lee"), [], "`family:` is text to match, not a column filter")
        }
    }

    func test_search_punctuationOnly_listsEveryone() {
        forEachStore {
            // Given
            try seed()
            // Then: nothing to search for, like an empty search
            XCTAssertEqual(try sut.page(ContactQuery(search: " - \" * ")).total, StoreSeeds.book.count)
        }
    }

    func test_search_pagesAndCountsMatchesOnly() {
        forEachStore {
            // Given
            try seed(StoreSeeds.numbered(5) + StoreSeeds.book)
            // When
            let page = try sut.page(ContactQuery(search: "x", page: 2, limit: 2))
            // Then
            XCTAssertEqual(page.contacts.map(\.familyName), ["P03", "P04"])
            XCTAssertEqual(page.total, 5)
        }
    }

    func test_search_longPhoneFragment_matchesItsDigitsAnywhereInOnePhone() {
        forEachStore {
            // Given: fragments of 7 digits or more are looked up by runs of digits in SQLite
            try seed([
                StoreSeeds.contact("A", "Odd", phones: ["+1 (555) 123-4567"]), // 15551234567
                StoreSeeds.contact("B", "Even", phones: ["555 1234 99"]), // 555123499
                StoreSeeds.contact("C", "Split", phones: ["555 1234", "567 0000"]), // 5551234, 5670000
                StoreSeeds.contact("D", "Inner", phones: ["0 5551234567 8"]), // 055512345678
            ])
            // Then
            XCTAssertEqual(try search("555-1234"), ["Even", "Inner", "Odd", "Split"])
            XCTAssertEqual(try search("1234567"), ["Inner", "Odd"], "never across two phones")
            XCTAssertEqual(try search("5551234567"), ["Inner", "Odd"])
            XCTAssertEqual(try search("512345678"), ["Inner"])
            XCTAssertEqual(try search("55512349"), ["Even"])
            XCTAssertEqual(try search("2345670"), [])
            XCTAssertEqual(try search("+1 555 123 4567"), ["Odd"], "a whole number typed with spaces")
            XCTAssertEqual(try search("555 1234 567"), ["Inner", "Odd", "Split"], "every term, or the whole number")
            XCTAssertEqual(try search("odd 5551234"), ["Odd"])
        }
    }

    func test_search_longPhoneFragment_followsUpdatesAndDeletes() {
        forEachStore {
            // Given
            var ann = try sut.insert(StoreSeeds.ann)
            _ = try sut.insert(StoreSeeds.al)
            ann.phones = [LabeledValue(label: "work", value: "+44 20 7946 1111")]
            // When
            ann = try sut.update(ann)
            // Then
            XCTAssertEqual(try search("5551234"), [])
            XCTAssertEqual(try search("2079461111"), ["Lee"])
            XCTAssertEqual(try search("794609"), ["Leeds"])
            // When
            try sut.delete(id: ann.id!, expectedVersion: ann.version)
            // Then
            XCTAssertEqual(try search("2079461111"), [])
            XCTAssertEqual(try search("7946 0958"), ["Leeds"])
        }
    }

    /// Every page of every search, in both orders, against the plain rule (`ContactSearch.matches`
    /// over the sorted book, which is what `InMemoryContactStore` does). In SQLite this covers
    /// both page plans: walking the sort index for common terms ("example"; "zed", whose
    /// matches all sort last, where the walk gives up), sorting the matches for rare ones and
    /// for a family name in the last-name order ("young").
    func test_search_largerBook_everyPageFollowsTheRule() {
        forEachStore {
            // Given
            let book = StoreSeeds.generated(120)
            try seed(book)
            let reference = InMemoryContactStore(book)
            let searches = [
                "a", "young", "zed", "kowal", "example", "ann kowal", "eve.lee", "555", "555 01",
                "1555012", "5550120", "+1 555 001 7919", "7946 0005", "9999999",
                "dam", "leo", "ample", "oung", "dam ann", "alczyk",
            ]
            for text in searches {
                for sort in [SortOrder.last, .first] {
                    let all = try reference.page(ContactQuery(search: text, sort: sort, page: 1, limit: 1000))
                    for limit in [5, 20] {
                        // Every page of 5 (past the end too); the first, second and last of 20.
                        let last = all.total / limit + 1
                        for page in limit == 5 ? Array(1...last + 1) : [1, 2, last] {
                            // When
                            let got = try sut.page(ContactQuery(search: text, sort: sort, page: page, limit: limit))
                            // Then
                            let start = min((page - 1) * limit, all.total), end = min(start + limit, all.total)
                            XCTAssertEqual(got.total, all.total, "\(text) \(sort)")
                            XCTAssertEqual(
                                got.contacts.map(\.uid), all.contacts[start..<end].map(\.uid),
                                "\(text) \(sort) page \(page) of \(limit)")
                        }
                    }
                }
            }
            XCTAssertGreaterThan(try sut.page(ContactQuery(search: "5550120", limit: 1000)).total, 0)
            XCTAssertEqual(try sut.page(ContactQuery(search: "zed", limit: 1000)).total, 30)
        }
    }

    func test_search_followsUpdatesAndDeletes() {
        forEachStore {
            // Given
            var ann = try sut.insert(StoreSeeds.ann)
            ann.familyName = "Park"
            ann.phones = []
            // When
            ann = try sut.update(ann)
            // Then
            XCTAssertEqual(try search("lee"), [])
            XCTAssertEqual(try search("555"), [])
            XCTAssertEqual(try search("park"), ["Park"])
            // When
            try sut.delete(id: ann.id!, expectedVersion: ann.version)
            // Then
            XCTAssertEqual(try search("park"), [])
        }
    }

    // MARK: - Unknown vCard properties and imports

    func test_update_rewritesExtraProperties() {
        forEachStore {
            // Given
            var ada = try sut.insert(StoreSeeds.full)
            ada.extraProperties = ["IMPP:xmpp:ada@engines.example"]
            // When
            ada = try sut.update(ada)
            // Then
            XCTAssertEqual(try sut.contact(id: ada.id!)?.extraProperties, ["IMPP:xmpp:ada@engines.example"])
        }
    }

    func test_contactsWithUIDs_findsOnlyThoseStored() {
        forEachStore {
            // Given
            try seed()
            // When
            let found = try sut.contacts(uids: [StoreSeeds.ann.uid, "nobody", StoreSeeds.jose.uid])
            // Then
            XCTAssertEqual(Set(found.map(\.uid)), [StoreSeeds.ann.uid, StoreSeeds.jose.uid])
        }
    }

    func test_importContacts_insertsAndUpdatesTogether() {
        forEachStore {
            // Given
            var ann = try sut.insert(StoreSeeds.ann)
            ann.title = "Engineer"
            // When
            let saved = try sut.importContacts(inserting: [StoreSeeds.al, StoreSeeds.full], updating: [ann])
            // Then
            XCTAssertEqual(saved.map(\.uid), [StoreSeeds.al.uid, StoreSeeds.full.uid, ann.uid])
            XCTAssertEqual(try sut.contact(id: ann.id!)?.title, "Engineer")
            XCTAssertEqual(try sut.contact(id: ann.id!)?.version, 2)
            XCTAssertEqual(try sut.page(ContactQuery(limit: 10)).total, 3)
            XCTAssertEqual(try search("lovelace"), ["Lovelace"])
        }
    }

    func test_importContacts_withOneStaleUpdate_savesNothing() {
        forEachStore {
            // Given
            var ann = try sut.insert(StoreSeeds.ann)
            var stale = ann
            ann.title = "Elsewhere"
            ann = try sut.update(ann)
            stale.title = "Mine"
            // When
            XCTAssertThrowsError(
                try sut.importContacts(inserting: [StoreSeeds.al, StoreSeeds.jose], updating: [stale]))
            // Then
            XCTAssertEqual(try sut.page(ContactQuery(limit: 10)).contacts.map(\.uid), [StoreSeeds.ann.uid])
            XCTAssertEqual(try sut.contact(id: ann.id!)?.title, "Elsewhere")
            XCTAssertEqual(try search("leeds"), [])
            XCTAssertEqual(try sut.insert(StoreSeeds.al).uid, StoreSeeds.al.uid)
        }
    }

    func test_importContacts_withOneContactWithoutUID_savesNothing() {
        forEachStore {
            // Given
            var twin = StoreSeeds.jose
            twin.uid = ""
            // When
            XCTAssertThrowsError(try sut.importContacts(inserting: [StoreSeeds.al, twin], updating: []))
            // Then
            XCTAssertEqual(try sut.page(ContactQuery(limit: 10)).total, 0)
        }
    }
}
