import Foundation

/// The list's everyday tools, a use case each: `duplicates`, `merge`, `birthdays`.
public protocol ListContactsToolsBusinessLogic {
    func findDuplicates(request: ListContacts.FindDuplicates.Request)
    func mergeContacts(request: ListContacts.MergeContacts.Request)
    func showUpcomingBirthdays(request: ListContacts.UpcomingBirthdays.Request)
}

extension ListContactsInteractor: ListContactsToolsBusinessLogic {
    /// The days `birthdays` looks ahead when not told.
    public static let defaultBirthdayDays = 30

    public func findDuplicates(request: ListContacts.FindDuplicates.Request) {
        guard let toolsWorker else { return }
        do {
            toolsPresenter?.presentDuplicates(response: .init(groups: try toolsWorker.duplicates()))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    public func mergeContacts(request: ListContacts.MergeContacts.Request) {
        guard let toolsWorker else { return }
        do {
            toolsPresenter?.presentMergedContacts(response: .init(result: try toolsWorker.merge(request.references)))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    public func showUpcomingBirthdays(request: ListContacts.UpcomingBirthdays.Request) {
        guard let toolsWorker else { return }
        do {
            let (today, birthdays) = try toolsWorker.upcomingBirthdays(days: request.days)
            toolsPresenter?.presentUpcomingBirthdays(response: .init(today: today, days: request.days, birthdays: birthdays))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }
}
