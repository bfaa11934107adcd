import SceneCore

/// The default session on a pipe: a line that starts with `{` or `[` is a JSON-RPC message
/// (newline-delimited, answered with JSON lines on stdout), any other line is a command.
///
/// Both kinds drive the same `Session`, so a script can mix them. Only commands count towards
/// the exit status: a JSON-RPC error is an answer the client reads, not a failed command.
public final class MixedLineSession {
    private let lines: LineSession
    private let server: RPCServer
    private let streams: TextStreams

    public init(lines: LineSession, server: RPCServer, streams: TextStreams) {
        self.lines = lines; self.server = server; self.streams = streams
    }

    /// Runs until EOF, `quit`, JSON-RPC `exit`, or (with bail) a failed command.
    /// Returns 0 when every command succeeded, 1 otherwise.
    public func run(readLine: () -> String?) -> Int32 {
        while let line = readLine() {
            if line.first == "{" || line.first == "[" {
                if let answer = server.handleLine(line) { streams.writeOutput(answer + "\n") }
                if server.isFinished { break }
            } else if !lines.handle(line: line) {
                break
            }
        }
        return lines.failures == 0 ? 0 : 1
    }
}
