import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Tells a front end what other processes changed in the file its app keeps its data in.
///
/// inotify watches the file's directory (the file, and SQLite's `-wal` beside it, which
/// appears and goes); the front end waits on `descriptor` with its input (`poll`), or reads
/// `changes()` before a prompt. Nothing runs while nothing is written: no polling, no thread.
/// What changed is the app's to say (`check`); this only wakes it.
public final class ChangeWatch {
    /// Readable when some file beside the watched one was written; never blocks when read. -1
    /// until the watch is armed (`arm()`, at once unless made with `armed: false`).
    public private(set) var descriptor: Int32 = -1
    /// The watch on the folder, removed before `descriptor` is closed (`deinit`).
    private var watch: Int32 = -1
    private let fileName: String
    private let folder: String
    private let check: () -> [DataChange]
    /// Set when armed late: what changed before is asked for once by the next `changes()`.
    private var checkDue = false

    /// Nil when inotify is not available (the front end then goes without notices). With `armed:
    /// false`, nothing is watched until `arm()` (a front end arms it when it first waits for input:
    /// a script's session that never waits never pays for inotify, whose descriptor's release
    /// waited 5-23 ms in the kernel at the end of a short `--rpc` session; bench/FINDINGS.md, `start4`).
    public init?(file path: String, armed: Bool = true, check: @escaping () -> [DataChange]) {
        // By hand, not through `URL(fileURLWithPath:)`, which asks the file system whether the
        // path is a folder: 0.8M instructions of an `--rpc` start-up before `initialize` is answered.
        let slash = path.lastIndex(of: "/")
        fileName = slash.map { String(path[path.index(after: $0)...]) } ?? path
        folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        self.check = check
        if armed {
            guard startWatching() else { return nil }
        }
    }

    /// Starts watching now, if not yet; the next `changes()` then asks the app once what changed
    /// before (nothing woke it meanwhile). False when inotify is not available.
    @discardableResult
    public func arm() -> Bool {
        guard descriptor < 0 else { return true }
        guard startWatching() else { return false }
        checkDue = true
        return true
    }

    private func startWatching() -> Bool {
        let fd = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard fd >= 0 else { return false }
        let mask = UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)
        let watch = inotify_add_watch(fd, folder, mask)
        guard watch >= 0 else {
            close(fd)
            return false
        }
        descriptor = fd
        self.watch = watch
        return true
    }

    /// The watch is removed first: closing a descriptor that still holds one waits in the kernel for
    /// its marks to be freed (5-23 ms here, and an exit waits the same); removed just before, the
    /// close mostly does not wait (0.03 ms), though not always.
    deinit {
        guard descriptor >= 0 else { return }
        inotify_rm_watch(descriptor, watch)
        close(descriptor)
    }

    /// 8 reads of 16 KB: some thousands of events, more than a burst of SQLite's writes makes.
    static let readsPerCall = 8

    /// Reads every pending event without waiting; when one concerns the watched file (or its
    /// `-wal`, `-journal`), asks the app what changed. Empty when nothing did.
    public func changes() -> [DataChange] {
        var concerned = checkDue
        checkDue = false
        guard descriptor >= 0 else { return concerned ? check() : [] }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        // A bounded number of reads, not "until empty": a program writing beside the book without
        // pause would keep the loop busy and the front end's input unread. What is left keeps the
        // descriptor readable, so the front end's `poll` comes back for it after its input.
        for _ in 0..<Self.readsPerCall {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let length = buffer.withUnsafeBytes {
                    Int($0.load(fromByteOffset: offset + 12, as: UInt32.self))
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                if String(decoding: nameBytes, as: UTF8.self).hasPrefix(fileName) { concerned = true }
                offset += header + length
            }
        }
        return concerned ? check() : []
    }

    /// "Changed elsewhere: contacts updated #3; contacts created #12, #13": the one line a
    /// REPL shows before its next prompt.
    public static func notice(for changes: [DataChange]) -> String {
        "Changed elsewhere: "
            + changes.map { change in
                let ids =
                    change.ids.prefix(5).map { "#\($0)" }.joined(separator: ", ")
                    + (change.ids.count > 5 ? " and \(change.ids.count - 5) more" : "")
                return "\(change.topic) \(change.kind)" + (ids.isEmpty ? "" : " \(ids)")
            }.joined(separator: "; ")
    }
}
