import SceneCore

/// Builds and wires the detail scene's VIP cycle.
public enum ShowContactConfigurator {
    public static func configure(context: SceneContext, factory: ContactsSceneFactory) -> ShowContactViewController {
        let viewController = ShowContactViewController(output: context.display)
        let interactor = ShowContactInteractor(worker: factory.worker, journalWorker: factory.journalWorker)
        let presenter = ShowContactPresenter(formatter: factory.formatter)
        let router = ShowContactRouter(navigator: context.navigator, factory: factory)
        viewController.interactor = interactor
        viewController.router = router
        interactor.presenter = presenter
        interactor.groupsWorker = factory.worker
        presenter.viewController = viewController
        router.dataStore = interactor
        return viewController
    }
}
