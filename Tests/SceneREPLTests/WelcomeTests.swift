import XCTest

@testable import SceneREPL

final class WelcomeTests: XCTestCase {
    func test_welcome_firstStart_greetsThenHints() {
        // Given history is kept but there is no history file yet
        let lines = REPL.welcome(greeting: "Book /h/book.sqlite · 2 contacts", historyPath: "/h/history") { _ in false }
        // Then the greeting, then the hint
        XCTAssertEqual(lines, ["Book /h/book.sqlite · 2 contacts", "Type help to list the commands; Tab completes."])
    }

    func test_welcome_laterStarts_greetOnly() {
        let lines = REPL.welcome(greeting: "Book /h/book.sqlite · 2 contacts", historyPath: "/h/history") {
            $0 == "/h/history"
        }
        XCTAssertEqual(lines, ["Book /h/book.sqlite · 2 contacts"])
    }

    func test_welcome_historyDisabled_noHint_andNoGreetingWithoutOne() {
        XCTAssertEqual(REPL.welcome(greeting: nil, historyPath: nil) { _ in false }, [])
    }

    func test_welcome_controlCharactersInTheGreeting_areShownAsSpaces() {
        let lines = REPL.welcome(greeting: "Book /tmp/a\u{1B}[2Jb", historyPath: nil) { _ in false }
        XCTAssertEqual(lines, ["Book /tmp/a [2Jb"])
    }
}
