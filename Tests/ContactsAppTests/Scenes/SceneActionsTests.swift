import SceneCore
import XCTest

@testable import ContactsApp

/// The scenes' action names are enum cases; these pin what the compiler cannot: each case's
/// declaration is under its own name, names are unique, and a name reads back to its case.
final class SceneActionsTests: XCTestCase {
    func test_everyListAction_isDeclaredUnderItsName_once() {
        assertDeclaredOnce(ListContacts.Action.self, in: ListContactsViewController.descriptor)
    }

    func test_everyDetailAction_isDeclaredUnderItsName_once() {
        assertDeclaredOnce(ShowContact.Action.self, in: ShowContactViewController.descriptor)
    }

    func test_everyFormAction_isDeclaredUnderItsName_once_fieldsFirst() {
        assertDeclaredOnce(EditContact.Action.self, in: EditContactViewController.descriptor)
        XCTAssertEqual(
            EditContact.Action.allCases.prefix(EditContact.Field.allCases.count).map(\.rawValue),
            EditContact.Field.allCases.map(\.rawValue))
        XCTAssertEqual(EditContact.Action(rawValue: "phone"), .field(.add(.phone)))
        XCTAssertEqual(EditContact.Action(rawValue: "given"), .field(.set(.given)))
        XCTAssertEqual(EditContact.Action(rawValue: "save"), .save)
        XCTAssertNil(EditContact.Action(rawValue: "done"), "an alias is the parser's, not a case")
    }

    func test_globalActions_areTheSessions() {
        assertDeclaredOnce(
            GlobalAction.self, in: SceneDescriptor(id: "global", summary: "", actions: Session.globalActions))
    }

    func test_aCallOfAnotherScenesAction_isNoneOfThisScenes() {
        XCTAssertNil(ActionCall("tidy").action(of: ListContacts.Action.self))
        XCTAssertEqual(ActionCall(ListContacts.Action.import).action(of: ListContacts.Action.self), .import)
    }

    private func assertDeclaredOnce<Action: SceneActions>(
        _ type: Action.Type, in descriptor: SceneDescriptor,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let names = Action.allCases.map(\.rawValue)
        XCTAssertEqual(descriptor.actions.map(\.name), names, file: file, line: line)
        XCTAssertEqual(Set(names).count, names.count, "names are unique", file: file, line: line)
        for action in Action.allCases {
            XCTAssertEqual(action.declaration.name, action.rawValue, file: file, line: line)
            XCTAssertEqual(Action(rawValue: action.rawValue)?.rawValue, action.rawValue, file: file, line: line)
        }
    }
}
