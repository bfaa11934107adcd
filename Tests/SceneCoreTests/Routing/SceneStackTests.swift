import Foundation
import XCTest

@testable import SceneCore

final class SceneStackTests: XCTestCase {
    private var sut: SceneStack!
    private var observer: SceneStackObserverSpy!
    private var root: SceneSpy!

    override func setUp() {
        super.setUp()
        sut = SceneStack()
        observer = SceneStackObserverSpy()
        sut.observer = observer
        root = SceneSpy(Seeds.notes, title: "Notes")
        sut.start(with: root)
    }

    override func tearDown() {
        sut = nil
        observer = nil
        root = nil
        super.tearDown()
    }

    /// The scenes' ids, checked against the ids the stack keeps beside them after every change,
    /// and the active scene's actions against the ones it keeps (`Session.run` looks calls up there),
    /// by name as well: its own names are found, its aliases and other scenes' names are not.
    private var ids: [String] {
        let ids = sut.scenes.map(\.descriptor.id)
        XCTAssertEqual(sut.ids, ids, "the kept ids follow the scenes")
        let actions = sut.scenes.last?.descriptor.actions ?? []
        XCTAssertEqual(sut.activeActions.map(\.name), actions.map(\.name), "the kept actions are the active scene's")
        for action in actions { XCTAssertTrue(sut.activeActionsContain(action.name), action.name) }
        let others = Set(
            Seeds.sceneKinds.flatMap(\.actions).flatMap { [$0.name] + $0.aliases } + ["stack", "", "LIST"]
        )
        .subtracting(actions.map(\.name))
        for name in others { XCTAssertFalse(sut.activeActionsContain(name), name) }
        return ids
    }

    private func note() -> SceneSpy { SceneSpy(Seeds.note, title: "Groceries") }
    private func history() -> SceneSpy { SceneSpy(Seeds.history, title: "Groceries history") }

    // MARK: - start

    func testStart_setsTheRootWithoutActivationOrRoute() {
        XCTAssertEqual(ids, ["notes"])
        XCTAssertTrue(sut.active === root)
        XCTAssertEqual(root.activations, [])
        XCTAssertEqual(observer.routes, [])
    }

    func testActiveActionsContain_answersForTheSceneActiveNow_whenTheSameNameIsAskedAgain() {
        // Given: the name asked at the root, whose scene has no such action
        XCTAssertFalse(sut.activeActionsContain("edit"))
        XCTAssertFalse(sut.activeActionsContain("edit"))

        // When / Then: asked again after each move, the answer is the new active scene's
        sut.push(note())
        XCTAssertTrue(sut.activeActionsContain("edit"))
        XCTAssertTrue(sut.activeActionsContain("edit"))
        XCTAssertFalse(sut.activeActionsContain("list"))
        sut.pop()
        XCTAssertFalse(sut.activeActionsContain("edit"))
        sut.replace(with: note())
        XCTAssertTrue(sut.activeActionsContain("edit"))
        XCTAssertFalse(sut.activeActionsContain("ls"), "an alias is not a name")
    }

    // MARK: - push

    func testPush_makesTheSceneActiveAndReportsTheRoute() {
        // Given
        let note = note()

        // When
        sut.push(note)

        // Then
        XCTAssertEqual(ids, ["notes", "note"])
        XCTAssertTrue(sut.active === note)
        XCTAssertEqual(note.activations, [.pushed])
        XCTAssertEqual(root.activations, [])
        XCTAssertEqual(observer.routes, [.push("note")])
        XCTAssertEqual(observer.stacksSeen, [["notes", "note"]], "the route is reported after the change")
    }

    // MARK: - pop

    func testPop_returnsToTheSceneBelow() {
        // Given
        let note = note()
        sut.push(note)

        // When
        let popped = sut.pop()

        // Then
        XCTAssertTrue(popped)
        XCTAssertEqual(ids, ["notes"])
        XCTAssertEqual(root.activations, [.returned])
        XCTAssertEqual(note.activations, [.pushed])
        XCTAssertEqual(observer.routes, [.push("note"), .pop("note")])
    }

    func testPop_neverPopsTheRoot() {
        // When
        let popped = sut.pop()

        // Then
        XCTAssertFalse(popped)
        XCTAssertEqual(ids, ["notes"])
        XCTAssertEqual(root.activations, [])
        XCTAssertEqual(observer.routes, [])
    }

    func testPop_releasesThePoppedScene() {
        // Given
        weak var released: SceneSpy?
        do {
            let note = note()
            released = note
            sut.push(note)
        }

        // When
        sut.pop()

        // Then
        XCTAssertNil(released)
    }

    // MARK: - pop(to:)

    func testPopTo_popsEverySceneAboveInOrderAndActivatesOnlyTheTarget() {
        // Given
        let note = note()
        let history = history()
        sut.push(note)
        sut.push(history)

        // When
        let found = sut.pop(to: "notes")

        // Then
        XCTAssertTrue(found)
        XCTAssertEqual(ids, ["notes"])
        XCTAssertEqual(observer.routes, [.push("note"), .push("history"), .pop("history"), .pop("note")])
        XCTAssertEqual(root.activations, [.returned])
        XCTAssertEqual(note.activations, [.pushed], "a scene popped through is not activated")
    }

    func testPopTo_theNearestSceneWithThatID() {
        // Given notes > note > note > history
        let first = note()
        let second = note()
        sut.push(first)
        sut.push(second)
        sut.push(history())

        // When
        sut.pop(to: "note")

        // Then
        XCTAssertTrue(sut.active === second)
        XCTAssertEqual(second.activations, [.pushed, .returned])
        XCTAssertEqual(first.activations, [.pushed])
    }

    func testPopTo_unknownIDIsFalseAndChangesNothing() {
        // Given
        sut.push(note())

        // When
        let found = sut.pop(to: "trash")

        // Then
        XCTAssertFalse(found)
        XCTAssertEqual(ids, ["notes", "note"])
        XCTAssertEqual(observer.routes, [.push("note")])
    }

    func testPopTo_theActiveSceneIsTrueAndDoesNothing() {
        // Given
        let note = note()
        sut.push(note)

        // When
        let found = sut.pop(to: "note")

        // Then
        XCTAssertTrue(found)
        XCTAssertEqual(ids, ["notes", "note"])
        XCTAssertEqual(note.activations, [.pushed])
        XCTAssertEqual(observer.routes, [.push("note")])
    }

    // MARK: - replace

    func testReplace_swapsTheActiveScene() {
        // Given
        let note = note()
        let history = history()
        sut.push(note)

        // When
        sut.replace(with: history)

        // Then
        XCTAssertEqual(ids, ["notes", "history"])
        XCTAssertEqual(history.activations, [.pushed])
        XCTAssertEqual(root.activations, [], "the scene below is not activated by a replace")
        XCTAssertEqual(observer.routes, [.push("note"), .replace("note", with: "history")])
    }

    func testReplace_theRootMakesANewRoot() {
        // Given
        let newRoot = note()

        // When
        sut.replace(with: newRoot)

        // Then
        XCTAssertEqual(ids, ["note"])
        XCTAssertFalse(sut.pop())
        XCTAssertEqual(observer.routes, [.replace("notes", with: "note")])
    }

    func testReplace_onAnEmptyStackStartsIt() {
        // Given
        let empty = SceneStack()
        empty.observer = observer

        // When
        empty.replace(with: root)

        // Then
        XCTAssertEqual(empty.scenes.map(\.descriptor.id), ["notes"])
        XCTAssertEqual(observer.routes, [])
    }

    // MARK: - Route encoding

    func testRoute_encodesAsJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func json(_ route: Route) throws -> String { String(decoding: try encoder.encode(route), as: UTF8.self) }

        XCTAssertEqual(try json(.push("note")), #"{"route":"push","scene":"note"}"#)
        XCTAssertEqual(try json(.pop("note")), #"{"route":"pop","scene":"note"}"#)
        XCTAssertEqual(
            try json(.replace("note", with: "history")), #"{"replaced":"note","route":"replace","scene":"history"}"#)
    }
}
