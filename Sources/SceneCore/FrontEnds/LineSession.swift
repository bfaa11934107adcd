import Foundation

/// Where a front end writes text. Tests capture it; the executable writes to the process's streams.
public protocol TextStreams: AnyObject {
    func writeOutput(_ text: String)
    func writeError(_ text: String)
}

/// The line session, for stdin that is not a terminal: one command per line, plain answers on
/// stdout, errors on stderr as `error: ...`, no prompts and no colours.
public final class LineSession {
    private let session: Session
    private let streams: TextStreams
    private let renderer: TextRenderer
    /// Stop at the first failed command.
    private let bail: Bool
    public private(set) var failures = 0

    /// `width`: the terminal's columns when stdout is one (tables fitted, prose wrapped at
    /// spaces); nil for a pipe or a file, which get the full text.
    public init(session: Session, streams: TextStreams, bail: Bool, width: Int? = nil) {
        self.session = session; self.streams = streams; self.bail = bail
        self.renderer = TextRenderer(colors: false, width: width)
    }

    /// Handles one line. Returns false when the session should end (quit, or bail after an error).
    public func handle(line: String) -> Bool {
        finish(session.handle(line: line))
    }

    /// Runs one checked action (a one-shot command line such as `contactsbook import FILE`),
    /// answering as for a line.
    public func handle(call: ActionCall) -> Bool {
        finish(session.run(call))
    }

    private func finish(_ outcome: Outcome) -> Bool {
        render(outcome)
        if !outcome.succeeded {
            failures += 1
            if bail { return false }
        }
        return !outcome.quit
    }

    /// Runs until EOF, `quit` or (with bail) an error. Returns the process exit status:
    /// 0 when every command succeeded, 1 otherwise.
    public func run(readLine: () -> String?) -> Int32 {
        while let line = readLine() {
            if !handle(line: line) { break }
        }
        return failures == 0 ? 0 : 1
    }

    /// Draws an outcome as a line does: answers on stdout, error messages on stderr (also for a
    /// one-shot command that ran its actions itself).
    public func render(_ outcome: Outcome) {
        for viewModel in outcome.displayed {
            let lines = renderer.lines(for: viewModel.layout)
            let text = lines.map { $0 + "\n" }.joined()
            if Outcome.errorMessage(viewModel) != nil {
                streams.writeError(text)
            } else {
                streams.writeOutput(text)
            }
        }
    }
}
