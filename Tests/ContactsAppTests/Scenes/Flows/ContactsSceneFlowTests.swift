import SceneCore
import SceneCoreTesting
import XCTest

@testable import ContactsApp

/// Whole scene flows through the session, as a person or a program drives them: every
/// ViewModel displayed and every route taken is asserted, in order.
final class ContactsSceneFlowTests: XCTestCase {
    typealias FormRow = EditContact.ReviewDraft.ViewModel.Field
    typealias Change = EditContact.ChangeViewModel

    var store: InMemoryContactStore!
    var sut: SceneHarness!

    override func setUp() {
        super.setUp()
        store = Seeds.book()
        sut = SceneHarness(session: ContactsSceneFactory.makeSession(environment: Seeds.environment(store: store)))
    }

    override func tearDown() {
        sut.finish()
        sut = nil
        store = nil
        super.tearDown()
    }

    private func allContacts() throws -> [Contact] {
        try store.page(ContactQuery(search: "", sort: .last, page: 1, limit: 100)).contacts
    }

    private static let annForm = EditContact.ReviewDraft.ViewModel(
        heading: "Editing #1 Ann Lee",
        fields: [
            FormRow(field: "given", label: "given name", value: "Ann"),
            FormRow(field: "family", label: "family name", value: "Lee"),
            FormRow(field: "birthday", label: "birthday", value: "1990-05-17"),
            FormRow(field: "phone 1", label: "phone 1 (mobile)", value: "+1 (555) 123-4567"),
            FormRow(field: "email 1", label: "email 1 (work)", value: "ann@example.org"),
        ])

    private static let newForm = EditContact.ReviewDraft.ViewModel(heading: "New contact", fields: [])

    // MARK: list → show → edit → save → back

    func test_listShowEditSaveBack_savesTheChangeAndShowsItOnTheWayBack() throws {
        // When / Then
        sut.send("list")
        sut.receive(Seeds.bookListing)

        sut.send("show 1")
        sut.receiveRoute(.push("contact"))
        sut.receive(Seeds.annDetail())

        sut.send("edit")
        sut.receiveRoute(.push("form"))
        sut.receive(Self.annForm)

        sut.send("organization Acme")
        sut.receive(Change(field: "organization", value: "Acme", text: "organization: Acme"))

        sut.send("save")
        sut.receive(Message.success("Saved Ann Lee"))
        sut.receiveRoute(.pop("form"))
        sut.receive(
            Seeds.annDetail(
                version: 2, fields: [.init(label: "Organization", value: "Acme")],
                updatedAt: Seeds.now
            ) { $0.organization = "Acme" })

        sut.send("back")
        sut.receiveRoute(.pop("contact"))
        XCTAssertEqual(sut.stackIDs, ["contacts"])

        sut.send("list")
        sut.receive(
            ListContacts.FetchContacts.ViewModel(
                rows: [
                    Seeds.Rows.acme,
                    .init(
                        id: 1, name: "Ann Lee", organization: "Acme", emails: Seeds.Rows.ann.emails,
                        phones: Seeds.Rows.ann.phones),
                    Seeds.Rows.jose, Seeds.Rows.taro,
                ],
                page: 1, pageCount: 1, total: 4, search: "", sort: "last",
                caption: "Page 1 of 1 · 4 contacts · by last name"))

        let saved = try XCTUnwrap(store.contact(id: 1))
        XCTAssertEqual(saved.organization, "Acme")
        XCTAssertEqual(saved.version, 2)
        XCTAssertEqual(saved.updatedAt, Seeds.now)
        XCTAssertEqual(saved.createdAt, Seeds.created)
    }

    // MARK: add → cancel

    func test_addThenCancel_storesNothingAndReturnsToTheList() throws {
        // When / Then
        sut.send("add")
        sut.receiveRoute(.push("form"))
        sut.receive(Self.newForm)

        sut.send("given Bob")
        sut.receive(Change(field: "given", value: "Bob", text: "given name: Bob"))

        sut.send("cancel")
        sut.receive(Message.info("Cancelled: no contact was added; 1 change dropped"))
        sut.receiveRoute(.pop("form"))

        XCTAssertEqual(sut.stackIDs, ["contacts"])
        XCTAssertEqual(try allContacts().count, 4)
    }

    func test_backAfterThreeEdits_whereNobodyCanBeAsked_saysHowManyChangesWereDropped() throws {
        // Given: Ann Lee's form, edited three times
        sut.send("show ann lee")
        sut.receiveRoute(.push("contact"))
        sut.receive(ShowContact.FetchContact.ViewModel.self)
        sut.send("edit")
        sut.receiveRoute(.push("form"))
        sut.receive(Self.annForm)
        for line in ["organization Acme", "title Boss", "nickname Annie"] {
            sut.send(line)
            sut.receive(Change.self)
        }

        // When
        sut.send("back")

        // Then: today's behaviour, said out loud
        sut.receive(Message.info("Cancelled: 3 changes to Ann Lee dropped"))
        sut.receiveRoute(.pop("form"))
        XCTAssertEqual(try store.contact(id: 1)?.organization, "")
    }

    func test_backAfterEdits_wherePeopleAreAsked_asksAndStaysOnNo() throws {
        // Given: a front end that asks (the REPL), and a form with two edits
        sut.session.canAsk = true
        sut.send("add")
        sut.receiveRoute(.push("form"))
        sut.receive(Self.newForm)
        sut.send("given Bob")
        sut.receive(Change.self)
        sut.send("phone 555 1234")
        sut.receive(Change.self)

        // When
        sut.send("back")

        // Then: nothing is dropped yet; the question says what would be
        let request = try XCTUnwrap(sut.receive(ConfirmationRequest.self))
        XCTAssertEqual(request.question, "Drop 2 changes to the new contact (given, phone 1)?")
        XCTAssertEqual(sut.stackIDs, ["contacts", "form"])
        XCTAssertEqual(
            sut.session.confirmationBeforeQuitting()?.question,
            "Quit and drop 2 changes to the new contact (given, phone 1)?")

        // When: yes
        sut.send(request.confirmed)
        // Then
        sut.receive(Message.info("Cancelled: no contact was added; 2 changes dropped"))
        sut.receiveRoute(.pop("form"))
        XCTAssertNil(sut.session.confirmationBeforeQuitting())
    }

    func test_backInTheForm_cancelsOutLoud() throws {
        // Given a form with a change
        sut.send("add")
        sut.receiveRoute(.push("form"))
        sut.receive(Self.newForm)
        sut.send("family O'Brien")
        sut.receive(Change(field: "family", value: "O'Brien", text: "family name: O'Brien"))

        // When the user types the global word for leaving a screen
        sut.send("back")

        // Then the form's cancel runs: the draft is not dropped without a word
        sut.receive(Message.info("Cancelled: no contact was added; 1 change dropped"))
        sut.receiveRoute(.pop("form"))
        XCTAssertEqual(sut.stackIDs, ["contacts"])
        XCTAssertEqual(try allContacts().count, 4)
    }

    // MARK: add with errors → fix → save

    func test_addWithErrors_thenFixed_savesOnceAndShowsWhereTheContactLanded() throws {
        // Given
        sut.send("add")
        sut.receiveRoute(.push("form"))
        sut.receive(Self.newForm)
        sut.send("email work not-an-email")
        sut.receive(Change(field: "email 1 (work)", value: "not-an-email", text: "email 1 (work): not-an-email"))
        sut.send("phone mobile 12")
        sut.receive(Change(field: "phone 1 (mobile)", value: "12", text: "phone 1 (mobile): 12"))
        sut.send("birthday 2023-02-29")
        sut.receive(Change(field: "birthday", value: "2023-02-29", text: "birthday: 2023-02-29"))

        // When
        sut.send("save")

        // Then: every problem, per field, and nothing stored
        sut.receive(
            Message.error(
                "not saved: 4 fields are not valid", code: .validationFailed,
                details: [
                    "name": "a contact needs a given name, a family name or an organization",
                    "birthday": "must be a date as YYYY-MM-DD, or --MM-DD without a year",
                    "phone 1": "must have 3 to 20 digits",
                    "email 1": "is not an email address like name@example.org",
                ]))
        XCTAssertEqual(sut.stackIDs, ["contacts", "form"])
        XCTAssertEqual(try allContacts().count, 4)

        // When: fixed
        sut.send("given zoë")
        sut.receive(Change(field: "given", value: "zoë", text: "given name: zoë"))
        sut.send("family adams")
        sut.receive(Change(field: "family", value: "adams", text: "family name: adams"))
        // Names are kept as typed; the person asks for capitals
        sut.send("tidy")
        sut.receive(Change(field: "given", value: "Zoë", text: "given name: Zoë"))
        sut.receive(Change(field: "family", value: "Adams", text: "family name: Adams"))
        sut.send("remove email 1")
        sut.receive(Change(field: "email 1 (work)", value: "", text: "removed email 1 (work): not-an-email"))
        sut.send("email work zoe@example.org")
        sut.receive(Change(field: "email 1 (work)", value: "zoe@example.org", text: "email 1 (work): zoe@example.org"))
        sut.send("clear phones")
        sut.receive(Change(field: "phones", value: "", text: "phones: cleared"))
        sut.send("phone mobile 555 987 6543")
        // No country code and no default country: shown as typed
        sut.receive(Change(field: "phone 1 (mobile)", value: "555 987 6543", text: "phone 1 (mobile): 555 987 6543"))
        sut.send("birthday --02-29")
        sut.receive(Change(field: "birthday", value: "--02-29", text: "birthday: --02-29"))
        sut.send("save")

        // Then: saved, back on the list, at its sorted place
        sut.receive(Message.success("Added Zoë Adams as #5"))
        sut.receiveRoute(.pop("form"))
        let zoeRow = ListContacts.Row(
            id: 5, name: "Zoë Adams", organization: "",
            emails: [LabeledValue(label: "work", value: "zoe@example.org")],
            phones: [LabeledValue(label: "mobile", value: "555 987 6543")])
        sut.receive(
            ListContacts.ShowInsertedContact.ViewModel(
                row: zoeRow, position: 2, page: 1, text: "Zoë Adams is number 2 of 5 in the list (page 1)"))

        sut.send("list")
        sut.receive(
            ListContacts.FetchContacts.ViewModel(
                rows: [Seeds.Rows.acme, zoeRow, Seeds.Rows.ann, Seeds.Rows.jose, Seeds.Rows.taro],
                page: 1, pageCount: 1, total: 5, search: "", sort: "last",
                caption: "Page 1 of 1 · 5 contacts · by last name"))

        let saved = try XCTUnwrap(store.contact(id: 5))
        XCTAssertEqual(
            saved,
            Contact(
                id: 5, uid: "uid-1", givenName: "Zoë", familyName: "Adams",
                phones: [LabeledValue(label: "mobile", value: "555 987 6543")],
                emails: [LabeledValue(label: "work", value: "zoe@example.org")],
                birthday: Birthday(year: nil, month: 2, day: 29), createdAt: Seeds.now, updatedAt: Seeds.now, version: 1
            ))
    }

    func test_addOnALaterPage_reportsThePageTheContactLandedOn() throws {
        // Given: two contacts a page
        store = Seeds.book()
        sut = SceneHarness(
            session: ContactsSceneFactory.makeSession(
                environment: Seeds.environment(store: store, pageSize: 2)))
        sut.send("add")
        sut.receiveRoute(.push("form"))
        sut.receive(Self.newForm)
        sut.send("family Zed")
        sut.receive(Change(field: "family", value: "Zed", text: "family name: Zed"))

        // When
        sut.send("save")

        // Then: acme, lee, ñúñez, zed, 山田
        sut.receive(Message.success("Added Zed as #5"))
        sut.receiveRoute(.pop("form"))
        sut.receive(
            ListContacts.ShowInsertedContact.ViewModel(
                row: .init(id: 5, name: "Zed", organization: "", emails: [], phones: []), position: 4, page: 2,
                text: "Zed is number 4 of 5 in the list (page 2)"))
        sut.send("page 2")
        sut.receive(
            ListContacts.FetchContacts.ViewModel(
                rows: [Seeds.Rows.jose, .init(id: 5, name: "Zed", organization: "", emails: [], phones: [])],
                page: 2, pageCount: 3, total: 5, search: "", sort: "last",
                caption: "Page 2 of 3 · 5 contacts · by last name"))
    }

    func test_addWithoutLabels_keepsTheWholeNumberAndAddress() throws {
        // Given
        sut.send("add")
        sut.receiveRoute(.push("form"))
        sut.receive(Self.newForm)
        sut.send("family Bo")
        sut.receive(Change(field: "family", value: "Bo", text: "family name: Bo"))
        // When / Then
        sut.send("phone +1 555 987 6543")
        sut.receive(
            Change(field: "phone 1 (mobile)", value: "+1 (555) 987-6543", text: "phone 1 (mobile): +1 (555) 987-6543"))
        sut.send("address 12 High St; Springfield")
        sut.receive(
            Change(
                field: "address 1 (home)", value: "12 High St; Springfield",
                text: "address 1 (home): 12 High St; Springfield"))
        sut.send("save")
        sut.receive(Message.success("Added Bo as #5"))
        sut.receiveRoute(.pop("form"))
        sut.receive(ListContacts.ShowInsertedContact.ViewModel.self)
        let saved = try XCTUnwrap(store.contact(id: 5))
        XCTAssertEqual(saved.phones, [LabeledValue(label: "mobile", value: "+1 555 987 6543")])
        XCTAssertEqual(saved.addresses, [PostalAddress(label: "home", street: "12 High St", city: "Springfield")])
    }

    // MARK: delete

    func test_deleteFromTheDetail_deletesAndPopsToTheList() throws {
        // Given
        sut.send("show jose")
        sut.receiveRoute(.push("contact"))
        sut.receive(ShowContact.FetchContact.ViewModel.self)

        // When
        sut.send("delete")

        // Then
        sut.receive(Message.success("Deleted José Ñúñez"))
        sut.receiveRoute(.pop("contact"))
        XCTAssertEqual(sut.stackIDs, ["contacts"])
        XCTAssertNil(try store.contact(id: 2))
        XCTAssertEqual(try allContacts().map(\.id), [4, 1, 3])
    }

    func test_deleteFromTheList_byFullName_deletesAtOnce() throws {
        // When
        sut.send("delete acme inc.")

        // Then
        sut.receive(Message.success("Deleted Acme Inc."))
        XCTAssertEqual(try allContacts().map(\.id), [1, 2, 3])
    }

    func test_deleteFromTheList_byPartOfAName_isRefusedWhereNobodyCanBeAsked_sayingHowToConfirm() throws {
        // When
        sut.send("delete acme")

        // Then
        let request = try XCTUnwrap(sut.receive(ConfirmationRequest.self))
        XCTAssertEqual(request.question, "Delete Acme Inc. (#4)?")
        XCTAssertEqual(
            request.refusal,
            .error(
                "not deleted: 'acme' is only part of Acme Inc.'s name; name the contact exactly (delete 4) or confirm (delete acme yes)",
                code: .confirmationRequired))
        try assertUnchanged()

        // When: confirmed with the flag
        sut.send("delete acme yes")
        // Then
        sut.receive(Message.success("Deleted Acme Inc."))
        XCTAssertEqual(try allContacts().map(\.id), [1, 2, 3])
    }

    func test_deleteFromTheList_byPartOfAName_whereThePersonIsAsked_runsTheConfirmedCall() throws {
        // Given: a front end that asks (the REPL)
        sut.session.canAsk = true
        sut.send("delete acme")
        let request = try XCTUnwrap(sut.receive(ConfirmationRequest.self))
        XCTAssertEqual(request.declined, .info("Nothing deleted"))
        try assertUnchanged()

        // When: the person says yes
        sut.send(request.confirmed)

        // Then
        sut.receive(Message.success("Deleted Acme Inc."))
        XCTAssertEqual(try allContacts().map(\.id), [1, 2, 3])
    }

    // MARK: stale edit

    func test_staleEdit_isRefusedWithAConflict_andNothingIsOverwritten() throws {
        // Given: the form is open on version 1
        sut.send("show 1")
        sut.receiveRoute(.push("contact"))
        sut.receive(Seeds.annDetail())
        sut.send("edit")
        sut.receiveRoute(.push("form"))
        sut.receive(Self.annForm)
        sut.send("family Lee-Smith")
        sut.receive(Change(field: "family", value: "Lee-Smith", text: "family name: Lee-Smith"))
        // and someone else saves the contact meanwhile
        var elsewhere = try XCTUnwrap(store.contact(id: 1))
        elsewhere.notes = "changed elsewhere"
        _ = try store.update(elsewhere)

        // When
        sut.send("save")

        // Then
        sut.receive(
            Message.error(
                "#1 Ann Lee was changed elsewhere since you opened it (your version 1, now 2); nothing was changed. "
                    + "Look at it again before retrying.", code: .conflict))
        XCTAssertEqual(sut.stackIDs, ["contacts", "contact", "form"])
        let stored = try XCTUnwrap(store.contact(id: 1))
        XCTAssertEqual(stored.familyName, "Lee")
        XCTAssertEqual(stored.notes, "changed elsewhere")
        XCTAssertEqual(stored.version, 2)

        // When: cancelled, and the detail asked again
        sut.send("cancel")
        sut.receive(Message.info("Cancelled: 1 change to Ann Lee dropped"))
        sut.receiveRoute(.pop("form"))
        sut.send("show")
        sut.receive(
            Seeds.annDetail(version: 2) { $0.notes = "changed elsewhere" }
                .adding(.init(label: "Notes", value: "changed elsewhere"), before: "Created"))
    }

    func test_staleDelete_fromTheDetail_isRefused() throws {
        // Given
        sut.send("show 1")
        sut.receiveRoute(.push("contact"))
        sut.receive(Seeds.annDetail())
        var elsewhere = try XCTUnwrap(store.contact(id: 1))
        elsewhere.title = "Boss"
        _ = try store.update(elsewhere)

        // When
        sut.send("delete")

        // Then
        sut.receive(
            Message.error(
                "#1 Ann Lee was changed elsewhere since you opened it (your version 1, now 2); nothing was changed. "
                    + "Look at it again before retrying.", code: .conflict))
        XCTAssertEqual(sut.stackIDs, ["contacts", "contact"])
        XCTAssertNotNil(try store.contact(id: 1))
    }

    // MARK: bad input

    func test_unknownCommand_isAClearError_andChangesNothing() throws {
        // When
        sut.send("frobnicate")
        // Then
        sut.receive(
            Message.error(
                "unknown command 'frobnicate'; here you can use: list, next, previous, page, sort, search, show, edit, add, delete, import, export, "
                    + "undo, redo, history, trash, restore, purge, sync, duplicates, merge, birthdays, groups, group, books, move, copy, "
                    + "help, back, stack, quit", code: .badInput))
        try assertUnchanged()
    }

    func test_ambiguousPrefix_namesTheCandidates() throws {
        // When
        sut.send("s")
        // Then
        sut.receive(Message.error("'s' is ambiguous: sort, search, show, sync, stack", code: .badInput))
        try assertUnchanged()
    }

    func test_missingParameter_showsTheUsage() throws {
        // When
        sut.send("show")
        // Then
        sut.receive(Message.error("missing CONTACT; usage: show CONTACT...", code: .badInput))
        try assertUnchanged()
    }

    func test_badInteger_isRefused() throws {
        // When
        sut.send("page two")
        // Then
        sut.receive(Message.error("NUMBER must be an integer of at least 1, not 'two'", code: .badInput))

        // When
        sut.send("page 0")
        // Then
        sut.receive(Message.error("NUMBER must be an integer of at least 1, not '0'", code: .badInput))

        // When
        sut.send("list 1 501")
        // Then
        sut.receive(Message.error("LIMIT must be an integer from 1 to 500, not '501'", code: .badInput))
        try assertUnchanged()
    }

    func test_unknownContact_byIdOrName() throws {
        // When
        sut.send("show 99")
        // Then
        sut.receive(Message.error("no contact matches '#99'", code: .notFound))

        // When
        sut.send("delete zed")
        // Then
        sut.receive(Message.error("no contact matches 'zed'", code: .notFound))
        try assertUnchanged()
    }

    func test_ambiguousContactName_listsTheMatchesInOrder() throws {
        // When
        sut.send("delete a")
        // Then
        sut.receive(
            Message.error(
                "'a' matches 2 contacts: #4 Acme Inc., #1 Ann Lee; name one by its number",
                code: .badInput))
        try assertUnchanged()
    }

    func test_backAtTheRoot_isAnError() throws {
        // When
        sut.send("back")
        // Then
        sut.receive(Message.error("you are at the first screen already", code: .invalidState))
        try assertUnchanged()
    }

    func test_formCommandsOnTheList_areUnknown_andListCommandsInTheForm() throws {
        // When
        sut.send("add")
        sut.receiveRoute(.push("form"))
        sut.receive(Self.newForm)
        sut.send("remove phone 1")
        // Then
        sut.receive(Message.error("there is no phone to remove", code: .badInput))

        // When
        sut.send("remove fax 1")
        // Then
        sut.receive(
            Message.error("KIND must be one of: phone, email, address, website, tag, not 'fax'", code: .badInput))
        XCTAssertEqual(sut.stackIDs, ["contacts", "form"])
        XCTAssertEqual(try allContacts().count, 4)
    }

    /// The book and the stack are as the seeds left them.
    private func assertUnchanged(file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(sut.stackIDs, ["contacts"], file: file, line: line)
        XCTAssertEqual(
            try allContacts(),
            [
                Seeds.stored(Seeds.Contacts.acme, id: 4), Seeds.stored(Seeds.Contacts.ann, id: 1),
                Seeds.stored(Seeds.Contacts.jose, id: 2), Seeds.stored(Seeds.Contacts.taro, id: 3),
            ], file: file, line: line)
    }

    // MARK: show and edit from either screen

    func test_editFromTheList_opensTheFormOverTheContact_andSavingComesBackToIt() throws {
        // When
        sut.send("edit ann lee")
        // Then: Ann's detail, then her form over it, as show then edit would
        sut.receiveRoute(.push("contact"))
        sut.receive(Seeds.annDetail())
        sut.receiveRoute(.push("form"))
        sut.receive(Self.annForm)
        XCTAssertEqual(sut.stackIDs, ["contacts", "contact", "form"])
        XCTAssertEqual(sut.session.stack.scenes.map(\.title), ["contacts", "Ann Lee", "edit"])
    }

    func test_showAndEditAnotherContact_fromAContact() throws {
        // Given
        sut.send("show 1")
        sut.receiveRoute(.push("contact"))
        sut.receive(Seeds.annDetail())

        // When
        sut.send("show 2")
        // Then: José replaces Ann; back still goes to the list
        sut.receiveRoute(.replace("contact", with: "contact"))
        XCTAssertEqual(sut.receive(ShowContact.FetchContact.ViewModel.self)?.id, 2)
        XCTAssertEqual(sut.session.stack.active.title, "José Ñúñez")

        // When
        sut.send("edit 1")
        // Then: Ann's detail, then her form over it
        sut.receiveRoute(.replace("contact", with: "contact"))
        XCTAssertEqual(sut.receive(ShowContact.FetchContact.ViewModel.self)?.id, 1)
        sut.receiveRoute(.push("form"))
        sut.receive(Self.annForm)
        XCTAssertEqual(sut.stackIDs, ["contacts", "contact", "form"])

        // When: an unknown contact
        sut.send("cancel")
        sut.receive(Message.info("Cancelled: Ann Lee is unchanged"))
        sut.receiveRoute(.pop("form"))
        sut.send("show nobody")
        // Then
        sut.receive(Message.error("no contact matches 'nobody'", code: .notFound))
        XCTAssertEqual(sut.stackIDs, ["contacts", "contact"])
    }

    func test_editTheContactShownByName_save_thenEditAgain_startsFromTheSavedVersion() throws {
        // Given: on Ann's detail, `edit ann` (her own name) opens the form; the save comes back
        sut.send("show 1")
        sut.receiveRoute(.push("contact"))
        sut.receive(Seeds.annDetail())
        sut.send("edit ann")
        sut.receiveRoute(.push("form"))
        sut.receive(Self.annForm)
        sut.send("organization Acme")
        sut.receive(Change(field: "organization", value: "Acme", text: "organization: Acme"))
        sut.send("save")
        sut.receive(Message.success("Saved Ann Lee"))
        sut.receiveRoute(.pop("form"))
        XCTAssertEqual(sut.receive(ShowContact.FetchContact.ViewModel.self)?.version, 2)

        // When: edited again from the detail
        sut.send("edit")
        sut.receiveRoute(.push("form"))
        sut.receive(EditContact.ReviewDraft.ViewModel.self)
        sut.send("title Chief")
        sut.receive(Change(field: "title", value: "Chief", text: "title: Chief"))
        sut.send("save")

        // Then: from version 2, not the version `edit ann` read (no conflict with our own save)
        sut.receive(Message.success("Saved Ann Lee"))
        sut.receiveRoute(.pop("form"))
        XCTAssertEqual(sut.receive(ShowContact.FetchContact.ViewModel.self)?.version, 3)
        let saved = try XCTUnwrap(store.contact(id: 1))
        XCTAssertEqual([saved.organization, saved.title], ["Acme", "Chief"])
    }
}

extension ShowContact.FetchContact.ViewModel {
    /// The same detail with one more field, placed before the field labelled `label`.
    func adding(_ field: Field, before label: String) -> Self {
        var fields = self.fields
        let index = fields.firstIndex { $0.label == label } ?? fields.endIndex
        fields.insert(field, at: index)
        return .init(id: id, uid: uid, name: name, version: version, fields: fields, contact: contact)
    }

}
