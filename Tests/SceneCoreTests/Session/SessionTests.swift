import XCTest

@testable import SceneCore

final class SessionTests: XCTestCase {
    private var sut: Session!

    override func setUp() {
        super.setUp()
        sut = Seeds.makeSession()
    }

    override func tearDown() {
        sut = nil
        super.tearDown()
    }

    private var root: SceneSpy { sut.stack.scenes[0] as! SceneSpy }
    private var active: SceneSpy { sut.stack.active as! SceneSpy }
    private var ids: [String] { sut.stack.scenes.map(\.descriptor.id) }

    private func messages(_ outcome: Outcome) -> [Message] { outcome.displayed.compactMap { $0 as? Message } }

    // MARK: - Dispatch

    func testHandle_dispatchesTheCheckedCallToTheActiveScene() {
        // When
        let outcome = sut.handle(line: "list 2 20")

        // Then
        XCTAssertEqual(root.performedCalls, [ActionCall("list", ["page": .integer(2), "limit": .integer(20)])])
        XCTAssertEqual(outcome.displayed.map { type(of: $0).kind }, ["noteList"])
        XCTAssertEqual(outcome.displayed.first as? NoteListViewModel, NoteListViewModel(titles: Seeds.noteTitles))
        XCTAssertTrue(outcome.succeeded)
        XCTAssertNil(outcome.error)
        XCTAssertFalse(outcome.quit)
    }

    func testHandle_dispatchesToTheSceneOnTopAfterAPush() {
        // Given
        _ = sut.handle(line: "open 1")

        // When
        _ = sut.handle(line: "edit  buy   bread")

        // Then
        XCTAssertEqual(ids, ["notes", "note"])
        XCTAssertEqual(active.performedCalls, [ActionCall("edit", ["text": .string("buy   bread")])])
        XCTAssertEqual(root.performedCalls, [ActionCall("open", ["id": .integer(1)])])
    }

    func testHandle_reportsDisplaysAndRoutesInOrder() {
        // When
        let outcome = sut.handle(line: "open 2")

        // Then
        XCTAssertEqual(outcome.routes, [.push("note")])
        XCTAssertEqual(messages(outcome), [.info("opened note 2")])
        XCTAssertEqual(active.title, "Ideas")
        XCTAssertEqual(active.activations, [.pushed])
    }

    func testHandle_actionsOfOtherScenesAreUnknown() {
        // When
        let outcome = sut.handle(line: "edit hello")

        // Then
        let available = (Seeds.notes.actions + Session.globalActions).map(\.name)
        XCTAssertEqual(outcome.dispatchError, .unknownAction("edit", available: available))
        XCTAssertEqual(
            messages(outcome),
            [.error(DispatchError.unknownAction("edit", available: available).message, code: .badInput)])
        XCTAssertFalse(outcome.succeeded)
        XCTAssertEqual(root.performedCalls, [])
    }

    func testHandle_badParametersAreADispatchError() {
        // When
        let outcome = sut.handle(line: "open zero")

        // Then
        XCTAssertEqual(
            outcome.dispatchError,
            .invalidParameter(action: "open", parameter: "id", expected: "an integer of at least 1", got: "zero"))
        XCTAssertEqual(outcome.error?.code, .badInput)
        XCTAssertEqual(outcome.error?.text, "ID must be an integer of at least 1, not 'zero'")
        XCTAssertEqual(root.performedCalls, [])
    }

    func testHandle_unbalancedQuoteIsADispatchError() {
        let outcome = sut.handle(line: #"open "2"#)
        XCTAssertEqual(outcome.dispatchError, .unbalancedQuote)
        XCTAssertEqual(outcome.error, .error("a quote is not closed", code: .badInput))
    }

    func testHandle_blankLineDoesNothing() {
        // When
        let outcome = sut.handle(line: "   ")

        // Then
        XCTAssertTrue(outcome.displayed.isEmpty)
        XCTAssertTrue(outcome.routes.isEmpty)
        XCTAssertTrue(outcome.succeeded)
        XCTAssertEqual(root.performedCalls, [])
    }

    func testAvailableActions_areTheActiveScenesThenTheGlobalOnes() {
        XCTAssertEqual(
            sut.availableActions.map(\.name),
            ["list", "open", "new", "sort", "email", "pin", "help", "back", "stack", "quit"])
        _ = sut.handle(line: "open 1")
        XCTAssertEqual(
            sut.availableActions.map(\.name),
            ["edit", "tag", "tags", "history", "close", "help", "back", "stack", "quit"])
    }

    // MARK: - help

    func testHelp_listsEveryActionHere() {
        // When
        let outcome = sut.handle(line: "help")

        // Then
        let expected = HelpViewModel(
            scene: "notes",
            entries: [
                .init(usage: "list [PAGE] [LIMIT]", summary: "list the notes"),
                .init(usage: "open ID", summary: "open a note"),
                .init(usage: "new [TITLE...]", summary: "start a note"),
                .init(usage: "sort BY", summary: "sort the notes"),
                .init(usage: "email [LABEL] ADDRESS", summary: "email the notes"),
                .init(usage: "pin ON", summary: "pin the list"),
                .init(usage: "help [ACTION]", summary: "list the commands here, or explain one"),
                .init(usage: "back", summary: "go back to the previous screen"),
                .init(usage: "stack", summary: "show where you are: the screens from the first to this one"),
                .init(usage: "quit", summary: "leave the program"),
            ], details: [])
        XCTAssertEqual(outcome.displayed.count, 1)
        XCTAssertEqual(outcome.displayed.first as? HelpViewModel, expected)
        XCTAssertTrue(outcome.succeeded)
        XCTAssertEqual(root.performedCalls, [], "help is the session's, not the scene's")
    }

    func testHelp_actionShowsUsageParametersAliasesAndDetails() {
        // When "?" is help's alias and "sh" a prefix of open's alias
        let outcome = sut.handle(line: "? sh")

        // Then
        XCTAssertEqual(
            outcome.displayed.first as? HelpViewModel,
            HelpViewModel(
                scene: "notes", entries: [.init(usage: "open ID", summary: "open a note")],
                details: ["  ID: the note's number (an integer of at least 1)", "  also: show", "Example: open 2"]))
    }

    func testHelp_actionMarksOptionalParameters() {
        let outcome = sut.handle(line: "help email")
        XCTAssertEqual(
            (outcome.displayed.first as? HelpViewModel)?.details,
            [
                "  LABEL: which address book label (a word, optional)",
                "  ADDRESS: where to (a word)",
            ])
    }

    func testHelp_ofAGlobalAction() {
        let outcome = sut.handle(line: "help quit")
        XCTAssertEqual(
            outcome.displayed.first as? HelpViewModel,
            HelpViewModel(
                scene: "notes", entries: [.init(usage: "quit", summary: "leave the program")], details: ["  also: exit"]
            ))
    }

    func testHelp_ofAnUnknownActionIsAnError() {
        // When
        let outcome = sut.handle(line: "help zap")

        // Then
        XCTAssertEqual(outcome.displayed.count, 1)
        XCTAssertEqual(outcome.error?.code, .badInput)
        XCTAssertEqual(
            outcome.error?.text, DispatchError.unknownAction("zap", available: sut.availableActions.map(\.name)).message
        )
        XCTAssertFalse(outcome.succeeded)
        XCTAssertNil(outcome.dispatchError, "the line itself was understood")
    }

    func testHelpViewModel_alignsSummaries() {
        let help = HelpViewModel(
            scene: "notes",
            entries: [.init(usage: "open ID", summary: "open"), .init(usage: "back", summary: "go back")],
            details: ["  more"])
        XCTAssertEqual(help.layout, .lines(["open ID  open", "back     go back", "  more"]))
    }

    // MARK: - back

    func testBack_popsTheActiveScene() {
        // Given
        _ = sut.handle(line: "open 1")

        // When
        let outcome = sut.handle(line: "back")

        // Then
        XCTAssertEqual(ids, ["notes"])
        XCTAssertEqual(outcome.routes, [.pop("note")])
        XCTAssertTrue(outcome.displayed.isEmpty)
        XCTAssertEqual(root.activations, [.returned])
        XCTAssertTrue(outcome.succeeded)
    }

    func testBack_atTheRootIsAnInvalidStateError() {
        // When
        let outcome = sut.handle(line: "back")

        // Then
        XCTAssertEqual(messages(outcome), [.error("you are at the first screen already", code: .invalidState)])
        XCTAssertEqual(outcome.routes, [])
        XCTAssertEqual(outcome.error?.code, .invalidState)
        XCTAssertFalse(outcome.succeeded)
        XCTAssertNil(outcome.dispatchError)
        XCTAssertEqual(ids, ["notes"])
    }

    // MARK: - stack

    func testStack_showsTheScenesFromTheRoot() {
        // Given
        _ = sut.handle(line: "open 3")
        _ = sut.handle(line: "history")

        // When
        let outcome = sut.handle(line: "stack")

        // Then
        let expected = StackViewModel(scenes: [
            .init(scene: "notes", title: "Notes"), .init(scene: "note", title: "Trip"),
            .init(scene: "history", title: "Trip history"),
        ])
        XCTAssertEqual(outcome.displayed.first as? StackViewModel, expected)
        XCTAssertEqual(expected.layout, .lines(["notes: Notes", "  note: Trip", "    history: Trip history"]))
        XCTAssertEqual(outcome.routes, [])
    }

    func testStack_keepsTheModelItEndsWithInItsOutcome_otherInputsKeepNone() {
        // Given
        _ = sut.handle(line: "open 3")

        // When
        let shown = sut.handle(line: "stack")
        let edited = sut.handle(line: "edit a new text")
        let failed = sut.handle(line: "stak")

        // Then: the model displayed, the stack as the input left it; other outcomes leave it to be asked
        XCTAssertEqual(shown.finalStack, shown.displayed.first as? StackViewModel)
        XCTAssertEqual(shown.finalStack, sut.stackViewModel)
        XCTAssertEqual(shown.finalStack?.scenes.map(\.scene), ["notes", "note"])
        XCTAssertNil(edited.finalStack)
        XCTAssertNil(failed.finalStack)
    }

    func testGlobalActions_inAnyOrder_eachRunsItself() {
        // When: global actions asked again and in turn, as a program polling the session does
        let kinds = ["stack", "stack", "help", "stack", "open 1", "stack", "back", "back", "help"].map { line in
            sut.handle(line: line).displayed.map { type(of: $0).kind }
        }

        // Then
        XCTAssertEqual(
            kinds, [["stack"], ["stack"], ["help"], ["stack"], ["message"], ["stack"], [], ["message"], ["help"]])
        XCTAssertEqual(ids, ["notes"])
    }

    func testStackViewModel_followsATitleThatChangesWithoutARoute() {
        // Given: the model made once, then the note renamed where it is shown (no route)
        _ = sut.handle(line: "open 3")
        let before = sut.stackViewModel
        active.title = "Trip to Lisbon"

        // When
        let after = sut.stackViewModel

        // Then
        XCTAssertEqual(before.scenes.map(\.title), ["Notes", "Trip"])
        XCTAssertEqual(after.scenes.map(\.title), ["Notes", "Trip to Lisbon"])
        XCTAssertEqual(sut.handle(line: "stack").displayed.first as? StackViewModel, after)
    }

    func testStackViewModel_followsTheStackAsItMoves() {
        // Given
        let atRoot = sut.stackViewModel
        _ = sut.handle(line: "open 3")

        // When
        let opened = sut.stackViewModel
        _ = sut.handle(line: "back")

        // Then
        XCTAssertEqual(opened.scenes.map(\.scene), ["notes", "note"])
        XCTAssertEqual(sut.stackViewModel, atRoot)
        XCTAssertEqual(sut.stackViewModel.scenes.map(\.scene), ["notes"])
    }

    // MARK: - quit

    func testQuit_andItsAliasAskToLeave() {
        for line in ["quit", "exit", "qu"] {
            let outcome = sut.handle(line: line)
            XCTAssertTrue(outcome.quit, line)
            XCTAssertTrue(outcome.displayed.isEmpty, line)
            XCTAssertTrue(outcome.succeeded, line)
        }
        XCTAssertEqual(root.performedCalls, [])
    }

    // MARK: - run(_:inScene:)

    func testRun_inTheActiveSceneDispatches() {
        // When
        let outcome = sut.run(ActionCall("open", ["id": .integer(1)]), inScene: "notes")

        // Then
        XCTAssertEqual(root.performedCalls, [ActionCall("open", ["id": .integer(1)])])
        XCTAssertEqual(outcome.routes, [.push("note")])
    }

    func testRun_inAnotherSceneIsRefusedWithTheStack() {
        // Given
        _ = sut.handle(line: "open 1")

        // When
        let outcome = sut.run(ActionCall("open", ["id": .integer(2)]), inScene: "notes")

        // Then
        XCTAssertEqual(
            messages(outcome),
            [
                .error(
                    "'open' belongs to the notes screen, but you are on note (notes > note)",
                    code: .sceneNotActive, details: ["active": "note", "stack": "notes > note"])
            ])
        XCTAssertEqual(outcome.error?.code, .sceneNotActive)
        XCTAssertFalse(outcome.succeeded)
        XCTAssertEqual(outcome.routes, [])
        XCTAssertEqual(root.performedCalls, [ActionCall("open", ["id": .integer(1)])])
        XCTAssertEqual(active.performedCalls, [])
    }

    func testRun_inASceneNotOnTheStackIsRefused() {
        let outcome = sut.run(ActionCall("restore", ["version": .integer(1)]), inScene: "history")
        XCTAssertEqual(outcome.error?.details, ["active": "notes", "stack": "notes"])
        XCTAssertEqual(root.performedCalls, [])
    }

    func testRun_globalActionWithoutAScene() {
        // Given
        _ = sut.handle(line: "open 1")

        // When
        let outcome = sut.run(ActionCall("back"))

        // Then
        XCTAssertEqual(outcome.routes, [.pop("note")])
        XCTAssertEqual(ids, ["notes"])
    }

    // MARK: - Outcomes

    func testOutcome_routesAreRecordedPerRequestOnly() {
        // Given a route taken outside any request
        sut.stack.push(Seeds.makeNote(titled: "pushed by hand", context: sut.context))

        // When
        let first = sut.handle(line: "history")
        let second = sut.handle(line: "stack")
        let third = sut.handle(line: "close")

        // Then
        XCTAssertEqual(first.routes, [.push("history")])
        XCTAssertEqual(second.routes, [])
        XCTAssertEqual(third.routes, [], "close is the note's; the history scene ignores it")
        XCTAssertEqual(
            third.dispatchError,
            .unknownAction("close", available: (Seeds.history.actions + Session.globalActions).map(\.name)))
    }

    func testOutcome_closeReportsThePopToTheList() {
        // Given
        _ = sut.handle(line: "open 1")
        _ = sut.handle(line: "history")
        _ = sut.handle(line: "back")

        // When
        let outcome = sut.handle(line: "close")

        // Then
        XCTAssertEqual(outcome.routes, [.pop("note")])
        XCTAssertEqual(ids, ["notes"])
        XCTAssertEqual(root.activations, [.returned])
    }

    func testOutcome_sceneErrorMessage() {
        let outcome = sut.handle(line: "open 9")
        XCTAssertEqual(outcome.error, .error("no note 9", code: .notFound))
        XCTAssertNil(outcome.dispatchError)
        XCTAssertFalse(outcome.succeeded)
        XCTAssertEqual(outcome.routes, [])
    }

    // MARK: - Wiring

    func testInit_keepsTheSceneKindsAndGivesScenesItsStack() {
        XCTAssertEqual(sut.sceneKinds.map(\.id), ["notes", "note", "history"])
        XCTAssertTrue(sut.context.navigator === sut.stack)
        XCTAssertEqual(root.activations, [], "nothing is displayed at start")
    }
}
