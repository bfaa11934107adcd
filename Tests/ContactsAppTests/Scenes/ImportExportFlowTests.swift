import SceneCore
import SceneCoreTesting
import XCTest
@testable import ContactsApp

/// `import` and `export` as a person or a program sends them to the contacts list.
final class ImportExportFlowTests: XCTestCase {
    var sut: SceneHarness!
    var store: InMemoryContactStore!
    var directory: URL!

    override func setUp() {
        super.setUp()
        store = InMemoryContactStore()
        let uids = VCardSeeds.UIDMaker()
        let environment = ContactsEnvironment(store: store, now: { VCardSeeds.now }, makeUID: uids.make,
                                              locale: Locale(identifier: "en_US_POSIX"),
                                              timeZone: TimeZone(identifier: "UTC")!)
        sut = SceneHarness(session: ContactsSceneFactory.makeSession(environment: environment))
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ImportExportFlow-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    func test_import_reportsCountsAndEveryUnreadableCardByLine() {
        // Given
        let path = VCardSeeds.fixtures.appendingPathComponent("bad.vcf").path
        // When
        sut.send(ActionCall("import", ["path": .string(path)]))
        // Then
        sut.receive(Message(.info, "Imported \(path): 2 added, 0 updated, 0 unchanged; 6 cards could not be read", details: [
            "line  1": "not part of a card (expected BEGIN:VCARD)",
            "line 10": "not a vCard property (no ':' in 'this line has no colon')",
            "line 15": "NOTE is not valid UTF-8 text",
            "line 17": "the card has no name (N or FN) and no organisation (ORG)",
            "line 21": "the card has no END:VCARD",
            "line 29": "the card has no END:VCARD (is the file truncated?)",
        ]))
        sut.finish()
    }

    func test_exportDash_ofTheSearch_displaysTheText() {
        // Given
        _ = try? store.insert(StoreSeeds.ann)
        _ = try? store.insert(StoreSeeds.al)
        sut.send("search ann")
        sut.receive(ListContacts.FetchContacts.ViewModel.self)
        // When
        sut.send("export - vcard3 search")
        // Then
        let viewModel = sut.receive(ListContacts.ExportContacts.ViewModel.self)
        XCTAssertEqual(viewModel?.count, 1)
        XCTAssertEqual(viewModel?.mediaType, "text/vcard")
        XCTAssertEqual(viewModel?.text, VCardWriter(version: .v3).card(for: try! store.contact(id: 1)!))
        sut.finish()
    }

    func test_export_toExistingFile_isRefused_thenReplacedWithOverwrite() throws {
        // Given
        _ = try store.insert(StoreSeeds.ann)
        let path = directory.appendingPathComponent("book.csv").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        // When
        sut.send("export \(path)")
        // Then
        sut.receive(Message.error("\(path) already exists; export again with overwrite yes to replace it", code: .badInput))
        // When
        sut.send("export \(path) csv all yes")
        // Then
        sut.receive(Message.success("Exported 1 contact to \(path) as CSV"))
        XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("uid,given_name"))
        sut.finish()
    }
}
