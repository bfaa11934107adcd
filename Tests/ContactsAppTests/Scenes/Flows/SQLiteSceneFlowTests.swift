import Foundation
import SceneCore
import SceneCoreTesting
import XCTest

@testable import ContactsApp

/// One flow on a real SQLite file: what the scenes save is what a later run reads.
final class SQLiteSceneFlowTests: XCTestCase {
    private var directory: URL!
    private var path: String { directory.appendingPathComponent("contacts.sqlite").path }

    override func setUp() {
        super.setUp()
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLiteSceneFlowTests-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    func test_addEditAndStaleSave_onAFile_persistAcrossReopening() throws {
        // Given
        let store = try SQLiteContactStore(path: path)
        let sut = SceneHarness(session: ContactsSceneFactory.makeSession(environment: Seeds.environment(store: store)))

        // When: added
        sut.send("add")
        sut.receiveRoute(.push("form"))
        sut.receive(EditContact.ReviewDraft.ViewModel(heading: "New contact", fields: []))
        sut.send("given José")
        sut.receive(EditContact.ChangeViewModel(field: "given", value: "José", text: "given name: José"))
        sut.send("family Ñúñez")
        sut.receive(EditContact.ChangeViewModel(field: "family", value: "Ñúñez", text: "family name: Ñúñez"))
        sut.send("save")
        sut.receive(Message.success("Added José Ñúñez as #1"))
        sut.receiveRoute(.pop("form"))
        let row = ListContacts.Row(id: 1, name: "José Ñúñez", organization: "", emails: [], phones: [])
        sut.receive(
            ListContacts.ShowInsertedContact.ViewModel(
                row: row, position: 1, page: 1, text: "José Ñúñez is number 1 of 1 in the list (page 1)"))

        // When: found by a folded search, edited
        sut.send("search nunez")
        sut.receive(
            ListContacts.FetchContacts.ViewModel(
                rows: [row], page: 1, pageCount: 1, total: 1, search: "nunez", sort: "last",
                caption: "Page 1 of 1 · 1 contact · matching \"nunez\" · by last name"))
        sut.send("show nunez")
        sut.receiveRoute(.push("contact"))
        sut.receive(ShowContact.FetchContact.ViewModel.self)
        sut.send("edit")
        sut.receiveRoute(.push("form"))
        sut.receive(EditContact.ReviewDraft.ViewModel.self)
        sut.send("title Engineer")
        sut.receive(EditContact.ChangeViewModel(field: "title", value: "Engineer", text: "title: Engineer"))
        // and another process saves first
        let other = try SQLiteContactStore(path: path)
        var elsewhere = try XCTUnwrap(other.contact(id: 1))
        elsewhere.nickname = "Pepe"
        _ = try other.update(elsewhere)
        sut.send("save")

        // Then
        let conflict = sut.receive(Message.self)
        XCTAssertEqual(conflict?.code, .conflict)
        let reopened = try XCTUnwrap(SQLiteContactStore(path: path).contact(id: 1))
        XCTAssertEqual(reopened.givenName, "José")
        XCTAssertEqual(reopened.nickname, "Pepe")
        XCTAssertEqual(reopened.title, "")
        XCTAssertEqual(reopened.version, 2)
        XCTAssertEqual(reopened.uid, "uid-1")
        XCTAssertEqual(reopened.createdAt, Seeds.now)
        sut.finish()
    }

    func test_deleteTrashUndoHistoryRestoreAndPurge_throughTheScenes() throws {
        // Given: Ann in the book
        let store = try SQLiteContactStore(path: path)
        store.journalClock = { Seeds.now }
        store.journalOrigin = "repl"
        let ann = try store.insert(Seeds.Contacts.ann)
        let sut = SceneHarness(session: ContactsSceneFactory.makeSession(environment: Seeds.environment(store: store)))

        // When: deleted, then looked for in the trash
        sut.send("delete ann lee")
        sut.receive(Message.success("Deleted Ann Lee"))
        sut.send("trash")
        sut.receive(
            TrashViewModel(
                rows: [.init(id: ann.id!, name: "Ann Lee", deleted: Seeds.nowText)],
                caption: "1 deleted contact · restore CONTACT · purge [CONTACT]"))
        // When: undone, and redone
        sut.send("undo")
        sut.receive(Message.success("Undid: deleted Ann Lee"))
        sut.send("redo")
        sut.receive(Message.success("Redid: deleted Ann Lee"))
        // When: restored by name, then her history read in the contact scene
        sut.send("restore ann")
        sut.receive(Message.success("Restored Ann Lee (#\(ann.id!))"))
        sut.send("show ann")
        sut.receiveRoute(.push("contact"))
        sut.receive(ShowContact.FetchContact.ViewModel.self)
        sut.send("history")
        let history = sut.receive(HistoryViewModel.self)
        XCTAssertEqual(history?.changes.map(\.summary), ["restored Ann Lee", "deleted Ann Lee", "added Ann Lee"])
        XCTAssertEqual(history?.changes.map(\.origin), ["repl", "repl", "repl"])
        XCTAssertEqual(history?.changes[1].details, ["deleted"])
        // When: deleted from the contact scene, then purged: asked first, then erased
        sut.send("delete")
        sut.receive(Message.success("Deleted Ann Lee"))
        sut.receiveRoute(.pop("contact"))
        sut.send("purge ann")
        let asked = sut.receive(ConfirmationRequest.self)
        XCTAssertEqual(asked?.question, "Erase Ann Lee (#\(ann.id!)) for good, with its history?")
        XCTAssertEqual(
            asked?.confirmed,
            ActionCall(ListContacts.Action.purge, ["contact": .string("#\(ann.id!)"), "confirm": .boolean(true)]))
        sut.send("purge #\(ann.id!) yes")
        sut.receive(Message.success("Purged 1 contact for good, with its history"))
        sut.send("history")
        sut.receive(HistoryViewModel(changes: [], caption: "No history yet"))
        sut.send("undo")
        sut.receive(Message.error("Nothing to undo.", code: .invalidState))
        sut.finish()
    }
}
