import SceneCore

/// Builds and wires the list's VIP cycle.
public enum ListContactsConfigurator {
    public static func configure(context: SceneContext, factory: ContactsSceneFactory) -> ListContactsViewController {
        let viewController = ListContactsViewController(output: context.display)
        let interactor = ListContactsInteractor(
            worker: factory.worker, transferWorker: factory.transferWorker, journalWorker: factory.journalWorker,
            syncWorker: factory.syncWorker, groupsWorker: factory.worker, booksWorker: factory.worker,
            directoryWorker: factory.directoryWorker,
            pageSize: factory.environment.pageSize)
        let presenter = ListContactsPresenter(formatter: factory.formatter)
        let router = ListContactsRouter(navigator: context.navigator, factory: factory)
        viewController.interactor = interactor
        viewController.groupsInteractor = interactor
        viewController.booksInteractor = interactor
        viewController.directoryInteractor = interactor
        viewController.router = router
        interactor.presenter = presenter
        interactor.groupsPresenter = presenter
        interactor.directoryPresenter = presenter
        interactor.booksPresenter = presenter
        presenter.viewController = viewController
        presenter.groupsViewController = viewController
        presenter.booksViewController = viewController
        router.dataStore = interactor
        return viewController
    }
}
