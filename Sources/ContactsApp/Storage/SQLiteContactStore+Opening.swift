import Foundation
import GRDB

extension SQLiteContactStore {
    /// A store whose book the caller opens later, on a thread of its choosing (`openNow()`), for a
    /// front end that can answer its first message without the book (`--rpc`'s `initialize`): the
    /// open overlaps reading that message instead of coming before it (bench/STARTUP.md, issue 32).
    /// Every call that needs the book waits for the open; if the book cannot be opened, that call
    /// (or `waitUntilOpen()`) runs `failed` with the error `init(path:)` would have thrown, and
    /// `failed` must end the process.
    public static func toOpen(
        path: String, upgrading: (@Sendable () -> Void)? = nil,
        failed: @escaping @Sendable (Error) -> Never
    ) -> SQLiteContactStore {
        SQLiteContactStore(
            connection: .opening(
                Opening(path: path, anchorBucket: defaultAnchorBucket, upgrading: upgrading, failed: failed)))
    }

    /// Opens a store made by `toOpen` on the calling thread (once; later calls, and calls on any
    /// other store, do nothing). Calls waiting for the book go on when it returns.
    public func openNow() {
        if case .opening(let opening) = connection { opening.open() }
    }

    /// Waits until the book is open (see `toOpen`); returns at once for any other store.
    public func waitUntilOpen() { _ = writer }

    /// The book's connection: open, or to be opened (`toOpen`).
    enum Connection {
        case open(any DatabaseWriter)
        case opening(Opening)
    }

    /// A book opened by `openNow()`; `writer` waits for it.
    final class Opening: @unchecked Sendable {
        private let done = DispatchGroup()
        private let lock = NSLock()
        private var started = false
        /// Written once by `open()` before it leaves `done`; read only after `done.wait()`.
        private var result: Result<any DatabaseWriter, Error>?
        private let path: String
        private let anchorBucket: Int
        private let upgrading: (@Sendable () -> Void)?
        private let failed: @Sendable (Error) -> Never

        init(
            path: String, anchorBucket: Int, upgrading: (@Sendable () -> Void)?,
            failed: @escaping @Sendable (Error) -> Never
        ) {
            self.path = path; self.anchorBucket = anchorBucket; self.upgrading = upgrading; self.failed = failed
            done.enter()
        }

        func open() {
            let first = lock.withLock {
                defer { started = true }
                return !started
            }
            guard first else { return }
            result = Result {
                try SQLiteContactStore.openWriter(path: path, anchorBucket: anchorBucket, upgrading: upgrading)
            }
            done.leave()
        }

        var writer: any DatabaseWriter {
            done.wait()
            switch result! {
            case .success(let writer): return writer
            case .failure(let error): failed(error)
            }
        }
    }
}
