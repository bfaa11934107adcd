import SceneCore
import XCTest

@testable import ContactsApp

final class EditContactConfiguratorTests: XCTestCase {
    var fixture: SceneFactoryFixture!

    override func setUp() {
        super.setUp()
        fixture = SceneFactoryFixture()
    }

    func test_configure_wiresEveryLink() throws {
        // When
        let sut = EditContactConfigurator.configure(context: fixture.context, factory: fixture.factory)
        // Then
        let interactor = try XCTUnwrap(sut.interactor as? EditContactInteractor)
        let presenter = try XCTUnwrap(interactor.presenter as? EditContactPresenter)
        let router = try XCTUnwrap(sut.router as? EditContactRouter)
        XCTAssertTrue(presenter.viewController === sut)
        XCTAssertTrue(router.dataStore === interactor)
        XCTAssertTrue(router.navigator === fixture.navigator)
        XCTAssertTrue(interactor.contactsWorker as AnyObject === fixture.factory.worker)
        XCTAssertTrue(sut.output === fixture.display)
        XCTAssertEqual(interactor.mode, .add)
        XCTAssertEqual(sut.title, "new contact")
    }

    func test_configure_forEditing_startsFromTheContactPassedIn() throws {
        // Given
        let ann = Seeds.stored(Seeds.Contacts.ann, id: 1)
        let sut = EditContactConfigurator.configure(context: fixture.context, factory: fixture.factory)
        // When: a Router passes the contact to edit into its DataStore
        sut.router?.dataStore?.mode = .edit(ann)
        // Then
        let interactor = try XCTUnwrap(sut.interactor as? EditContactInteractor)
        XCTAssertEqual(interactor.mode, .edit(ann))
        XCTAssertEqual(interactor.draft, EditContactWorker().draft(from: ann))
        XCTAssertEqual(sut.title, "edit")
    }

    func test_backReferences_areWeak() throws {
        // Given
        var sut: EditContactViewController? = EditContactConfigurator.configure(
            context: fixture.context, factory: fixture.factory)
        weak let weakViewController = sut
        let presenter = try XCTUnwrap((sut?.interactor as? EditContactInteractor)?.presenter as? EditContactPresenter)
        // When
        sut = nil
        // Then
        XCTAssertNil(weakViewController)
        XCTAssertNil(presenter.viewController)
    }
}
