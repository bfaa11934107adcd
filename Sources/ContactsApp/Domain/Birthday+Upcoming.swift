import Foundation

/// A calendar day, without time or time zone: what "today" is where the user is.
public struct CalendarDay: Equatable, Comparable, Sendable {
    public let year: Int
    public let month: Int
    public let day: Int
    public init(year: Int, month: Int, day: Int) { self.year = year; self.month = month; self.day = day }

    /// The day `date` falls on in `timeZone` (Gregorian calendar).
    public init(_ date: Date, in timeZone: TimeZone) {
        let parts = Self.calendar(timeZone).dateComponents([.year, .month, .day], from: date)
        self.init(year: parts.year ?? 1, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    /// `2026-11-27`.
    public var isoString: String {
        Birthday.padded(year, 4) + "-" + Birthday.padded(month, 2) + "-" + Birthday.padded(day, 2)
    }

    /// Whole days from this day to `other` (negative if `other` is earlier).
    public func days(until other: CalendarDay) -> Int {
        let utc = Self.calendar(TimeZone(identifier: "UTC") ?? .current)
        guard let from = utc.date(from: DateComponents(year: year, month: month, day: day)),
            let to = utc.date(from: DateComponents(year: other.year, month: other.month, day: other.day))
        else { return 0 }
        return utc.dateComponents([.day], from: from, to: to).day ?? 0
    }

    public static func < (a: CalendarDay, b: CalendarDay) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    private static func calendar(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}

extension Birthday {
    /// The day this birthday falls on in `year`: 29 February is kept on 28 February in years
    /// without one.
    public func day(in year: Int) -> CalendarDay {
        if month == 2, day == 29, !CalendarDay.isLeap(year) { return CalendarDay(year: year, month: 2, day: 28) }
        return CalendarDay(year: year, month: month, day: day)
    }

    /// The next time this birthday comes, on or after `today`.
    public func next(onOrAfter today: CalendarDay) -> CalendarDay {
        let thisYear = day(in: today.year)
        return thisYear >= today ? thisYear : day(in: today.year + 1)
    }

    /// The age turned on `day`, when the year of birth is known and it is a birthday after it.
    public func age(on day: CalendarDay) -> Int? {
        guard let year, day.year > year else { return nil }
        return day.year - year
    }
}
