import SceneCore

/// Builds and wires the duplicates scene's VIP cycle, every part given what it needs at once.
public enum DuplicatesConfigurator {
    public static func configure(context: SceneContext, factory: ContactsSceneFactory) -> DuplicatesViewController {
        let presenter = DuplicatesPresenter(formatter: factory.formatter)
        let interactor = DuplicatesInteractor(worker: factory.worker, presenter: presenter)
        let viewController = DuplicatesViewController(interactor: interactor, output: context.display)
        presenter.viewController = viewController
        return viewController
    }
}
