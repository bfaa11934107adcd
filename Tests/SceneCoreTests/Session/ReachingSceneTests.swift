import XCTest

@testable import SceneCore

/// `Session.run(_:reaching:)`: an action names its scene and runs there whichever scene is on
/// top, the scenes above it left as their own `back` leaves them (what JSON-RPC clients rely on).
final class ReachingSceneTests: XCTestCase {
    private static let list = ActionSpec("list", summary: "list the notes")
    private static let open = ActionSpec("open", summary: "open a note")
    private static let edit = ActionSpec("edit", summary: "edit the note")
    private static let history = ActionSpec("history", summary: "show earlier versions")
    private static let type = ActionSpec(
        "type", summary: "type some text", parameters: [ParameterSpec("text", .text, help: "the text")])
    /// The editor's own `back`, as a form's `cancel` is: it asks before dropping typed text.
    private static let discard = ActionSpec(
        "discard", aliases: ["back"], summary: "close without saving",
        parameters: [
            ParameterSpec("sure", .boolean, required: false, help: "yes to drop the text without asking")
        ])
    private static let notes = SceneDescriptor(id: "notes", summary: "notes", actions: [list, open])
    private static let note = SceneDescriptor(id: "note", summary: "one note", actions: [edit, history])
    private static let versions = SceneDescriptor(id: "versions", summary: "a note's versions", actions: [])
    private static let editor = SceneDescriptor(id: "editor", summary: "the editor", actions: [type, discard])

    private var sut: Session!
    /// How the editor answers an unsure `discard` with text typed: as a form does (goes ahead
    /// where nobody can be asked), or refusing.
    private var unansweredDiscard = ConfirmationRequest.Otherwise.proceed
    private var ids: [String] { sut.stack.scenes.map(\.descriptor.id) }
    private var root: SceneSpy { sut.stack.scenes[0] as! SceneSpy }

    override func setUp() {
        super.setUp()
        sut = Session(sceneKinds: [Self.notes, Self.note, Self.versions, Self.editor]) { [unowned self] context in
            let root = SceneSpy(Self.notes, title: "Notes")
            root.performStub = { call in
                switch call.name {
                case "list": context.display.display(Message.info("3 notes"))
                case "open": context.navigator.push(self.makeNote(context))
                default: break
                }
            }
            return root
        }
    }

    override func tearDown() {
        sut = nil
        super.tearDown()
    }

    private func makeNote(_ context: SceneContext) -> SceneSpy {
        let note = SceneSpy(Self.note, title: "Groceries")
        note.performStub = { [unowned self] call in
            switch call.name {
            case "history": context.navigator.push(SceneSpy(Self.versions, title: "versions"))
            case "edit": context.navigator.push(makeEditor(context))
            default: break
            }
        }
        return note
    }

    private func makeEditor(_ context: SceneContext) -> SceneSpy {
        let editor = SceneSpy(Self.editor, title: "editing Groceries")
        var typed = 0
        editor.performStub = { [unowned self] call in
            switch call.name {
            case "type": typed += 1
            case "discard" where typed > 0 && call.boolean("sure") != true:
                context.display.display(
                    ConfirmationRequest(
                        question: "Drop \(typed) changes?", confirmed: ActionCall("discard", ["sure": .boolean(true)]),
                        declined: .info("Still editing"), otherwise: unansweredDiscard,
                        refusal: .error("not closed: \(typed) changes", code: .confirmationRequired)))
            case "discard":
                context.display.display(Message.info("Closed: \(typed) changes dropped"))
                context.navigator.pop()
            default: break
            }
        }
        return editor
    }

    private func messages(_ outcome: Outcome) -> [Message] { outcome.displayed.compactMap { $0 as? Message } }

    func testReaching_theActiveScene_runsTheActionThere() {
        // When
        let outcome = sut.run(ActionCall("list"), reaching: "notes")

        // Then
        XCTAssertEqual(messages(outcome), [.info("3 notes")])
        XCTAssertEqual(outcome.routes, [])
        XCTAssertTrue(outcome.succeeded)
    }

    func testReaching_aSceneUnderOthers_popsThoseWithoutABack_thenRuns() {
        // Given
        _ = sut.run(ActionCall("open"), reaching: "notes")
        _ = sut.run(ActionCall("history"), reaching: "note")
        XCTAssertEqual(ids, ["notes", "note", "versions"])

        // When
        let outcome = sut.run(ActionCall("list"), reaching: "notes")

        // Then: the pops, then the action's answer
        XCTAssertEqual(outcome.routes, [.pop("versions"), .pop("note")])
        XCTAssertEqual(messages(outcome), [.info("3 notes")])
        XCTAssertEqual(ids, ["notes"])
        XCTAssertEqual(root.performedCalls.map(\.name), ["open", "list"])
        XCTAssertTrue(outcome.succeeded)
    }

    func testReaching_leavesAnEditorThroughItsBack_sayingWhatItDropped() {
        // Given: notes > note > editor, with text typed
        _ = sut.run(ActionCall("open"), reaching: "notes")
        _ = sut.run(ActionCall("edit"), reaching: "note")
        _ = sut.run(ActionCall("type", ["text": .string("milk")]), reaching: "editor")
        let editor = sut.stack.active as! SceneSpy

        // When
        let outcome = sut.run(ActionCall("list"), reaching: "notes")

        // Then: the editor was asked to discard, nobody could answer, so it went ahead out loud
        XCTAssertEqual(editor.performedCalls.map(\.name), ["type", "discard", "discard"])
        XCTAssertEqual(messages(outcome), [.info("Closed: 1 changes dropped"), .info("3 notes")])
        XCTAssertEqual(outcome.routes, [.pop("editor"), .pop("note")])
        XCTAssertEqual(ids, ["notes"])
        XCTAssertTrue(outcome.succeeded)
    }

    func testReaching_pastAnEditorThatRefuses_runsNothing_andSaysWhy() {
        // Given
        unansweredDiscard = .refuse
        _ = sut.run(ActionCall("open"), reaching: "notes")
        _ = sut.run(ActionCall("edit"), reaching: "note")
        _ = sut.run(ActionCall("type", ["text": .string("milk")]), reaching: "editor")

        // When
        let outcome = sut.run(ActionCall("list"), reaching: "notes")

        // Then: the refusal first, then why the action did not run; nothing moved
        XCTAssertEqual(outcome.error, .error("not closed: 1 changes", code: .confirmationRequired))
        XCTAssertEqual(messages(outcome).last?.code, .sceneNotActive)
        XCTAssertEqual(outcome.routes, [])
        XCTAssertEqual(ids, ["notes", "note", "editor"])
        XCTAssertEqual(root.performedCalls.map(\.name), ["open"])
    }

    func testReaching_whereThePersonIsAsked_returnsTheQuestion_andRunsNothing() throws {
        // Given
        sut.canAsk = true
        _ = sut.run(ActionCall("open"), reaching: "notes")
        _ = sut.run(ActionCall("edit"), reaching: "note")
        _ = sut.run(ActionCall("type", ["text": .string("milk")]), reaching: "editor")

        // When
        let outcome = sut.run(ActionCall("list"), reaching: "notes")

        // Then
        XCTAssertEqual(try XCTUnwrap(outcome.confirmation).question, "Drop 1 changes?")
        XCTAssertEqual(ids, ["notes", "note", "editor"])
        XCTAssertEqual(root.performedCalls.map(\.name), ["open"])
    }

    func testReaching_aSceneNotOnTheStack_isRefusedAsInScene_andNothingMoves() {
        // Given
        _ = sut.run(ActionCall("open"), reaching: "notes")

        // When
        let outcome = sut.run(ActionCall("type", ["text": .string("x")]), reaching: "editor")

        // Then
        XCTAssertEqual(outcome.error?.code, .sceneNotActive)
        XCTAssertEqual(outcome.error?.details, ["active": "note", "stack": "notes > note"])
        XCTAssertEqual(outcome.routes, [])
        XCTAssertEqual(ids, ["notes", "note"])
    }

    func testReach_alone_leavesTheScenesAbove_andRunsNothing() {
        // Given
        _ = sut.run(ActionCall("open"), reaching: "notes")
        _ = sut.run(ActionCall("history"), reaching: "note")

        // When
        let outcome = sut.reach("note")

        // Then
        XCTAssertEqual(outcome.routes, [.pop("versions")])
        XCTAssertEqual(ids, ["notes", "note"])
        XCTAssertEqual(sut.reach("nowhere").routes, [])
        XCTAssertEqual(ids, ["notes", "note"])
    }
}
