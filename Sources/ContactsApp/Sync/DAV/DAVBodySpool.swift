import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A streamed answer's body on its way from the network to its reader, in a file without a name:
/// the transport's thread writes what arrives at the network's pace, the reader (the sync's
/// parser, deciding and writing threads behind it) takes it at its own.
///
/// Without it the body was read only as fast as the cards were saved, and a server that bounds
/// how long it may take to send an answer (Radicale's `[server] timeout`, 30 s by default, bounds
/// its whole `sendall`) closed a first download of 50,000 cards half way on a loaded client, every
/// sync again (bench/FINDINGS.md, sync5 and sync6). A file, not memory: a first download's answer
/// is 33 MB at 50,000 cards and up to `DAVSizeLimits.answer`, and memory must stay flat.
///
/// The file is made unnamed (`O_TMPFILE`; else made and unlinked at once), private to this
/// process, so nothing is left behind whatever happens, a crash included; `close` (or deinit)
/// gives its space back.
final class DAVBodySpool: @unchecked Sendable {
    private let condition = NSCondition()
    private var descriptor: Int32
    /// Bytes written, and read, so far.
    private var written = 0
    private var read = 0
    /// The writer is done: how its transfer ended (nil: it has not).
    private var ending: Ending?
    /// The reader stopped: the writer's next bytes are refused, so that the transfer stops.
    private var abandoned = false
    /// The reader waits for bytes (so the writer signals only then).
    private var waiting = false
    /// At most this many bytes are kept; the writer's bytes past it are refused (`overflowed`).
    let limit: Int
    /// The writer offered more than `limit` bytes: `limit` were kept.
    private(set) var overflowed = false
    /// Why the last write failed (a full disk), in words.
    private(set) var writeFailure: String?
    /// Where the file is.
    let directory: String

    /// How the writer's transfer ended.
    enum Ending: Equatable {
        /// The whole body came: the reader takes all of it.
        case complete
        /// The transfer failed or was stopped: what is left unread is not for the reader.
        case failed
    }

    /// Where the spool goes: `$TMPDIR`, else `/tmp`.
    static func defaultDirectory(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// - Parameters:
    ///   - directory: where the file is made (it never has a name there for long, or at all).
    ///   - limit: bytes kept at most.
    ///   - unnamed: `O_TMPFILE` when the file system has it (the tests turn it off to try the other way).
    init(directory: String, limit: Int = .max, unnamed: Bool = true) throws {
        self.limit = limit
        self.directory = directory
        var fd: Int32 = -1
        #if os(Linux)
            if unnamed {
                // O_TMPFILE (__O_TMPFILE | O_DIRECTORY), which Glibc's module does not export.
                fd = open(directory, O_RDWR | O_CLOEXEC | O_DIRECTORY | 0o20_000_000, 0o600)
            }
        #endif
        if fd < 0 {
            // Made with a random name and unlinked at once: only this descriptor holds it.
            var template = Array((directory + "/contactsbook-answer-XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if fd >= 0 {
                template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        guard fd >= 0 else {
            throw DAVError.network(
                "could not make a file in \(directory) to receive the answer: \(String(cString: strerror(errno))) "
                    + "(TMPDIR sets where)")
        }
        descriptor = fd
    }

    deinit { close() }

    /// The file's descriptor, -1 once closed.
    var fileDescriptor: Int32 { condition.lock(); defer { condition.unlock() }; return descriptor }

    // MARK: The writer (the transport's thread)

    /// Appends bytes of the body; false stops the transfer (the reader stopped, the limit was
    /// passed, or the file could not be written).
    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        condition.lock()
        let (fd, offset, stop) = (descriptor, written, abandoned)
        condition.unlock()
        guard !stop, fd >= 0 else { return false }
        let kept = min(bytes.count, limit - offset)
        var done = 0
        while done < kept {
            let n = pwrite(fd, bytes.baseAddress! + done, kept - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let why = String(cString: strerror(errno))
                condition.lock()
                writeFailure = "could not keep the answer in \(directory) as it came: \(why)"
                condition.unlock()
                return false
            }
            done += n
        }
        condition.lock()
        written += kept
        if kept < bytes.count { overflowed = true }
        if waiting { condition.signal() }
        condition.unlock()
        return kept == bytes.count
    }

    /// The transfer ended: the reader takes the rest (`complete`) or stops (`failed`).
    func finish(_ how: Ending) {
        condition.lock()
        if ending == nil { ending = how }
        condition.signal()
        condition.unlock()
    }

    /// Whether the reader stopped (asked by the transport while it waits for the network).
    var isAbandoned: Bool { condition.lock(); defer { condition.unlock() }; return abandoned }

    // MARK: The reader (the sync's thread)

    /// What `next` found.
    enum Next: Equatable {
        /// This many bytes were put in the buffer.
        case bytes(Int)
        /// None came within the wait: the reader may look for a cancellation, and ask again.
        case nothingYet
        /// The end: the writer finished and everything was read, or it failed (what is left is
        /// not read, unless it stopped at the limit: the reader reads up to it and names it).
        case end
    }

    /// The next bytes of the body into `buffer`, waiting at most `wait` seconds for some.
    func next(into buffer: UnsafeMutableRawBufferPointer, waitingAtMost wait: TimeInterval = .infinity) -> Next {
        condition.lock()
        let until = Date(timeIntervalSinceNow: min(wait, 1e9))
        while written == read && ending == nil && !abandoned {
            waiting = true
            let signalled = condition.wait(until: until)
            waiting = false
            if !signalled && written == read && ending == nil && !abandoned {
                condition.unlock()
                return .nothingYet
            }
        }
        let available = written - read
        let fd = descriptor
        let stop = abandoned || fd < 0 || available == 0 || (ending == .failed && !overflowed)
        condition.unlock()
        if stop { return .end }
        let wanted = min(available, buffer.count)
        var done = 0
        while done < wanted {
            let n = pread(fd, buffer.baseAddress! + done, wanted - done, off_t(read + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            done += n
        }
        condition.lock()
        read += done
        condition.unlock()
        // What was read is given back as the rest is (on a `/tmp` in memory, that is memory).
        let readable = read & ~(Self.pageBytes - 1)
        if readable - released >= Self.releaseEvery, Self.punchHole(fd, released, readable - released) {
            released = readable
        }
        return done > 0 ? .bytes(done) : .end
    }

    /// Bytes at the start of the file already given back.
    private var released = 0
    private static let pageBytes = 4096
    /// Given back in pieces of at least this many bytes.
    static let releaseEvery = 4 << 20

    /// `fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE)`, looked up at run time (Glibc's module
    /// does not export it); false where the file system or the system cannot.
    private static func punchHole(_ fd: Int32, _ offset: Int, _ length: Int) -> Bool {
        guard let fallocate = fallocateFunction else { return false }
        return fallocate(fd, 0x02 | 0x01, off_t(offset), off_t(length)) == 0
    }

    private typealias Fallocate = @convention(c) (Int32, Int32, off_t, off_t) -> Int32
    private static let fallocateFunction: Fallocate? = {
        #if os(Linux)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fallocate") else { return nil }
            return unsafeBitCast(symbol, to: Fallocate.self)
        #else
            return nil
        #endif
    }()

    /// Bytes of the file on disk (or in memory), for the tests.
    var allocatedBytes: Int {
        var status = stat()
        return fstat(fileDescriptor, &status) == 0 ? Int(status.st_blocks) * 512 : -1
    }

    /// How the writer ended, once it has.
    var ended: Ending? { condition.lock(); defer { condition.unlock() }; return ending }

    /// The reader stops: the writer's next bytes are refused.
    func abandon() {
        condition.lock()
        abandoned = true
        condition.signal()
        condition.unlock()
    }

    /// Gives the file back (it has no name: its space is freed with its last descriptor).
    func close() {
        condition.lock()
        let fd = descriptor
        descriptor = -1
        abandoned = true
        condition.signal()
        condition.unlock()
        if fd >= 0 {
            #if canImport(Glibc)
                _ = Glibc.close(fd)
            #else
                _ = Darwin.close(fd)
            #endif
        }
    }
}
