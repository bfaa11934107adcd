import SceneCore
import XCTest

@testable import ContactsApp

final class ImportExportWorkerTests: XCTestCase {
    var sut: ImportExportWorker!
    var store: InMemoryContactStore!
    var directory: URL!
    var clock = VCardSeeds.now

    override func setUp() {
        super.setUp()
        store = InMemoryContactStore()
        let uids = VCardSeeds.UIDMaker()
        sut = ImportExportWorker(
            environment: ContactsEnvironment(
                store: store, now: { [unowned self] in clock }, makeUID: uids.make,
                locale: Locale(identifier: "en_US_POSIX"), timeZone: TimeZone(identifier: "UTC")!),
            exportPageSize: 2)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ImportExport-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    private func everyone() throws -> [Contact] { try store.page(ContactQuery(sort: .last, limit: 1000)).contacts }

    // MARK: - Import

    func test_import_addsEveryCard_andGivesMissingAndRepeatedUIDsNewOnes() throws {
        // When
        let report = try sut.importContacts(VCardSeeds.fixture("rfc6350-4.0.vcf"), format: .vcard)
        // Then
        XCTAssertEqual(report.added, 4)
        XCTAssertEqual(report.newUIDs, 2)
        let uids = try everyone().map(\.uid)
        XCTAssertEqual(Set(uids).count, 4, "four people, four UIDs")
        XCTAssertTrue(uids.contains("urn:uuid:6f0c1d3e-emile"))
        XCTAssertEqual(try everyone().first { $0.uid == "same-uid" }?.familyName, "First")
        let second = try XCTUnwrap(everyone().first { $0.familyName == "Second" })
        XCTAssertTrue(second.uid.hasPrefix("urn:uuid:"), second.uid)
        XCTAssertNotEqual(second.uid, "same-uid")
    }

    func test_reimport_ofCardsWithoutOrWithRepeatedUIDs_addsNothingTwice() throws {
        // Given a file with a card without a UID and two different people sharing one
        _ = try sut.importContacts(VCardSeeds.fixture("rfc6350-4.0.vcf"), format: .vcard)
        // When the same file is imported again
        let again = try sut.importContacts(VCardSeeds.fixture("rfc6350-4.0.vcf"), format: .vcard)
        // Then the cards find the contacts they made the first time
        XCTAssertEqual(again.added, 0)
        XCTAssertEqual(again.unchanged, 4)
        XCTAssertEqual(try everyone().count, 4)
    }

    func test_derivedUID_isStable_distinct_andSkipsTakenOnes() {
        // Given two people without UIDs
        let ann = Contact(givenName: "Ann", familyName: "Lee"), bob = Contact(givenName: "Bob", familyName: "Lee")
        // When / Then
        XCTAssertEqual(
            DerivedUID.make(for: ann, isTaken: { _ in false }), DerivedUID.make(for: ann, isTaken: { _ in false }))
        XCTAssertNotEqual(
            DerivedUID.make(for: ann, isTaken: { _ in false }), DerivedUID.make(for: bob, isTaken: { _ in false }))
        let first = DerivedUID.make(for: ann, isTaken: { _ in false })
        let twin = DerivedUID.make(for: ann, isTaken: { $0 == first })
        XCTAssertNotEqual(twin, first)
        XCTAssertNotNil(UUID(uuidString: String(first.dropFirst("urn:uuid:".count))), first)
    }

    func test_import_reportsProgress_andAnnouncesTheNewContacts() throws {
        // Given spies for progress and changes
        let progressSpy = ProgressReporterSpy(), changesSpy = ChangeNotifierSpy()
        sut = ImportExportWorker(
            environment: ContactsEnvironment(
                store: store, now: { VCardSeeds.now }, makeUID: VCardSeeds.UIDMaker().make,
                changes: changesSpy, progress: progressSpy))
        // When
        _ = try sut.importContacts(VCardSeeds.fixture("rfc6350-4.0.vcf"), format: .vcard)
        // Then
        XCTAssertEqual(
            progressSpy.events,
            [
                .begin(title: "Importing contacts", total: nil),
                .report(completed: 0, total: 4, message: "read 4 cards, saving"),
                .report(completed: 4, total: 4, message: "saved"),
                .end(message: nil),
            ])
        let ids = try everyone().compactMap(\.id).sorted().map(String.init)
        XCTAssertEqual(changesSpy.changes, [DataChange(topic: "contacts", kind: "created", ids: ids)])
    }

    func test_import_ofMoreContactsThanANoticeNames_announcesOneReload() throws {
        // Given a file of one contact more than a notice names
        let changesSpy = ChangeNotifierSpy()
        sut = ImportExportWorker(
            environment: ContactsEnvironment(
                store: store, now: { VCardSeeds.now }, makeUID: VCardSeeds.UIDMaker().make, changes: changesSpy))
        let count = ContactLimits.maximumNoticeIDs + 1
        let cards = (0..<count).map {
            "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:u\($0)\r\nFN:Ann \($0)\r\nN:\($0);Ann;;;\r\nEND:VCARD\r\n"
        }
        // When
        let report = try sut.importContacts(Data(cards.joined().utf8), format: .vcard)
        // Then: every contact is in, and clients are told to read the list again rather than sent 1,001 ids
        XCTAssertEqual(report.added, count)
        XCTAssertEqual(changesSpy.changes, [DataChange(topic: "contacts", kind: "reload", ids: [])])
    }

    func test_contactNotices_nameTheirIdsUpToTheLimit_andLeaveOutEmptyOnes() {
        // Given
        let limit = ContactLimits.maximumNoticeIDs
        // When / Then
        XCTAssertEqual(
            DataChange.contacts([("created", [1, 2]), ("updated", []), ("deleted", [3])]),
            [
                DataChange(topic: "contacts", kind: "created", ids: ["1", "2"]),
                DataChange(topic: "contacts", kind: "deleted", ids: ["3"]),
            ])
        XCTAssertEqual(DataChange.contacts([("created", Array(1...Int64(limit)))]).first?.ids.count, limit)
        XCTAssertEqual(
            DataChange.contacts([("created", [1]), ("updated", Array(1...Int64(limit + 1)))]),
            [DataChange(topic: "contacts", kind: "reload", ids: [])])
        XCTAssertEqual(DataChange.contacts([("created", [])]), [])
    }

    func test_import_thatFails_stillEndsItsProgress_andAnnouncesNothing() throws {
        // Given
        let progressSpy = ProgressReporterSpy(), changesSpy = ChangeNotifierSpy()
        sut = ImportExportWorker(
            environment: ContactsEnvironment(
                store: FailingContactStore(), now: { VCardSeeds.now }, makeUID: { "x" }, changes: changesSpy,
                progress: progressSpy))
        // When
        XCTAssertThrowsError(try sut.importContacts(VCardSeeds.fixture("rfc6350-4.0.vcf"), format: .vcard))
        // Then
        XCTAssertEqual(progressSpy.events.last, .end(message: nil))
        XCTAssertEqual(changesSpy.changes, [])
    }

    final class ProgressReporterSpy: ProgressReporter {
        var events: [ProgressEvent] = []
        func post(_ event: ProgressEvent) { events.append(event) }
    }

    final class ChangeNotifierSpy: ChangeNotifier {
        var changes: [DataChange] = []
        func post(_ change: DataChange) { changes.append(change) }
    }

    func test_reimport_sameFile_skipsIdenticalCards_andUpdatesChangedOnes() throws {
        // Given
        _ = try sut.importContacts(VCardSeeds.fixture("apple-3.0.vcf"), format: .vcard)
        let changed = String(decoding: VCardSeeds.fixture("apple-3.0.vcf"), as: UTF8.self)
            .replacingOccurrences(of: "TITLE:Chief Scientist", with: "TITLE:Director")
        clock = VCardSeeds.later
        // When
        let report = try sut.importContacts(Data(changed.utf8), format: .vcard)
        // Then
        XCTAssertEqual([report.added, report.updated, report.unchanged], [0, 1, 1])
        let ann = try XCTUnwrap(try everyone().first { $0.uid == "apple-ann-1" })
        XCTAssertEqual(ann.title, "Director")
        XCTAssertEqual(ann.createdAt, VCardSeeds.now)
        XCTAssertEqual(ann.updatedAt, VCardSeeds.later)
        XCTAssertEqual(ann.version, 2)
    }

    func test_import_badFile_importsReadableCards_reportsTheRest_andKeepsWhatWasStored() throws {
        // Given
        let kept = try store.insert(StoreSeeds.full)
        // When
        let report = try sut.importContacts(VCardSeeds.fixture("bad.vcf"), format: .vcard)
        // Then
        XCTAssertEqual(report.added, 4)
        XCTAssertEqual(report.problems.map(\.line), [10, 21, 29])
        XCTAssertEqual(report.problemCount, 3)
        // 1 skipped; 15 and 19 changed in reading; 2, 12, 17 (FN and N) and 24 have no FN for an export to keep.
        XCTAssertEqual(report.warnings.map(\.line), [1, 2, 12, 15, 19, 17, 17, 24])
        XCTAssertEqual([report.skippedLines, report.invalidValues, report.changes], [1, 0, 7])
        XCTAssertFalse(report.readNothing)
        XCTAssertEqual(try store.contact(id: kept.id!), kept)
    }

    func test_import_ofManyBadRows_keepsTheFirstProblems_andCountsThemAll() throws {
        // Given: a CSV of 2,500 rows without a name, then one person
        let csv = "given_name,family_name,notes\r\n" + String(repeating: ",,nobody\r\n", count: 2_500) + "Ann,Lee,\r\n"
        // When
        let report = try sut.importContacts(Data(csv.utf8), format: .csv)
        // Then: every bad row counted, the first ones kept with their lines, the person saved
        XCTAssertEqual(report.added, 1)
        XCTAssertEqual(report.problemCount, 2_500)
        XCTAssertEqual(report.problems.count, ContactLimits.maximumProblemsKept)
        XCTAssertEqual(report.problems.first?.line, 2)
        XCTAssertEqual(report.problems.last?.line, 1 + ContactLimits.maximumProblemsKept)
    }

    func test_import_whenStoreFails_storesNothing() throws {
        // Given
        let failing = ContactStoreSpy()
        sut = ImportExportWorker(
            environment: ContactsEnvironment(store: failing, now: { VCardSeeds.now }, makeUID: { "x" }))
        // When
        XCTAssertThrowsError(try sut.importContacts(VCardSeeds.fixture("apple-3.0.vcf"), format: .vcard)) { error in
            // Then
            XCTAssertEqual(error as? ContactsFailure, .storage("disk full"))
        }
        XCTAssertEqual(failing.importCalls, 1)
        XCTAssertEqual(failing.importedInserts.map(\.uid), ["apple-ann-1", "apple-globex"])
        XCTAssertEqual(try failing.page(ContactQuery()).total, 0)
    }

    func test_import_missingFile_isBadInput() {
        XCTAssertThrowsError(try sut.importFile(at: directory.appendingPathComponent("none.vcf").path, format: .auto)) {
            error in
            guard case ContactsFailure.badInput(let text)? = error as? ContactsFailure else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(text.hasPrefix("cannot read"), text)
        }
    }

    // MARK: - Export

    func test_export_pagesThroughTheBook_andRoundTripsWithUnknownProperties() throws {
        // Given
        _ = try sut.importContacts(
            VCardSeeds.fixture("apple-3.0.vcf") + VCardSeeds.fixture("rfc6350-4.0.vcf"), format: .vcard)
        let before = try everyone()
        let path = directory.appendingPathComponent("book.vcf").path
        // When
        let report = try sut.export(search: "", format: .vcard4, to: path, overwrite: false)
        let fresh = InMemoryContactStore()
        let reader = ImportExportWorker(
            environment: ContactsEnvironment(store: fresh, now: { VCardSeeds.now }, makeUID: { "unused" }))
        let again = try reader.importFile(at: path, format: .auto)
        // Then
        XCTAssertEqual(report.count, 6)
        XCTAssertEqual(again.added, 6)
        XCTAssertEqual(again.newUIDs, 0)
        let after = try fresh.page(ContactQuery(sort: .last, limit: 1000)).contacts
        XCTAssertEqual(after.map(\.uid), before.map(\.uid))
        // The 4.0 cards' kept properties come back as they were; the 3.0 ones in their 4.0 forms
        XCTAssertEqual(before.filter { $0.card?.version == .v4 }.count, 4)
        for (a, b) in zip(after, before) where b.card?.version == .v4 {
            XCTAssertEqual(a.extraProperties, b.extraProperties, b.uid)
        }
        XCTAssertEqual(after.first { $0.uid == "apple-globex" }?.extraProperties, ["KIND:org"])
        XCTAssertEqual(after.map(\.extraProperties.count), before.map(\.extraProperties.count))
        XCTAssertEqual(after.map(\.phones), before.map(\.phones))
        XCTAssertEqual(after.map(\.birthday), before.map(\.birthday))
    }

    func test_export_reportsProgress() throws {
        // Given three contacts, exported two per page
        for name in ["Ann", "Bob", "Cy"] {
            _ = try store.insert(Contact(uid: name, givenName: name, familyName: "Lee"))
        }
        let progressSpy = ProgressReporterSpy()
        sut = ImportExportWorker(
            environment: ContactsEnvironment(
                store: store, now: { VCardSeeds.now },
                progress: progressSpy), exportPageSize: 2)
        // When
        let report = try sut.export(search: "", format: .vcard4, to: "-", overwrite: false)
        // Then: the total first, then the end (fewer than a step's worth of contacts in between)
        XCTAssertEqual(report.count, 3)
        XCTAssertEqual(
            progressSpy.events,
            [
                .begin(title: "Exporting contacts", total: 3),
                .report(completed: 3, total: 3, message: "written"),
                .end(message: nil),
            ])
    }

    func test_export_ofManyContacts_reportsEveryStep() throws {
        // Given more contacts than one progress step
        let count = ImportExportWorker.exportProgressStep + 5
        _ = try store.importContacts(
            inserting: (0..<count).map { Contact(uid: "u\($0)", givenName: "N\($0)") }, updating: [])
        let progressSpy = ProgressReporterSpy()
        sut = ImportExportWorker(
            environment: ContactsEnvironment(
                store: store, now: { VCardSeeds.now },
                progress: progressSpy), exportPageSize: 500)
        // When
        _ = try sut.export(search: "", format: .csv, to: "-", overwrite: false)
        // Then
        XCTAssertEqual(
            progressSpy.events,
            [
                .begin(title: "Exporting contacts", total: count),
                .report(completed: 2_000, total: count, message: nil),
                .report(completed: count, total: count, message: "written"),
                .end(message: nil),
            ])
    }

    func test_export_thatFails_stillEndsItsProgress() throws {
        // Given
        let progressSpy = ProgressReporterSpy()
        sut = ImportExportWorker(environment: ContactsEnvironment(store: FailingContactStore(), progress: progressSpy))
        // When
        XCTAssertThrowsError(try sut.export(search: "", format: .vcard4, to: "-", overwrite: false))
        // Then: either nothing began, or what began ended
        XCTAssertEqual(
            progressSpy.events.filter { if case .begin = $0 { return true } else { return false } }.count,
            progressSpy.events.filter { $0 == .end(message: nil) }.count)
    }

    func test_export_refusesToOverwrite_unlessAsked_andLeavesNoTemporaryFile() throws {
        // Given
        _ = try store.insert(StoreSeeds.full)
        let path = directory.appendingPathComponent("book.vcf").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        // When
        XCTAssertThrowsError(try sut.export(search: "", format: .vcard4, to: path, overwrite: false))
        // Then
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "keep me")
        // When
        _ = try sut.export(search: "", format: .vcard3, to: path, overwrite: true)
        // Then
        XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\n"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["book.vcf"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
    }

    func test_export_toDash_returnsTextOfTheSearchOnly() throws {
        // Given
        for contact in StoreSeeds.book { _ = try store.insert(contact) }
        // When
        let report = try sut.export(search: "lee", format: .vcard4, to: "-", overwrite: false)
        // Then
        XCTAssertNil(report.path)
        XCTAssertEqual(report.count, 2)
        XCTAssertEqual(report.text?.components(separatedBy: "BEGIN:VCARD").count, 3)
    }

    func test_export_namesWhatWritingChanged_perKind_withCountsAndContacts() throws {
        // Given: two 3.0 cards with a CLASS (4.0 has none), one without FN, and one from the fields
        let cards =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ann\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\nCLASS:PUBLIC\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bob\r\nN:Stone;Bob;;;\r\nCLASS:PRIVATE\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:cy\r\nFN:Cy Ito\r\nN:Ito;Cy;;;\r\nEMAIL;TYPE=INTERNET,PREF:cy@example.org\r\nEND:VCARD\r\n"
        _ = try sut.importContacts(Data(cards.utf8), format: .vcard)
        _ = try store.insert(Contact(uid: "dee", givenName: "Dee", familyName: "Moss"))
        let ids = Dictionary(uniqueKeysWithValues: try everyone().map { ($0.uid, $0.id) })
        // When
        let as4 = try sut.export(search: "", format: .vcard4, to: "-", overwrite: false)
        let as3 = try sut.export(search: "", format: .vcard3, to: "-", overwrite: false)
        // Then: in 4.0, CLASS dropped from two and an FN added to one (Cy's internet type is kept,
        // his pref is 4.0's PREF=1: a spelling, no change); in 3.0, the FN alone
        XCTAssertEqual(as4.convertedContacts, 2)
        XCTAssertEqual(
            as4.conversions,
            [
                .init(
                    note: "CLASS dropped: vCard 4.0 has no CLASS property", count: 2,
                    contacts: [.init(id: ids["ann"]!, name: "Ann Lee"), .init(id: ids["bob"]!, name: "Bob Stone")]),
                .init(
                    note: "FN added from the contact's name (vCard 4.0 requires FN; the card had none)", count: 1,
                    contacts: [.init(id: ids["bob"]!, name: "Bob Stone")]),
            ])
        XCTAssertTrue(try XCTUnwrap(as4.text).contains("EMAIL;TYPE=INTERNET;PREF=1:cy@example.org\r\n"))
        XCTAssertEqual(
            as3.conversions,
            [
                .init(
                    note: "FN added from the contact's name (vCard 3.0 requires FN; the card had none)", count: 1,
                    contacts: [.init(id: ids["bob"]!, name: "Bob Stone")])
            ])
        XCTAssertEqual(as3.convertedContacts, 1)
    }

    func test_exportReport_namesTheFirstContactsOfAKind_andCountsThemAll() {
        // Given
        var report = ExportReport(count: 9, format: .vcard3, path: nil, text: nil)
        // When: 8 contacts with the same change, the first twice
        for id in 1...8 {
            report.add(notes: ["KIND written as X-ADDRESSBOOKSERVER-KIND"], of: .init(id: Int64(id), name: "C\(id)"))
        }
        report.add(notes: ["KIND written as X-ADDRESSBOOKSERVER-KIND"], of: .init(id: 1, name: "C1"))
        // Then
        XCTAssertEqual(report.convertedContacts, 9)
        XCTAssertEqual(report.conversions.map(\.count), [9])
        XCTAssertEqual(report.conversions.first?.contacts.map(\.name), ["C1", "C2", "C3", "C4", "C5"])
    }

    /// The SQLite store's export read leaves a carded contact's typed lists out (the writer does
    /// not read them): the same file as from whole contacts, for carded contacts and others.
    func test_export_fromTheSQLiteBook_writesWhatWholeContactsWrite() throws {
        // Given: a book with 3.0 and 4.0 cards (one without FN, named after its email) and contacts without a card
        let book = try SQLiteContactStore(path: ":memory:")
        let worker = ImportExportWorker(
            environment: ContactsEnvironment(store: book, now: { VCardSeeds.now }, makeUID: { "u" }),
            exportPageSize: 2)
        let nameless = "BEGIN:VCARD\r\nVERSION:4.0\r\nEMAIL:x@example.org\r\nTEL;VALUE=uri:tel:+1-555\r\nEND:VCARD\r\n"
        _ = try worker.importContacts(
            VCardSeeds.fixture("apple-3.0.vcf") + VCardSeeds.fixture("rfc6350-4.0.vcf") + Data(nameless.utf8),
            format: .vcard)
        _ = try book.insert(StoreSeeds.full)
        _ = try book.insert(StoreSeeds.acme)
        var streamed: [Contact] = []
        _ = try book.forEachBatchForVCardExport(search: "", sort: .last, batchSize: 3) { streamed += $0 }
        let whole = try book.page(ContactQuery(sort: .last, limit: 1000)).contacts
        // Then: carded contacts without their lists, the others whole
        XCTAssertEqual(streamed.map(\.id), whole.map(\.id))
        XCTAssertTrue(
            streamed.contains { $0.card != nil && $0.phones.isEmpty }
                && whole.contains { $0.card != nil && !$0.phones.isEmpty })
        for (partial, full) in zip(streamed, whole) where full.card == nil { XCTAssertEqual(partial, full) }
        for version in [VCardWriter.Version.v3, .v4] {
            let writer = VCardWriter(version: version)
            XCTAssertEqual(streamed.map(writer.card(for:)), whole.map(writer.card(for:)), version.rawValue)
            let text = try XCTUnwrap(
                try worker.export(search: "", format: version == .v3 ? .vcard3 : .vcard4, to: "-", overwrite: false)
                    .text)
            XCTAssertEqual(text, whole.map(writer.card(for:)).joined())
        }
    }

    func test_csv_roundTrip_keepsEveryColumn() throws {
        // Given
        _ = try store.insert(StoreSeeds.full)
        _ = try store.insert(StoreSeeds.acme)
        // When
        let text = try XCTUnwrap(try sut.export(search: "", format: .csv, to: "-", overwrite: false).text)
        let parsed = ContactsCSV.read(Data(text.utf8))
        // Then
        // (the columns follow the field table: display name and websites since issue 25)
        XCTAssertTrue(
            text.hasPrefix(
                "uid,given_name,family_name,display_name,nickname,organization,title,phones,emails,addresses,"
                    + "websites,birthday,notes,tags,groups\r\n"))
        XCTAssertEqual(parsed.problems, [])
        var full = StoreSeeds.full
        full.createdAt = Date(timeIntervalSince1970: 0); full.updatedAt = full.createdAt; full.extraProperties = []
        full.nameOrder = .givenFirst // our CSV has no column for it (vCard keeps it in FN)
        full.card = nil // nor for the card; its display name ("Ada King, Countess of Lovelace") and website are kept
        var acme = StoreSeeds.acme
        acme.createdAt = full.createdAt; acme.updatedAt = full.createdAt
        XCTAssertEqual(parsed.entries.map(\.contact), [acme, full])
    }

    func test_csv_readsGoogleAndOutlookExports() {
        // When
        let google = ContactsCSV.read(VCardSeeds.fixture("google.csv"))
        let outlook = ContactsCSV.read(VCardSeeds.fixture("outlook.csv"))
        // Then
        XCTAssertEqual(google.problems, [])
        XCTAssertEqual(google.entries.map(\.contact), [VCardSeeds.googleAnn])
        XCTAssertEqual(google.entries.map(\.groups), [["Friends"]])
        XCTAssertEqual(outlook.problems, [])
        XCTAssertEqual(outlook.entries.map(\.contact), [VCardSeeds.outlookBob])
    }
}

extension ImportExportWorkerTests {
    func test_csv_googlesLabels_areGroups_withoutItsSystemGroups_andOutlooksCategoriesTags() throws {
        // Given: Google's older export, its `Group Membership` as Google writes it
        let parsed = ContactsCSV.read(VCardSeeds.fixture("groups/google-legacy.csv"))
        // Then: its own labels are groups; `* myContacts` and `* starred` are nobody's group; no tags
        XCTAssertEqual(parsed.problems, [])
        XCTAssertEqual(parsed.entries.map(\.contact.fullName), ["Ann Lee", "Bob Stone", "Cy Young", "Di Evans"])
        XCTAssertEqual(parsed.entries.map(\.groups), [["Family"], ["Family"], ["Book club", "Family"], []])
        XCTAssertEqual(parsed.entries.flatMap(\.contact.tags), [])
        XCTAssertEqual(parsed.entries.first?.contact.emails, [LabeledValue(label: "home", value: "ann@example.org")])
        XCTAssertEqual(ContactsCSV.read(VCardSeeds.fixture("outlook.csv")).entries.map(\.groups), [[]])
    }

    func test_importOfGooglesCSV_makesItsLabelGroups_withTheirMembers() throws {
        // When
        let report = try sut.importContacts(VCardSeeds.fixture("groups/google-legacy.csv"), format: .csv)
        // Then
        XCTAssertEqual(report.added, 4)
        XCTAssertEqual(report.groupsAdded, 2)
        let groups = try store.groups()
        XCTAssertEqual(groups.map(\.group.name).sorted(), ["Book club", "Family"])
        // Members are kept by UID, `urn:uuid:` taken off
        let uids = try everyone().reduce(into: [String: String]()) {
            $0[$1.givenName] = $1.uid.replacingOccurrences(of: "urn:uuid:", with: "")
        }
        let family = try XCTUnwrap(groups.first { $0.group.name == "Family" }).group
        XCTAssertEqual(Set(family.members), Set(["Ann", "Bob", "Cy"].compactMap { uids[$0] }))
        XCTAssertEqual(
            try XCTUnwrap(groups.first { $0.group.name == "Book club" }).group.members, [uids["Cy"]].compactMap { $0 })
    }
}

/// A store whose import transaction fails, as a full disk would, writing nothing; it records
/// what it was asked to save. It conforms directly rather than through `ForwardingContactStore`:
/// its import must take the protocol's own `importInBatches`, which saves through `importContacts`.
final class ContactStoreSpy: ContactStore {
    private let inner = InMemoryContactStore()
    private(set) var importCalls = 0
    private(set) var importedInserts: [Contact] = []
    func page(_ query: ContactQuery) throws -> ContactPage { try inner.page(query) }
    func contact(id: Int64) throws -> Contact? { try inner.contact(id: id) }
    func insert(_ contact: Contact) throws -> Contact { try inner.insert(contact) }
    func update(_ contact: Contact) throws -> Contact { try inner.update(contact) }
    func delete(id: Int64, expectedVersion: Int?) throws { try inner.delete(id: id, expectedVersion: expectedVersion) }
    func position(of id: Int64, sort: ContactsApp.SortOrder) throws -> Int { try inner.position(of: id, sort: sort) }
    func contacts(uids: [String]) throws -> [Contact] { try inner.contacts(uids: uids) }
    func merge(keeping kept: Contact, removing: [Contact]) throws -> Contact {
        try inner.merge(keeping: kept, removing: removing)
    }
    func importContacts(inserting: [Contact], updating: [Contact]) throws -> [Contact] {
        importCalls += 1
        importedInserts = inserting
        throw ContactStoreError.storage("disk full")
    }
}
