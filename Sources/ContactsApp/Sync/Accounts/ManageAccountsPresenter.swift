import SceneCore

public protocol ManageAccountsPresentationLogic {
    func presentAddedAccount(response: ManageAccounts.AddAccount.Response)
    func presentOtherHostConfirmation(response: ManageAccounts.AddAccount.OtherHostResponse)
    func presentChangedAccount(response: ManageAccounts.ChangeAccount.Response)
    func presentAccounts(response: ManageAccounts.ListAccounts.Response)
    func presentRemoveConfirmation(response: ManageAccounts.RemoveAccount.ConfirmationResponse)
    func presentRemovedAccount(response: ManageAccounts.RemoveAccount.Response)
    func presentFailure(_ error: Error)
}

/// The accounts' words, `SyncPresenter`'s as the list's sync uses them.
public final class ManageAccountsPresenter: ManageAccountsPresentationLogic {
    weak var viewController: ManageAccountsDisplayLogic?
    private let words = SyncPresenter()

    public init() {}

    public func presentAddedAccount(response: ManageAccounts.AddAccount.Response) {
        viewController?.displayAddedAccount(
            viewModel: .init(text: words.added(response.account, books: response.books)))
    }

    /// "The server sends account home to https://…, another host than dav.example.org. Send the password there?"
    public func presentOtherHostConfirmation(response: ManageAccounts.AddAccount.OtherHostResponse) {
        guard case .otherOrigin(let account, let given, let found) = response.failure else {
            return presentFailure(response.failure)
        }
        let refusal = "\(response.failure)"
        viewController?.displayConfirmation(
            viewModel: .init(
                question: TerminalText.sanitize(
                    "The server sends account \(account) to \(found.absoluteString), another host "
                        + "than \(given.hostAndPort). Send the password there?"),
                declined: .error(refusal, code: .invalidState), refusal: refusal, allowHost: response.host))
    }

    public func presentChangedAccount(response: ManageAccounts.ChangeAccount.Response) {
        viewController?.displayChangedAccount(viewModel: .init(text: words.updated(response.account)))
    }

    public func presentAccounts(response: ManageAccounts.ListAccounts.Response) {
        viewController?.displayAccounts(viewModel: .init(text: words.accounts(response.accounts)))
    }

    public func presentRemoveConfirmation(response: ManageAccounts.RemoveAccount.ConfirmationResponse) {
        viewController?.displayConfirmation(
            viewModel: .init(
                question: "Remove account \(response.name)? Its contacts stay in the book, local-only.",
                declined: .info("Kept account \(response.name)."),
                refusal: "removing account \(response.name) needs --yes (stdin is not a terminal)"))
    }

    public func presentRemovedAccount(response: ManageAccounts.RemoveAccount.Response) {
        viewController?.displayRemovedAccount(
            viewModel: .init(text: words.removed(response.name, contacts: response.contacts)))
    }

    /// A worker's failure in its own words (`SyncAccountsWorker.Failure`), anything else as it describes itself.
    public func presentFailure(_ error: Error) {
        viewController?.displayFailure(text: "\(error)")
    }
}
