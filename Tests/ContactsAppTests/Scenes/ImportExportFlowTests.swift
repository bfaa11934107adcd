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
        let environment = ContactsEnvironment(
            store: store, now: { VCardSeeds.now }, makeUID: uids.make,
            locale: Locale(identifier: "en_US_POSIX"),
            timeZone: TimeZone(identifier: "UTC")!)
        sut = SceneHarness(session: ContactsSceneFactory.makeSession(environment: environment))
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ImportExportFlow-\(UUID().uuidString)")
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
        sut.send(ActionCall(ListContacts.Action.import, ["path": .string(path)]))
        // Then
        // Then: 7 cards: 4 added, 3 unreadable; each change named by the line of its value, and
        // the FN (and N) an export adds to a card without by the card's
        sut.receive(
            Message(
                .info,
                "Imported \(path): 4 added, 0 updated, 0 unchanged; 2 cards without a UID of its own given a new one; "
                    + "3 cards could not be read; 1 line outside any card skipped; 7 changes made in reading",
                details: [
                    "line  1": "a line outside any card (expected BEGIN:VCARD): skipped",
                    "line  2": "no FN (display name): an export writes FN:One Good (vCard 3.0 and 4.0 require FN)",
                    "line 10": "not a vCard property (no ':' in 'this line has no colon')",
                    "line 12": "no FN (display name): an export writes FN:Bytes Bad (vCard 3.0 and 4.0 require FN)",
                    "line 15": "NOTE: bytes not valid in UTF-8 and no CHARSET: read as Windows-1252",
                    "line 17":
                        "no FN (display name): an export writes FN:nobody@example.org (vCard 3.0 and 4.0 require FN); no N (name parts): "
                        + "an export writes N:;nobody@example.org;;; beside the FN (3.0 requires N; in 4.0 it keeps the name's parts)",
                    "line 19": "the card has no name (N, FN or ORG): named \"nobody@example.org\" after its EMAIL",
                    "line 24": "no FN (display name): an export writes FN:Two Good (vCard 3.0 and 4.0 require FN)",
                    "line 21": "the card has no END:VCARD",
                    "line 29": "the card has no END:VCARD (is the file truncated?)",
                ]))
        sut.finish()
    }

    func test_import_ofAFileThatGivesNoContact_isAnError_namingWhy() throws {
        // Given: one card cut off, after a line that is no card
        let path = directory.appendingPathComponent("cut.vcf").path
        try Data("hello\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Lee\r\n".utf8).write(to: URL(fileURLWithPath: path))
        // When
        sut.send(ActionCall(ListContacts.Action.import, ["path": .string(path)]))
        // Then: one card, and it could not be read (not "2 cards")
        sut.receive(
            Message.error(
                "Nothing imported from \(path): 1 card could not be read; 1 line outside any card skipped",
                code: .badInput,
                details: [
                    "line 1": "a line outside any card (expected BEGIN:VCARD): skipped",
                    "line 2": "the card has no END:VCARD (is the file truncated?)",
                ]))
        sut.finish()
    }

    func test_import_keepsAnInvalidEmail_andWarnsByLine() throws {
        // Given a card whose EMAIL is not an address, after a good card
        let path = directory.appendingPathComponent("two.vcf").path
        try Data(
            ("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bo Ek\r\nN:Ek;Bo;;;\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\nEMAIL:not-an-email\r\nEND:VCARD\r\n")
                .utf8
        )
        .write(to: URL(fileURLWithPath: path))
        // When
        sut.send(ActionCall(ListContacts.Action.import, ["path": .string(path)]))
        // Then both are added, and the value is named by its own line
        sut.receive(
            Message(
                .info,
                "Imported \(path): 2 added, 0 updated, 0 unchanged; 2 cards without a UID of its own given a new one; 1 value kept but not valid",
                details: ["line 10": "EMAIL \"not-an-email\" is not an email address (kept)"]))
        sut.finish()
        // And the value is kept as it was
        XCTAssertEqual(
            try store.page(ContactQuery(search: "ann")).contacts.first?.emails.map(\.value), ["not-an-email"])
    }

    func test_importOfAFolder_readsEveryVCardFile_andNamesTheFileOfEachProblem() throws {
        // Given a vdir as khard keeps it: one card per .vcf file, and a file that is not a card
        let folder = directory.appendingPathComponent("vdir")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func card(_ uid: String, _ name: String, _ extra: String = "") -> String {
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name)\r\nN:\(name);;;;\r\n\(extra)END:VCARD\r\n"
        }
        try Data(card("a", "Ann").utf8).write(to: folder.appendingPathComponent("a.vcf"))
        try Data(card("b", "Bo", "EMAIL:bo-at-home\r\n").utf8).write(to: folder.appendingPathComponent("b.VCF"))
        try Data("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:c\r\n".utf8).write(to: folder.appendingPathComponent("c.vcf"))
        try Data("not a card".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        // When
        sut.send(ActionCall(ListContacts.Action.import, ["path": .string(folder.path)]))
        // Then the .vcf files are read in name order, each problem named by file and line
        sut.receive(
            Message(
                .info,
                "Imported \(folder.path) (3 .vcf files): 2 added, 0 updated, 0 unchanged; 1 card could not be read; 1 value kept but not valid",
                details: [
                    "b.VCF line 6": "EMAIL \"bo-at-home\" is not an email address (kept)",
                    "c.vcf line 1": "the card has no END:VCARD (is the file truncated?)",
                ]))
        sut.finish()
        XCTAssertEqual(try store.page(ContactQuery()).total, 2)
    }

    func test_importOfAFolder_withoutVCardFiles_orAsCSV_isRefused() throws {
        // Given an empty folder
        let folder = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // When / Then
        sut.send(ActionCall(ListContacts.Action.import, ["path": .string(folder.path)]))
        sut.receive(Message.error("\(folder.path) is a folder with no .vcf files in it", code: .badInput))
        sut.send(ActionCall(ListContacts.Action.import, ["path": .string(folder.path), "format": .string("csv")]))
        sut.receive(
            Message.error("\(folder.path) is a folder: its .vcf files are read as vCard, not csv", code: .badInput))
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
        // Then the refusal gives the command that replaces it
        let hint = "export \(path) csv all yes"
        sut.receive(Message.error("\(path) already exists; to replace it: \(hint)", code: .badInput))
        // When that command is typed as given
        sut.send(hint)
        // Then
        sut.receive(Message.success("Exported 1 contact to \(path) as CSV"))
        XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("uid,given_name"))
        sut.finish()
    }

    func test_export_refusedForAPathWithSpaces_hintQuotesIt_andTheHintWorks() throws {
        // Given a file with a space and an apostrophe in its name, and a search
        _ = try store.insert(StoreSeeds.ann)
        let path = directory.appendingPathComponent("Ann's book.vcf").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        sut.send("search ann")
        sut.receive(ListContacts.FetchContacts.ViewModel.self)
        // When
        sut.send("export \"\(path)\" vcard3 search")
        // Then the hint quotes the path and keeps the format and the contacts asked for
        let quoted = "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let hint = "export \(quoted) vcard3 search yes"
        sut.receive(Message.error("\(path) already exists; to replace it: \(hint)", code: .badInput))
        // When the hint is typed as given
        sut.send(hint)
        // Then the file is replaced
        sut.receive(Message.success("Exported 1 contact to \(path) as vCard 3.0"))
        XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("BEGIN:VCARD"))
        sut.finish()
    }
}
