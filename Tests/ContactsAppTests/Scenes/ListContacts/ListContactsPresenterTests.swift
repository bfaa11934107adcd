import SceneCore
import XCTest

@testable import ContactsApp

final class ListContactsPresenterTests: XCTestCase {
    var sut: ListContactsPresenter!
    var viewControllerSpy: ListContactsDisplayLogicSpy!

    override func setUp() {
        super.setUp()
        viewControllerSpy = ListContactsDisplayLogicSpy()
        sut = ListContactsPresenter(formatter: Seeds.formatter)
        sut.viewController = viewControllerSpy
    }

    final class ListContactsDisplayLogicSpy: ListContactsDisplayLogic {

        var displayFetchedContactsCalled = false
        var fetchedViewModel: ListContacts.FetchContacts.ViewModel?
        var displaySelectedContactCalled = false
        var selectedViewModel: ListContacts.SelectContact.ViewModel?
        var displayInsertedContactCalled = false
        var insertedViewModel: ListContacts.ShowInsertedContact.ViewModel?
        var messages: [Message] = []

        func displayFetchedContacts(viewModel: ListContacts.FetchContacts.ViewModel) {
            displayFetchedContactsCalled = true; fetchedViewModel = viewModel
        }
        func displaySelectedContact(viewModel: ListContacts.SelectContact.ViewModel) {
            displaySelectedContactCalled = true; selectedViewModel = viewModel
        }
        func displayInsertedContact(viewModel: ListContacts.ShowInsertedContact.ViewModel) {
            displayInsertedContactCalled = true; insertedViewModel = viewModel
        }
        var exportedViewModels: [ListContacts.ExportContacts.ViewModel] = []
        func displayExportedContacts(viewModel: ListContacts.ExportContacts.ViewModel) {
            exportedViewModels.append(viewModel)
        }
        var completionViewModels: [ListContacts.CompleteReference.ViewModel] = []
        func displayCompletions(viewModel: ListContacts.CompleteReference.ViewModel) {
            completionViewModels.append(viewModel)
        }
        var confirmationViewModels: [ListContacts.DeleteContact.ConfirmationViewModel] = []
        func displayDeleteConfirmation(viewModel: ListContacts.DeleteContact.ConfirmationViewModel) {
            confirmationViewModels.append(viewModel)
        }
        func displayMessage(_ message: Message) { messages.append(message) }
        // The use cases that end in a message: kept in `messages` with the rest, in order.
        func displayDeletedContact(viewModel: ListContacts.DeleteContact.ViewModel) {
            messages.append(viewModel.message)
        }
        func displayImportedContacts(viewModel: ListContacts.ImportContacts.ViewModel) {
            messages.append(viewModel.message)
        }
        func displayUndoneChange(viewModel: ListContacts.UndoChange.ViewModel) { messages.append(viewModel.message) }
        func displayExportedFile(viewModel: ListContacts.ExportContacts.FileViewModel) {
            messages.append(viewModel.message)
        }
        var syncViewModels: [ListContacts.SyncContacts.ViewModel] = []
        func displaySyncedContacts(viewModel: ListContacts.SyncContacts.ViewModel) {
            syncViewModels.append(viewModel)
            messages.append(viewModel.message)
        }
    }

    private static let book = [
        Seeds.stored(Seeds.Contacts.acme, id: 4), Seeds.stored(Seeds.Contacts.ann, id: 1),
        Seeds.stored(Seeds.Contacts.jose, id: 2), Seeds.stored(Seeds.Contacts.taro, id: 3),
    ]

    func test_presentFetchedContacts_formatsRowsAndCaption() {
        // When
        sut.presentFetchedContacts(
            response: .init(
                page: ContactPage(contacts: Self.book, total: 4),
                query: ContactQuery(limit: 20)))
        // Then
        XCTAssertTrue(viewControllerSpy.displayFetchedContactsCalled)
        XCTAssertEqual(viewControllerSpy.fetchedViewModel, Seeds.bookListing)
    }

    func test_presentFetchedContacts_showsNamesAsTyped_andCountsPages() {
        // Given
        let lowercase = Contact(id: 7, givenName: "zoë", familyName: "de la cruz", organization: "acme")
        // When
        sut.presentFetchedContacts(
            response: .init(
                page: ContactPage(contacts: [lowercase], total: 5),
                query: ContactQuery(search: "z", sort: .first, page: 3, limit: 2)))
        // Then
        XCTAssertEqual(
            viewControllerSpy.fetchedViewModel,
            .init(
                rows: [.init(id: 7, name: "zoë de la cruz", organization: "acme", emails: [], phones: [])],
                page: 3, pageCount: 3, total: 5, search: "z", sort: "first",
                caption: "Page 3 of 3 · 5 contacts · matching \"z\" · by first name"))
    }

    func test_presentFetchedContacts_rowCarriesEveryEmailAndPhone_phonesFormatted() {
        // Given: two emails and two phones; the table shows the first of each
        let contact = Contact(
            id: 9, givenName: "Ann", familyName: "Lee",
            phones: [
                LabeledValue(label: "mobile", value: "+15551234567"), LabeledValue(label: "home", value: "0301234567"),
            ],
            emails: [
                LabeledValue(label: "work", value: "ann@example.org"),
                LabeledValue(label: "home", value: "ann@home.example"),
            ])
        // When
        sut.presentFetchedContacts(
            response: .init(page: ContactPage(contacts: [contact], total: 1), query: ContactQuery(limit: 20)))
        // Then
        let row = viewControllerSpy.fetchedViewModel?.rows.first
        XCTAssertEqual(row?.email, "ann@example.org")
        XCTAssertEqual(row?.phone, "+1 (555) 123-4567")
        XCTAssertEqual(
            row?.emails,
            [
                LabeledValue(label: "work", value: "ann@example.org"),
                LabeledValue(label: "home", value: "ann@home.example"),
            ])
        XCTAssertEqual(
            row?.phones,
            [
                LabeledValue(label: "mobile", value: "+1 (555) 123-4567"),
                LabeledValue(label: "home", value: "0301234567"),
            ])
    }

    func test_presentFetchedContacts_showsWhatASearchMatched_unlessTheRowShowsItAlready() {
        // Given: Ann found by a tag, José by his note, Acme by its organisation, Taro by name
        let page = ContactPage(
            contacts: Self.book, total: 4,
            matches: [
                1: SearchMatch(field: .tag, text: "friends"),
                2: SearchMatch(field: .note, text: "Met at the Lisbon conference\nand again in Porto"),
                4: SearchMatch(field: .organization, text: "Acme Inc."),
                3: SearchMatch(field: .name, text: "山田 太郎"),
            ])
        // When
        sut.presentFetchedContacts(response: .init(page: page, query: ContactQuery(search: "x", limit: 20)))
        // Then
        let rows = try? XCTUnwrap(viewControllerSpy.fetchedViewModel?.rows)
        XCTAssertEqual(rows?.map(\.matched), [nil, "tag: friends", "note: Met at the Lisbon conference", nil])
        guard case .table(let columns, let cells, _)? = viewControllerSpy.fetchedViewModel?.layout else {
            return XCTFail("a table")
        }
        XCTAssertEqual(columns.last?.title, "Matched")
        XCTAssertEqual(cells[1].last, "tag: friends")
    }

    func test_presentFetchedContacts_aLongMatchShowsTheWordSearchedWithContextOnEachSide() {
        // Given: a long note whose second line holds the word searched for, written with an accent
        let page = ContactPage(
            contacts: [Self.book[2]], total: 1,
            matches: [
                2: SearchMatch(
                    field: .note, text: "Neighbour.\nPlays cello in the órchestra on Sundays and teaches the young ones"
                )
            ])
        // When
        sut.presentFetchedContacts(response: .init(page: page, query: ContactQuery(search: "jos orchestra", limit: 20)))
        // Then
        XCTAssertEqual(viewControllerSpy.fetchedViewModel?.rows.first?.matched, "note: …in the órchestra on Sundays…")
    }

    func test_excerpt_cutsAtWordBoundaries_givingOneSidesRoomToTheOther() {
        let text = "Plays cello in the orchestra on Sundays and teaches the young ones"
        typealias Presenter = ListContactsPresenter
        // At the start: no room needed before, all of it after
        XCTAssertEqual(Presenter.excerpt(text, around: ["plays"], length: 32), "Plays cello in the orchestra…")
        // At the end: all of it before
        XCTAssertEqual(Presenter.excerpt(text, around: ["ones"], length: 32), "…and teaches the young ones")
        // The whole word a search matched the start of, even longer than the room
        XCTAssertEqual(
            Presenter.excerpt("a supercalifragilistic word", around: ["super"], length: 8), "…supercalifragilistic…")
        XCTAssertEqual(Presenter.excerpt(text, around: ["orch"], length: 20), "…the orchestra on…")
        // No word found (a phone's digits, say): the first line's start
        XCTAssertEqual(Presenter.excerpt(text + "\nsecond", around: ["zzz"], length: 20), "Plays cello in the…")
        // Short text: as it is; CJK and combining characters count as one character each
        XCTAssertEqual(
            Presenter.excerpt("山田 太郎 e\u{301}te\u{301}", around: ["太郎"], length: 32), "山田 太郎 e\u{301}te\u{301}")
    }

    func test_presentFetchedContacts_matchedEmailOrPhone_onlyWhenNotTheOneShown() {
        // Given: Ann's first email and phone are shown in her row
        var ann = Self.book[1]
        ann.emails.append(LabeledValue(label: "home", value: "ann@home.example"))
        func matched(_ match: SearchMatch) -> String? {
            sut.presentFetchedContacts(
                response: .init(
                    page: ContactPage(contacts: [ann], total: 1, matches: [1: match]),
                    query: ContactQuery(search: "x", limit: 20)))
            return viewControllerSpy.fetchedViewModel?.rows.first?.matched
        }
        // Then
        XCTAssertNil(matched(SearchMatch(field: .email, text: "ann@example.org")))
        XCTAssertEqual(matched(SearchMatch(field: .email, text: "ann@home.example")), "email: ann@home.example")
        XCTAssertNil(matched(SearchMatch(field: .phone, text: "+15551234567")))
        XCTAssertEqual(matched(SearchMatch(field: .nickname, text: "Nan")), "nickname: Nan")
    }

    func test_presentFetchedContacts_oneContact() {
        // When
        sut.presentFetchedContacts(
            response: .init(
                page: ContactPage(contacts: [Self.book[1]], total: 1),
                query: ContactQuery(limit: 20)))
        // Then
        XCTAssertEqual(viewControllerSpy.fetchedViewModel?.caption, "Page 1 of 1 · 1 contact · by last name")
    }

    func test_presentFetchedContacts_emptyBook_andEmptySearch() {
        // When
        sut.presentFetchedContacts(
            response: .init(page: ContactPage(contacts: [], total: 0), query: ContactQuery(limit: 20)))
        // Then
        XCTAssertEqual(
            viewControllerSpy.fetchedViewModel,
            .init(
                rows: [], page: 1, pageCount: 1, total: 0, search: "", sort: "last",
                caption: "No contacts yet; add one with 'add'"))

        // When
        sut.presentFetchedContacts(
            response: .init(
                page: ContactPage(contacts: [], total: 0),
                query: ContactQuery(search: "zed", limit: 20)))
        // Then
        XCTAssertEqual(viewControllerSpy.fetchedViewModel?.caption, "No contacts match \"zed\"")
    }

    func test_presentSelectedContact_passesItsId() {
        // When
        sut.presentSelectedContact(response: .init(contact: Self.book[2]))
        // Then
        XCTAssertTrue(viewControllerSpy.displaySelectedContactCalled)
        XCTAssertEqual(viewControllerSpy.selectedViewModel, .init(id: 2))
    }

    func test_presentDeletedContact_isASuccessMessage() {
        // When
        sut.presentDeletedContact(response: .init(contact: Self.book[3]))
        // Then
        XCTAssertEqual(viewControllerSpy.messages, [.success("Deleted 太郎 山田")])
    }

    func test_presentInsertedContact_givesTheRowAndItsOneBasedPlace() {
        // When
        sut.presentInsertedContact(
            response: .init(
                contact: Self.book[1], position: 1, total: 4,
                query: ContactQuery(page: 1, limit: 20)))
        // Then
        XCTAssertTrue(viewControllerSpy.displayInsertedContactCalled)
        XCTAssertEqual(
            viewControllerSpy.insertedViewModel,
            .init(
                row: Seeds.Rows.ann, position: 2, page: 1, text: "Ann Lee is number 2 of 4 in the list (page 1)"))
    }

    func test_presentFailure_isTheFormattersMessage() {
        // When
        sut.presentFailure(.notFound(reference: "zed"))
        // Then
        XCTAssertEqual(viewControllerSpy.messages, [.error("no contact matches 'zed'", code: .notFound)])
    }

    func test_presentCompletions_handsTheNamesToTheViewController() {
        // When
        sut.presentCompletions(response: .init(names: ["Ann Lee", "Acme Inc."]))
        // Then
        XCTAssertEqual(viewControllerSpy.completionViewModels, [.init(candidates: ["Ann Lee", "Acme Inc."])])
    }

    // MARK: presentSyncedContacts

    func test_presentSyncedContacts_everyAccountSynced_oneSuccessLineEach() {
        var home = SyncSummary(account: "home")
        home.pulled = 2; home.pushed = 1
        sut.presentSyncedContacts(response: .init(results: [.success(home), .success(SyncSummary(account: "work"))]))
        XCTAssertEqual(
            viewControllerSpy.messages,
            [
                .success(
                    "home: pulled 2, pushed 1, merged 0, conflicts 0\nwork: pulled 0, pushed 0, merged 0, conflicts 0")
            ])
    }

    func test_presentSyncedContacts_oneAccountFailed_anErrorNamingIt_theOthersInTheDetails() {
        sut.presentSyncedContacts(
            response: .init(results: [
                .success(SyncSummary(account: "home")),
                .failure(.server(account: "work", .unauthorized(url: URL(string: "https://dav.example/")!))),
            ]))
        XCTAssertEqual(
            viewControllerSpy.messages,
            [
                .error(
                    "account work: the server refused the password (401)", code: .storage,
                    details: ["synced 1": "home: pulled 0, pushed 0, merged 0, conflicts 0"])
            ])
    }

    func test_presentSyncedContacts_anAccountWithFailedCards_isAnErrorWithItsWholeSummary_theOthersInTheDetails() {
        var home = SyncSummary(account: "home")
        home.pushed = 2
        home.failed = [.init(name: "Cy Dee", direction: .push, status: 415, reason: "Unsupported Media Type")]
        sut.presentSyncedContacts(response: .init(results: [.success(home), .success(SyncSummary(account: "work"))]))
        XCTAssertEqual(
            viewControllerSpy.messages,
            [
                .error(
                    "home: pulled 0, pushed 2, merged 0, conflicts 0; 1 card failed, tried again at the next sync "
                        + "(Cy Dee: not sent, the server answered 415 Unsupported Media Type)", code: .storage,
                    details: ["synced 1": "work: pulled 0, pushed 0, merged 0, conflicts 0"])
            ])
    }

    func test_presentSyncedContacts_givesTheCommandLineEachAccountsLineAndError_inOrder() {
        var home = SyncSummary(account: "home")
        home.failed = [.init(name: "bad.vcf", direction: .pull, status: nil, reason: "no FN")]
        sut.presentSyncedContacts(
            response: .init(results: [
                .success(home), .failure(.server(account: "work", .network("refused"))),
                .success(SyncSummary(account: "z")),
            ]))
        XCTAssertEqual(
            viewControllerSpy.syncViewModels.first?.accounts,
            [
                .init(
                    summary:
                        "home: pulled 0, pushed 0, merged 0, conflicts 0; 1 card failed, tried again at the next sync "
                        + "(bad.vcf: not read here: no FN)",
                    error: "account home: 1 card could not be synced; it is tried again at the next sync"),
                .init(summary: nil, error: "account work: " + "\(DAVError.network("refused"))"),
                .init(summary: "z: pulled 0, pushed 0, merged 0, conflicts 0", error: nil),
            ])
    }

    func test_presentSyncedContacts_noAccounts_saysHowToAddOne() {
        sut.presentSyncedContacts(response: .init(results: []))
        XCTAssertEqual(
            viewControllerSpy.messages, [.info("No accounts to sync; add one with 'contactsbook account add'.")])
    }

    func test_presentDeleteConfirmation_asksWithTheFullName_andSaysHowToConfirm() {
        // When
        sut.presentDeleteConfirmation(
            response: .init(contact: Seeds.stored(Seeds.Contacts.jose, id: 2), reference: " jo "))
        // Then
        XCTAssertEqual(
            viewControllerSpy.confirmationViewModels,
            [
                .init(
                    id: 2, question: "Delete José Ñúñez (#2)?", declined: "Nothing deleted",
                    refusal:
                        "not deleted: 'jo' is only part of José Ñúñez's name; name the contact exactly (delete 2) or confirm (delete jo yes)"
                )
            ])
    }
}

/// The journal's answers, as the list's Presenter formats them.
final class ListContactsJournalPresenterTests: XCTestCase {
    var sut: ListContactsPresenter!
    var viewControllerSpy: ListContactsPresenterTests.ListContactsDisplayLogicSpy!

    override func setUp() {
        super.setUp()
        viewControllerSpy = .init()
        sut = ListContactsPresenter(formatter: Seeds.formatter)
        sut.viewController = viewControllerSpy
    }

    private func change(_ id: Int64, _ summary: String, before: Contact?, after: Contact?, undone: Bool = false)
        -> ChangeSetRecord
    {
        ChangeSetRecord(
            id: id, at: Seeds.now, origin: "rpc", kind: .edit, summary: summary, undone: undone,
            entries: [ChangeEntry(contactID: 9, uid: "u", before: before, after: after)])
    }

    func test_undone_saysWhatWasUndone() {
        // When
        sut.presentUndoneChange(
            response: .init(change: change(3, "deleted Bob Stone", before: nil, after: nil), redo: false))
        sut.presentUndoneChange(
            response: .init(change: change(3, "deleted Bob Stone", before: nil, after: nil), redo: true))
        // Then
        XCTAssertEqual(
            viewControllerSpy.messages, [.success("Undid: deleted Bob Stone"), .success("Redid: deleted Bob Stone")])
    }

    func test_refusals_nameTheLaterChange() {
        let target = change(2, "edited Bob Stone", before: nil, after: nil)
        let later = change(5, "edited Bob Stone", before: nil, after: nil)
        sut.presentFailure(.journal(.changedLater(change: target, later: later), action: "undo"))
        sut.presentFailure(.journal(.nothingToUndo, action: "undo"))
        XCTAssertEqual(
            viewControllerSpy.messages,
            [
                .error(
                    "Cannot undo \"edited Bob Stone\": change #5 (edited Bob Stone, from rpc, \(Seeds.nowText)) touched the same "
                        + "contact later. Nothing was changed.", code: .conflict,
                    details: ["change": "2", "later": "5"]),
                .error("Nothing to undo.", code: .invalidState),
            ])
    }

    func test_importedContacts_countEachKindOfNote_andNameEachByLine() throws {
        // Given: a card not read, two lines skipped, a value kept but not valid, two changes
        var report = ImportReport()
        report.added = 3
        report.add(problems: [ParsedContacts.Problem(line: 40, reason: "the card has no END:VCARD")])
        report.add(warnings: [
            ParsedContacts.Problem(
                line: 1, reason: "2 lines outside any card (expected BEGIN:VCARD): skipped", kind: .skipped),
            ParsedContacts.Problem(line: 9, reason: "EMAIL \"x\" is not an email address (kept)", kind: .invalid),
            ParsedContacts.Problem(
                line: 12, reason: "NOTE: 1 byte not valid in UTF-8 replaced by U+FFFD", kind: .changed),
            ParsedContacts.Problem(
                line: 12, reason: "NOTE: '=ZZ' is not a quoted-printable escape: kept as written", kind: .changed),
        ])
        report.skippedLines = 2
        // When
        sut.presentImportedContacts(response: .init(path: "phone.vcf", report: report))
        // Then: 4 cards in all (3 added, 1 not read), every note by its line
        XCTAssertEqual(
            viewControllerSpy.messages.last,
            Message(
                .info,
                "Imported phone.vcf: 3 added, 0 updated, 0 unchanged; 1 card could not be read; 2 lines outside any card skipped; "
                    + "1 value kept but not valid; 2 changes made in reading",
                details: [
                    "line  1": "2 lines outside any card (expected BEGIN:VCARD): skipped",
                    "line  9": "EMAIL \"x\" is not an email address (kept)",
                    "line 12":
                        "NOTE: 1 byte not valid in UTF-8 replaced by U+FFFD; NOTE: '=ZZ' is not a quoted-printable escape: kept as written",
                    "line 40": "the card has no END:VCARD",
                ]))
    }

    func test_exportedContacts_nameEachKindOfChange_withItsCountAndFirstContacts() {
        // Given: 7 contacts written, 3 of them changed
        var report = ExportReport(count: 7, format: .vcard4, path: "out.vcf", text: nil)
        report.add(notes: ["CLASS dropped: vCard 4.0 has no CLASS property"], of: .init(id: 4, name: "Ann Lee"))
        report.add(
            notes: [
                "CLASS dropped: vCard 4.0 has no CLASS property",
                "FN added from the contact's name (vCard 4.0 requires FN; the card had none)",
            ], of: .init(id: 9, name: "Bob Stone"))
        for id in 10...15 {
            report.add(
                notes: ["NAME dropped: vCard 4.0 has no NAME property"], of: .init(id: Int64(id), name: "C\(id)"))
        }
        var clean = ExportReport(count: 2, format: .vcard3, path: "clean.vcf", text: nil)
        clean.convertedContacts = 0
        // When
        sut.presentExportedContacts(response: .init(report: report))
        sut.presentExportedContacts(response: .init(report: clean))
        // Then
        XCTAssertEqual(
            viewControllerSpy.messages.suffix(2),
            [
                Message(
                    .info, "Exported 7 contacts to out.vcf as vCard 4.0; 8 contacts changed to be valid vCard 4.0",
                    details: [
                        "change 1":
                            "CLASS dropped: vCard 4.0 has no CLASS property: 2 contacts (Ann Lee (#4), Bob Stone (#9))",
                        "change 2":
                            "FN added from the contact's name (vCard 4.0 requires FN; the card had none): 1 contact (Bob Stone (#9))",
                        "change 3":
                            "NAME dropped: vCard 4.0 has no NAME property: 6 contacts (C10 (#10), C11 (#11), C12 (#12), C13 (#13), "
                            + "C14 (#14), and 1 more)",
                    ]),
                .success("Exported 2 contacts to clean.vcf as vCard 3.0"),
            ])
    }

    func test_exportedText_carriesTheChanges_besideTheFile() throws {
        // Given
        var report = ExportReport(count: 1, format: .vcard3, path: nil, text: "BEGIN:VCARD\r\nEND:VCARD\r\n")
        report.add(notes: ["KIND written as X-ADDRESSBOOKSERVER-KIND"], of: .init(id: 2, name: "Group"))
        // When
        sut.presentExportedContacts(response: .init(report: report))
        // Then: the layout is the file alone
        let viewModel = try XCTUnwrap(viewControllerSpy.exportedViewModels.last)
        XCTAssertEqual(viewModel.changes, ["KIND written as X-ADDRESSBOOKSERVER-KIND: 1 contact (Group (#2))"])
        XCTAssertEqual(viewModel.layout, .lines(["BEGIN:VCARD", "END:VCARD"]))
    }

    func test_importedContacts_nothingReadFromAFileWithText_isAnError_butAnEmptyFileOrAReimportIsNot() throws {
        // Given
        var garbage = ImportReport()
        garbage.add(warnings: [
            ParsedContacts.Problem(
                line: 1, reason: "a line outside any card (expected BEGIN:VCARD): skipped",
                kind: .skipped)
        ])
        garbage.skippedLines = 1
        var reimport = ImportReport()
        reimport.unchanged = 2
        // When
        sut.presentImportedContacts(response: .init(path: "notes.txt", report: garbage))
        sut.presentImportedContacts(response: .init(path: "empty.vcf", report: ImportReport()))
        sut.presentImportedContacts(response: .init(path: "same.vcf", report: reimport))
        // Then
        XCTAssertEqual(
            viewControllerSpy.messages.suffix(3),
            [
                .error(
                    "Nothing imported from notes.txt: 1 line outside any card skipped", code: .badInput,
                    details: ["line 1": "a line outside any card (expected BEGIN:VCARD): skipped"]),
                .success("Imported empty.vcf: 0 added, 0 updated, 0 unchanged"),
                .success("Imported same.vcf: 0 added, 0 updated, 2 unchanged"),
            ])
    }

    func test_importedContacts_withMoreProblemsThanKept_countsThemAll_andShowsTheFirstFifty() throws {
        // Given: a report that kept 1,000 of 2,500 problems and 1 of 3 warnings
        var report = ImportReport()
        report.added = 1
        report.add(
            problems: (2...2_501).map {
                ParsedContacts.Problem(line: $0, reason: "the row has no name and no organisation")
            })
        report.add(warnings: [ParsedContacts.Problem(line: 9_000, reason: "EMAIL x is not an address", kind: .invalid)])
        report.warningCount += 2
        report.invalidValues += 2
        // When
        sut.presentImportedContacts(response: .init(path: "big.csv", report: report))
        // Then: the totals in the sentence, fifty lines shown, the rest counted
        let message = try XCTUnwrap(viewControllerSpy.messages.last)
        XCTAssertEqual(
            message.text,
            "Imported big.csv: 1 added, 0 updated, 0 unchanged; 2500 cards could not be read; "
                + "3 values kept but not valid")
        XCTAssertEqual(message.details.count, ListContactsPresenter.maximumProblemsShown + 1)
        XCTAssertEqual(
            message.details["more"], "\(2_503 - ListContactsPresenter.maximumProblemsShown) more problems not shown")
    }
}
