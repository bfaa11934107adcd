import XCTest

@testable import ContactsApp

final class BirthdayTests: XCTestCase {
    func test_parsing_readsTheThreeForms() {
        XCTAssertEqual(Birthday(parsing: "1990-05-17"), Birthday(year: 1990, month: 5, day: 17))
        XCTAssertEqual(Birthday(parsing: "--05-17"), Birthday(year: nil, month: 5, day: 17))
        XCTAssertEqual(Birthday(parsing: "05-17"), Birthday(year: nil, month: 5, day: 17))
    }

    func test_parsing_readsWhatIsoStringWrites() {
        for birthday in [
            Birthday(year: 1, month: 1, day: 1), Birthday(year: 2024, month: 2, day: 29),
            Birthday(year: nil, month: 12, day: 31),
        ] {
            XCTAssertEqual(Birthday(parsing: birthday.isoString), birthday)
        }
    }

    func test_parsing_refusesDatesThatDoNotExist() {
        for text in ["2023-02-29", "1900-02-29", "1990-13-01", "1990-04-31", "1990-00-10", "0000-01-01", "--02-30"] {
            XCTAssertNil(Birthday(parsing: text), text)
        }
        XCTAssertEqual(Birthday(parsing: "--02-29"), Birthday(year: nil, month: 2, day: 29))
        XCTAssertEqual(Birthday(parsing: "2000-02-29"), Birthday(year: 2000, month: 2, day: 29))
    }

    func test_parsing_refusesWhatIsNotDigitsAndDashes() {
        for text in [
            "", "1990", "+1990-05-17", "1990-5-", "1990--05", "--1990-05-17", "1990-05-17T00:00", "１９９０-05-17", "ab-cd",
        ] {
            XCTAssertNil(Birthday(parsing: text), text)
        }
    }

    func test_validYear_checksTheCalendar() {
        XCTAssertEqual(Birthday(validYear: 1984, month: 2, day: 29), Birthday(year: 1984, month: 2, day: 29))
        XCTAssertNil(Birthday(validYear: 1985, month: 2, day: 29))
        XCTAssertNil(Birthday(validYear: 10_000, month: 1, day: 1))
    }
}
