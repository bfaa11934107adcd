import Foundation
import SceneCore

/// What the app needs from the outside world, injected so tests are deterministic.
public struct ContactsEnvironment {
    public var store: ContactStore
    public var now: () -> Date
    public var makeUID: () -> String
    /// Used for capitalising names (Turkish dotted i and the like): the one given, else the
    /// machine's, looked up when a name is first tidied (`Locale.current` starts ICU's locale
    /// code, 0.16M instructions before `--rpc` could answer `initialize`; bench/FINDINGS.md).
    public var locale: Locale {
        get { givenLocale ?? .current }
        set { givenLocale = newValue }
    }
    /// The locale given to `init`, nil for the machine's.
    public var givenLocale: Locale?
    /// Used for showing created and updated times: the one given, else the machine's, looked up
    /// when a time is first shown (0.9M instructions, a tenth of an `--rpc` start-up that shows none).
    public var timeZone: TimeZone {
        get { givenTimeZone ?? .current }
        set { givenTimeZone = newValue }
    }
    /// The time zone given to `init`, nil for the machine's.
    public var givenTimeZone: TimeZone?
    /// Rows per page of the list unless the user asks otherwise.
    public var pageSize: Int
    /// The book's country for phone numbers without a country code ("US"), or nil to show
    /// such numbers as typed; `duplicates` and `merge` also compare `(555) 000-1111` with
    /// `+1 555 000 1111` by it.
    public var defaultCountry: String?
    /// Told of every contact added, changed or deleted (front ends announce it to clients).
    public var changes: ChangeNotifier?
    /// Told how long work (an import) goes on (front ends show it to clients that asked).
    public var progress: ProgressReporter?
    /// The book's change journal (history, undo, trash); nil for a store that keeps none.
    public var journal: ContactJournal?
    /// Where `sync` keeps its accounts and state; nil for a store that keeps none (the in-memory one).
    public var syncState: (SyncStateStore & ContactStore)?
    /// The book's directory sources (`directory add`); nil for a store that keeps none.
    public var directories: DirectorySourceStore?
    /// The book file's address books (`books`, `move`); nil for a store that keeps one only.
    public var books: AddressBookStore?

    /// A `journal`, `syncState`, `directories` or `books` not given is the store itself if it is
    /// one. A caller that has the concrete store passes it for all four: each cast scans every
    /// conformance in the binary (a quarter of a million instructions; bench/STARTUP.md).
    public init(
        store: ContactStore, now: @escaping () -> Date = Date.init,
        makeUID: @escaping () -> String = { UUID().uuidString.lowercased() },
        locale: Locale? = nil, timeZone: TimeZone? = nil, pageSize: Int = 20,
        changes: ChangeNotifier? = nil, progress: ProgressReporter? = nil, defaultCountry: String? = nil,
        journal: ContactJournal? = nil, syncState: (SyncStateStore & ContactStore)? = nil,
        directories: DirectorySourceStore? = nil, books: AddressBookStore? = nil
    ) {
        self.store = store; self.now = now; self.makeUID = makeUID
        givenLocale = locale; givenTimeZone = timeZone; self.pageSize = pageSize
        self.changes = changes; self.progress = progress; self.defaultCountry = defaultCountry
        self.journal = journal ?? store as? ContactJournal
        self.syncState = syncState ?? store as? SyncStateStore & ContactStore
        self.directories = directories ?? store as? DirectorySourceStore
        self.books = books ?? store as? AddressBookStore
    }
}
