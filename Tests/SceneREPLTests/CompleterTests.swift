import SceneCore
@testable import SceneREPL
import XCTest

final class CompleterTests: XCTestCase {
    private var sut: Completer!
    private var scene: SceneSpy!

    override func setUp() {
        super.setUp()
        sut = Completer()
        scene = SceneSpy()
    }

    private func complete(_ line: String, cursor: Int? = nil) -> Completion? {
        sut.complete(line: line, cursor: cursor ?? line.utf8.count, actions: REPLSeeds.actions, scene: scene)
    }

    // MARK: Actions

    func testEmptyLineListsEveryActionAndChangesNothing() {
        // When
        let completion = complete("")
        // Then
        XCTAssertEqual(completion, Completion(replacing: 0, insertion: "", candidates:
            ["add", "show", "search", "join", "sort", "page", "help", "back", "stack", "quit"]))
    }

    func testUniquePrefixCompletesTheActionAndASpace() {
        XCTAssertEqual(complete("sh"), Completion(replacing: 2, insertion: "show ", candidates: ["show"]))
    }

    func testSeveralMatchesAreListedWithoutChangingTheLine() {
        // When
        let completion = complete("s")
        // Then
        XCTAssertEqual(completion, Completion(replacing: 0, insertion: "",
                                              candidates: ["show", "search", "sort", "stack"]))
    }

    func testAliasesCompleteWhenNoNameMatches() {
        XCTAssertEqual(complete("ex"), Completion(replacing: 2, insertion: "exit ", candidates: ["exit"]))
    }

    func testCaseOfTheTypedPrefixDoesNotMatter() {
        XCTAssertEqual(complete("SH")?.insertion, "show ")
    }

    func testNothingMatchingGivesNil() {
        XCTAssertNil(complete("zz"))
        XCTAssertNil(complete("frobnicate x"))
    }

    func testOnlyTheTextBeforeTheCursorCounts() {
        XCTAssertEqual(complete("sh 12", cursor: 2), Completion(replacing: 2, insertion: "show ", candidates: ["show"]))
    }

    // MARK: Parameters

    func testNamedSourceAsksTheActiveSceneWithTheTypedPrefix() {
        // When
        let completion = complete("show an")
        // Then
        XCTAssertEqual(scene.completionsCalls.map(\.source), ["person"])
        XCTAssertEqual(scene.completionsCalls.map(\.prefix), ["an"])
        XCTAssertEqual(completion, Completion(replacing: 2, insertion: "Ann", candidates: ["Ann Lee", "Anna Key"]))
    }

    func testAUniqueValueWithSpacesIsQuotedAndClosed() {
        XCTAssertEqual(complete("show ann "), nil, "a new word after the last parameter has no values")
        XCTAssertEqual(complete("show \"Ann L"),
                       Completion(replacing: 6, insertion: "\"Ann Lee\" ", candidates: ["Ann Lee"]))
    }

    func testACommonPrefixWithASpaceLeavesTheQuoteOpen() {
        // Given
        scene.names = ["Ann Lee", "Ann Lewis"]
        // Then
        XCTAssertEqual(complete("show a")?.insertion, "\"Ann Le")
    }

    func testAShorterCommonPrefixNeverDeletesWhatWasTyped() {
        // Given the scene matches without accents
        scene.names = ["José Ñúñez", "Jose Cuervo"]
        // Then
        XCTAssertEqual(complete("show jose"), Completion(replacing: 0, insertion: "",
                                                         candidates: ["José Ñúñez", "Jose Cuervo"]))
    }

    func testNonASCIIPrefixIsReplacedByCharactersNotBytes() {
        // Given
        scene.names = ["José Ñúñez"]
        // When
        let completion = complete("show \"Jos\u{E9}")
        // Then
        XCTAssertEqual(scene.completionsCalls.last?.prefix, "José")
        XCTAssertEqual(completion?.replacing, 5)
    }

    func testChoicesComplete() {
        XCTAssertEqual(complete("sort l"), Completion(replacing: 1, insertion: "last ", candidates: ["last"]))
        XCTAssertEqual(complete("sort ")?.candidates, ["first", "last"])
    }

    func testHelpCompletesActionNames() {
        XCTAssertEqual(complete("help so"), Completion(replacing: 2, insertion: "sort ", candidates: ["sort"]))
    }

    func testATrailingTextParameterCompletesFromItsFirstWord() {
        // When
        let completion = complete("search Ann L")
        // Then the whole rest is the prefix, and a verbatim rest needs no quotes
        XCTAssertEqual(scene.completionsCalls.last?.prefix, "Ann L")
        XCTAssertEqual(completion, Completion(replacing: 5, insertion: "Ann Lee ", candidates: ["Ann Lee"]))
    }

    func testATextParameterOfSeveralWordsCompletesEachWordQuoted() {
        // When
        let first = complete("join an")
        let second = complete("join \"Ann Lee\" 3 \"Ann L")
        // Then each value is one word as the action splits them again
        XCTAssertEqual(scene.completionsCalls.map(\.prefix), ["an", "Ann L"])
        XCTAssertEqual(first, Completion(replacing: 2, insertion: "Ann", candidates: ["Ann Lee", "Anna Key"]))
        XCTAssertEqual(second, Completion(replacing: 6, insertion: "\"Ann Lee\" ", candidates: ["Ann Lee"]))
    }

    func testAnOptionalParameterBeforeARequiredOneOffersBoth() {
        // page [NUMBER] WRAP: the first word may be the wrap flag
        XCTAssertEqual(complete("page y"), Completion(replacing: 1, insertion: "yes ", candidates: ["yes"]))
        XCTAssertEqual(complete("page 2 n")?.insertion, "no ")
    }

    func testValuesHoldingControlCharactersAreNeverInserted() {
        // Given
        scene.names = [REPLSeeds.hostileName]
        // Then
        XCTAssertNil(complete("show ev"))
    }

    func testQuotingRoundTripsThroughTheParser() throws {
        // Given
        let value = #"O"Brien \ Pat"#
        // When
        let line = "search " + Quoting.quote(value)
        let call = try CommandLineParser.parse(line, actions: REPLSeeds.actions)
        // Then
        XCTAssertEqual(call?.string("query"), value)
    }
}
