public protocol ManageAccountsDisplayLogic: AnyObject {
    func displayAddedAccount(viewModel: ManageAccounts.AddAccount.ViewModel)
    func displayChangedAccount(viewModel: ManageAccounts.ChangeAccount.ViewModel)
    func displayAccounts(viewModel: ManageAccounts.ListAccounts.ViewModel)
    func displayRemovedAccount(viewModel: ManageAccounts.RemoveAccount.ViewModel)
    func displayConfirmation(viewModel: ManageAccounts.ConfirmationViewModel)
    func displayFailure(text: String)
}

/// Hands the front end's Requests to the Interactor and keeps what the cycle displayed: the front
/// end asks and waits, then shows it its own way (the command line: stdout, stderr, a question on
/// a terminal), as `contactsbook sync` reads the list's `syncedContacts`.
public final class ManageAccountsViewController: ManageAccountsDisplayLogic {
    public var interactor: ManageAccountsBusinessLogic?
    public private(set) var displayed: ManageAccounts.Displayed?

    public init() {}

    public func addAccount(request: ManageAccounts.AddAccount.Request) -> ManageAccounts.Displayed? {
        run { interactor?.addAccount(request: request) }
    }

    public func changeAccount(request: ManageAccounts.ChangeAccount.Request) -> ManageAccounts.Displayed? {
        run { interactor?.changeAccount(request: request) }
    }

    public func listAccounts(request: ManageAccounts.ListAccounts.Request) -> ManageAccounts.Displayed? {
        run { interactor?.listAccounts(request: request) }
    }

    public func removeAccount(request: ManageAccounts.RemoveAccount.Request) -> ManageAccounts.Displayed? {
        run { interactor?.removeAccount(request: request) }
    }

    private func run(_ cycle: () -> Void) -> ManageAccounts.Displayed? {
        displayed = nil
        cycle()
        return displayed
    }

    public func displayAddedAccount(viewModel: ManageAccounts.AddAccount.ViewModel) { displayed = .added(viewModel) }
    public func displayChangedAccount(viewModel: ManageAccounts.ChangeAccount.ViewModel) {
        displayed = .changed(viewModel)
    }
    public func displayAccounts(viewModel: ManageAccounts.ListAccounts.ViewModel) { displayed = .accounts(viewModel) }
    public func displayRemovedAccount(viewModel: ManageAccounts.RemoveAccount.ViewModel) {
        displayed = .removed(viewModel)
    }
    public func displayConfirmation(viewModel: ManageAccounts.ConfirmationViewModel) {
        displayed = .confirmation(viewModel)
    }
    public func displayFailure(text: String) { displayed = .failure(text) }
}
