import Foundation
import JSONBytes
import SceneCore
import XCTest

@testable import ContactsApp

/// The field table (`ContactField`) and what is derived from it: a field declared there is in
/// the form, the detail, history, CSV, the record for programs and its schema, and round-trips
/// through vCard; then `website`, the field added through it, end to end.
final class ContactFieldTests: XCTestCase {
    func test_everyFieldsOrdinal_isItsPlaceInAllCases_soItsDeclarationIsItsOwn() {
        // Given / When / Then: the declarations are kept in `allCases` order, found by `ordinal`
        XCTAssertEqual(ContactField.allCases.map(\.ordinal), Array(ContactField.allCases.indices))
        // And each field reads its own row (its record key is its own, and unique)
        let keys = ContactField.allCases.map(\.declaration.recordKey)
        XCTAssertEqual(Set(keys).count, ContactField.allCases.count)
        XCTAssertEqual(ContactField.given.declaration.recordKey, "givenName")
        XCTAssertEqual(ContactField.tag.declaration.name, "tag")
    }

    /// A contact with every field of the table set (and nothing else).
    static let everyField: Contact = {
        var contact = Contact(uid: "every-1")
        for field in ContactField.allCases {
            switch field {
            case .given: contact.givenName = "Ada"
            case .family: contact.familyName = "Lovelace"
            case .display: contact.formattedName = "Ada King, Countess of Lovelace"
            case .nickname: contact.nickname = "Countess"
            case .organization: contact.organization = "Analytical Engines"
            case .title: contact.title = "Programmer"
            case .phone: contact.phones = [LabeledValue(label: "work", value: "+44 20 7946 0000")]
            case .email: contact.emails = [LabeledValue(label: "home", value: "ada@engines.example")]
            case .address:
                contact.addresses = [PostalAddress(label: "home", street: "12 St James's Sq", city: "London")]
            case .website: contact.websites = [LabeledValue(label: "work", value: "https://engines.example/ada")]
            case .birthday: contact.birthday = Birthday(year: 1815, month: 12, day: 10)
            case .notes: contact.notes = "first programmer"
            case .tag: contact.tags = ["science"]
            }
        }
        return contact
    }()

    // MARK: - The table drives

    func test_everyField_isSetInTheFixture_andReadBackThroughItsSubscript() {
        for field in ContactField.allCases {
            XCTAssertFalse(Self.everyField[field].isEmpty, "\(field)")
            var contact = Contact()
            contact[field] = Self.everyField[field]
            XCTAssertEqual(contact[field], Self.everyField[field], "\(field)")
        }
    }

    func test_everyField_hasItsOwnCSVColumn_inTheHeaderInTheTablesOrder() {
        let columns = ContactField.allCases.map(\.declaration.csvColumn)
        XCTAssertEqual(Set(columns).count, columns.count)
        // `groups` last: a group is a card of its own, not a field of the contact's
        XCTAssertEqual(ContactsCSV.columns, ["uid"] + columns + ["groups"])
        XCTAssertTrue(columns.contains("websites") && columns.contains("display_name"))
    }

    func test_everyField_hasAFormAction_declaredWithItsHelpAndExample() {
        let actions = Dictionary(
            uniqueKeysWithValues: EditContactViewController.descriptor.actions.map { ($0.name, $0) })
        for field in ContactField.allCases {
            let word: String
            switch field.formAction {
            case .set(let action): word = action.rawValue
            case .add(let kind): word = kind.rawValue
            }
            let action = try? XCTUnwrap(actions[word], "\(field)")
            XCTAssertEqual(action?.summary, field.declaration.formSummary, "\(field)")
            XCTAssertEqual(action?.details, "Example: \(word) \(field.declaration.formExample)", "\(field)")
        }
        // The form's own enums name exactly the table's fields
        XCTAssertEqual(Set(EditContact.Field.allCases.map { ContactField($0) }).count, EditContact.Field.allCases.count)
        XCTAssertEqual(
            EditContact.Field.allCases.count + EditContact.ItemKind.allCases.count, ContactField.allCases.count)
        XCTAssertEqual(actions["website"]?.parameters.map(\.name), ["label", "value"])
    }

    func test_history_namesEveryField_websitesAmongThem() {
        let formatter = ContactFormatter(timeZone: Seeds.timeZone)
        var after = Self.everyField
        after.websites.append(LabeledValue(label: "home", value: "https://ada.example"))
        // When
        let changes = formatter.fieldChanges(from: Self.everyField, to: after)
        // Then
        XCTAssertEqual(
            changes,
            [
                "websites: work: https://engines.example/ada → work: https://engines.example/ada, home: https://ada.example"
            ])
        XCTAssertEqual(
            formatter.fields(Contact()).prefix(ContactField.allCases.count).map(\.0),
            ContactField.allCases.map(\.declaration.historyLabel))
    }

    func test_theRecordForPrograms_andItsSchema_holdEveryFieldByItsKey() throws {
        let detail = ShowContact.FetchContact.ViewModel.jsonSchema
        guard case .object(let members) = detail, case .object(let properties)? = members["properties"],
            case .object(let record)? = properties["contact"],
            case .object(let recordProperties)? = record["properties"]
        else { return XCTFail("no record schema") }
        let encoded = try JSONValue.parse(Array(JSONEncoder().encode(ShowContactPresenter.record(Self.everyField))))
        guard case .object(let values) = encoded else { return XCTFail("not an object") }
        for field in ContactField.allCases {
            let key = field.declaration.recordKey
            XCTAssertNotNil(recordProperties[key], key)
            XCTAssertNotNil(values[key], key)
        }
        XCTAssertEqual(Set(values.keys).subtracting(recordProperties.keys), [])
    }

    func test_theSearchPlaces_areDistinct_andNameTheFieldsTheTextHolds() {
        let places = ContactField.allCases.compactMap { field -> Int? in
            if case .words(let place) = field.declaration.search { return place }
            return nil
        }
        XCTAssertEqual(places.sorted(), Array(0..<places.count))
        XCTAssertEqual(ContactField.searchedWords.last, .website)
        // The website's words, after the fields before it
        XCTAssertTrue(
            ContactKeys.foldedText(Self.everyField).hasSuffix(
                " science first programmer 12 st james's sq london https://engines.example/ada"),
            ContactKeys.foldedText(Self.everyField))
    }

    func test_everyField_roundTripsThroughVCard3And4_writtenFromTheFields() {
        for version in [VCardWriter.Version.v3, .v4] {
            // When
            let text = VCardWriter(version: version).card(for: Self.everyField)
            let read = VCardReader().read(Data(text.utf8)).entries.first?.contact
            // Then
            for field in ContactField.allCases {
                XCTAssertEqual(read?[field], Self.everyField[field], "\(version) \(field)")
            }
            XCTAssertEqual(read?.extraProperties, [], "\(version)")
        }
    }

    func test_everyField_isPatchedIntoACard_andReadBackFromIt() throws {
        // Given: a card with none of the fields but the name
        let card = VCardReader().read(Data("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:X\r\nN:X;;;;\r\nEND:VCARD\r\n".utf8))
            .entries[0].contact
        for field in ContactField.allCases {
            var contact = card
            contact[field] = Self.everyField[field]
            // When
            let patched = CardPatch.reconciled(contact)
            // Then
            let view = try XCTUnwrap(VCardReader.view(of: try XCTUnwrap(patched.card)))
            XCTAssertEqual(view.contact[field], patched[field], "\(field)")
        }
    }

    // MARK: - Website, end to end

    func test_website_formStoreVCard3And4_andBack() throws {
        // Given
        let store = try SQLiteContactStore(path: ":memory:")
        let session = ContactsSceneFactory.makeSession(environment: Seeds.environment(store: store))
        // When: typed in the form
        for line in [
            "add", "given Ann", "family Lee", "website work https://ann.example.org", "website ann.example/blog",
            "website \"Lab bench\" https://lab.example", "save",
        ] {
            let outcome = session.handle(line: line)
            XCTAssertTrue(outcome.succeeded, "\(line): \(String(describing: outcome.error))")
        }
        // Then: stored, searchable
        let saved = try XCTUnwrap(try store.page(ContactQuery(search: "lab")).contacts.first)
        let expected = [
            LabeledValue(label: "work", value: "https://ann.example.org"),
            LabeledValue(label: "home", value: "ann.example/blog"),
            LabeledValue(label: "lab bench", value: "https://lab.example"),
        ]
        XCTAssertEqual(saved.websites, expected)
        XCTAssertEqual(try store.contact(id: try XCTUnwrap(saved.id))?.websites, expected)
        for version in [VCardWriter.Version.v3, .v4] {
            let text = VCardWriter(version: version).card(for: saved)
            XCTAssertTrue(text.contains("\r\nURL;TYPE=work:https://ann.example.org\r\n"), text)
            XCTAssertTrue(text.contains("\r\nitem1.URL:https://lab.example\r\nitem1.X-ABLabel:lab bench\r\n"), text)
            XCTAssertEqual(VCardReader().read(Data(text.utf8)).entries.first?.contact.websites, expected, "\(version)")
        }
        // And: shown, then removed in the form
        let detail = session.handle(line: "show \(saved.id ?? 0)").displayed.compactMap {
            $0 as? ShowContact.FetchContact.ViewModel
        }.last
        XCTAssertEqual(
            detail?.fields.filter { $0.label.hasPrefix("Website") }.map(\.label),
            ["Website (work)", "Website (home)", "Website (lab bench)"])
        XCTAssertEqual(detail?.contact.websites, expected)
        for line in ["edit", "remove website 2", "save"] { XCTAssertTrue(session.handle(line: line).succeeded, line) }
        XCTAssertEqual(try store.contact(id: try XCTUnwrap(saved.id))?.websites.map(\.label), ["work", "lab bench"])
    }

    func test_website_withASpace_isRefusedOnSave() {
        let session = ContactsSceneFactory.makeSession(environment: Seeds.environment(store: InMemoryContactStore([])))
        for line in ["add", "given Ann", "website work https://a b.example"] { _ = session.handle(line: line) }
        let error = session.handle(line: "save").error
        XCTAssertEqual(error?.details["website 1"], "is not a web address like https://example.org (it holds a space)")
    }

    /// Apple's Address Book card from ez-vcard's tests: `item4.URL;type=pref:http\://www.ibm.com`
    /// labelled `_$!<HomePage>!$_`.
    private func macAddressBookCard() throws -> Contact {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/vcards/ez-vcard/John_Doe_MAC_ADDRESS_BOOK.vcf")
        let parsed = VCardReader().read(try Data(contentsOf: url))
        XCTAssertEqual(parsed.problems, [])
        return try XCTUnwrap(parsed.entries.first?.contact)
    }

    func test_aRealCardsURL_isTheWebsite_keptWithItsGroupParametersAndLabel() throws {
        // Given
        let contact = try macAddressBookCard()
        // Then: the field, no longer a kept property
        XCTAssertEqual(contact.websites, [LabeledValue(label: "homepage", value: "http://www.ibm.com")])
        XCTAssertFalse(contact.extraProperties.contains { $0.contains("URL") }, "\(contact.extraProperties)")
        // An unedited card goes out as it came
        let written = VCardWriter(version: .v3).card(for: CardPatch.reconciled(contact))
        XCTAssertTrue(
            written.contains("\r\nitem4.URL;type=pref:http\\://www.ibm.com\r\nitem4.X-ABLabel:_$!<HomePage>!$_\r\n"),
            written)
        // When: its address edited
        var edited = contact
        edited.websites[0].value = "https://www.ibm.com/us-en"
        let patched = try XCTUnwrap(CardPatch.reconciled(edited).card).lines
        // Then: in place, its group, parameters and Apple's label kept
        XCTAssertTrue(patched.contains("item4.URL;type=pref:https://www.ibm.com/us-en"), "\(patched)")
        XCTAssertTrue(patched.contains("item4.X-ABLabel:_$!<HomePage>!$_"))
        XCTAssertEqual(patched.count, contact.card?.lines.count)
    }

    // MARK: - Several ORG, TITLE and NOTE

    static let severalCard = """
        BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;John;;;\r\nFN:John Doe\r\nORG:First Org\r\nORG:Second Org;Its Unit\r\n\
        TITLE:First title\r\nTITLE:Second title\r\nNOTE:first note\r\nNOTE:second note\r\nEND:VCARD\r\n
        """

    func test_severalNotes_eachStaysItsOwnProperty_whenTheFirstIsEdited() throws {
        // Given
        var contact = try XCTUnwrap(VCardReader().read(Data(Self.severalCard.utf8)).entries.first?.contact)
        XCTAssertEqual(contact.notes, "first note")
        // When
        contact.notes = "edited note"
        let patched = CardPatch.reconciled(contact)
        // Then: both exported, each a NOTE of its own, in 3.0 and 4.0
        for version in [VCardWriter.Version.v3, .v4] {
            let lines = VCardWriter(version: version).card(for: patched).components(separatedBy: "\r\n")
            XCTAssertEqual(
                lines.filter { $0.hasPrefix("NOTE") }, ["NOTE:edited note", "NOTE:second note"], "\(version)")
            XCTAssertEqual(
                lines.filter { $0.hasPrefix("ORG") }, ["ORG:First Org", "ORG:Second Org;Its Unit"], "\(version)")
            XCTAssertEqual(
                lines.filter { $0.hasPrefix("TITLE") }, ["TITLE:First title", "TITLE:Second title"], "\(version)")
        }
    }

    func test_aSecondNote_isSearched_andInTheCSVNotes_asBeforeEachNoteWasKeptApart() throws {
        // Given
        var contact = try XCTUnwrap(VCardReader().read(Data(Self.severalCard.utf8)).entries.first?.contact)
        contact.uid = "doe-1"
        let store = InMemoryContactStore([contact])
        // Then
        XCTAssertEqual(contact.allNotes, "first note\nsecond note")
        XCTAssertEqual(try store.page(ContactQuery(search: "second")).contacts.map(\.familyName), ["Doe"])
        XCTAssertEqual(ContactsCSV.cell(.notes, of: contact), "first note\nsecond note")
    }

    func test_theDetail_showsTheSecondOrgTitleAndNote_afterTheFirst() throws {
        // Given
        let contact = try XCTUnwrap(VCardReader().read(Data(Self.severalCard.utf8)).entries.first?.contact)
        let presenter = ShowContactPresenter(
            formatter: ContactFormatter(timeZone: Seeds.timeZone))
        let spy = DetailSpy()
        presenter.viewController = spy
        // When
        presenter.presentFetchedContact(response: .init(contact: contact))
        // Then
        let fields = try XCTUnwrap(spy.viewModel).fields.map { "\($0.label): \($0.value)" }
        XCTAssertEqual(
            fields.prefix(8),
            [
                "Given name: John", "Family name: Doe", "Organization: First Org",
                "Organization 2: Second Org, Its Unit",
                "Title: First title", "Title 2: Second title", "Notes: first note", "Notes 2: second note",
            ])
    }

    final class DetailSpy: ShowContactDisplayLogic {
        var viewModel: ShowContact.FetchContact.ViewModel?
        func displayFetchedContact(viewModel: ShowContact.FetchContact.ViewModel) { self.viewModel = viewModel }
        func displayDeletedContact(viewModel: ShowContact.DeleteContact.ViewModel) {}
        func displaySelectedContact(viewModel: ShowContact.SelectContact.ViewModel) {}
        func displayContactToEdit(viewModel: ShowContact.EditContact.ViewModel) {}
        func displayCompletedReference(viewModel: ShowContact.CompleteReference.ViewModel) {}
        func displaySavedPhoto(viewModel: ShowContact.SavePhoto.ViewModel) {}
        func displayMessage(_ message: Message) {}
        func displayHistory(viewModel: ShowContact.ShowHistory.ViewModel) {}
    }

    // MARK: - CSV

    func test_csv_roundTrip_keepsWebsitesAndTheDisplayName() {
        // Given
        var contact = Self.everyField
        contact.websites.append(LabeledValue(label: "odd|label", value: "https://a.example/x|y"))
        var bytes = Array(ContactsCSV.header.utf8)
        ContactsCSV.append([contact], to: &bytes)
        // When
        let read = ContactsCSV.read(Data(bytes))
        // Then
        XCTAssertEqual(read.problems, [])
        XCTAssertEqual(read.entries.first?.contact, contact)
    }

    func test_csv_displayName_thatTheNamesGive_isNotKept_andAnUnlabelledWebsiteIsAllValue() {
        let csv =
            "given_name,family_name,display_name,websites\r\nAnn,Lee,Ann Lee,https://ann.example | work:http://w.example\r\n"
        let contact = ContactsCSV.read(Data(csv.utf8)).entries.first?.contact
        XCTAssertEqual(contact?.formattedName, "")
        XCTAssertEqual(
            contact?.websites,
            [
                LabeledValue(label: "other", value: "https://ann.example"),
                LabeledValue(label: "work", value: "http://w.example"),
            ])
    }

    // MARK: - Merges

    func test_merge_joinsWebsites_withoutRepeatsThatDifferOnlyBySchemeOrCase() {
        var first = Contact(givenName: "Ann"), second = Contact(givenName: "Ann")
        first.websites = [LabeledValue(label: "work", value: "https://Ann.example/")]
        second.websites = [
            LabeledValue(label: "home", value: "http://ann.example"),
            LabeledValue(label: "home", value: "https://blog.example"),
        ]
        let merged = ContactMerger(defaultCountry: nil).merge([first, second]).merged
        XCTAssertEqual(merged.websites.map(\.value), ["https://Ann.example/", "https://blog.example"])
    }

    func test_syncMerge_keepsWebsitesAddedOnEitherSide() {
        let base = Contact(givenName: "Ann", websites: [LabeledValue(label: "work", value: "https://a.example")])
        var local = base, remote = base
        local.websites.append(LabeledValue(label: "home", value: "https://here.example"))
        remote.websites = [LabeledValue(label: "home", value: "https://there.example")]
        let result = SyncMerge.merge(base: base, local: local, remote: remote)
        XCTAssertEqual(result.contact.websites.map(\.value), ["https://there.example", "https://here.example"])
        XCTAssertEqual(result.conflicts, [])
    }
}
