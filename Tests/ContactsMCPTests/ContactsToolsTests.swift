import ContactsApp
import Foundation
import JSONBytes
import SceneCore
import SceneMCP
import XCTest

@testable import ContactsMCP

/// Fixtures: a book in memory with a fixed clock, UIDs and locale, and its tools.
enum ContactsMCPSeeds {
    static let now = Date(timeIntervalSince1970: 1_700_086_400)

    final class UIDMaker {
        private var count = 0
        func make() -> String { count += 1; return "uid-\(count)" }
    }

    static func environment(_ store: ContactStore, changes: ChangeNotifier? = nil) -> ContactsEnvironment {
        ContactsEnvironment(
            store: store, now: { now }, makeUID: UIDMaker().make, locale: Locale(identifier: "en_US_POSIX"),
            timeZone: .gmt, changes: changes)
    }

    static let ann: JSONValue = [
        "given": "Ann", "family": "Lee", "organization": "Acme", "birthday": "1990-05-17",
        "phone": [["label": "mobile", "value": "+1 555 123 4567"]],
        "email": [["value": "ann@example.org"]], "tag": ["friend"],
        "address": [["label": "home", "value": "1 Main St; Springfield; IL; 62701; USA"]],
    ]
}

final class ContactsToolsTests: XCTestCase {
    private var store: InMemoryContactStore!
    private var session: Session!
    private var sut: ContactsTools!

    override func setUp() {
        super.setUp()
        store = InMemoryContactStore()
        session = ContactsSceneFactory.makeSession(environment: ContactsMCPSeeds.environment(store))
        sut = ContactsTools(session: session)
    }

    private func call(_ tool: MCPTool, _ arguments: JSONValue) throws -> MCPToolResult { try tool.run(arguments) }

    private func failure(_ tool: MCPTool, _ arguments: JSONValue) -> MCPToolFailure? {
        do { _ = try tool.run(arguments); return nil } catch { return error as? MCPToolFailure }
    }

    func test_tools_areTheBooksTasks_withAnnotations() {
        // When
        let tools = sut.all
        // Then
        XCTAssertEqual(
            tools.map(\.name),
            [
                "search", "get", "add", "update", "delete", "import", "export",
                "duplicates", "merge", "birthdays", "groups", "group", "undo", "sync",
            ])
        XCTAssertEqual(
            tools.filter(\.annotations.readOnly).map(\.name), ["search", "get", "duplicates", "birthdays", "groups"])
        XCTAssertEqual(
            tools.filter(\.annotations.destructive).map(\.name),
            ["update", "delete", "import", "export", "merge", "group", "undo", "sync"])
        XCTAssertEqual(
            tools.filter(\.annotations.idempotent).map(\.name),
            ["search", "get", "update", "delete", "duplicates", "birthdays", "groups"])
    }

    func test_addsInputSchema_isTheFormsFieldActions() {
        // When
        let properties = sut.add.inputSchema["properties"]
        // Then
        guard case .object(let members)? = properties else { return XCTFail("no properties") }
        XCTAssertEqual(
            Set(members.keys),
            Set(EditContact.Field.allCases.map(\.rawValue) + EditContact.ItemKind.allCases.map(\.rawValue)))
        XCTAssertEqual(members["given"]?["description"], "set the given name")
    }

    func test_add_savesEveryFieldInOneCall_andLeavesTheSessionOnTheList() throws {
        // When
        let result = try call(sut.add, ContactsMCPSeeds.ann)
        // Then
        let contact = result.structuredContent?["contact"]
        XCTAssertEqual(result.isError, false)
        XCTAssertEqual(result.text, "added #1 Ann Lee (uid uid-1, version 1)")
        XCTAssertEqual(contact?["givenName"], "Ann")
        XCTAssertEqual(contact?["phones"], [["label": "mobile", "value": "+1 555 123 4567"]])
        XCTAssertEqual(contact?["addresses"]?[index: 0]?["city"], "Springfield")
        XCTAssertEqual(contact?["birthday"], ["year": 1990, "month": 5, "day": 17])
        XCTAssertEqual(contact?["tags"], ["friend"])
        XCTAssertEqual(session.stack.scenes.map(\.descriptor.id), ["contacts"])
    }

    func test_add_withoutAName_failsNamingTheField_savesNothing_andClosesTheForm() throws {
        // When
        let failure = failure(sut.add, ["nickname": "Annie"])
        // Then
        XCTAssertEqual(failure?.details, ["name": "a contact needs a given name, a family name or an organization"])
        XCTAssertEqual(try store.page(ContactQuery()).total, 0)
        XCTAssertEqual(session.stack.scenes.map(\.descriptor.id), ["contacts"])
    }

    func test_add_withAnUnknownField_failsNamingIt() {
        // When
        let failure = failure(sut.add, ["given": "Ann", "surname": "Lee"])
        // Then
        XCTAssertEqual(failure?.details, ["surname": "unexpected"])
    }

    func test_get_byNumberOrUID_givesTheSameContact() throws {
        // Given
        _ = try call(sut.add, ContactsMCPSeeds.ann)
        // When
        let byNumber = try call(sut.get, ["contact": 1])
        let byUID = try call(sut.get, ["contact": "uid-1"])
        // Then
        XCTAssertEqual(byNumber, byUID)
        XCTAssertEqual(byNumber.structuredContent?["version"], 1)
    }

    func test_getOrUpdate_ofAContactNotInTheBook_failsNamingContact() {
        // When
        let get = failure(sut.get, ["contact": "nobody"])
        let update = failure(sut.update, ["contact": "nobody", "version": 1, "family": "Lee"])
        // Then
        XCTAssertEqual(
            get, MCPToolFailure("no contact matches 'nobody'", details: ["contact": "no contact matches 'nobody'"]))
        XCTAssertEqual(update, get)
        XCTAssertEqual(session.stack.scenes.map(\.descriptor.id), ["contacts"])
    }

    func test_search_givesTheListsRows() throws {
        // Given
        _ = try call(sut.add, ContactsMCPSeeds.ann)
        _ = try call(sut.add, ["organization": "Zeta Corp"])
        // When
        let result = try call(sut.search, ["text": "lee"])
        let all = try call(sut.search, ["text": "", "limit": 1, "page": 2])
        // Then
        XCTAssertEqual(result.structuredContent?["total"], 1)
        XCTAssertEqual(result.structuredContent?["rows"]?[index: 0]?["name"], "Ann Lee")
        XCTAssertEqual(all.structuredContent?["page"], 2)
        XCTAssertEqual(all.structuredContent?["total"], 2)
    }

    func test_update_changesOnlyTheFieldsSent_clearsEmptyOnes_andReplacesArrays() throws {
        // Given
        _ = try call(sut.add, ContactsMCPSeeds.ann)
        // When
        let result = try call(
            sut.update,
            [
                "contact": "uid-1", "version": 1, "title": "Engineer", "organization": "",
                "phone": [["label": "work", "value": "555 0000"]],
            ])
        // Then
        let contact = result.structuredContent?["contact"]
        XCTAssertEqual(contact?["version"], 2)
        XCTAssertEqual(contact?["title"], "Engineer")
        XCTAssertEqual(contact?["organization"], "")
        XCTAssertEqual(contact?["phones"], [["label": "work", "value": "555 0000"]])
        XCTAssertEqual(contact?["emails"], [["label": "home", "value": "ann@example.org"]])
        XCTAssertEqual(session.stack.scenes.map(\.descriptor.id), ["contacts"])
    }

    func test_update_fromAStaleVersion_isRefusedNamingTheNewerOne_andChangesNothing() throws {
        // Given
        _ = try call(sut.add, ContactsMCPSeeds.ann)
        _ = try call(sut.update, ["contact": 1, "version": 1, "title": "Engineer"])
        // When
        let failure = failure(sut.update, ["contact": 1, "version": 1, "title": "Boss"])
        // Then
        XCTAssertEqual(failure?.details["currentVersion"], "2")
        XCTAssertEqual(failure?.message.contains("it is at version 2, you sent version 1"), true)
        XCTAssertEqual(try store.contact(id: 1)?.title, "Engineer")
    }

    func test_update_withoutAVersion_failsSayingSo() throws {
        // Given
        _ = try call(sut.add, ContactsMCPSeeds.ann)
        // When
        let failure = failure(sut.update, ["contact": 1, "title": "Boss"])
        // Then
        XCTAssertEqual(failure?.details, ["version": "required, an integer"])
    }

    func test_delete_removesTheContact_andAStaleVersionKeepsIt() throws {
        // Given
        _ = try call(sut.add, ContactsMCPSeeds.ann)
        // When
        let stale = failure(sut.delete, ["contact": 1, "version": 7])
        let deleted = try call(sut.delete, ["contact": "uid-1", "version": 1])
        let gone = failure(sut.get, ["contact": "uid-1"])
        // Then
        XCTAssertEqual(stale?.details["currentVersion"], "1")
        XCTAssertEqual(deleted.structuredContent?["deleted"], ["id": 1, "uid": "uid-1", "name": "Ann Lee"])
        XCTAssertNotNil(gone)
        XCTAssertEqual(try store.page(ContactQuery()).total, 0)
    }

    func test_delete_byPartOfAName_needsConfirm_asTheListsDeleteDoes() throws {
        // Given
        _ = try call(sut.add, ContactsMCPSeeds.ann)
        // When
        let refused = failure(sut.delete, ["contact": "ann"])
        let deleted = try call(sut.delete, ["contact": "ann", "confirm": true])
        // Then
        XCTAssertEqual(refused?.message.contains("delete ann yes"), true)
        XCTAssertEqual(deleted.structuredContent?["deleted"]?["uid"], "uid-1")
        XCTAssertEqual(try store.page(ContactQuery()).total, 0)
    }

    func test_export_toDash_givesTheTextBack() throws {
        // Given
        _ = try call(sut.add, ContactsMCPSeeds.ann)
        // When
        let result = try call(sut.exportFile, ["path": "-"])
        // Then
        XCTAssertEqual(result.structuredContent?["count"], 1)
        XCTAssertEqual(result.structuredContent?["mediaType"], "text/vcard")
        XCTAssertEqual(result.structuredContent?["text"].map { $0.text.contains("UID:uid-1") }, true)
    }

    func test_import_ofAMissingFile_failsSayingWhy() {
        // When
        let failure = failure(sut.importFile, ["path": "/nonexistent/book.vcf"])
        // Then
        XCTAssertNotNil(failure)
        XCTAssertEqual(session.stack.scenes.map(\.descriptor.id), ["contacts"])
    }
    // MARK: duplicates, merge, birthdays

    func test_theEverydayToolsInputSchemas_areTheListsActionDeclarations() {
        // Then
        XCTAssertEqual(
            sut.merge.inputSchema["properties"]?["contacts"]?["description"],
            "two or more numbers (#) or quoted names; the first is kept")
        XCTAssertEqual(sut.merge.inputSchema["required"], ["contacts"])
        XCTAssertEqual(sut.birthdays.inputSchema["properties"]?["days"]?["maximum"], 366)
        XCTAssertEqual(sut.birthdays.inputSchema["required"], [])
        XCTAssertEqual(sut.duplicates.inputSchema["properties"], [:])
    }

    func test_duplicates_groupsTheSameEmail_withTheMergeThatJoinsThem() throws {
        // Given
        _ = try call(sut.add, ContactsMCPSeeds.ann)
        _ = try call(sut.add, ["given": "Anne", "family": "Lee", "email": [["value": "ANN@example.org"]]])
        _ = try call(sut.add, ["given": "Bo"])
        // When
        let result = try call(sut.duplicates, [:])
        // Then
        let group = result.structuredContent?["groups"]?[index: 0]
        XCTAssertEqual(result.isError, false)
        XCTAssertEqual(result.structuredContent?["groups"]?.count, 1)
        XCTAssertEqual(group?["rows"]?[index: 0]?["id"], 1)
        XCTAssertEqual(group?["rows"]?[index: 1]?["id"], 2)
        XCTAssertEqual(group?["reasons"]?[index: 0]?["kind"], "email")
        XCTAssertEqual(group?["merge"], "merge 1 2")
        XCTAssertEqual(result.text, "1 group of possible duplicates; merge one into its first contact with 'merge 1 2'")
        XCTAssertEqual(session.stack.scenes.map(\.descriptor.id), ["contacts"])
    }

    func test_duplicates_inABookWithout_saysSo() throws {
        // Given
        _ = try call(sut.add, ContactsMCPSeeds.ann)
        // When
        let result = try call(sut.duplicates, [:])
        // Then
        XCTAssertEqual(result.structuredContent?["groups"], [])
        XCTAssertEqual(result.text, "No duplicates found")
    }

    func test_groupTools_makeAGroup_addMembers_listThem_andSearchTheGroup() throws {
        // Given
        _ = try call(sut.add, ContactsMCPSeeds.ann)
        _ = try call(sut.add, ["given": "Bob", "family": "Stone"])
        // When
        let made = try call(sut.group, ["action": "new", "name": "Book club"])
        let added = try call(sut.group, ["action": "add", "name": "book", "values": "1 \"bob stone\""])
        let listed = try call(sut.groups, [:])
        let members = try call(sut.search, ["text": "", "group": "Book club"])
        let unknown = failure(sut.group, ["action": "add", "name": "nope", "values": "1"])
        // Then
        XCTAssertEqual(made.structuredContent?["action"], "new")
        XCTAssertEqual(added.structuredContent?["changed"], [1, 2])
        XCTAssertEqual(added.text, "Added Ann Lee, Bob Stone to Book club (2 members)")
        XCTAssertEqual(listed.structuredContent?["groups"]?[index: 0]?["size"], 2)
        XCTAssertEqual(listed.structuredContent?["groups"]?[index: 0]?["members"], ["uid-1", "uid-2"])
        XCTAssertEqual(members.structuredContent?["group"], "Book club")
        XCTAssertEqual(members.structuredContent?["total"], 2)
        XCTAssertEqual(unknown?.message, "no group is named \"nope\"; groups lists them")
    }

    func test_merge_byUIDs_keepsTheFirst_deletesTheOthers_andListsTheValuesDropped() throws {
        // Given
        _ = try call(sut.add, ContactsMCPSeeds.ann)
        _ = try call(sut.add, ["given": "Anne", "family": "Lee", "phone": [["value": "+44 20 7946 0000"]]])
        // When
        let result = try call(sut.merge, ["contacts": "uid-1 uid-2"])
        // Then
        XCTAssertEqual(result.isError, false)
        XCTAssertEqual(result.structuredContent?["id"], 1)
        XCTAssertEqual(result.structuredContent?["removed"], [2])
        XCTAssertEqual(result.structuredContent?["differences"]?[index: 0]?["dropped"], "Anne")
        XCTAssertEqual(result.text.hasPrefix("Merged #2 Anne Lee into #1 Ann Lee"), true, result.text)
        let kept = try call(sut.get, ["contact": 1]).structuredContent?["contact"]
        XCTAssertEqual(kept?["phones"]?.count, 2)
        XCTAssertEqual(try store.page(ContactQuery()).total, 1)
        XCTAssertEqual(session.stack.scenes.map(\.descriptor.id), ["contacts"])
    }

    func test_merge_ofOneContact_orAnUnknownOne_failsSayingWhy_andDeletesNothing() throws {
        // Given
        _ = try call(sut.add, ContactsMCPSeeds.ann)
        _ = try call(sut.add, ["given": "Bo"])
        // When
        let one = failure(sut.merge, ["contacts": "1"])
        let unknown = failure(sut.merge, ["contacts": "1 42"])
        let wrongType = failure(sut.merge, ["contacts": 1])
        // Then
        XCTAssertEqual(one?.message, "merge needs two contacts or more, the first kept: merge 3 7")
        XCTAssertEqual(unknown?.message.contains("'#42'"), true, unknown?.message ?? "")
        XCTAssertEqual(wrongType?.details.keys.sorted(), ["contacts"])
        XCTAssertEqual(try store.page(ContactQuery()).total, 2)
    }

    func test_birthdays_fromTheInjectedToday_soonestFirst() throws {
        // Given today is 2023-11-15 (ContactsMCPSeeds.now)
        _ = try call(sut.add, ContactsMCPSeeds.ann)
        _ = try call(sut.add, ["given": "Bo", "birthday": "1990-11-20"])
        _ = try call(sut.add, ["given": "Cy", "birthday": "11-16"])
        // When
        let result = try call(sut.birthdays, ["days": 7])
        let byDefault = try call(sut.birthdays, [:])
        // Then
        let entries = result.structuredContent?["entries"]
        XCTAssertEqual(result.structuredContent?["today"], "2023-11-15")
        XCTAssertEqual(entries?.count, 2)
        XCTAssertEqual(entries?[index: 0]?["name"], "Cy")
        XCTAssertEqual(entries?[index: 0]?["when"], "tomorrow")
        XCTAssertEqual(entries?[index: 1]?["date"], "2023-11-20")
        XCTAssertEqual(entries?[index: 1]?["age"], 33)
        XCTAssertEqual(entries?[index: 1]?["daysAway"], 5)
        XCTAssertEqual(result.text, "2 birthdays in the next 7 days")
        XCTAssertEqual(byDefault.structuredContent?["days"], 30)
    }

    func test_birthdays_beyondAYear_failsNamingDays() {
        // When
        let failure = failure(sut.birthdays, ["days": 400])
        // Then
        XCTAssertEqual(failure?.details.keys.sorted(), ["days"])
        XCTAssertEqual(session.stack.scenes.map(\.descriptor.id), ["contacts"])
    }

    func test_sync_ofABookNotInAFile_failsSayingWhy_andAnUnknownArgumentIsNamed() {
        // When
        let notAFile = failure(sut.sync, [:])
        let unknown = failure(sut.sync, ["acount": "home"])
        // Then
        XCTAssertEqual(notAFile?.message, "This book cannot sync: it is not kept in a file.")
        XCTAssertEqual(unknown?.details.keys.sorted(), ["acount"])
        XCTAssertEqual(sut.sync.inputSchema["properties"]?["account"]?["type"], "string")
        XCTAssertEqual(session.stack.scenes.map(\.descriptor.id), ["contacts"])
    }

    func test_undo_inABookWithoutHistory_failsSayingSo() {
        // When
        let failure = failure(sut.undo, [:])
        // Then
        XCTAssertEqual(failure?.message, "This book keeps no history.")
        XCTAssertEqual(session.stack.scenes.map(\.descriptor.id), ["contacts"])
    }
}

/// `undo` on a book that keeps a journal (SQLite in memory).
final class ContactsUndoToolTests: XCTestCase {
    private var store: SQLiteContactStore!
    private var sut: ContactsTools!

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try SQLiteContactStore(path: ":memory:")
        sut = ContactsTools(session: ContactsSceneFactory.makeSession(environment: ContactsMCPSeeds.environment(store)))
    }

    func test_undo_takesBackTheLastChange_andAnOlderOneByNumber() throws {
        // Given
        _ = try sut.add.run(ContactsMCPSeeds.ann)
        _ = try sut.delete.run(["contact": "uid-1"])
        // When
        let undone = try sut.undo.run([:])
        // Then
        XCTAssertEqual(undone.structuredContent, ["message": "Undid: deleted Ann Lee"])
        XCTAssertEqual(undone.text, "Undid: deleted Ann Lee")
        XCTAssertEqual(try sut.get.run(["contact": "uid-1"]).structuredContent?["contact"]?["givenName"], "Ann")
        // And the add, by its number, takes the contact away again
        XCTAssertEqual(try sut.undo.run(["change": 1]).isError, false)
        XCTAssertEqual(try store.page(ContactQuery()).total, 0)
    }

    func test_undo_mergeAsOneChange_bringsBothBack() throws {
        // Given
        _ = try sut.add.run(ContactsMCPSeeds.ann)
        _ = try sut.add.run(["given": "Anne", "family": "Lee"])
        _ = try sut.merge.run(["contacts": "1 2"])
        // When
        _ = try sut.undo.run([:])
        // Then
        XCTAssertEqual(try store.page(ContactQuery()).total, 2)
        XCTAssertEqual(try sut.get.run(["contact": "uid-2"]).structuredContent?["contact"]?["givenName"], "Anne")
    }

    func test_undo_withNothingToUndo_orABadNumber_failsSayingWhy() {
        // When
        let nothing = failures { try self.sut.undo.run([:]) }
        let badNumber = failures { try self.sut.undo.run(["change": 0]) }
        // Then
        XCTAssertEqual(nothing?.message, "Nothing to undo.")
        XCTAssertEqual(badNumber?.details.keys.sorted(), ["change"])
    }

    private func failures(_ body: () throws -> MCPToolResult) -> MCPToolFailure? {
        do { _ = try body(); return nil } catch { return error as? MCPToolFailure }
    }
}

final class ContactResourcesTests: XCTestCase {
    func test_aContact_isAVCard4AtItsUID_andNamedByItsIDForChanges() throws {
        // Given
        let store = InMemoryContactStore()
        let environment = ContactsMCPSeeds.environment(store)
        _ = try ContactsTools(session: ContactsSceneFactory.makeSession(environment: environment)).add.run(
            ContactsMCPSeeds.ann)
        let sut = ContactResources(environment: environment)
        // When
        let contents = try sut.read(uri: "contact://uid-1")
        let listed = try sut.list(cursor: nil)
        // Then
        XCTAssertEqual(contents?.mimeType, "text/vcard")
        XCTAssertEqual(contents?.text.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\n"), true)
        XCTAssertEqual(listed.resources, [MCPResource(uri: "contact://uid-1", name: "Ann Lee", mimeType: "text/vcard")])
        XCTAssertNil(listed.nextCursor)
        XCTAssertEqual(try sut.changeID(of: "contact://uid-1"), "1")
        XCTAssertNil(try sut.read(uri: "contact://nobody"))
        XCTAssertNil(try sut.read(uri: "mailto:ann@example.org"))
    }

    func test_twoContactsSharingAUID_eachHaveAURIOfTheirOwn_asExportWritesThem() throws {
        // Given: one card on two servers, two contacts here (issue 26)
        let store = InMemoryContactStore()
        let first = try store.insert(Contact(uid: "ann", givenName: "Ann", familyName: "Lee"))
        let second = try store.insert(Contact(uid: "ann", givenName: "Ann", familyName: "Other"))
        let sut = ContactResources(environment: ContactsMCPSeeds.environment(store))
        let own = ImportExportWorker.exportedUID("ann", id: try XCTUnwrap(second.id))
        // When
        let listed = try sut.list(cursor: nil).resources.map(\.uri).sorted()
        // Then
        XCTAssertEqual(listed, ["contact://" + own, "contact://ann"].sorted())
        XCTAssertEqual(try sut.changeID(of: "contact://ann"), first.id.map(String.init))
        XCTAssertEqual(try sut.changeID(of: "contact://" + own), second.id.map(String.init))
        XCTAssertEqual(try sut.read(uri: "contact://" + own)?.text.contains("UID:\(own)\r\n"), true)
        XCTAssertEqual(try sut.read(uri: "contact://" + own)?.text.contains("Other"), true)
    }
}

extension JSONValue {
    fileprivate subscript(index index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    fileprivate var count: Int? {
        guard case .array(let elements) = self else { return nil }
        return elements.count
    }
}
