import Foundation
import SceneCore

/// The file formats contacts come in.
public enum ImportFormat: String, CaseIterable, Sendable {
    /// CSV when the file name ends in `.csv`, vCard otherwise.
    case auto, vcard, csv
}

/// The file formats contacts go out in.
public enum ExportFormat: String, CaseIterable, Sendable {
    case vcard4, vcard3, csv

    /// What people call it: "vCard 4.0", "CSV".
    public var displayName: String {
        switch self {
        case .vcard4: return "vCard 4.0"
        case .vcard3: return "vCard 3.0"
        case .csv: return "CSV"
        }
    }
}

/// What an import did.
public struct ImportReport: Equatable, Sendable {
    public var added = 0
    public var updated = 0
    /// Cards identical to the stored contact with their UID.
    public var unchanged = 0
    /// Cards without a UID, or repeating one already seen in the file, given a new UID so that
    /// two different people are never merged.
    public var newUIDs = 0
    /// Cards or rows that could not be read, with their line; the rest were imported.
    public var problems: [ParsedContacts.Problem] = []
    public init() {}
}

/// What an export wrote: a file, or (for `-`) the text itself for the front end to print.
public struct ExportReport: Equatable, Sendable {
    public var count: Int
    public var format: ExportFormat
    /// The file written, or nil when the text is returned instead.
    public var path: String?
    public var text: String?
}

/// Imports and exports contacts: reads and writes vCard and CSV files and saves an import in
/// one store transaction. The Interactor of the list delegates to it.
public final class ImportExportWorker {
    let store: ContactStore
    let now: () -> Date
    let makeUID: () -> String
    /// Contacts read from the store per page while exporting: never the whole book at once.
    let exportPageSize: Int
    let changes: ChangeNotifier?
    let progress: ProgressReporter?

    public init(environment: ContactsEnvironment, exportPageSize: Int = 200) {
        store = environment.store; now = environment.now; makeUID = environment.makeUID
        changes = environment.changes; progress = environment.progress
        self.exportPageSize = exportPageSize
    }

    // MARK: - Import

    /// Reads a file and imports it; see `importContacts(_:format:)`.
    public func importFile(at path: String, format: ImportFormat) throws -> ImportReport {
        let expanded = Self.expand(path)
        let data: Data
        do {
            // Through a FileHandle, so pipes and FIFOs (`/dev/stdin`) read as well as files.
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: expanded))
            defer { try? handle.close() }
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw ContactsFailure.badInput("cannot read \(path): \(Self.reason(error))")
        }
        let resolved = format == .auto ? (expanded.lowercased().hasSuffix(".csv") ? .csv : .vcard) : format
        return try importContacts(data, format: resolved)
    }

    /// Imports cards or rows in one store transaction: a card whose UID is stored updates that
    /// contact (or is counted unchanged if identical), any other is added. A card without a UID,
    /// or with one already used earlier in the same file, gets a new UID: two different people are
    /// never merged silently. Cards that cannot be read are reported and the rest imported; if
    /// the store fails, nothing is imported.
    public func importContacts(_ data: Data, format: ImportFormat) throws -> ImportReport {
        // Progress comes in the two steps that take the time: reading the cards, then saving
        // them in one transaction (which cannot report from inside).
        progress?.begin("Importing contacts")
        defer { progress?.end() }
        let parsed = format == .csv ? ContactsCSV.read(data) : VCardReader().read(data)
        progress?.report(completed: 0, of: parsed.entries.count, message: "read \(parsed.entries.count) cards, saving")
        var report = ImportReport()
        report.problems = parsed.problems
        var seen = Set<String>()
        var incoming: [Contact] = []
        for entry in parsed.entries {
            var contact = entry.contact
            if contact.uid.isEmpty || seen.contains(contact.uid) {
                contact.uid = DerivedUID.make(for: contact, avoiding: seen)
                report.newUIDs += 1
            }
            seen.insert(contact.uid)
            incoming.append(contact)
        }
        let stored = try translating { try store.contacts(uids: incoming.map(\.uid)) }
        let byUID = Dictionary(stored.map { ($0.uid, $0) }, uniquingKeysWith: { first, _ in first })
        let time = now()
        var inserts: [Contact] = [], updates: [Contact] = []
        for var contact in incoming {
            if let existing = byUID[contact.uid] {
                contact.id = existing.id
                contact.version = existing.version
                contact.createdAt = existing.createdAt
                contact.updatedAt = existing.updatedAt
                if contact == existing { report.unchanged += 1; continue }
                contact.updatedAt = time
                updates.append(contact)
            } else {
                contact.id = nil
                contact.createdAt = time
                contact.updatedAt = time
                inserts.append(contact)
            }
        }
        if !inserts.isEmpty || !updates.isEmpty {
            let saved = try translating { try store.importContacts(inserting: inserts, updating: updates) }
            let addedIDs = saved.prefix(inserts.count).compactMap(\.id), updatedIDs = updates.compactMap(\.id)
            if !addedIDs.isEmpty { changes?.post(DataChange(topic: "contacts", kind: "created", ids: addedIDs.map(String.init))) }
            if !updatedIDs.isEmpty { changes?.post(DataChange(topic: "contacts", kind: "updated", ids: updatedIDs.map(String.init))) }
        }
        progress?.report(completed: parsed.entries.count, of: parsed.entries.count, message: "saved")
        report.added = inserts.count
        report.updated = updates.count
        return report
    }

    // MARK: - Export

    /// Writes the contacts matching `search` (all of them when empty), by last name, to `path`,
    /// or returns the text when `path` is `-`. A file is written atomically (a temporary file
    /// renamed into place) and an existing one is replaced only with `overwrite`.
    public func export(search: String, format: ExportFormat, to path: String, overwrite: Bool) throws -> ExportReport {
        if path == "-" {
            var text = ""
            let count = try forEachChunk(search: search, format: format) { text += $0 }
            return ExportReport(count: count, format: format, path: nil, text: text)
        }
        let expanded = Self.expand(path)
        if !overwrite && FileManager.default.fileExists(atPath: expanded) {
            throw ContactsFailure.badInput("\(path) already exists; export again with overwrite yes to replace it")
        }
        let file = try AtomicFile(path: expanded, uniqueName: makeUID())
        do {
            let count = try forEachChunk(search: search, format: format) { try file.write($0) }
            try file.commit(overwrite: overwrite)
            return ExportReport(count: count, format: format, path: path, text: nil)
        } catch let failure as ContactsFailure {
            file.discard()
            throw failure
        } catch {
            file.discard()
            throw ContactsFailure.badInput("cannot write \(path): \(Self.reason(error))")
        }
    }

    /// Hands the formatted text out page by page; returns how many contacts there were.
    private func forEachChunk(search: String, format: ExportFormat, _ body: (String) throws -> Void) throws -> Int {
        if format == .csv { try body(ContactsCSV.header) }
        let writer = VCardWriter(version: format == .vcard3 ? .v3 : .v4)
        return try translating {
            try store.forEachBatch(search: search, sort: .last, batchSize: exportPageSize) { contacts in
                try body(format == .csv ? ContactsCSV.rows(contacts) : contacts.map(writer.card(for:)).joined())
            }
        }
    }

    // MARK: - Helpers

    /// `~/contacts.vcf` as a person types it.
    static func expand(_ path: String) -> String { (path as NSString).expandingTildeInPath }

    private static func reason(_ error: Error) -> String {
        if let posix = error as? POSIXFailure { return posix.description }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(code)))
        }
        if (error as NSError).code == NSFileReadNoSuchFileError { return "no such file" }
        return error.localizedDescription
    }

    private func translating<T>(_ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch ContactStoreError.storage(let message) {
            throw ContactsFailure.storage(message)
        } catch let error as ContactStoreError {
            throw ContactsFailure.storage("\(error)")
        }
    }
}

/// An error from a system call, with its `errno` text.
struct POSIXFailure: Error, CustomStringConvertible {
    let description: String
    init(_ what: String) { description = "\(what): \(String(cString: strerror(errno)))" }
}

/// A file written under a temporary name beside its destination and moved into place only
/// when complete, so nobody ever sees it half-written. Created with mode 0600: contacts are private.
final class AtomicFile {
    let path: String
    let temporaryPath: String
    private let handle: FileHandle

    init(path: String, uniqueName: String) throws {
        let url = URL(fileURLWithPath: path)
        self.path = path
        temporaryPath = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(uniqueName).tmp").path
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXFailure("cannot create a file beside it") }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    func write(_ text: String) throws { try handle.write(contentsOf: Data(text.utf8)) }

    /// Flushes to disk and moves the file into place. Without `overwrite`, the move is a
    /// hard link, which fails rather than replace a file created meanwhile.
    func commit(overwrite: Bool) throws {
        try handle.synchronize()
        try handle.close()
        if overwrite {
            guard rename(temporaryPath, path) == 0 else { throw POSIXFailure("cannot move it into place") }
        } else {
            guard link(temporaryPath, path) == 0 else {
                if errno == EEXIST {
                    throw ContactsFailure.badInput("\(path) already exists; export again with overwrite yes to replace it")
                }
                throw POSIXFailure("cannot move it into place")
            }
            unlink(temporaryPath)
        }
    }

    func discard() {
        try? handle.close()
        unlink(temporaryPath)
    }
}
