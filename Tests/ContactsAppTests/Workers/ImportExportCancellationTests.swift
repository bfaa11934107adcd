import SceneCore
import XCTest

@testable import ContactsApp

/// Long work stops when the client cancels it, and keeps nothing half-done.
final class ImportExportCancellationTests: XCTestCase {
    /// Says "cancelled" from the `cancelFrom`-th report on.
    final class CancellingProgressSpy: ProgressReporter {
        let cancelFrom: Int
        private(set) var events: [ProgressEvent] = []
        private var reports = 0
        init(cancelFrom: Int) { self.cancelFrom = cancelFrom }
        func post(_ event: ProgressEvent) {
            if case .report = event { reports += 1 }
            events.append(event)
        }
        var isCancelled: Bool { reports >= cancelFrom }
    }

    private func worker(_ store: ContactStore, _ progress: ProgressReporter, importBatchSize: Int = 2_000)
        -> ImportExportWorker
    {
        ImportExportWorker(
            environment: ContactsEnvironment(
                store: store, now: { VCardSeeds.now }, makeUID: VCardSeeds.UIDMaker().make,
                progress: progress),
            importBatchSize: importBatchSize)
    }

    func test_import_cancelledAfterItsFirstBatch_keepsNoneOfIt() throws {
        // Given: batches of two cards, cancelled when the second batch is reported
        let store = InMemoryContactStore()
        let progress = CancellingProgressSpy(cancelFrom: 2)
        let sut = worker(store, progress, importBatchSize: 2)
        // When
        XCTAssertThrowsError(try sut.importContacts(VCardSeeds.fixture("rfc6350-4.0.vcf"), format: .vcard)) { error in
            // Then
            XCTAssertEqual(error as? ContactsFailure, .cancelled("import cancelled: nothing was imported"))
        }
        XCTAssertEqual(try store.page(ContactQuery()).total, 0)
        XCTAssertEqual(progress.events.last, .end(message: nil))
    }

    func test_export_cancelled_leavesNoFile() throws {
        // Given: more contacts than one progress step
        let store = try SQLiteContactStore(path: ":memory:")
        _ = try store.importContacts(
            inserting: (1...ImportExportWorker.exportProgressStep + 1).map {
                Contact(uid: "uid-\($0)", givenName: "P\($0)")
            }, updating: [])
        let sut = worker(store, CancellingProgressSpy(cancelFrom: 1))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cancelled-\(UUID().uuidString).vcf")
            .path
        // When
        XCTAssertThrowsError(try sut.export(search: "", format: .vcard4, to: path, overwrite: false)) { error in
            // Then
            XCTAssertEqual(error as? ContactsFailure, .cancelled("export cancelled: nothing was written"))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }
}
