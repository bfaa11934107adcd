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
    /// Cards or rows that could not be read, with their line; the rest were imported. The first
    /// `ContactLimits.maximumProblemsKept`; `problemCount` counts them all (one per card or row).
    public var problems: [ParsedContacts.Problem] = []
    public var problemCount = 0
    /// Everything else the import has to say, by the line it is about: lines outside any card
    /// skipped, values imported as they are but not valid (an EMAIL that is not an address: kept
    /// so nothing is lost, and left out where they would do harm, as a mail client's query), and
    /// what reading changed or dropped. The first `ContactLimits.maximumProblemsKept`;
    /// `warningCount` counts them all, and the three counts below by kind.
    public var warnings: [ParsedContacts.Problem] = []
    public var warningCount = 0
    /// Lines outside any card that were skipped.
    public var skippedLines = 0
    /// Values kept but not valid.
    public var invalidValues = 0
    /// Values the reader changed or dropped, and names it gave cards without one.
    public var changes = 0
    /// How many `.vcf` files a folder held; nil when one file was read.
    public var files: Int?
    /// Group cards (KIND:group, or Apple's X-ADDRESSBOOKSERVER-KIND:group) read as groups, not
    /// as contacts: added, and updated (a group with their UID was in the book).
    public var groupsAdded = 0
    public var groupsUpdated = 0
    public init() {}

    /// Whether a file that held something (cards, rows or other text) gave not one contact:
    /// the import failed, though nothing went wrong in storing.
    public var readNothing: Bool {
        added + updated + unchanged + groupsAdded + groupsUpdated == 0 && (problemCount > 0 || skippedLines > 0)
    }

    /// Adds problems found, keeping the first ones only (a file of a million bad rows would
    /// otherwise hold a million reasons in memory; a person reads the first few).
    mutating func add(problems more: [ParsedContacts.Problem]) {
        problemCount += more.count
        problems += more.prefix(max(0, ContactLimits.maximumProblemsKept - problems.count))
    }

    mutating func add(warnings more: [ParsedContacts.Problem]) {
        warningCount += more.count
        for warning in more {
            switch warning.kind {
            case .invalid: invalidValues += 1
            case .changed: changes += 1
            case .skipped, .unreadable: break
            }
        }
        warnings += more.prefix(max(0, ContactLimits.maximumProblemsKept - warnings.count))
    }
}

/// What an export wrote: a file, or (for `-`) the text itself for the front end to print.
public struct ExportReport: Equatable, Sendable {
    public var count: Int
    public var format: ExportFormat
    /// The file written, or nil when the text is returned instead.
    public var path: String?
    public var text: String?
    /// What writing the contacts' kept cards in the version asked for changed or dropped, one
    /// entry per kind of change (a 3.0-only property dropped for 4.0, a 4.0-only one written as
    /// an X- property for 3.0, an FN added...), in the order first met.
    public var conversions: [Conversion] = []
    /// Contacts written with at least one change.
    public var convertedContacts = 0
    /// Group cards written after the contacts (a vCard export of the whole book).
    public var groups = 0

    public init(
        count: Int, format: ExportFormat, path: String?, text: String?,
        conversions: [Conversion] = [], convertedContacts: Int = 0
    ) {
        self.count = count; self.format = format; self.path = path; self.text = text
        self.conversions = conversions; self.convertedContacts = convertedContacts
    }

    /// One kind of change: its sentence (`VCardVersionConverter`'s), how many contacts it was
    /// made to, and the first of them (`maximumContactsNamed`).
    public struct Conversion: Equatable, Sendable {
        public var note: String
        public var count: Int
        public var contacts: [Named]
        public init(note: String, count: Int, contacts: [Named]) {
            self.note = note; self.count = count; self.contacts = contacts
        }
    }

    /// A contact as a report names it.
    public struct Named: Equatable, Sendable {
        public var id: Int64?
        public var name: String
        public init(id: Int64?, name: String) { self.id = id; self.name = name }
    }

    /// Contacts named per kind of change; the count says how many there were.
    public static let maximumContactsNamed = 5
    /// Kinds of change kept (a sentence may name a property, so there is no fixed number of
    /// them); the rest are counted in `convertedContacts` alone.
    public static let maximumConversionsKept = 50

    /// Adds one contact's notes: each kind counted once per contact.
    mutating func add(notes: [String], of contact: Named) {
        guard !notes.isEmpty else { return }
        convertedContacts += 1
        var seen = Set<String>()
        for note in notes where seen.insert(note).inserted {
            if let index = conversions.firstIndex(where: { $0.note == note }) {
                conversions[index].count += 1
                if conversions[index].contacts.count < Self.maximumContactsNamed {
                    conversions[index].contacts.append(contact)
                }
            } else if conversions.count < Self.maximumConversionsKept {
                conversions.append(Conversion(note: note, count: 1, contacts: [contact]))
            }
        }
    }
}

/// The import and export work the list's Interactor delegates (its seam: tests put a spy here).
public protocol ContactsTransferLogic {
    func importFile(at path: String, format: ImportFormat) throws -> ImportReport
    func export(search: String, format: ExportFormat, to path: String, overwrite: Bool) throws -> ExportReport
}

/// Imports and exports contacts: reads and writes vCard and CSV files and saves an import in
/// one store transaction. The Interactor of the list delegates to it.
public final class ImportExportWorker: ContactsTransferLogic {
    let store: ContactStore
    let now: () -> Date
    let makeUID: () -> String
    /// Contacts read from the store per page while exporting: never the whole book at once.
    let exportPageSize: Int
    let changes: ChangeNotifier?
    let progress: ProgressReporter?
    /// Cards read and saved per batch: a file is streamed through the import's one
    /// transaction this many cards at a time, never held whole in memory. 500, not 2,000: the
    /// saving thread waits for the first batch to be read, and after the last card is read it
    /// still has the last batch to save with the other core idle; both shrink with the batch
    /// (bench/FINDINGS.md, `import8`).
    let importBatchSize: Int
    /// Cards that may wait read between the two threads (`importPipeCapacity`): the 2 × 2,000
    /// they were before batches were cut to 500, so the threads still even out as much.
    static let importCardsWaiting = 4_000
    /// Bytes read from a file at a time.
    let importChunkSize: Int
    /// Reads an import's vCards, one card held at most `ContactLimits.maximumCardBytes` (or what
    /// `CONTACTSBOOK_IMPORT_MAX_CARD` says).
    let vcardReader: VCardReader

    public init(
        environment: ContactsEnvironment, exportPageSize: Int = 200,
        importBatchSize: Int = 500, importChunkSize: Int = 1 << 20,
        maximumCardBytes: Int = ImportExportWorker.configuredMaximumCardBytes()
    ) {
        vcardReader = VCardReader(maximumCardBytes: maximumCardBytes)
        store = environment.store; now = environment.now; makeUID = environment.makeUID
        changes = environment.changes; progress = environment.progress
        self.exportPageSize = exportPageSize
        self.importBatchSize = max(1, importBatchSize)
        self.importChunkSize = max(1, importChunkSize)
    }

    /// `CONTACTSBOOK_IMPORT_MAX_CARD` (bytes, or with `K`, `M`, `G`), else the default; a value
    /// that is not one is ignored, as the sync's limits are.
    public static func configuredMaximumCardBytes(
        _ environment: [String: String] = environmentVariables([ContactLimits.importCardVariable])
    )
        -> Int
    {
        environment[ContactLimits.importCardVariable].flatMap(ContactLimits.bytes) ?? ContactLimits.maximumCardBytes
    }

    // MARK: - Import

    /// Reads a file, or every `.vcf` file in a folder, and imports it; see
    /// `importContacts(_:format:)`. A file, vCard or CSV, is read a chunk at a time and saved in
    /// batches, all in one transaction.
    public func importFile(at path: String, format: ImportFormat) throws -> ImportReport {
        // New contacts go to the default book: not one that is read-only.
        try BookAccess(store: store).checkNewContacts()
        let expanded = Self.expand(path)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: expanded, isDirectory: &isFolder), isFolder.boolValue {
            return try importFolder(at: expanded, shownAs: path, format: format)
        }
        let handle: FileHandle
        do {
            // Through a FileHandle, so pipes and FIFOs (`/dev/stdin`) read as well as files.
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: expanded))
        } catch {
            throw ContactsFailure.badInput("cannot read \(path): \(Self.reason(error))")
        }
        defer { try? handle.close() }
        let resolved = format == .auto ? (expanded.lowercased().hasSuffix(".csv") ? .csv : .vcard) : format
        func readFailure(_ error: Error) -> ContactsFailure {
            ContactsFailure.badInput("cannot read \(path): \(Self.reason(error))")
        }
        let batchSize = importBatchSize, chunkSize = importChunkSize, reader = vcardReader
        let nextChunk = { (buffer: inout [UInt8]) throws -> Bool in
            do {
                guard let data = try handle.read(upToCount: chunkSize), !data.isEmpty else { return false }
                buffer.removeAll(keepingCapacity: true)
                buffer.append(contentsOf: data)
                return true
            } catch {
                throw readFailure(error)
            }
        }
        return try importBatches { batch in
            try Self.stoppingAtOverlongLines(path) {
                if resolved == .csv {
                    try ContactsCSV.read(batchSize: batchSize, nextChunk: nextChunk) {
                        try batch(Self.checkingEmails($0))
                    }
                } else {
                    try reader.read(batchSize: batchSize, nextChunk: nextChunk, batch)
                }
            }
        }
    }

    /// A vdir, as khard and vdirsyncer keep one (a `.vcf` file per contact): every `.vcf` file
    /// directly in the folder, in name order, imported as one file would be (one transaction);
    /// problems and warnings name their file. A file that cannot be read is a problem, not the
    /// end of the import.
    private func importFolder(at folder: String, shownAs path: String, format: ImportFormat) throws -> ImportReport {
        if format == .csv {
            throw ContactsFailure.badInput("\(path) is a folder: its .vcf files are read as vCard, not csv")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
                .filter { $0.lowercased().hasSuffix(".vcf") && !$0.hasPrefix(".") }.sorted()
        } catch {
            throw ContactsFailure.badInput("cannot read \(path): \(Self.reason(error))")
        }
        guard !names.isEmpty else { throw ContactsFailure.badInput("\(path) is a folder with no .vcf files in it") }
        let batchSize = importBatchSize, reader = vcardReader
        var report = try importBatches { batch in
            for name in names {
                let data: Data
                do {
                    data = try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(name))
                } catch {
                    try batch(
                        ParsedContacts(
                            problems: [.init(line: 0, reason: "cannot read it: \(Self.reason(error))")], file: name))
                    continue
                }
                var handed = false
                do {
                    try reader.read(
                        batchSize: batchSize,
                        nextChunk: { buffer in
                            guard !handed else { return false }
                            buffer = [UInt8](data)
                            handed = true
                            return true
                        },
                        { parsed in
                            var parsed = parsed
                            parsed.file = name
                            try batch(parsed)
                        })
                } catch let tooLong as VCardReader.LineTooLong {
                    // One file of the folder: named, the others read.
                    try batch(
                        ParsedContacts(
                            problems: [.init(line: tooLong.line, reason: "\(tooLong); the rest of it not read")],
                            file: name))
                }
            }
        }
        report.files = names.count
        return report
    }

    /// Imports cards or rows in one store transaction: a card whose UID is stored updates that
    /// contact (or is counted unchanged if identical), any other is added. A card without a UID,
    /// or with one already used earlier in the same file, gets a new UID: two different people are
    /// never merged silently. Cards that cannot be read are reported and the rest imported; if
    /// the store fails, nothing is imported.
    public func importContacts(_ data: Data, format: ImportFormat) throws -> ImportReport {
        let batchSize = importBatchSize, chunkSize = importChunkSize, reader = vcardReader
        return try importBatches { batch in
            if format == .csv {
                try ContactsCSV.read(data, batchSize: batchSize) { try batch(Self.checkingEmails($0)) }
            } else {
                var offset = data.startIndex
                try Self.stoppingAtOverlongLines(nil) {
                    try reader.read(
                        batchSize: batchSize,
                        nextChunk: { buffer in
                            guard offset < data.endIndex else { return false }
                            let end = min(offset + chunkSize, data.endIndex)
                            buffer = [UInt8](data[offset..<end])
                            offset = end
                            return true
                        }, batch)
                }
            }
        }
    }

    /// A line (vCard, outside any card) or row (CSV) too long to read stops the import: nothing
    /// to skip to, and nothing imported (the one transaction rolled back).
    private static func stoppingAtOverlongLines(_ path: String?, _ read: () throws -> Void) throws {
        let what = path.map { "cannot import \($0)" } ?? "cannot import"
        do { try read() } catch let tooLong as VCardReader.LineTooLong {
            throw ContactsFailure.badInput("\(what): \(tooLong); nothing was imported")
        } catch let tooLong as CSVInputStream.RowTooLong {
            throw ContactsFailure.badInput("\(what): \(tooLong); nothing was imported")
        }
    }

    /// The import itself: `read` hands parsed batches to its argument (on a thread of its own),
    /// and each is matched to the stored contacts and saved inside one store transaction.
    ///
    /// Progress comes per batch ("read N cards, saving", N growing as the file is read), then
    /// "saved" once the transaction is committed; a file of one batch reports as before
    /// streaming: `0 of N`, then `N of N`.
    private func importBatches(_ read: @escaping (_ batch: (ParsedContacts) throws -> Void) throws -> Void) throws
        -> ImportReport
    {
        progress?.begin("Importing contacts")
        defer { progress?.end() }
        var report = ImportReport()
        // The stored contacts this import's cards matched, by UID: bounded by the book, not by
        // the file (the UIDs it added, the store tells: `ContactImportSession.addedUIDs`).
        var matched = Set<String>()
        // The UIDs an export gave contacts sharing one (`exported`): the file written back finds them.
        let reexported = try translating { try store.sharedUIDs() }.reduce(into: [String: (uid: String, id: Int64)]()) {
            map, shared in
            for id in shared.value.dropFirst() { map[Self.exportedUID(shared.key, id: id)] = (shared.key, id) }
        }
        var readCount = 0, savedCount = 0
        let time = now()
        var readError: Error?
        var groupsRead: [ContactGroup] = []
        // The groups a CSV's `groups` column names, by the final UID of each row's contact.
        var memberships: [(uid: String, groups: [String])] = []
        let ids: ImportedIDs
        // A store with an import session of its own prepares each contact's row.
        let preparing = store as? ImportSessionStore
        let capacity = Self.importPipeCapacity(batchSize: importBatchSize)
        do {
            ids = try translating {
                try store.withImportSession { session in
                    do {
                        // The file is read and parsed, and its rows prepared for the store, on
                        // another thread while each batch is saved here.
                        try BatchPipe.run(
                            capacity: capacity,
                            produce: { send in
                                try read { parsed in
                                    // Group cards are told apart here, on the reading thread.
                                    var parsed = parsed
                                    let groups = Self.takingGroups(&parsed)
                                    let prepared =
                                        preparing?.prepareForImport(batch: parsed.entries.map(\.contact))
                                        ?? Array(repeating: nil, count: parsed.entries.count)
                                    try send((parsed, prepared, groups))
                                }
                            }
                        ) { parsed, prepared, groups in
                            groupsRead += groups
                            func inFile(_ problem: ParsedContacts.Problem) -> ParsedContacts.Problem {
                                var problem = problem
                                problem.file = problem.file ?? parsed.file
                                return problem
                            }
                            report.add(problems: parsed.problems.map(inFile))
                            report.add(warnings: parsed.warnings.map(inFile))
                            report.skippedLines += parsed.skippedLines
                            readCount += parsed.entries.count
                            progress?.report(
                                completed: savedCount, of: readCount, message: "read \(readCount) cards, saving")
                            // Thrown inside the store's transaction: everything saved so far is rolled back.
                            if progress?.isCancelled == true {
                                throw ContactsFailure.cancelled("import cancelled: nothing was imported")
                            }
                            try save(
                                parsed, prepared: prepared, time: time, matched: &matched, reexported: reexported,
                                memberships: &memberships, report: &report, in: session)
                            savedCount = readCount
                        }
                    } catch let failure as ContactsFailure {
                        readError = failure // reading the file failed: not a storage error
                        throw failure
                    }
                }
            }
        } catch {
            throw readError ?? error
        }
        try saveGroups(groupsRead, memberships: memberships, time: time, report: &report)
        for change in DataChange.contacts([("created", ids.added), ("updated", ids.updated)]) { changes?.post(change) }
        progress?.report(completed: readCount, of: readCount, message: "saved")
        return report
    }

    /// Batches of `batchSize` that may wait between the reading and the saving thread: as many
    /// cards as `importCardsWaiting`, at least two batches.
    static func importPipeCapacity(batchSize: Int) -> Int { max(2, importCardsWaiting / max(1, batchSize)) }

    /// Takes the group cards out of a batch: each becomes a group, never a person.
    static func takingGroups(_ parsed: inout ParsedContacts) -> [ContactGroup] {
        var groups: [ContactGroup] = []
        parsed.entries.removeAll { entry in
            guard let card = entry.contact.card, let group = GroupCard.read(card) else { return false }
            groups.append(group)
            return true
        }
        return groups
    }

    /// Saves the groups an import read, after its contacts, as one change set of their own;
    /// a group card without a UID gets one made from its name and members, so importing the
    /// file again finds it.
    private func saveGroups(
        _ groups: [ContactGroup], memberships: [(uid: String, groups: [String])], time: Date,
        report: inout ImportReport
    ) throws {
        guard !groups.isEmpty || !memberships.isEmpty else { return }
        guard let store = store as? ContactGroupStore else { return }
        let groups = try groups + membershipGroups(memberships, store: store)
        var seen = Set<String>()
        let named = groups.map { group -> ContactGroup in
            var group = group
            if group.uid.isEmpty || seen.contains(group.uid) {
                group.uid = DerivedUID.uuid(
                    "group\u{1E}" + group.name + "\u{1E}" + group.members.joined(separator: ","))
                group.card = VCardRecord(
                    lines: group.card.lines.filter { !$0.uppercased().hasPrefix("UID:") } + ["UID:" + group.uid])
            }
            seen.insert(group.uid)
            group.createdAt = time; group.updatedAt = time
            return group
        }
        let count = named.count == 1 ? "1 group" : "\(named.count) groups"
        let saved = try translating { try store.importGroups(named, summary: "imported \(count)") }
        report.groupsAdded += saved.added
        report.groupsUpdated += saved.updated
    }

    /// The groups a CSV's `groups` column names, with its rows' contacts added: a group of that
    /// name in the book (any case) gains them, keeping its card; another is made, in 4.0's form.
    private func membershipGroups(_ memberships: [(uid: String, groups: [String])], store: ContactGroupStore) throws
        -> [ContactGroup]
    {
        guard !memberships.isEmpty else { return [] }
        var byName: [String: ContactGroup] = [:], order: [String] = []
        for summary in try translating({ try store.groups() }) {
            byName[ContactKeys.fold(summary.group.name)] = summary.group
        }
        for (uid, names) in memberships {
            for name in names {
                let key = ContactKeys.fold(name)
                var group = byName[key] ?? GroupCard.new(uid: makeUID(), name: name, convention: .kind)
                if !order.contains(key) { order.append(key) }
                if !group.members.contains(where: { GroupCard.memberUID($0) == GroupCard.memberUID(uid) }) {
                    group.members.append(uid)
                }
                byName[key] = group
            }
        }
        return order.compactMap { byName[$0] }.map(GroupCard.updated)
    }

    /// A CSV batch with its values kept but not valid named: an EMAIL that is not an address,
    /// by its row. (The vCard reader names them itself, by the line of the EMAIL.)
    static func checkingEmails(_ parsed: ParsedContacts) -> ParsedContacts {
        var parsed = parsed
        parsed.warnings += parsed.entries.flatMap { entry in
            entry.contact.emails.filter { !ContactRules.isEmail($0.value) }.map { email in
                ParsedContacts.Problem(
                    line: entry.line, reason: "EMAIL \"\(email.value)\" is not an email address (kept)",
                    file: parsed.file, kind: .invalid)
            }
        }
        return parsed
    }

    /// One batch: UIDs given where missing or repeated, matched to the stored contacts, saved.
    /// `prepared` holds what the store prepared for each entry of `parsed`, in order.
    /// A UID is taken when an earlier card of the import has it: one of this batch, a stored
    /// contact an earlier batch matched (`matched`), or one the import added, which the session
    /// tells in one question for the batch's UIDs and first derivations, and one more for each
    /// further derivation (only for a card the file repeats).
    private func save(
        _ parsed: ParsedContacts, prepared: [PreparedContact?], time: Date, matched: inout Set<String>,
        reexported: [String: (uid: String, id: Int64)] = [:], memberships: inout [(uid: String, groups: [String])],
        report: inout ImportReport, in session: ContactImportSession
    ) throws {
        let entries = parsed.entries
        var inBatch = Set<String>(minimumCapacity: entries.count), asked = Set<String>(), added = Set<String>()
        func ask(_ uids: [String]) throws {
            added.formUnion(try session.addedUIDs(among: uids))
            asked.formUnion(uids)
        }
        // A card without a UID: its first derivation, made once.
        let firstDerivations = entries.map { $0.contact.uid.isEmpty ? DerivedUID.first(for: $0.contact) : nil }
        // The batch's UIDs and first derivations in one question. Not kept in `asked` (the
        // saving thread hashed each UID once less): each is looked at once below (`askedAlready`),
        // and one taken is in `added`, so a derivation meeting it again does not ask again.
        added = try session.addedUIDs(among: entries.indices.map { firstDerivations[$0] ?? entries[$0].contact.uid })
        func isTaken(_ uid: String, askedAlready: Bool = false) throws -> Bool {
            if inBatch.contains(uid) || matched.contains(uid) || added.contains(uid) { return true }
            guard !askedAlready, !asked.contains(uid) else { return false }
            try ask([uid])
            return added.contains(uid)
        }
        var incoming: [Contact] = []
        incoming.reserveCapacity(entries.count)
        // By index, not `zip`: iterating the zip copied each entry, its contact's every field retained.
        for index in entries.indices {
            var contact = entries[index].contact
            if let first = firstDerivations[index] {
                contact.uid =
                    try isTaken(first, askedAlready: true) ? DerivedUID.make(for: contact) { try isTaken($0) } : first
                report.newUIDs += 1
            } else if try isTaken(contact.uid, askedAlready: true) {
                contact.uid = try DerivedUID.make(for: contact) { try isTaken($0) }
                report.newUIDs += 1
            }
            inBatch.insert(contact.uid)
            if !entries[index].groups.isEmpty { memberships.append((contact.uid, entries[index].groups)) }
            incoming.append(contact)
        }
        guard !incoming.isEmpty else { return }
        // The batch's UIDs were never seen before in this import (repeats got new ones): in a
        // book that was empty they can match nothing, and looking them up cost an import of
        // 100k cards 6 % of its saving thread.
        let stored = session.bookWasEmpty ? [] : try session.contacts(uids: incoming.map(\.uid))
        let byUID = Dictionary(stored.map { ($0.uid, $0) }, uniquingKeysWith: { first, _ in first })
        // A card an export wrote with a UID of its own (its contact shares one): that contact.
        let sharing = incoming.compactMap { byUID[$0.uid] == nil ? reexported[$0.uid] : nil }
        let byID =
            sharing.isEmpty
            ? [:]
            : Dictionary(
                try session.contacts(uids: sharing.map(\.uid)).compactMap { contact in
                    contact.id.map { ($0, contact) }
                }, uniquingKeysWith: { first, _ in first })
        var inserts: [Contact] = [], insertsPrepared: [PreparedContact?] = [], updates: [Contact] = []
        for (index, var contact) in incoming.enumerated() {
            var found = byUID[contact.uid]
            if found == nil, let shared = reexported[contact.uid], let existing = byID[shared.id] {
                // Its own UID back, and its card saying so.
                contact.uid = existing.uid
                contact = CardPatch.reconciled(contact)
                found = existing
            }
            if let existing = found {
                matched.insert(contact.uid)
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
                insertsPrepared.append(prepared[index])
            }
        }
        if !inserts.isEmpty || !updates.isEmpty {
            try session.save(inserting: inserts, prepared: insertsPrepared, updating: updates)
        }
        report.added += inserts.count
        report.updated += updates.count
    }

    // MARK: - Export

    /// Writes the contacts matching `search` (all of them when empty), by last name, to `path`,
    /// or returns the text when `path` is `-`. A file is written atomically (a temporary file
    /// renamed into place) and an existing one is replaced only with `overwrite`.
    public func export(search: String, format: ExportFormat, to path: String, overwrite: Bool) throws -> ExportReport {
        if path == "-" {
            var text: [UInt8] = []
            var report = try forEachChunk(search: search, format: format) { text += $0 }
            report.text = String(decoding: text, as: UTF8.self)
            return report
        }
        let expanded = Self.expand(path)
        if !overwrite && FileManager.default.fileExists(atPath: expanded) {
            throw ContactsFailure.badInput(Self.alreadyExists(path, format: format, search: search))
        }
        let file = try AtomicFile(path: expanded, uniqueName: makeUID())
        do {
            var report = try forEachChunk(search: search, format: format) { try file.write($0) }
            try file.commit(overwrite: overwrite, refusal: Self.alreadyExists(path, format: format, search: search))
            report.path = path
            return report
        } catch let failure as ContactsFailure {
            file.discard()
            throw failure
        } catch {
            file.discard()
            throw ContactsFailure.badInput("cannot write \(path): \(Self.reason(error))")
        }
    }

    /// Hands the formatted text out page by page, as UTF-8 bytes; returns how many contacts there
    /// were and what writing their cards changed (the report without its path or text).
    private func forEachChunk(search: String, format: ExportFormat, _ body: ([UInt8]) throws -> Void) throws
        -> ExportReport
    {
        var report = ExportReport(count: 0, format: format, path: nil, text: nil)
        var notes: [String] = []
        // The groups, for the CSV's groups column and, after the contacts, as cards of their own.
        let groups = try translating { try (store as? ContactGroupStore)?.groups().map(\.group) ?? [] }
        let groupNames = groups.reduce(into: [String: [String]]()) { names, group in
            for member in group.members { names[GroupCard.memberUID(member), default: []].append(group.name) }
        }
        if format == .csv { try body(Array(ContactsCSV.header.utf8)) }
        let writer = VCardWriter(version: format == .vcard3 ? .v3 : .v4)
        var bytes: [UInt8] = []
        // Progress as an import reports it: the total first (counted, not read), then every
        // `exportProgressStep` contacts and at the end, so a long export shows it is moving.
        let total = try translating {
            try store.page(ContactQuery(search: search, sort: .last, page: 1, limit: 0)).total
        }
        progress?.begin("Exporting contacts", total: total)
        defer { progress?.end() }
        var written = 0, reported = 0
        // A UID held by several contacts is written once, by the oldest (`exportedUID`).
        let shared = try translating { try store.sharedUIDs() }
        let count = try translating {
            let walk = format == .csv ? store.forEachBatch : store.forEachBatchForVCardExport
            return try walk(search, .last, exportPageSize) { batch in
                let contacts = shared.isEmpty ? batch : batch.map { Self.exported($0, shared: shared) }
                bytes.removeAll(keepingCapacity: true)
                if format == .csv {
                    ContactsCSV.append(contacts, groups: groupNames, to: &bytes)
                } else {
                    for contact in contacts {
                        writer.append(contact, to: &bytes, notes: &notes)
                        if !notes.isEmpty {
                            report.add(notes: notes, of: .init(id: contact.id, name: contact.fullName))
                            notes.removeAll(keepingCapacity: true)
                        }
                    }
                }
                try body(bytes)
                written += contacts.count
                if written - reported >= Self.exportProgressStep {
                    progress?.report(completed: written, of: max(total, written))
                    reported = written
                    // The export's file is discarded: nothing half-written is left behind.
                    if progress?.isCancelled == true {
                        throw ContactsFailure.cancelled("export cancelled: nothing was written")
                    }
                }
            }
        }
        if format != .csv && search.isEmpty && !groups.isEmpty {
            bytes.removeAll(keepingCapacity: true)
            for group in groups {
                // Written from its card as a contact's is: the writer converts KIND and MEMBER to
                // Apple's X-ADDRESSBOOKSERVER form for 3.0, and back for 4.0.
                writer.append(
                    Contact(uid: group.uid, formattedName: group.name, card: group.card), to: &bytes, notes: &notes)
                notes.removeAll(keepingCapacity: true)
            }
            try body(bytes)
            report.groups = groups.count
        }
        progress?.report(completed: count, of: count, message: "written")
        report.count = count
        return report
    }

    /// The refusal to replace a file, with the command that replaces it (the list's `export`
    /// takes its parameters in order: path, format, contacts, overwrite).
    static func alreadyExists(_ path: String, format: ExportFormat, search: String) -> String {
        let typed =
            path.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "'" || $0 == "\\" })
            ? "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'" : path
        return
            "\(path) already exists; to replace it: export \(typed) \(format.rawValue) \(search.isEmpty ? "all" : "search") yes"
    }

    /// A contact as exported: one sharing its UID with an older contact (the same card on two
    /// servers, or twice on one) gets a UID of its own, derived from that UID and its number, the
    /// same at every export. A file is read by programs that take one UID for one contact
    /// (ours, Radicale's upload, vdirsyncer): with the UID twice, one of the two would be merged
    /// away or refused there, though they are two contacts here.
    public static func exported(_ contact: Contact, shared: [String: [Int64]]) -> Contact {
        guard let id = contact.id, let holders = shared[contact.uid], holders.first != id else { return contact }
        var exported = contact
        exported.uid = exportedUID(contact.uid, id: id)
        return exported
    }

    /// The UID contact `id` is written with when it shares `uid` with an older contact.
    public static func exportedUID(_ uid: String, id: Int64) -> String { DerivedUID.uuid(uid + "\u{1E}#\(id)") }

    /// How many contacts an export writes between two progress reports.
    static let exportProgressStep = 2_000

    // MARK: - Helpers

    /// `~/contacts.vcf` as a person types it.
    static func expand(_ path: String) -> String { HomePath.expanding(path) }

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
        temporaryPath =
            url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(uniqueName).tmp").path
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXFailure("cannot create a file beside it") }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    func write(_ bytes: [UInt8]) throws { try handle.write(contentsOf: bytes) }

    /// Flushes to disk and moves the file into place. Without `overwrite`, the move is a
    /// hard link, which fails rather than replace a file created meanwhile.
    func commit(overwrite: Bool, refusal: @autoclosure () -> String) throws {
        try handle.synchronize()
        try handle.close()
        if overwrite {
            guard rename(temporaryPath, path) == 0 else { throw POSIXFailure("cannot move it into place") }
        } else {
            guard link(temporaryPath, path) == 0 else {
                if errno == EEXIST { throw ContactsFailure.badInput(refusal()) }
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
