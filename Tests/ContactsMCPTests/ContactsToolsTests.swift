import ContactsApp
@testable import ContactsMCP
import Foundation
import JSONBytes
import SceneCore
import SceneMCP
import XCTest

/// Fixtures: a book in memory with a fixed clock, UIDs and locale, and its tools.
enum ContactsMCPSeeds {
    static let now = Date(timeIntervalSince1970: 1_700_086_400)

    final class UIDMaker {
        private var count = 0
        func make() -> String { count += 1; return "uid-\(count)" }
    }

    static func environment(_ store: ContactStore, changes: ChangeNotifier? = nil) -> ContactsEnvironment {
        ContactsEnvironment(store: store, now: { now }, makeUID: UIDMaker().make, locale: Locale(identifier: "en_US_POSIX"),
                            timeZone: .gmt, changes: changes)
    }

    static let ann: JSONValue = ["given": "Ann", "family": "Lee", "organization": "Acme", "birthday": "1990-05-17",
                                 "phone": [["label": "mobile", "value": "+1 555 123 4567"]],
                                 "email": [["value": "ann@example.org"]], "tag": ["friend"],
                                 "address": [["label": "home", "value": "1 Main St; Springfield; IL; 62701; USA"]]]
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
        XCTAssertEqual(tools.map(\.name), ["search", "get", "add", "update", "delete", "import", "export"])
        XCTAssertEqual(tools.filter(\.annotations.readOnly).map(\.name), ["search", "get"])
        XCTAssertEqual(tools.filter(\.annotations.destructive).map(\.name), ["delete", "export"])
        XCTAssertEqual(tools.filter(\.annotations.idempotent).map(\.name), ["search", "get", "update", "delete"])
    }

    func test_addsInputSchema_isTheFormsFieldActions() {
        // When
        let properties = sut.add.inputSchema["properties"]
        // Then
        guard case .object(let members)? = properties else { return XCTFail("no properties") }
        XCTAssertEqual(Set(members.keys), Set(EditContact.Field.allCases.map(\.rawValue) + EditContact.ItemKind.allCases.map(\.rawValue)))
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
        let result = try call(sut.update, ["contact": "uid-1", "version": 1, "title": "Engineer", "organization": "",
                                           "phone": [["label": "work", "value": "555 0000"]]])
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
}

final class ContactResourcesTests: XCTestCase {
    func test_aContact_isAVCard4AtItsUID_andNamedByItsIDForChanges() throws {
        // Given
        let store = InMemoryContactStore()
        let environment = ContactsMCPSeeds.environment(store)
        _ = try ContactsTools(session: ContactsSceneFactory.makeSession(environment: environment)).add.run(ContactsMCPSeeds.ann)
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
}

extension JSONValue {
    fileprivate subscript(index index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}
