import Foundation
import Logging
import SceneCore

extension RPCServer {
    /// Runs the session over file descriptors until `exit`, EOF or lost framing; returns the
    /// exit status. Blocking reads; frames written whole and in order.
    ///
    /// Output is buffered while complete frames are waiting in the input (a pipelining client):
    /// the answers to everything one `read(2)` returned go out in one `write(2)` before the next
    /// read, so a client that sends one request and waits gets its answer at once. Progress
    /// notifications are written as soon as they are posted.
    ///
    /// Stdout is protected: frames go to a private duplicate of `output`, and (when `output` is
    /// fd 1) fd 1 is pointed at stderr, so nothing a library prints can corrupt the stream.
    /// SIGPIPE is ignored so a client that goes away ends the loop instead of killing the process.
    ///
    /// With a `watch`, the loop waits on the input and the watch at once (`poll`, no timeout):
    /// changes other processes made go out as `session/dataChanged` between requests.
    ///
    /// `beforeWaiting` runs once, the first time the loop is about to wait for input that has not
    /// arrived (never when the input, to its end, was there already: a script's); a `watch` made
    /// unarmed is armed then too.
    public func run(
        input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, watch: ChangeWatch? = nil,
        beforeWaiting: (() -> Void)? = nil
    ) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let frames = dup(output)
        guard frames >= 0 else {
            log(.error, "cannot duplicate the output descriptor: \(String(cString: strerror(errno)))")
            return 1
        }
        defer { close(frames) }
        if output == STDOUT_FILENO {
            fflush(stdout)
            dup2(STDERR_FILENO, STDOUT_FILENO)
        }
        let buffer = FrameBuffer(descriptor: frames, log: log)
        // Made when long work first looks for a cancellation: zeroing 64 KiB was 65k instructions
        // and 16 page faults of every start, before `initialize` was answered.
        var waiting: [UInt8] = []
        waitingInput = {
            if waiting.isEmpty { waiting = [UInt8](repeating: 0, count: 64 * 1024) }
            return Self.readWithoutWaiting(input, into: &waiting)
        }
        defer { waitingInput = nil }
        let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 * 1024)
        defer { chunk.deallocate() }
        var beforeWaiting = beforeWaiting
        // A watch made unarmed is armed the first time the loop is about to wait, as is
        // `beforeWaiting` run: a script's session, its input all there, never waits.
        var toArm = watch.map { $0.descriptor < 0 } ?? false
        while !isFinished {
            if beforeWaiting != nil || toArm, !Self.hasInput(input) {
                if let first = beforeWaiting {
                    beforeWaiting = nil
                    first()
                }
                if toArm, let watch {
                    toArm = false
                    // What changed before it was armed is asked for once now.
                    if watch.arm() {
                        announce(watch.changes(), into: buffer)
                        buffer.flush()
                        if buffer.failed { return 1 }
                    }
                }
            }
            if let watch, watch.descriptor >= 0 {
                var fds = [
                    pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0),
                ]
                if poll(&fds, 2, -1) < 0 {
                    if errno == EINTR { continue }
                    log(.error, "poll failed: \(String(cString: strerror(errno)))")
                    return 1
                }
                if fds[1].revents != 0 {
                    announce(watch.changes(), into: buffer)
                    buffer.flush()
                    if buffer.failed { return 1 }
                }
                if fds[0].revents == 0 { continue }
            }
            let count = read(input, chunk.baseAddress, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count > 0 {
                receive(UnsafeBufferPointer(rebasing: chunk[0..<count]), into: buffer)
                // Long work may have read the input to its end, looking for a cancellation.
                if inputEndedDuringRequest { endOfInput(into: buffer) }
            } else {
                if count < 0 { log(.error, "read failed: \(String(cString: strerror(errno)))") }
                endOfInput(into: buffer)
            }
            // Every complete frame read so far is answered: flush before waiting for more input.
            buffer.flush()
            if buffer.failed { return 1 }
        }
        return exitStatus
    }

    /// Whether reading `input` now would not wait (bytes, or its end, are there).
    static func hasInput(_ input: Int32) -> Bool {
        var ready = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, 0) != 0
    }

    /// What `input` holds now: one read of what is there, without waiting (`poll` with no timeout).
    static func readWithoutWaiting(_ input: Int32, into chunk: inout [UInt8]) -> WaitingInput {
        while true {
            var ready = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) > 0 else { return .nothing }
            let count = read(input, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            return count > 0 ? .bytes(chunk[0..<count]) : .ended
        }
    }

    /// Writes every byte, retrying short writes and interrupts. False when the peer is gone.
    static func writeWhole(_ bytes: [UInt8], to fd: Int32) -> Bool {
        bytes.withUnsafeBytes { writeWhole($0, to: fd) }
    }

    static func writeWhole(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}

/// Whole frames waiting to be written to a descriptor, in order. Frames are only ever appended
/// whole, and `flush` writes everything appended so far, so frames never mix or split on the wire.
final class FrameBuffer {
    /// Above this, `append` writes at once (a long pipelined burst keeps memory bounded).
    static let highWater = 256 * 1024

    let descriptor: Int32
    private(set) var bytes: [UInt8] = []
    /// Set when a write failed (the client went away); later output is dropped.
    private(set) var failed = false

    private let log: RPCServer.Log

    init(descriptor: Int32, log: @escaping RPCServer.Log = RPCServer.logToStandardError) {
        self.descriptor = descriptor
        self.log = log
        bytes.reserveCapacity(Self.highWater + 4096)
    }

    /// Lets `body` append whole frames, then writes them if the buffer is over its high-water mark.
    func append(_ body: (inout [UInt8]) -> Void) {
        body(&bytes)
        if bytes.count >= Self.highWater { flush() }
    }

    /// Writes everything buffered, in one call where the descriptor takes it.
    func flush() {
        guard !bytes.isEmpty else { return }
        if !failed && !bytes.withUnsafeBytes({ RPCServer.writeWhole($0, to: descriptor) }) {
            log(.notice, "the client closed its input: \(String(cString: strerror(errno)))")
            failed = true
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
