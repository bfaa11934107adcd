import ContactsApp
import Foundation
import JSONBytes
import SceneCore
import SceneLSP
import SceneRPC
import XCTest

@testable import ContactsLSP

/// The features over an in-memory book, through `LSPServer` as a client drives it: what each
/// request answers and what is published. (`Tests/python/test_lsp.py` drives the real process.)
final class ContactsLanguageFeaturesTests: XCTestCase {
    var sut: LSPServer!
    var store: InMemoryContactStore!
    var sent: [(method: String, params: JSONValue)] = []

    static let jose = Contact(
        uid: "jose", givenName: "José", familyName: "Ñúñez", organization: "Ñandú Ltd", title: "Engineer",
        phones: [LabeledValue(label: "cell", value: "+1 555 123 4567")],
        emails: [
            LabeledValue(label: "work", value: "jose@example.org"),
            LabeledValue(label: "home", value: "pepe@home.example"),
        ],
        birthday: Birthday(year: 1980, month: 4, day: 2))
    static let ann = Contact(
        uid: "ann", givenName: "Ann B.", familyName: "Lee", emails: [LabeledValue(label: "", value: "annb@lee.example")]
    )

    override func setUp() {
        super.setUp()
        store = InMemoryContactStore([Self.jose, Self.ann])
        let environment = ContactsEnvironment(
            store: store, now: { Date(timeIntervalSince1970: 0) }, makeUID: { "new-uid" },
            locale: Locale(identifier: "en_US_POSIX"), timeZone: TimeZone(identifier: "UTC")!)
        sut = LSPServer(
            name: "t", version: "1", features: ContactsLanguageFeatures(environment: environment, log: { _, _ in }),
            log: { _, _ in })
        sent = []
        sut.attach(send: { [unowned self] method, params in self.sent.append((method, params)) }, changes: nil)
        _ = try? sut.answer(method: "initialize", params: ["capabilities": [:]])
    }

    func open(_ text: String) {
        sut.receive(
            notification: "textDocument/didOpen",
            params: ["textDocument": ["uri": "file:///d", "languageId": "mail", "version": 1, "text": .string(text)]])
    }

    func position(_ line: Int, _ character: Int) -> JSONValue {
        ["textDocument": ["uri": "file:///d"], "position": ["line": .integer(line), "character": .integer(character)]]
    }

    func test_completion_itemsAreAddressesOfTheContactsFound_withTheirEditAndDocumentation() throws {
        // Given a draft being addressed
        open("To: nun\n\n")
        // When completion is asked at the end of "nun"
        let result = try sut.answer(method: "textDocument/completion", params: position(0, 7))
        // Then one item per address of José, replacing "nun" only
        XCTAssertEqual(result["isIncomplete"], true)
        guard case .array(let items)? = result["items"] else { return XCTFail("no items") }
        XCTAssertEqual(items.map { $0["label"] }, ["José Ñúñez <jose@example.org>", "José Ñúñez <pepe@home.example>"])
        XCTAssertEqual(
            items[0]["textEdit"],
            [
                "range": ["start": ["line": 0, "character": 4], "end": ["line": 0, "character": 7]],
                "newText": "José Ñúñez <jose@example.org>",
            ])
        XCTAssertEqual(items[0]["filterText"], "nun")
        XCTAssertEqual(items[0]["detail"], "work · Ñandú Ltd")
        XCTAssertEqual(
            items[0]["documentation"]?["value"],
            .string("Ñandú Ltd · Engineer\n\nOther addresses:\n- `pepe@home.example` (home)"))
    }

    func test_completion_offersAGroupAsOneItem_whoseTextIsItsMembersAddresses() throws {
        // Given a group of both contacts (and a member whose card is elsewhere)
        _ = try store.saveGroup(
            GroupCard.new(
                uid: "g", name: "Ñandú team", members: ["jose", "ann", "elsewhere"],
                convention: .kind), kind: .add, summary: "made group")
        open("To: nand")
        // When
        let result = try sut.answer(method: "textDocument/completion", params: position(0, 8))
        // Then the group first, one item; then José (found by his organisation)
        guard case .array(let items)? = result["items"] else { return XCTFail("no items") }
        XCTAssertEqual(items.first?["label"], "Ñandú team (group · 2 addresses)")
        XCTAssertEqual(
            items.first?["textEdit"]?["newText"], "\"Ann B. Lee\" <annb@lee.example>, José Ñúñez <jose@example.org>")
        XCTAssertEqual(items.dropFirst().first?["label"], "José Ñúñez <jose@example.org>")
    }

    func test_completion_quotesANameWithADot() throws {
        open("Cc: lee")
        let result = try sut.answer(method: "textDocument/completion", params: position(0, 7))
        XCTAssertEqual(result["items"]?.arrayValue?.first?["label"], "\"Ann B. Lee\" <annb@lee.example>")
    }

    func test_hover_showsTheContactAsMarkdown() throws {
        open("To: Pepe <pepe@home.example>\n")
        let hover = try sut.answer(method: "textDocument/hover", params: position(0, 12))
        XCTAssertEqual(
            hover["contents"]?["value"],
            .string(
                """
                **José Ñúñez**
                Ñandú Ltd · Engineer

                - `jose@example.org` (work)
                - `pepe@home.example` (home)
                - +1 (555) 123-4567 (cell)
                - Birthday: \(ContactFormatter(timeZone: TimeZone(identifier: "UTC")!).birthday(Self.jose.birthday!))
                """))
    }

    func test_diagnosticsAndCodeActions_thenTheAddClearsTheHint() throws {
        // Given a draft with a known, an unknown and an invalid address
        open("To: jose@example.org, Zoe Park <zoe@example.org>, bad\n\n")
        let published = sent.last { $0.method == "textDocument/publishDiagnostics" }?.params
        XCTAssertEqual(
            published?["diagnostics"]?.arrayValue?.map { $0["code"] }, ["unknown-address", "invalid-address"])
        // When code actions are asked on the unknown one
        let actions = try sut.answer(
            method: "textDocument/codeAction",
            params: [
                "textDocument": ["uri": "file:///d"],
                "range": ["start": ["line": 0, "character": 30], "end": ["line": 0, "character": 30]],
                "context": ["diagnostics": []],
            ])
        XCTAssertEqual(
            actions.arrayValue?.map { $0["title"] },
            ["Add Zoe Park <zoe@example.org> to contacts", "Add every unknown recipient"])
        // And the first is run
        sent = []
        let result = try sut.answer(
            method: "workspace/executeCommand",
            params: [
                "command": "contactsbook.addAddress",
                "arguments": actions.arrayValue?[0]["command"]?["arguments"] ?? [],
            ])
        // Then Zoe is in the book, named as the draft names her, and the hint is gone
        XCTAssertEqual(result["added"]?.arrayValue?.map { $0["name"] }, ["Zoe Park"])
        let zoe = try store.page(ContactQuery(search: "zoe")).contacts
        XCTAssertEqual(zoe.map { [$0.givenName, $0.familyName, $0.uid] }, [["Zoe", "Park", "new-uid"]])
        XCTAssertEqual(sent.map(\.method), ["window/showMessage", "textDocument/publishDiagnostics"])
        XCTAssertEqual(sent.last?.params["diagnostics"]?.arrayValue?.map { $0["code"] }, ["invalid-address"])
    }

    func test_pickerSearchCarriesEveryEmailAndPhone() throws {
        let result = try sut.answer(
            method: "workspace/executeCommand", params: ["command": "contactsbook.search", "arguments": ["jos"]])
        XCTAssertEqual(result["total"], 1)
        let jose = result["contacts"]?.arrayValue?.first
        XCTAssertEqual(jose?["emails"]?.arrayValue?.count, 2)
        XCTAssertEqual(jose?["phones"], [["label": "cell", "value": "+1 555 123 4567"]])
        XCTAssertEqual(jose?["addresses"], ["José Ñúñez <jose@example.org>", "José Ñúñez <pepe@home.example>"])
    }

    func test_closingADocumentClearsItsDiagnostics() {
        open("To: zoe@example.org\n")
        sut.receive(notification: "textDocument/didClose", params: ["textDocument": ["uri": "file:///d"]])
        XCTAssertEqual(sent.last?.params, ["uri": "file:///d", "diagnostics": []])
    }
}

extension JSONValue {
    var arrayValue: [JSONValue]? { if case .array(let items) = self { return items } else { return nil } }
}
