import SceneCore
import XCTest

@testable import ContactsApp

final class ListContactsConfiguratorTests: XCTestCase {
    var fixture: SceneFactoryFixture!

    override func setUp() {
        super.setUp()
        fixture = SceneFactoryFixture()
    }

    func test_configure_wiresEveryLink() throws {
        // When
        let sut = ListContactsConfigurator.configure(context: fixture.context, factory: fixture.factory)
        // Then
        let interactor = try XCTUnwrap(sut.interactor as? ListContactsInteractor)
        let presenter = try XCTUnwrap(interactor.presenter as? ListContactsPresenter)
        let router = try XCTUnwrap(sut.router as? ListContactsRouter)
        XCTAssertTrue(presenter.viewController === sut)
        XCTAssertTrue(router.dataStore === interactor)
        XCTAssertTrue(router.navigator === fixture.navigator)
        XCTAssertTrue(router.factory === fixture.factory)
        XCTAssertTrue(interactor.worker as AnyObject === fixture.factory.worker)
        XCTAssertTrue(sut.output === fixture.display)
        XCTAssertTrue(interactor.transferWorker as AnyObject === fixture.factory.transferWorker)
        XCTAssertEqual(interactor.query.limit, 20)
        // The directories' and books' seams are the same Interactor, set here (no cast at a `search`).
        XCTAssertTrue(sut.directoryInteractor === interactor)
        XCTAssertTrue(sut.booksInteractor as AnyObject === interactor)
    }

    func test_configuredScene_routesOnTheContextsStack() throws {
        // Given
        let sut = ListContactsConfigurator.configure(context: fixture.context, factory: fixture.factory)
        // When
        sut.perform(ActionCall(ListContacts.Action.add))
        // Then: the form was pushed where the session will see it
        let form = try XCTUnwrap(fixture.navigator.pushed.first as? EditContactViewController)
        XCTAssertEqual(form.router?.dataStore?.mode, .add)
    }

    func test_backReferences_areWeak() throws {
        // Given
        var sut: ListContactsViewController? = ListContactsConfigurator.configure(
            context: fixture.context, factory: fixture.factory)
        weak let weakViewController = sut
        let presenter = try XCTUnwrap((sut?.interactor as? ListContactsInteractor)?.presenter as? ListContactsPresenter)
        // When: only the cycle's own references remain
        sut = nil
        // Then
        XCTAssertNil(weakViewController)
        XCTAssertNil(presenter.viewController)
    }
}
