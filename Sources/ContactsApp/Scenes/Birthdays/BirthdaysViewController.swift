import SceneCore

public protocol BirthdaysDisplayLogic: AnyObject {
    func displayUpcomingBirthdays(viewModel: Birthdays.UpcomingBirthdays.ViewModel)
    func displayMessage(_ message: Message)
}

/// The birthdays scene, shown in the list's place: the list's `birthdays` runs here
/// (`ListContactsRouter.routeToBirthdays`), so its word and method stay the list's.
public final class BirthdaysViewController: ListContactsToolScene, BirthdaysDisplayLogic {
    /// What it displays, whose JSON Schema introspection lists under the list's methods.
    static let viewModels: [any ViewModel.Type] = [Birthdays.UpcomingBirthdays.ViewModel.self]

    let interactor: BirthdaysBusinessLogic
    let output: DisplaySink

    public init(interactor: BirthdaysBusinessLogic, output: DisplaySink) {
        self.interactor = interactor; self.output = output
    }

    public func perform(_ action: ListContacts.Action, _ call: ActionCall) {
        guard action == .birthdays else { return } // the list routes only `birthdays` here
        interactor.showUpcomingBirthdays(request: .init(days: call.integer("days") ?? BirthdaysInteractor.defaultDays))
    }

    public func displayUpcomingBirthdays(viewModel: Birthdays.UpcomingBirthdays.ViewModel) { output.display(viewModel) }
    public func displayMessage(_ message: Message) { output.display(message) }
}
