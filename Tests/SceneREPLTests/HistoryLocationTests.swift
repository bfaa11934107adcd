import SceneREPL
import XCTest

final class HistoryLocationTests: XCTestCase {
    func testDefaultsToTheXDGStateFolderUnderHome() {
        XCTAssertEqual(
            HistoryLocation.path(program: "contactsbook", environment: ["HOME": "/home/ann"]),
            "/home/ann/.local/state/contactsbook/history")
    }

    func testXDGStateHomeMovesIt() {
        XCTAssertEqual(
            HistoryLocation.path(
                program: "contactsbook", environment: ["HOME": "/home/ann", "XDG_STATE_HOME": "/var/state/"]),
            "/var/state/contactsbook/history")
    }

    func testARelativeXDGStateHomeIsIgnoredAsTheSpecSays() {
        XCTAssertEqual(
            HistoryLocation.path(program: "contactsbook", environment: ["HOME": "/h", "XDG_STATE_HOME": "state"]),
            "/h/.local/state/contactsbook/history")
    }

    func testTheOverrideWinsAndEmptyDisables() {
        let env = ["HOME": "/h", "XDG_STATE_HOME": "/s"]
        XCTAssertEqual(
            HistoryLocation.path(
                program: "contactsbook", environment: env.merging(["CONTACTSBOOK_HISTORY": "/tmp/h"]) { $1 }), "/tmp/h")
        XCTAssertNil(
            HistoryLocation.path(program: "contactsbook", environment: env.merging(["CONTACTSBOOK_HISTORY": ""]) { $1 })
        )
    }

    func testNoHomeMeansNoHistory() {
        XCTAssertNil(HistoryLocation.path(program: "contactsbook", environment: [:]))
    }

    func testDirectoryOfAPath() {
        XCTAssertEqual(HistoryLocation.directory(of: "/a/b/history"), "/a/b")
        XCTAssertEqual(HistoryLocation.directory(of: "/history"), "/")
        XCTAssertNil(HistoryLocation.directory(of: "history"))
    }

    func testTheOverrideVariableIsNamedAfterTheProgram() {
        XCTAssertEqual(HistoryLocation.overrideVariable(program: "contactsbook"), "CONTACTSBOOK_HISTORY")
        XCTAssertEqual(HistoryLocation.overrideVariable(program: "note-book"), "NOTE_BOOK_HISTORY")
        XCTAssertEqual(
            HistoryLocation.path(program: "notes", environment: ["NOTES_HISTORY": "/tmp/n", "HOME": "/h"]), "/tmp/n")
        XCTAssertEqual(
            HistoryLocation.path(program: "notes", environment: ["HOME": "/h"]), "/h/.local/state/notes/history")
    }
}
