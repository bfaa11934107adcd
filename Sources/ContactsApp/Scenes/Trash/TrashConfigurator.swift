import SceneCore

/// Builds and wires the trash scene's VIP cycle, every part given what it needs at once.
public enum TrashConfigurator {
    public static func configure(context: SceneContext, factory: ContactsSceneFactory) -> TrashViewController {
        let presenter = TrashPresenter(formatter: factory.formatter)
        let interactor = TrashInteractor(journalWorker: factory.journalWorker, presenter: presenter)
        let viewController = TrashViewController(interactor: interactor, output: context.display)
        presenter.viewController = viewController
        return viewController
    }
}
