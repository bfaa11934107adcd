import XCTest

@testable import ContactsApp

/// Photos: shown as their type and size, saved with `photo save FILE`, set with `photo FILE`
/// in the form and removed with `clear photo`, written in the card's own version (issue 25).
final class ContactPhotoTests: XCTestCase {
    /// The first bytes of a JPEG file (what phones write), enough for the type to be told.
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]) + Data("JFIF".utf8) + Data(repeating: 7, count: 2000)

    final class ContactFilesSpy: ContactFilesLogic {
        var files: [String: Data] = [:]
        var written: [(String, Data)] = []
        func read(_ path: String, limit: Int) throws -> Data {
            guard let data = files[path] else { throw ContactsFailure.badInput("cannot read \(path): no such file") }
            guard data.count <= limit else { throw ContactsFailure.badInput("too large") }
            return data
        }
        func write(_ data: Data, to path: String) throws { written.append((path, data)) }
    }

    // MARK: - Reading the card's PHOTO

    func test_photo_isReadFromEachVersionsForm() throws {
        let base64 = Self.jpeg.base64EncodedString()
        for line in [
            "PHOTO;ENCODING=b;TYPE=JPEG:" + base64, // 3.0 (Apple, Google)
            "PHOTO;JPEG;ENCODING=BASE64:" + base64, // 2.1 (Android, Outlook)
            "PHOTO:data:image/jpeg;base64," + base64,
        ] { // 4.0
            let photo = try XCTUnwrap(ContactPhoto(line: line), line)
            XCTAssertEqual(photo.data, Self.jpeg, line)
            XCTAssertEqual(photo.mediaType, "image/jpeg", line)
            XCTAssertEqual(photo.summary, "JPEG, 2 KB", line)
        }
        let link = try XCTUnwrap(ContactPhoto(line: "PHOTO;MEDIATYPE=image/png:https://example.org/ann.png"))
        XCTAssertNil(link.data)
        XCTAssertEqual(link.summary, "link: https://example.org/ann.png")
    }

    func test_detail_showsThePhotosTypeAndSize() {
        // Given
        let spy = ShowContactPresenterTests.ShowContactDisplayLogicSpy()
        let sut = ShowContactPresenter(
            formatter: ContactFormatter(timeZone: TimeZone(identifier: "UTC")!))
        sut.viewController = spy
        var contact = Seeds.stored(Seeds.Contacts.ann, id: 1)
        contact.extraProperties = ["PHOTO;ENCODING=b;TYPE=JPEG:" + Self.jpeg.base64EncodedString()]
        // When
        sut.presentFetchedContact(response: .init(contact: contact))
        // Then
        XCTAssertEqual(spy.contactViewModel?.fields.first { $0.label == "Photo" }?.value, "JPEG, 2 KB")
    }

    // MARK: - photo save FILE

    func test_photoSave_writesTheBytes_andSaysWhere() {
        // Given
        let files = ContactFilesSpy()
        let presenter = ShowContactInteractorTests.ShowContactPresentationLogicSpy()
        let sut = ShowContactInteractor(worker: Seeds.worker(Seeds.book()), files: files)
        sut.presenter = presenter
        var ann = Seeds.stored(Seeds.Contacts.ann, id: 1)
        ann.extraProperties = ["X-A:1", "PHOTO:data:image/jpeg;base64," + Self.jpeg.base64EncodedString()]
        sut.contact = ann
        // When
        sut.savePhoto(request: .init(path: "~/ann.jpg"))
        // Then
        XCTAssertEqual(files.written.map(\.0), ["~/ann.jpg"])
        XCTAssertEqual(files.written.map(\.1), [Self.jpeg])
        XCTAssertEqual(presenter.savedPhotoResponses.map(\.path), ["~/ann.jpg"])
        XCTAssertEqual(presenter.failures, [])
    }

    func test_photoSave_withoutAPhoto_orWithALink_saysSo_andWritesNothing() {
        let files = ContactFilesSpy()
        let presenter = ShowContactInteractorTests.ShowContactPresentationLogicSpy()
        let sut = ShowContactInteractor(worker: Seeds.worker(Seeds.book()), files: files)
        sut.presenter = presenter
        sut.contact = Seeds.stored(Seeds.Contacts.ann, id: 1)
        sut.savePhoto(request: .init(path: "a.jpg"))
        sut.contact?.extraProperties = ["PHOTO;VALUE=uri:https://example.org/a.jpg"]
        sut.savePhoto(request: .init(path: "a.jpg"))
        XCTAssertEqual(
            presenter.failures,
            [
                .badInput("\(Seeds.Contacts.ann.fullName) has no photo"),
                .badInput(
                    "The photo of \(Seeds.Contacts.ann.fullName) is a link, not in the card: https://example.org/a.jpg"),
            ])
        XCTAssertTrue(files.written.isEmpty)
    }

    func test_theRealFileWorker_neverReplacesAFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("a.jpg").path
        try ContactFilesWorker().write(Self.jpeg, to: path)
        XCTAssertThrowsError(try ContactFilesWorker().write(Data("other".utf8), to: path)) { error in
            XCTAssertEqual(error as? ContactsFailure, .badInput("cannot write \(path): it already exists"))
        }
        XCTAssertEqual(try ContactFilesWorker().read(path, limit: 1 << 20), Self.jpeg)
        XCTAssertThrowsError(try ContactFilesWorker().read(path, limit: 100))
    }

    // MARK: - photo FILE, clear photo

    private func form(editing contact: Contact, files: ContactFilesSpy, store: InMemoryContactStore)
        -> (EditContactInteractor, EditContactInteractorTests.EditContactPresentationLogicSpy)
    {
        let presenter = EditContactInteractorTests.EditContactPresentationLogicSpy()
        let sut = EditContactInteractor(contactsWorker: Seeds.worker(store), files: files)
        sut.mode = .edit(contact)
        sut.presenter = presenter
        return (sut, presenter)
    }

    func test_photoFile_setsThePhotoInTheCardsOwnVersion_inPlaceOfTheOldOne() throws {
        // Given: a 3.0 card from a phone, with a photo among other properties
        let card =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ann\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\nPHOTO;ENCODING=b;TYPE=GIF:R0lGODlh\r\nX-A:1\r\nEND:VCARD\r\n"
        let store = InMemoryContactStore()
        let ann = try store.insert(try XCTUnwrap(VCardReader().read(Data(card.utf8)).entries.first?.contact))
        let files = ContactFilesSpy()
        files.files["~/ann.jpg"] = Self.jpeg
        let (sut, presenter) = form(editing: ann, files: files, store: store)
        // When
        sut.setPhoto(request: .init(path: "~/ann.jpg"))
        sut.saveContact(request: .init())
        // Then
        XCTAssertEqual(presenter.photoResponses.map(\.photo.summary), ["JPEG, 2 KB"])
        let saved = try XCTUnwrap(try store.contact(id: ann.id!))
        XCTAssertEqual(
            saved.card?.lines,
            [
                "VERSION:3.0", "UID:ann", "FN:Ann Lee", "N:Lee;Ann;;;",
                "PHOTO;ENCODING=b;TYPE=JPEG:" + Self.jpeg.base64EncodedString(), "X-A:1",
            ])
        XCTAssertEqual(ContactPhoto(of: saved)?.data, Self.jpeg)
    }

    func test_clearPhoto_removesIt_andAFileThatIsNoPicture_isRefused() throws {
        let store = InMemoryContactStore()
        var ann = Seeds.Contacts.ann
        ann.extraProperties = ["PHOTO:data:image/jpeg;base64," + Self.jpeg.base64EncodedString(), "X-A:1"]
        ann = try store.insert(ann)
        let files = ContactFilesSpy()
        files.files["notes.txt"] = Data("hello".utf8)
        let (sut, presenter) = form(editing: ann, files: files, store: store)
        sut.setPhoto(request: .init(path: "notes.txt"))
        sut.setPhoto(request: .init(path: "missing.jpg"))
        sut.clearField(request: .init(name: "photo"))
        sut.saveContact(request: .init())
        XCTAssertEqual(
            presenter.failures,
            [
                .badInput("notes.txt is not a JPEG, PNG, GIF, WebP or HEIC picture"),
                .badInput("cannot read missing.jpg: no such file"),
            ])
        XCTAssertEqual(try store.contact(id: ann.id!)?.extraProperties, ["X-A:1"])
    }
}
