import SceneCore

/// Builds and wires the history scene's VIP cycle, every part given what it needs at once.
public enum HistoryConfigurator {
    public static func configure(context: SceneContext, factory: ContactsSceneFactory) -> HistoryViewController {
        let presenter = HistoryPresenter(formatter: factory.formatter)
        let interactor = HistoryInteractor(
            worker: factory.worker, journalWorker: factory.journalWorker, presenter: presenter)
        let viewController = HistoryViewController(interactor: interactor, output: context.display)
        presenter.viewController = viewController
        return viewController
    }
}
