import XCTest

@testable import SceneCore

/// A scene asks before acting (`ConfirmationRequest`); the session answers for front ends
/// that cannot ask, and leaves the question to those that can.
final class ConfirmationTests: XCTestCase {
    private static let drop = ActionSpec(
        "drop", summary: "drop a note",
        parameters: [
            ParameterSpec("name", .text, help: "part of a title"),
            ParameterSpec("sure", .boolean, required: false, help: "yes to drop without asking"),
        ])
    private static let leave = ActionSpec(
        "leave", summary: "leave, losing changes",
        parameters: [
            ParameterSpec("sure", .boolean, required: false, help: "yes to go ahead")
        ])
    private static let scene = SceneDescriptor(id: "notes", summary: "notes", actions: [drop, leave])

    private var sut: Session!
    private var root: SceneSpy { sut.stack.scenes[0] as! SceneSpy }

    /// `drop` and `leave` ask unless `sure`; `drop` refuses unasked, `leave` goes ahead unasked.
    override func setUp() {
        super.setUp()
        sut = Session(sceneKinds: [Self.scene]) { context in
            let root = SceneSpy(Self.scene, title: "Notes")
            root.performStub = { call in
                let sure = call.boolean("sure") ?? false
                switch (call.name, sure) {
                case ("drop", false):
                    context.display.display(
                        ConfirmationRequest(
                            question: "Drop Groceries?",
                            confirmed: ActionCall("drop", ["name": .string("Groceries"), "sure": .boolean(true)]),
                            declined: .info("Nothing dropped"), otherwise: .refuse,
                            refusal: .error("not dropped: confirm with 'drop gro yes'", code: .confirmationRequired)))
                case ("leave", false):
                    context.display.display(
                        ConfirmationRequest(
                            question: "Lose 2 changes?", confirmed: ActionCall("leave", ["sure": .boolean(true)]),
                            declined: .info("Still here"), otherwise: .proceed,
                            refusal: .error("not left", code: .confirmationRequired)))
                case ("drop", true): context.display.display(Message.success("Dropped Groceries"))
                case ("leave", true): context.display.display(Message.info("Left: 2 changes lost"))
                default: break
                }
            }
            return root
        }
    }

    func testParser_takesATrailingOptionOffTheText() throws {
        XCTAssertEqual(
            try CommandLineParser.parse("drop gro yes", actions: [Self.drop]),
            ActionCall("drop", ["name": .string("gro"), "sure": .boolean(true)]))
        XCTAssertEqual(
            try CommandLineParser.parse("drop ann o'brien", actions: [Self.drop]),
            ActionCall("drop", ["name": .string("ann o'brien")]))
        // A lone word is the text, even when it reads as the option.
        XCTAssertEqual(
            try CommandLineParser.parse("drop yes", actions: [Self.drop]), ActionCall("drop", ["name": .string("yes")]))
        XCTAssertEqual(CommandLineParser.textParameterIndex(Self.drop.parameters), 0)
    }

    func testRefuse_whereNobodyCanAsk_isAnErrorThatSaysHowToConfirm_andDoesNothing() {
        // When
        let outcome = sut.handle(line: "drop gro")

        // Then
        XCTAssertEqual(root.performedCalls, [ActionCall("drop", ["name": .string("gro")])])
        XCTAssertEqual(outcome.error, .error("not dropped: confirm with 'drop gro yes'", code: .confirmationRequired))
        XCTAssertFalse(outcome.succeeded)
        XCTAssertEqual(outcome.confirmation?.question, "Drop Groceries?")
    }

    func testProceed_whereNobodyCanAsk_runsTheConfirmedCallInTheSameOutcome() {
        // When
        let outcome = sut.handle(line: "leave")

        // Then
        XCTAssertEqual(root.performedCalls, [ActionCall("leave"), ActionCall("leave", ["sure": .boolean(true)])])
        XCTAssertEqual(outcome.displayed as? [Message], [.info("Left: 2 changes lost")])
        XCTAssertNil(outcome.confirmation)
        XCTAssertTrue(outcome.succeeded)
    }

    func testWhereThePersonIsAsked_theQuestionIsLeftToTheFrontEnd() throws {
        // Given
        sut.canAsk = true

        // When
        let outcome = sut.handle(line: "leave")

        // Then: nothing was done; the front end asks, then runs the confirmed call on yes
        XCTAssertEqual(root.performedCalls, [ActionCall("leave")])
        let request = try XCTUnwrap(outcome.confirmation)
        XCTAssertTrue(outcome.withoutConfirmation.displayed.isEmpty)
        XCTAssertEqual(sut.run(request.confirmed).displayed as? [Message], [.info("Left: 2 changes lost")])
    }

    func testLineSession_writesTheRefusalToStderr() {
        // Given
        let streams = TextStreamsSpy()
        let lines = LineSession(session: sut, streams: streams, bail: false)

        // When
        _ = lines.handle(line: "drop gro")

        // Then
        XCTAssertEqual(streams.error, "error: not dropped: confirm with 'drop gro yes'\n")
        XCTAssertEqual(streams.output, "")
        XCTAssertEqual(lines.failures, 1)
    }
}
