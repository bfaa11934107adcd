/// Builds and wires the accounts' VIP cycle on the worker of the book opened.
public enum ManageAccountsConfigurator {
    public static func configure(worker: SyncAccountsLogic) -> ManageAccountsViewController {
        let viewController = ManageAccountsViewController()
        let interactor = ManageAccountsInteractor(worker: worker)
        let presenter = ManageAccountsPresenter()
        viewController.interactor = interactor
        interactor.presenter = presenter
        presenter.viewController = viewController
        return viewController
    }
}
