import SceneCore

public protocol BirthdaysPresentationLogic {
    func presentUpcomingBirthdays(response: Birthdays.UpcomingBirthdays.Response)
    func presentFailure(_ failure: ContactsFailure)
}

/// Birthdays soonest first, with the age turned and how far away.
public final class BirthdaysPresenter: BirthdaysPresentationLogic {
    weak var viewController: BirthdaysDisplayLogic?
    let formatter: ContactFormatter

    public init(formatter: ContactFormatter) { self.formatter = formatter }

    public func presentUpcomingBirthdays(response: Birthdays.UpcomingBirthdays.Response) {
        let entries = response.birthdays.map { upcoming in
            Birthdays.UpcomingBirthdays.ViewModel.Entry(
                id: upcoming.contact.id ?? 0, name: formatter.displayName(upcoming.contact),
                date: upcoming.date.isoString,
                age: upcoming.age, daysAway: upcoming.daysAway, when: when(upcoming.daysAway))
        }
        let span =
            response.days == 0
            ? "today" : response.days == 1 ? "today or tomorrow" : "in the next \(response.days) days"
        let caption =
            entries.isEmpty
            ? "No birthdays \(span)"
            : (entries.count == 1 ? "1 birthday" : "\(entries.count) birthdays") + " \(span)"
        viewController?.displayUpcomingBirthdays(
            viewModel: .init(
                today: response.today.isoString, days: response.days, entries: entries, caption: caption))
    }

    private func when(_ daysAway: Int) -> String {
        switch daysAway {
        case 0: return "today"
        case 1: return "tomorrow"
        default: return "in \(daysAway) days"
        }
    }

    public func presentFailure(_ failure: ContactsFailure) {
        viewController?.displayMessage(formatter.message(for: failure))
    }
}
