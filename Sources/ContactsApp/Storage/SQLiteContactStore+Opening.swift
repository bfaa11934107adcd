import Foundation
import GRDB

extension SQLiteContactStore {
    /// A store whose book the caller opens later, on a thread of its choosing (`openNow()`), for a
    /// front end that can answer its first message without the book (`--rpc`'s `initialize`): the
    /// open overlaps reading that message instead of coming before it (bench/STARTUP.md, issue 32).
    /// Every call that needs the book waits for the open; if the book cannot be opened, that call
    /// runs `failed` with the error `init(path:)` would have thrown, and `failed` must end the
    /// process.
    ///
    /// With `holdingWrites`, an open that finds the book as this version leaves it (the usual
    /// case) stops before its first write (GRDB's WAL set-up) until the book is used, the caller
    /// lets it go on (`letOpenFinish()`, when its front end is about to wait for input), or the
    /// store is closed: then the book is left as it was, so a session that ended without needing
    /// it does not wait for that write's syncs nor the checkpoint's (bench/FINDINGS.md, `start4`).
    public static func toOpen(
        path: String, upgrading: (@Sendable () -> Void)? = nil, holdingWrites: Bool = false,
        failed: @escaping @Sendable (Error) -> Never
    ) -> SQLiteContactStore {
        SQLiteContactStore(
            connection: .opening(
                Opening(
                    path: path, anchorBucket: defaultAnchorBucket, upgrading: upgrading, holdingWrites: holdingWrites,
                    failed: failed)))
    }

    /// Opens a store made by `toOpen` on the calling thread (once; a later call waits for the
    /// first). Calls waiting for the book go on when it returns. Returns whether the book is open;
    /// a failure is not reported here (no `failed`) but by the next call that needs the book.
    @discardableResult
    public func openNow() -> Bool {
        guard case .opening(let opening) = connection else { return true }
        opening.open()
        return opening.succeeded
    }

    /// `openNow()` once the open may go on: a store made with `holdingWrites` waits until it is
    /// let (`letOpenFinish()`), used, or closed (which then makes or leaves the open itself), so
    /// the open does not run beside the answers a front end writes first (`initialize`: the
    /// client's wait, bench/FINDINGS.md, `start8`). Any other store opens at once.
    @discardableResult
    public func openWhenLet() -> Bool {
        guard case .opening(let opening) = connection else { return true }
        opening.waitUntilLet()
        opening.open()
        return opening.succeeded
    }

    /// Lets an open held before its first write (`toOpen(…holdingWrites: true…)`) go on; nothing
    /// for any other store.
    public func letOpenFinish() {
        guard case .opening(let opening) = connection else { return }
        opening.letFinish()
    }

    /// Waits until the open of a store made by `toOpen` ends (letting a held one go on); whether
    /// the book is open (true at once for any other store). Like `openNow()`, it leaves a failure
    /// to the next call.
    public func waitForOpen() -> Bool {
        guard case .opening(let opening) = connection else { return true }
        opening.letFinish()
        return opening.succeeded
    }

    /// Waits until a held open's thread waits to be let (`openWhenLet`): tests' way to know it
    /// has begun nothing yet. Returns at once for any other store.
    func waitUntilOpenIsHeld() {
        guard case .opening(let opening) = connection else { return }
        opening.waitUntilHeld()
    }

    /// Whether the book is open now, without waiting nor letting a held open go on: what changed
    /// in the book before its open ended is not news to this session (its journal position is
    /// taken then), and a watch that asked and waited would let the open's write go on.
    public var hasOpened: Bool {
        guard case .opening(let opening) = connection else { return true }
        return opening.hasOpened
    }

    /// The book's connection: open, to be opened (`toOpen`), or open for reading until the
    /// first write (`openReadingFirst`).
    enum Connection {
        case open(any DatabaseWriter)
        case opening(Opening)
        case readingFirst(ReadingFirst)
    }

    /// A book read through one connection, as `query` reads it, until the store first writes:
    /// then the full open (`openWriter`: the pool, its WAL set-up) is made, and every read and
    /// write after goes to the pool. A session that only reads (a piped `search`) never pays
    /// that open, a second connection parsing the schema again, nor the WAL set-up's syncs and
    /// the checkpoint's at close, and leaves the book as it was (bench/FINDINGS.md, `start5`).
    final class ReadingFirst: @unchecked Sendable {
        /// The reading connection, kept open after the full open (a read on another thread may
        /// still hold it) and closed first by `close()`.
        let queue: DatabaseQueue
        private let path: String
        private let anchorBucket: Int
        /// Guards `full`; held through the full open, so two threads writing first open once.
        private let lock = NSLock()
        private var full: (any DatabaseWriter)?

        init(queue: DatabaseQueue, path: String, anchorBucket: Int) {
            self.queue = queue; self.path = path; self.anchorBucket = anchorBucket
        }

        var reader: any DatabaseReader { lock.withLock { full } ?? queue }

        /// Whether the full open was made (the store has written, or is writing).
        var hasWritten: Bool { lock.withLock { full != nil } }

        /// The pool, opened on first use; an open that fails is tried again by the next write.
        func writer() throws -> any DatabaseWriter {
            try lock.withLock {
                if let full { return full }
                let opened = try SQLiteContactStore.openWriter(path: path, anchorBucket: anchorBucket, upgrading: nil)
                full = opened
                return opened
            }
        }
    }

    /// A book opened by `openNow()`; `writer` waits for it.
    final class Opening: @unchecked Sendable {
        private let done = DispatchGroup()
        /// Guards `started`, `held`, `mayWrite` and `ending`; the open waits on it while held.
        private let gate = NSCondition()
        private var started = false
        /// True while the open's thread waits in `waitUntilLet`.
        private var held = false
        /// False while the open is held before its first write (`holdingWrites`).
        private var mayWrite: Bool
        /// Set by `end()`: the store is closing, so the open may leave a book that needs nothing.
        private var ending = false
        /// Set when the open has succeeded.
        private var opened = false
        /// Written once by `open()` before it leaves `done`; read only after `done.wait()`. Nil
        /// when the open left the book as it was (`end()`).
        private var result: Result<any DatabaseWriter, Error>?
        private let path: String
        private let anchorBucket: Int
        private let upgrading: (@Sendable () -> Void)?
        private let failed: @Sendable (Error) -> Never

        init(
            path: String, anchorBucket: Int, upgrading: (@Sendable () -> Void)?, holdingWrites: Bool,
            failed: @escaping @Sendable (Error) -> Never
        ) {
            self.path = path; self.anchorBucket = anchorBucket; self.upgrading = upgrading; self.failed = failed
            mayWrite = !holdingWrites
            done.enter()
        }

        func open() {
            let first = gate.withLock {
                defer { started = true }
                return !started
            }
            guard first else { return }
            do {
                result = .success(
                    try SQLiteContactStore.openWriter(
                        path: path, anchorBucket: anchorBucket, upgrading: upgrading,
                        leaving: { [unowned self] in leavesTheBook() }))
            } catch is LeftUnopened {
                result = nil
            } catch {
                result = .failure(error)
            }
            if case .success = result { gate.withLock { opened = true } }
            done.leave()
        }

        var hasOpened: Bool { gate.withLock { opened } }

        /// Waits while the open is held and not begun: until it is let, the store is used or
        /// closing, or another thread has begun it.
        func waitUntilLet() {
            gate.withLock {
                while !mayWrite && !ending && !started {
                    held = true
                    gate.broadcast()
                    gate.wait()
                }
                held = false
            }
        }

        /// Waits until the open's thread waits to be let (`waitUntilLet`), so a test knows without
        /// a timed wait that nothing has begun.
        func waitUntilHeld() {
            gate.withLock {
                while !held { gate.wait() }
            }
        }

        /// Asked by the open before its first write, on a book that needs none: waits while the open
        /// is held; whether the store is closing (the book is then left as it is).
        private func leavesTheBook() -> Bool {
            gate.withLock {
                while !mayWrite && !ending { gate.wait() }
                return ending
            }
        }

        func letFinish() {
            gate.withLock {
                mayWrite = true
                gate.broadcast()
            }
        }

        /// The session ends (the store closes): an open that has not yet written anything leaves a
        /// book that reads as today's as it is (no WAL set-up, no checkpoint at close); one under
        /// way, an upgrade above all, is waited for, never cut short. An open not begun yet is made
        /// here. Whether there is a connection to close; a failed open is reported (`failed`) as
        /// any call needing the book would.
        func end() -> Bool {
            gate.withLock {
                ending = true
                gate.broadcast()
            }
            open()
            done.wait()
            guard result != nil else { return false }
            _ = writer
            return true
        }

        /// Waits for the open; whether it succeeded.
        var succeeded: Bool {
            done.wait()
            if case .success = result { return true }
            return false
        }

        var writer: any DatabaseWriter {
            letFinish()
            done.wait()
            switch result {
            case .success(let writer): return writer
            case .failure(let error): failed(error)
            // Only after `end()`, which closed the store: every call checks that first.
            case nil: failed(ContactStoreError.storage("This book is closed."))
            }
        }
    }
}

/// Thrown by the book's first connection when the caller no longer needs the book and it needs
/// nothing done (`SQLiteContactStore.openWriter(…leaving:)`); never seen outside the open.
struct LeftUnopened: Error {}
