import SceneCore
import XCTest

@testable import ContactsApp

final class ShowContactConfiguratorTests: XCTestCase {
    var fixture: SceneFactoryFixture!

    override func setUp() {
        super.setUp()
        fixture = SceneFactoryFixture()
    }

    func test_configure_wiresEveryLink() throws {
        // When
        let sut = ShowContactConfigurator.configure(context: fixture.context, factory: fixture.factory)
        // Then
        let interactor = try XCTUnwrap(sut.interactor as? ShowContactInteractor)
        let presenter = try XCTUnwrap(interactor.presenter as? ShowContactPresenter)
        let router = try XCTUnwrap(sut.router as? ShowContactRouter)
        XCTAssertTrue(presenter.viewController === sut)
        XCTAssertTrue(router.dataStore === interactor)
        XCTAssertTrue(router.navigator === fixture.navigator)
        XCTAssertTrue(router.factory === fixture.factory)
        XCTAssertTrue(interactor.worker as AnyObject === fixture.factory.worker)
        XCTAssertTrue(sut.output === fixture.display)
    }

    func test_backReferences_areWeak() throws {
        // Given
        var sut: ShowContactViewController? = ShowContactConfigurator.configure(
            context: fixture.context, factory: fixture.factory)
        weak let weakViewController = sut
        let presenter = try XCTUnwrap((sut?.interactor as? ShowContactInteractor)?.presenter as? ShowContactPresenter)
        // When
        sut = nil
        // Then
        XCTAssertNil(weakViewController)
        XCTAssertNil(presenter.viewController)
    }
}
