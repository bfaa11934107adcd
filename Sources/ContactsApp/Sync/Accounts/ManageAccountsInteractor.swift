import Foundation

public protocol ManageAccountsBusinessLogic {
    func addAccount(request: ManageAccounts.AddAccount.Request)
    func changeAccount(request: ManageAccounts.ChangeAccount.Request)
    func listAccounts(request: ManageAccounts.ListAccounts.Request)
    func removeAccount(request: ManageAccounts.RemoveAccount.Request)
}

/// The account work the Interactor delegates (its seam: tests put a spy here).
public protocol SyncAccountsLogic {
    func add(
        name: String, url: String, user: String, passwordCommand: String?, books: [String], allBooks: Bool,
        isDefault: Bool, conflicts: ConflictWinner, allowHosts: [String],
        confirm: @escaping (URL) -> Bool
    ) throws -> SyncAccount
    func books(of name: String) throws -> [AddressBook]
    func accounts() throws -> [SyncAccount]
    func update(name: String, conflicts: ConflictWinner?, makeDefault: Bool) throws -> SyncAccount
    func remove(name: String) throws -> Int
}

extension SyncAccountsWorker: SyncAccountsLogic {}

public final class ManageAccountsInteractor: ManageAccountsBusinessLogic {
    var presenter: ManageAccountsPresentationLogic?
    let worker: SyncAccountsLogic

    public init(worker: SyncAccountsLogic) { self.worker = worker }

    /// Nothing goes to a host the URL does not name until the person allows it: discovery stops
    /// there, and a yes comes back as a request allowing that host.
    public func addAccount(request: ManageAccounts.AddAccount.Request) {
        do {
            let account = try worker.add(
                name: request.name, url: request.url, user: request.user, passwordCommand: request.passwordCommand,
                books: request.books, allBooks: request.allBooks, isDefault: request.isDefault,
                conflicts: request.conflicts,
                allowHosts: request.allowHosts, confirm: { _ in false })
            presenter?.presentAddedAccount(response: .init(account: account, books: try worker.books(of: account.name)))
        } catch let failure as SyncAccountsWorker.Failure {
            if let host = failure.allowableHost, !request.allowHosts.contains(host) {
                presenter?.presentOtherHostConfirmation(response: .init(failure: failure, host: host))
            } else {
                presenter?.presentFailure(failure)
            }
        } catch {
            presenter?.presentFailure(error)
        }
    }

    public func changeAccount(request: ManageAccounts.ChangeAccount.Request) {
        do {
            let account = try worker.update(
                name: request.name, conflicts: request.conflicts, makeDefault: request.makeDefault)
            presenter?.presentChangedAccount(response: .init(account: account))
        } catch {
            presenter?.presentFailure(error)
        }
    }

    public func listAccounts(request: ManageAccounts.ListAccounts.Request) {
        do {
            presenter?.presentAccounts(response: .init(accounts: try worker.accounts()))
        } catch {
            presenter?.presentFailure(error)
        }
    }

    public func removeAccount(request: ManageAccounts.RemoveAccount.Request) {
        guard request.confirmed else {
            presenter?.presentRemoveConfirmation(response: .init(name: request.name))
            return
        }
        do {
            presenter?.presentRemovedAccount(
                response: .init(name: request.name, contacts: try worker.remove(name: request.name)))
        } catch {
            presenter?.presentFailure(error)
        }
    }
}
