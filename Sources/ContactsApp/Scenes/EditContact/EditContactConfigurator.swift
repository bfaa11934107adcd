import SceneCore

/// Builds and wires the form's VIP cycle, for adding or for editing.
public enum EditContactConfigurator {
    public static func configure(context: SceneContext, factory: ContactsSceneFactory,
                                 mode: EditContact.Mode) -> EditContactViewController {
        let title: String
        switch mode {
        case .add: title = "new contact"
        case .edit: title = "edit"
        }
        let viewController = EditContactViewController(output: context.display, title: title)
        let interactor = EditContactInteractor(mode: mode, contactsWorker: factory.worker, locale: factory.environment.locale)
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
