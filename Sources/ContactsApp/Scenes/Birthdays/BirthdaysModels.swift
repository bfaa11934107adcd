import SceneCore

/// The birthdays scene (`birthdays`): birthdays in the next days. Its word is the list's
/// (`contacts/birthdays`): the list shows this scene in its place (`ListContactsRouter.routeToBirthdays`).
public enum Birthdays {
    /// Birthdays in the next days, soonest first.
    public enum UpcomingBirthdays {
        public struct Request: Equatable {
            public let days: Int
            public init(days: Int) { self.days = days }
        }
        public struct Response {
            public let today: CalendarDay
            public let days: Int
            public let birthdays: [UpcomingBirthday]
        }
        public struct ViewModel: SceneCore.ViewModel, Equatable {
            public static let kind = "upcomingBirthdays"

            public struct Entry: Encodable, Equatable, Sendable {
                public let id: Int64
                public let name: String
                /// The day of the birthday this time, `2026-11-27`.
                public let date: String
                /// The age turned, when the year of birth is known.
                public let age: Int?
                /// 0 today, 1 tomorrow.
                public let daysAway: Int
                /// "today", "tomorrow", "in 5 days"
                public let when: String
            }

            /// `2026-11-24`.
            public let today: String
            public let days: Int
            public let entries: [Entry]
            /// "3 birthdays in the next 30 days"
            public let caption: String

            public var layout: DisplayLayout {
                .table(
                    columns: [
                        .init("#", alignRight: true), .init("Name"), .init("Date"), .init("Turns", alignRight: true),
                        .init("When"),
                    ],
                    rows: entries.map { ["\($0.id)", $0.name, $0.date, $0.age.map(String.init) ?? "", $0.when] },
                    caption: caption)
            }
        }
    }
}
