import Foundation

/// A birthday; the year is optional (people often share only the day).
///
/// The one place birthdays are read from text and written as text: the form, the vCard and
/// CSV readers and the store's rows all go through `init?(parsing:)` and `isoString`.
public struct Birthday: Equatable, Codable, Sendable {
    public var year: Int?
    public var month: Int
    public var day: Int
    public init(year: Int?, month: Int, day: Int) { self.year = year; self.month = month; self.day = day }

    /// A date that exists: 29 February only in leap years, or without a year; years 1 to 9999.
    public init?(validYear year: Int?, month: Int, day: Int) {
        if let year, !(1...9999).contains(year) { return nil }
        guard (1...12).contains(month) else { return nil }
        let leap = year.map { ($0 % 4 == 0 && $0 % 100 != 0) || $0 % 400 == 0 } ?? true
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `1990-05-17`, `--05-17` or `05-17`, as a date that exists (see `init?(validYear:month:day:)`).
    public init?(parsing text: String) {
        let noYear = text.hasPrefix("--")
        let trimmed = noYear ? text.dropFirst(2) : Substring(text)
        // Digits only: `Int` alone would also take "+1990".
        var numbers: [Int] = []
        for part in trimmed.split(separator: "-", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(part) else {
                return nil
            }
            numbers.append(number)
        }
        switch numbers.count {
        case 3 where !noYear: self.init(validYear: numbers[0], month: numbers[1], day: numbers[2])
        case 2: self.init(validYear: nil, month: numbers[0], day: numbers[1])
        default: return nil
        }
    }

    /// `YYYY-MM-DD`, or `--MM-DD` without a year (the vCard 4 form).
    public var isoString: String {
        // Without `String(format:)`, which parses its format on every call: 4 % of an import.
        let md = Self.padded(month, 2) + "-" + Self.padded(day, 2)
        if let year { return Self.padded(year, 4) + "-" + md }
        return "--" + md
    }

    /// `String(format: "%0<width>d", value)`; a negative value (never a valid date part) goes
    /// through `String(format:)` as before.
    static func padded(_ value: Int, _ width: Int) -> String {
        guard value >= 0 else { return String(format: "%0\(width)d", value) }
        let digits = String(value)
        return digits.utf8.count >= width ? digits : String(repeating: "0", count: width - digits.utf8.count) + digits
    }
}
