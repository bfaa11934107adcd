import SceneCore

/// Builds and wires the form's VIP cycle. What it is for (add, or edit a contact) is passed into
/// its DataStore by the Router that opens it (`EditContactDataStore.mode`).
public enum EditContactConfigurator {
    public static func configure(context: SceneContext, factory: ContactsSceneFactory) -> EditContactViewController {
        let viewController = EditContactViewController(output: context.display)
        let interactor = EditContactInteractor(contactsWorker: factory.worker, locale: factory.environment.locale)
        let presenter = EditContactPresenter(formatter: factory.formatter)
        let router = EditContactRouter(navigator: context.navigator)
        viewController.interactor = interactor
        viewController.router = router
        interactor.presenter = presenter
        presenter.viewController = viewController
        router.dataStore = interactor
        return viewController
    }
}
