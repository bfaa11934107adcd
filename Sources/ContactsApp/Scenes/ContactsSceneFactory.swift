import SceneCore

/// Builds the app's scenes for Routers, with what every scene shares: the environment,
/// the storage worker, the formatter and the core's context.
public final class ContactsSceneFactory {
    public let environment: ContactsEnvironment
    let worker: ContactsWorker
    let transferWorker: ImportExportWorker
    let journalWorker: JournalWorker
    /// The list's `sync`; nil for a store that keeps no sync state (the in-memory one).
    let syncWorker: ContactsSyncLogic?
    let formatter: ContactFormatter
    /// The organisation's directories (issue 31); nil for a store that keeps none (the in-memory one).
    let directoryWorker: DirectoryWorker?
    /// Set once the session exists (the session builds the root scene from it).
    var context: SceneContext!

    public init(environment: ContactsEnvironment) {
        self.environment = environment
        worker = ContactsWorker(environment: environment)
        transferWorker = ImportExportWorker(environment: environment)
        journalWorker = JournalWorker(environment: environment)
        syncWorker = environment.syncState.map { [progress = environment.progress] in
            SyncAccountsWorker(
                store: $0,
                makeTransport: { credentials in
                    // Cancelled between two requests and inside a slow one.
                    let transport = DAVTransports.standard(
                        credentials: credentials, isCancelled: { progress?.isCancelled ?? false })
                    return progress.map { CancellableTransport(transport, progress: $0) } ?? transport
                }, now: environment.now, progress: environment.progress, changes: environment.changes)
        }
        // The environment's, not casts of the store here: two more scans of every conformance
        // in the binary, an eighth of an `--rpc` start-up after the loader (bench/FINDINGS.md).
        directoryWorker = environment.directories.map {
            DirectoryWorker(
                sources: $0, journal: environment.journal, makeUID: environment.makeUID, now: environment.now)
        }
        formatter = ContactFormatter(
            timeZone: environment.givenTimeZone,
            defaultCountry: environment.defaultCountry)
    }

    /// Every kind of scene the app has.
    public static let sceneKinds = [
        ListContactsViewController.descriptor, ShowContactViewController.descriptor,
        EditContactViewController.descriptor,
    ]

    /// A session whose root is the contacts list.
    public static func makeSession(environment: ContactsEnvironment) -> Session {
        let factory = ContactsSceneFactory(environment: environment)
        return Session(sceneKinds: sceneKinds) { context in
            factory.context = context
            return ListContactsConfigurator.configure(context: context, factory: factory)
        }
    }

    func makeShowContact() -> ShowContactViewController {
        ShowContactConfigurator.configure(context: context, factory: self)
    }

    func makeEditContact() -> EditContactViewController {
        EditContactConfigurator.configure(context: context, factory: self)
    }

    // The list's tools, shown in its place (`ListContactsRouter`): not kinds of scene of their
    // own in `sceneKinds`, since their actions are the list's.

    func makeHistory() -> ListContactsToolScene { HistoryConfigurator.configure(context: context, factory: self) }

    func makeTrash() -> ListContactsToolScene { TrashConfigurator.configure(context: context, factory: self) }

    func makeDuplicates() -> ListContactsToolScene { DuplicatesConfigurator.configure(context: context, factory: self) }

    func makeBirthdays() -> ListContactsToolScene { BirthdaysConfigurator.configure(context: context, factory: self) }
}
