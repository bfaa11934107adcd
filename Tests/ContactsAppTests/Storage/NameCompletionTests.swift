import XCTest

@testable import ContactsApp

final class NameCompletionTests: XCTestCase {
    private let book = [
        Contact(id: 1, givenName: "Anna", familyName: "Lindqvist"),
        Contact(id: 2, givenName: "Li", familyName: "Wei"),
        Contact(id: 3, givenName: "Bo", familyName: "Li-Andersson"),
        Contact(id: 4, givenName: "山田", familyName: "太郎"),
        Contact(id: 5, givenName: "Élise", familyName: "Martin"),
        Contact(
            id: 6, givenName: "Carl", familyName: "Smith", emails: [LabeledValue(label: "work", value: "li@x.example")]),
    ]

    private func names(_ typed: String) -> [String] {
        NameCompletion.names(book, name: \.fullName, typed: typed)
    }

    func test_names_anyWordStart_thoseStartingWithTheTypedTextFirst_eachInTheOrderGiven() {
        XCTAssertEqual(names("li"), ["Li Wei", "Anna Lindqvist", "Bo Li-Andersson"])
        XCTAssertEqual(names("LIND"), ["Anna Lindqvist"])
        XCTAssertEqual(names("山"), ["山田 太郎"])
        XCTAssertEqual(names("太"), ["山田 太郎"])
    }

    func test_names_foldCaseAndDiacritics_andMatchSeveralTypedWords() {
        XCTAssertEqual(names("elise"), ["Élise Martin"])
        XCTAssertEqual(names("anna li"), ["Anna Lindqvist"])
        XCTAssertEqual(names("li a"), ["Bo Li-Andersson"])
    }

    func test_names_insideAWordOrOnlyInOtherFields_areNotCompletions() {
        XCTAssertEqual(names("ndq"), [])
        XCTAssertEqual(names("smi"), ["Carl Smith"])
        XCTAssertEqual(names("x.example"), [])
    }

    func test_names_nothingTyped_offersEveryNameInOrder() {
        XCTAssertEqual(names(" "), book.map(\.fullName))
    }
}
