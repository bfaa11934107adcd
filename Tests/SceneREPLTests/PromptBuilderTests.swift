import SceneCore
import SceneREPL
import XCTest

final class PromptBuilderTests: XCTestCase {
    /// A real session whose stack holds one scene per title.
    private func stack(_ titles: [String]) -> StackViewModel {
        let session = Session(sceneKinds: [REPLSeeds.list]) { _ in SceneSpy(title: titles[0]) }
        for title in titles.dropFirst() { session.stack.push(SceneSpy(title: title)) }
        return session.stackViewModel
    }

    func testPlainPromptJoinsTheTitlesOfTheStack() {
        // Given
        let sut = PromptBuilder(colors: false)
        // When
        let prompt = sut.prompt(for: stack(["contacts", "Ann Lee", "edit"]))
        // Then
        XCTAssertEqual(prompt, "contacts › Ann Lee › edit> ")
    }

    func testColouredPromptMarksEscapesForLibedit() {
        // Given
        let sut = PromptBuilder(colors: true)
        // When
        let prompt = sut.prompt(for: stack(["contacts"]))
        // Then
        XCTAssertEqual(prompt, "\u{1}\u{1B}[1;36m\u{1}contacts\u{1}\u{1B}[0m\u{1}> ")
    }

    func testTitlesAreSanitised() {
        // Given
        let sut = PromptBuilder(colors: false)
        // When
        let prompt = sut.prompt(for: stack(["contacts", "Eve\u{1B}[2J\u{1}"]))
        // Then
        XCTAssertEqual(prompt, "contacts › Eve?[2J?> ")
    }

    func testAnEmptyTitleShowsTheSceneID() {
        XCTAssertEqual(PromptBuilder(colors: false).prompt(for: stack([""])), "people> ")
    }

    func testLongTitlesAreShortenedByDisplayWidth() {
        // Given
        let sut = PromptBuilder(colors: false, maxTitleWidth: 6)
        // When
        let prompt = sut.prompt(for: stack(["山田太郎さん"]))
        // Then 2 wide characters (4 columns) and the ellipsis
        XCTAssertEqual(prompt, "山田…> ")
    }

    func testDeepStacksKeepTheRootAndTheLastScenes() {
        // Given
        let sut = PromptBuilder(colors: false, maxSegments: 3)
        // When
        let prompt = sut.prompt(for: stack(["a", "b", "c", "d"]))
        // Then
        XCTAssertEqual(prompt, "a › … › d> ")
    }
}
