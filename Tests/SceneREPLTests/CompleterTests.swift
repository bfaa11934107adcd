import SceneCore
import XCTest

@testable import SceneREPL

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
        XCTAssertEqual(
            completion,
            Completion(
                replacing: 0, insertion: "",
                candidates: ["add", "show", "search", "join", "load", "sort", "page", "help", "back", "stack", "quit"]))
    }

    func testUniquePrefixCompletesTheActionAndASpace() {
        XCTAssertEqual(complete("sh"), Completion(replacing: 2, insertion: "show ", candidates: ["show"]))
    }

    func testSeveralMatchesAreListedWithoutChangingTheLine() {
        // When
        let completion = complete("s")
        // Then
        XCTAssertEqual(
            completion,
            Completion(
                replacing: 0, insertion: "",
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
        XCTAssertEqual(
            complete("show \"Ann L"),
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
        XCTAssertEqual(
            complete("show jose"),
            Completion(
                replacing: 0, insertion: "",
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

    private func fileCompleter() -> Completer {
        // A working folder and a home folder, as a listing of folders would give them
        let folders: [String: [String]] = [
            ".": ["data.vcf", "data old.csv", "docs/", ".hidden.vcf"],
            "/home/ann/": ["books/", "bonus.vcf", "notes.txt"],
            "/home/ann/books/": ["all.vcf"],
        ]
        return Completer(home: "/home/ann") { folders[$0] }
    }

    private func completeFile(_ line: String) -> Completion? {
        fileCompleter().complete(line: line, cursor: line.utf8.count, actions: REPLSeeds.actions, scene: scene)
    }

    func testFileNamesCompleteInTheWorkingFolder_quotedWhenTheyHoldSpaces() {
        XCTAssertEqual(
            completeFile("load da"),
            Completion(replacing: 2, insertion: "data", candidates: ["data old.csv", "data.vcf"]))
        XCTAssertEqual(
            completeFile("load data."), Completion(replacing: 5, insertion: "data.vcf ", candidates: ["data.vcf"]))
        XCTAssertEqual(completeFile("load data "), nil, "a second word has no parameter")
        XCTAssertEqual(
            completeFile("load \"data o"),
            Completion(replacing: 7, insertion: "\"data old.csv\" ", candidates: ["data old.csv"]))
        XCTAssertEqual(
            completeFile("load ")?.candidates, ["data old.csv", "data.vcf", "docs/"],
            "hidden files only when a dot is typed")
        XCTAssertEqual(completeFile("load .h")?.insertion, ".hidden.vcf ")
    }

    func testFileNamesUnderTheHomeFolder_andAFolderGoesOnWithoutASpace() {
        XCTAssertEqual(completeFile("load ~/bo")?.candidates, ["~/bonus.vcf", "~/books/"])
        XCTAssertEqual(
            completeFile("load ~/boo"), Completion(replacing: 5, insertion: "~/books/", candidates: ["~/books/"]))
        XCTAssertEqual(
            completeFile("load ~/books/"),
            Completion(replacing: 8, insertion: "~/books/all.vcf ", candidates: ["~/books/all.vcf"]))
        XCTAssertEqual(completeFile("load /nowhere/x"), nil)
        XCTAssertEqual(
            Completer { _ in ["x"] }.complete(line: "load ~/x", cursor: 8, actions: REPLSeeds.actions, scene: scene),
            nil, "without a home, ~ is not guessed")
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
