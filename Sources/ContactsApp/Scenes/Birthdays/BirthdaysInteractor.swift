import Foundation

/// The birthdays scene's use case: `birthdays [DAYS]`.
public protocol BirthdaysBusinessLogic {
    func showUpcomingBirthdays(request: Birthdays.UpcomingBirthdays.Request)
}

/// The storage work the birthdays scene delegates (`ContactsWorker+Tools.swift`; its seam).
public protocol BirthdaysStorageLogic {
    /// Birthdays from today through `days` days from now, soonest first; and today.
    func upcomingBirthdays(days: Int) throws -> (today: CalendarDay, birthdays: [UpcomingBirthday])
}

/// Reads the birthdays ahead, built whole by `BirthdaysConfigurator`.
public final class BirthdaysInteractor: BirthdaysBusinessLogic {
    /// The days `birthdays` looks ahead when not told.
    public static let defaultDays = 30

    let worker: BirthdaysStorageLogic
    let presenter: BirthdaysPresentationLogic

    public init(worker: BirthdaysStorageLogic, presenter: BirthdaysPresentationLogic) {
        self.worker = worker; self.presenter = presenter
    }

    public func showUpcomingBirthdays(request: Birthdays.UpcomingBirthdays.Request) {
        do {
            let (today, birthdays) = try worker.upcomingBirthdays(days: request.days)
            presenter.presentUpcomingBirthdays(response: .init(today: today, days: request.days, birthdays: birthdays))
        } catch {
            presenter.presentFailure(ContactsFailure(error))
        }
    }
}
