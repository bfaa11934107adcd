import XCTest

@testable import SceneCore

final class CommandLineParserTests: XCTestCase {
    private let notesActions = Seeds.notes.actions
    private let allActions = Seeds.notes.actions + Session.globalActions

    private func parse(_ line: String, file: StaticString = #filePath, line number: UInt = #line) -> ActionCall? {
        do {
            return try CommandLineParser.parse(line, actions: notesActions)
        } catch {
            XCTFail("'\(line)' did not parse: \(error)", file: file, line: number)
            return nil
        }
    }

    private func parseError(
        _ line: String, actions: [ActionSpec]? = nil,
        file: StaticString = #filePath, line number: UInt = #line
    ) -> DispatchError? {
        do {
            let call = try CommandLineParser.parse(line, actions: actions ?? notesActions)
            XCTFail("'\(line)' parsed as \(String(describing: call)); expected an error", file: file, line: number)
            return nil
        } catch let error as DispatchError {
            return error
        } catch {
            XCTFail("'\(line)' threw \(error), not a DispatchError", file: file, line: number)
            return nil
        }
    }

    private func words(_ line: String) throws -> [String] {
        try CommandLineParser.words(line).map(\.text)
    }

    // MARK: - Words

    func testWords_splitOnRunsOfWhitespace() throws {
        // Given
        let line = "  open \t 12   now "

        // When
        let words = try words(line)

        // Then
        XCTAssertEqual(words, ["open", "12", "now"])
    }

    func testWords_quotesGroupAndAreRemoved() throws {
        XCTAssertEqual(try words(#"tag "two words" 'single quoted'"#), ["tag", "two words", "single quoted"])
    }

    func testWords_quotedPartsJoinTheWordAroundThem() throws {
        XCTAssertEqual(try words(#"ab"c d"e"#), ["abc de"])
    }

    func testWords_emptyQuotesMakeAnEmptyWord() throws {
        XCTAssertEqual(try words(#"tag "" x"#), ["tag", "", "x"])
    }

    func testWords_backslashEscapesOneCharacter() throws {
        XCTAssertEqual(try words(#"a\ b c\"d \\"#), ["a b", #"c"d"#, #"\"#])
    }

    func testWords_backslashEscapesInsideDoubleQuotes() throws {
        XCTAssertEqual(try words(#""say \"hi\"""#), [#"say "hi""#])
    }

    func testWords_backslashIsLiteralInsideSingleQuotes() throws {
        XCTAssertEqual(try words(#"'C:\dir' x"#), [#"C:\dir"#, "x"])
    }

    func testWords_otherQuoteIsLiteralInsideQuotes() throws {
        XCTAssertEqual(try words(#""it's" 'say "hi"'"#), ["it's", #"say "hi""#])
    }

    func testWords_unclosedQuoteIsAnError() {
        for line in [#"tag "open"#, "tag 'open", #"tag "a" 'b"#] {
            XCTAssertThrowsError(try CommandLineParser.words(line), line) { error in
                XCTAssertEqual(error as? DispatchError, .unbalancedQuote, line)
            }
        }
    }

    func testWords_trailingBackslashIsAnError() {
        XCTAssertThrowsError(try CommandLineParser.words(#"tag abc\"#)) { error in
            XCTAssertEqual(error as? DispatchError, .unbalancedQuote)
        }
    }

    func testWords_recordWhereEachWordStartsIncludingItsQuote() throws {
        // Given
        let line = #"new  "a b" c"#

        // When
        let words = try CommandLineParser.words(line)

        // Then
        XCTAssertEqual(words.map { String(line[$0.start...]) }, [#"new  "a b" c"#, #""a b" c"#, "c"])
    }

    func testParse_unbalancedQuoteInAWordIsReported() {
        XCTAssertEqual(parseError(#"email work "ann@x.org"#), .unbalancedQuote)
        XCTAssertEqual(parseError(#"open "12"#), .unbalancedQuote)
        XCTAssertEqual(DispatchError.unbalancedQuote.message, "a quote is not closed")
    }

    func testParse_trailingTextTakesApostrophesAndStrayQuotesVerbatim() throws {
        // Given free text, where quotes are prose rather than grouping
        // When
        let apostrophe = try CommandLineParser.parse("new O'Brien's list", actions: Seeds.notes.actions)
        let stray = try CommandLineParser.parse(#"new "Buy milk"#, actions: Seeds.notes.actions)
        // Then
        XCTAssertEqual(apostrophe?.string("title"), "O'Brien's list")
        XCTAssertEqual(stray?.string("title"), #""Buy milk"#)
    }

    // MARK: - Resolving the action

    func testResolve_exactName() throws {
        XCTAssertEqual(try CommandLineParser.resolve("open", in: allActions), Seeds.Actions.open)
    }

    func testResolve_exactAlias() throws {
        XCTAssertEqual(try CommandLineParser.resolve("ls", in: allActions), Seeds.Actions.list)
        XCTAssertEqual(try CommandLineParser.resolve("exit", in: allActions).name, "quit")
    }

    func testResolve_uniquePrefixOfName() throws {
        XCTAssertEqual(try CommandLineParser.resolve("ope", in: allActions), Seeds.Actions.open)
        XCTAssertEqual(try CommandLineParser.resolve("e", in: notesActions), Seeds.Actions.email)
    }

    func testResolve_uniquePrefixOfAlias() throws {
        XCTAssertEqual(try CommandLineParser.resolve("sho", in: allActions), Seeds.Actions.open)
    }

    func testResolve_exactNameWinsOverLongerNames() throws {
        // Given "tag" and "tags"
        let actions = Seeds.note.actions

        // When / Then
        XCTAssertEqual(try CommandLineParser.resolve("tag", in: actions), Seeds.Actions.tag)
        XCTAssertEqual(try CommandLineParser.resolve("tags", in: actions), Seeds.Actions.tags)
    }

    func testResolve_ambiguousPrefixListsEveryCandidateOnce() {
        // When "s" starts open's alias "show", "sort" and "stack"
        XCTAssertThrowsError(try CommandLineParser.resolve("s", in: allActions)) { error in
            // Then
            XCTAssertEqual(error as? DispatchError, .ambiguousAction("s", candidates: ["open", "sort", "stack"]))
            XCTAssertEqual((error as? DispatchError)?.message, "'s' is ambiguous: open, sort, stack")
        }
    }

    func testResolve_prefixMatchingNameAndAliasOfOneActionIsUnique() throws {
        // Given an action whose alias shares its name's prefix
        let actions = [
            ActionSpec("previous", aliases: ["prev"], summary: "back a page"), ActionSpec("next", summary: "on"),
        ]

        // When / Then
        XCTAssertEqual(try CommandLineParser.resolve("pr", in: actions).name, "previous")
    }

    func testResolve_unknownListsTheAvailableNames() {
        XCTAssertThrowsError(try CommandLineParser.resolve("zap", in: allActions)) { error in
            XCTAssertEqual(error as? DispatchError, .unknownAction("zap", available: allActions.map(\.name)))
            XCTAssertEqual(
                (error as? DispatchError)?.message,
                "unknown command 'zap'; here you can use: list, open, new, sort, email, pin, help, back, stack, quit")
        }
    }

    func testResolve_aTypoIsAnsweredWithTheNearestName() {
        // Given a swap, a letter left out, and a word near two names
        for (typed, message) in [
            ("sotr", "unknown command 'sotr'; did you mean sort? (help lists them all)"),
            ("emal", "unknown command 'emal'; did you mean email? (help lists them all)"),
            ("STAKC", "unknown command 'STAKC'; did you mean stack? (help lists them all)"),
            ("pen", "unknown command 'pen'; did you mean open or pin? (help lists them all)"),
        ] {
            // Then
            XCTAssertThrowsError(try CommandLineParser.resolve(typed, in: allActions)) { error in
                XCTAssertEqual((error as? DispatchError)?.message, message)
            }
        }
    }

    func testSuggestion_distanceCountsASwapAsOneEdit() {
        XCTAssertEqual(Suggestion.distance(Array("serach"), Array("search")), 1)
        XCTAssertEqual(Suggestion.distance(Array("zap"), Array("pin")), 3)
        XCTAssertEqual(Suggestion.nearest(to: "", among: ["list"]), [])
        XCTAssertEqual(Suggestion.nearest(to: "frobnicate", among: ["list", "search"]), [])
    }

    // MARK: - Binding parameters

    func testParse_blankLineIsNil() throws {
        for line in ["", "   ", " \t "] {
            XCTAssertNil(try CommandLineParser.parse(line, actions: notesActions), "'\(line)'")
        }
    }

    func testParse_actionWithoutParameters() {
        XCTAssertEqual(try CommandLineParser.parse("tags", actions: Seeds.note.actions), ActionCall("tags"))
    }

    func testParse_callUsesTheActionNameNotWhatWasTyped() {
        XCTAssertEqual(parse("sh 2"), ActionCall("open", ["id": .integer(2)]))
        XCTAssertEqual(parse("ls"), ActionCall("list"))
    }

    func testParse_optionalParametersAreFilledFromTheLeft() {
        XCTAssertEqual(parse("list"), ActionCall("list"))
        XCTAssertEqual(parse("list 3"), ActionCall("list", ["page": .integer(3)]))
        XCTAssertEqual(parse("list 3 50"), ActionCall("list", ["page": .integer(3), "limit": .integer(50)]))
    }

    func testParse_optionalBeforeRequiredIsSkippedWhenOnlyTheRequiredIsGiven() {
        // When
        let addressOnly = parse("email ann@x.org")
        let labelAndAddress = parse("email work ann@x.org")

        // Then
        XCTAssertEqual(addressOnly, ActionCall("email", ["address": .string("ann@x.org")]))
        XCTAssertEqual(
            labelAndAddress, ActionCall("email", ["label": .string("work"), "address": .string("ann@x.org")]))
    }

    func testParse_quotedWordIsOneArgument() {
        XCTAssertEqual(
            parse(#"email "home office" ann@x.org"#),
            ActionCall("email", ["label": .string("home office"), "address": .string("ann@x.org")]))
    }

    func testParse_trailingTextTakesTheRestVerbatim() {
        // When
        let call = parse("new   Buy  milk,   eggs\tand 'tea'   ")

        // Then inner spacing and quotes are kept; only the ends are trimmed
        XCTAssertEqual(call, ActionCall("new", ["title": .string("Buy  milk,   eggs\tand 'tea'")]))
    }

    func testParse_trailingTextThatIsOneQuotedWordIsUnquoted() {
        XCTAssertEqual(parse(#"new "Buy  milk""#), ActionCall("new", ["title": .string("Buy  milk")]))
        XCTAssertEqual(parse(#"new 'it''s'"#), ActionCall("new", ["title": .string("its")]))
    }

    func testParse_trailingTextOfOneWord() {
        XCTAssertEqual(parse("new Groceries"), ActionCall("new", ["title": .string("Groceries")]))
    }

    func testParse_trailingTextStartingWithAQuoteKeepsItWhenMoreFollows() {
        XCTAssertEqual(parse(#"new "Buy" milk"#), ActionCall("new", ["title": .string(#""Buy" milk"#)]))
    }

    func testParse_optionalTrailingTextMayBeLeftOut() {
        XCTAssertEqual(parse("new"), ActionCall("new"))
    }

    func testParse_requiredTrailingTextIsMissing() throws {
        XCTAssertThrowsError(try CommandLineParser.parse("edit", actions: Seeds.note.actions)) { error in
            XCTAssertEqual(
                error as? DispatchError,
                .missingParameter(action: "edit", parameter: "text", usage: "edit TEXT..."))
        }
    }

    func testParse_tooManyArgumentsNameTheFirstExtra() {
        // When
        let error = parseError("open 1 2 3")

        // Then
        XCTAssertEqual(error, .unexpectedParameter(action: "open", parameter: "2", usage: "open ID"))
        XCTAssertEqual(error?.message, "unexpected '2'; usage: open ID")
    }

    func testParse_tooManyForOptionals() {
        XCTAssertEqual(
            parseError("list 1 2 3"), .unexpectedParameter(action: "list", parameter: "3", usage: "list [PAGE] [LIMIT]")
        )
    }

    func testParse_missingRequired() {
        // When
        let error = parseError("open")

        // Then
        XCTAssertEqual(error, .missingParameter(action: "open", parameter: "id", usage: "open ID"))
        XCTAssertEqual(error?.message, "missing ID; usage: open ID")
    }

    func testParse_missingRequiredAfterOptional() {
        XCTAssertEqual(
            parseError("email"),
            .missingParameter(action: "email", parameter: "address", usage: "email [LABEL] ADDRESS"))
    }

    func testParse_integerIsChecked() {
        XCTAssertEqual(parse("open 12"), ActionCall("open", ["id": .integer(12)]))
        XCTAssertEqual(
            parseError("open twelve"),
            .invalidParameter(action: "open", parameter: "id", expected: "an integer of at least 1", got: "twelve"))
    }

    func testParse_integerRangeIsChecked() {
        XCTAssertEqual(
            parseError("open 0"),
            .invalidParameter(action: "open", parameter: "id", expected: "an integer of at least 1", got: "0"))
        XCTAssertEqual(
            parseError("list 1 101"),
            .invalidParameter(action: "list", parameter: "limit", expected: "an integer from 1 to 100", got: "101"))
        XCTAssertEqual(parse("list 1 100"), ActionCall("list", ["page": .integer(1), "limit": .integer(100)]))
    }

    func testParse_choiceAcceptsAUniquePrefix() {
        XCTAssertEqual(parse("sort ti"), ActionCall("sort", ["by": .string("title")]))
        XCTAssertEqual(parse("sort date"), ActionCall("sort", ["by": .string("date")]))
        XCTAssertEqual(parse("sort dated"), ActionCall("sort", ["by": .string("dated")]))
    }

    func testParse_choiceRejectsAnAmbiguousOrUnknownWord() {
        let expected = "one of: title, date, dated"
        XCTAssertEqual(
            parseError("sort da"), .invalidParameter(action: "sort", parameter: "by", expected: expected, got: "da"))
        XCTAssertEqual(
            parseError("sort size"), .invalidParameter(action: "sort", parameter: "by", expected: expected, got: "size")
        )
        XCTAssertEqual(
            parseError(#"sort """#), .invalidParameter(action: "sort", parameter: "by", expected: expected, got: ""))
    }

    func testParse_booleanIsChecked() {
        XCTAssertEqual(parse("pin yes"), ActionCall("pin", ["on": .boolean(true)]))
        XCTAssertEqual(parse("pin OFF"), ActionCall("pin", ["on": .boolean(false)]))
        let error = parseError("pin maybe")
        XCTAssertEqual(error, .invalidParameter(action: "pin", parameter: "on", expected: "yes or no", got: "maybe"))
        XCTAssertEqual(error?.message, "ON must be yes or no, not 'maybe'")
    }

    // MARK: - Usage

    func testUsage_showsOptionalAndTextParameters() {
        XCTAssertEqual(Seeds.Actions.list.usage, "list [PAGE] [LIMIT]")
        XCTAssertEqual(Seeds.Actions.new.usage, "new [TITLE...]")
        XCTAssertEqual(Seeds.Actions.edit.usage, "edit TEXT...")
        XCTAssertEqual(Seeds.Actions.email.usage, "email [LABEL] ADDRESS")
        XCTAssertEqual(Seeds.Actions.tags.usage, "tags")
    }

    // MARK: - Trimming without Foundation

    func testIsSpace_isFoundationsWhitespacesSet_scalarForScalar() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            XCTAssertEqual(
                CommandLineParser.isSpace(scalar), CharacterSet.whitespaces.contains(scalar),
                "U+\(String(value, radix: 16, uppercase: true))")
        }
    }

    func testTrimmingSpaces_givesWhatFoundationsTrimmingGives() {
        let texts = [
            "", " ", "\t", "  ann  ", "\u{A0}Zoë\u{3000}", "\u{200B}x\u{200B}", " a b ", "\n a \n",
            "\u{2028}a\u{2029}", "\u{85}a", " 😀 ", "😀", " e\u{301} ", "\u{301} ", " \u{FEFF}a ", "a\r\n",
            "\u{1680}\u{2000}\u{200A}\u{202F}\u{205F}", "x \u{180E}", "family O'Brien  ",
        ]
        for text in texts {
            XCTAssertEqual(
                CommandLineParser.trimmingSpaces(Substring(text).unicodeScalars),
                text.trimmingCharacters(in: .whitespaces), text.debugDescription)
        }
    }

    func testTextParameter_trimmedAsBefore_withUnicodeSpacesAndEmoji() {
        XCTAssertEqual(parse("new \u{3000}call Ann\u{A0} ")?.string("title"), "call Ann")
        XCTAssertEqual(parse("new 😀 ")?.string("title"), "😀")
        XCTAssertNil(parse("new \u{2003}\u{3000} ")?.string("title"))
    }
}
