import Foundation

extension RPCServer {
    /// Runs the session over file descriptors until `exit`, EOF or lost framing; returns the
    /// exit status. Blocking reads; each frame written whole before the next.
    ///
    /// Stdout is protected: frames go to a private duplicate of `output`, and (when `output` is
    /// fd 1) fd 1 is pointed at stderr, so nothing a library prints can corrupt the stream.
    /// SIGPIPE is ignored so a client that goes away ends the loop instead of killing the process.
    public func run(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let frames = dup(output)
        guard frames >= 0 else {
            Self.logToStandardError("cannot duplicate the output descriptor: \(String(cString: strerror(errno)))")
            return 1
        }
        defer { close(frames) }
        if output == STDOUT_FILENO {
            fflush(stdout)
            dup2(STDERR_FILENO, STDOUT_FILENO)
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while !isFinished {
            let count = read(input, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            var writeFailed = false
            let emit: ([UInt8]) -> Void = { frame in
                guard !writeFailed else { return }
                if !Self.writeWhole(frame, to: frames) {
                    Self.logToStandardError("the client closed its input: \(String(cString: strerror(errno)))")
                    writeFailed = true
                }
            }
            if count > 0 {
                receive(Array(chunk[0..<count]), emit: emit)
            } else {
                if count < 0 { Self.logToStandardError("read failed: \(String(cString: strerror(errno)))") }
                endOfInput(emit: emit)
            }
            if writeFailed { return 1 }
        }
        return exitStatus
    }

    /// Writes every byte, retrying short writes and interrupts. False when the peer is gone.
    static func writeWhole(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
