import XCTest

@testable import ContactsApp

/// When a birthday comes next, and the age turned; leap days in years without one.
final class UpcomingBirthdayTests: XCTestCase {
    func test_next_laterThisYear_orNextYearOnceItHasPassed() {
        // Given
        let today = CalendarDay(year: 2026, month: 11, day: 24)
        // Then
        XCTAssertEqual(
            Birthday(year: 1990, month: 12, day: 1).next(onOrAfter: today), CalendarDay(year: 2026, month: 12, day: 1))
        XCTAssertEqual(Birthday(year: 1990, month: 11, day: 24).next(onOrAfter: today), today)
        XCTAssertEqual(
            Birthday(year: nil, month: 1, day: 5).next(onOrAfter: today), CalendarDay(year: 2027, month: 1, day: 5))
    }

    func test_leapDay_fallsOn28FebruaryInOtherYears_andOn29InLeapYears() {
        let leapling = Birthday(year: 2000, month: 2, day: 29)
        XCTAssertEqual(
            leapling.next(onOrAfter: CalendarDay(year: 2027, month: 2, day: 1)),
            CalendarDay(year: 2027, month: 2, day: 28))
        XCTAssertEqual(
            leapling.next(onOrAfter: CalendarDay(year: 2028, month: 2, day: 1)),
            CalendarDay(year: 2028, month: 2, day: 29))
        XCTAssertEqual(leapling.age(on: CalendarDay(year: 2027, month: 2, day: 28)), 27)
    }

    func test_age_onlyWithAYear_andAfterTheYearOfBirth() {
        XCTAssertEqual(Birthday(year: 1990, month: 5, day: 17).age(on: CalendarDay(year: 2026, month: 5, day: 17)), 36)
        XCTAssertNil(Birthday(year: nil, month: 5, day: 17).age(on: CalendarDay(year: 2026, month: 5, day: 17)))
        XCTAssertNil(Birthday(year: 2026, month: 5, day: 17).age(on: CalendarDay(year: 2026, month: 5, day: 17)))
    }

    func test_calendarDay_inTheInjectedTimeZone_andDaysBetween() {
        // Given: 2026-11-24 23:30 UTC, which is already the 25th in Tokyo
        let instant = Date(timeIntervalSince1970: 1_795_563_000)
        // Then
        XCTAssertEqual(
            CalendarDay(instant, in: TimeZone(identifier: "UTC")!), CalendarDay(year: 2026, month: 11, day: 24))
        XCTAssertEqual(
            CalendarDay(instant, in: TimeZone(identifier: "Asia/Tokyo")!), CalendarDay(year: 2026, month: 11, day: 25))
        XCTAssertEqual(
            CalendarDay(year: 2026, month: 12, day: 30).days(until: CalendarDay(year: 2027, month: 1, day: 2)), 3)
        XCTAssertEqual(CalendarDay(year: 2026, month: 11, day: 24).isoString, "2026-11-24")
    }
}
