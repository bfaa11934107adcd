import SceneREPL
import XCTest

final class HistoryLocationTests: XCTestCase {
    func testDefaultsToTheXDGStateFolderUnderHome() {
        XCTAssertEqual(HistoryLocation.path(environment: ["HOME": "/home/ann"]),
                       "/home/ann/.local/state/contactsbook/history")
    }

    func testXDGStateHomeMovesIt() {
        XCTAssertEqual(HistoryLocation.path(environment: ["HOME": "/home/ann", "XDG_STATE_HOME": "/var/state/"]),
                       "/var/state/contactsbook/history")
    }

    func testARelativeXDGStateHomeIsIgnoredAsTheSpecSays() {
        XCTAssertEqual(HistoryLocation.path(environment: ["HOME": "/h", "XDG_STATE_HOME": "state"]),
                       "/h/.local/state/contactsbook/history")
    }

    func testTheOverrideWinsAndEmptyDisables() {
        let env = ["HOME": "/h", "XDG_STATE_HOME": "/s"]
        XCTAssertEqual(HistoryLocation.path(environment: env.merging(["CONTACTSBOOK_HISTORY": "/tmp/h"]) { $1 }), "/tmp/h")
        XCTAssertNil(HistoryLocation.path(environment: env.merging(["CONTACTSBOOK_HISTORY": ""]) { $1 }))
    }

    func testNoHomeMeansNoHistory() {
        XCTAssertNil(HistoryLocation.path(environment: [:]))
    }

    func testDirectoryOfAPath() {
        XCTAssertEqual(HistoryLocation.directory(of: "/a/b/history"), "/a/b")
        XCTAssertEqual(HistoryLocation.directory(of: "/history"), "/")
        XCTAssertNil(HistoryLocation.directory(of: "history"))
    }
}
