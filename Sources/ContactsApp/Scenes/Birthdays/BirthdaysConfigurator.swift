import SceneCore

/// Builds and wires the birthdays scene's VIP cycle, every part given what it needs at once.
public enum BirthdaysConfigurator {
    public static func configure(context: SceneContext, factory: ContactsSceneFactory) -> BirthdaysViewController {
        let presenter = BirthdaysPresenter(formatter: factory.formatter)
        let interactor = BirthdaysInteractor(worker: factory.worker, presenter: presenter)
        let viewController = BirthdaysViewController(interactor: interactor, output: context.display)
        presenter.viewController = viewController
        return viewController
    }
}
