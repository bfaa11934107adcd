import CLibEditSupport
import SceneCore
#if canImport(Glibc)
import Glibc
#endif

/// The interactive front end: a libedit prompt driving a `Session`.
///
/// It reads lines with editing, history and completion, hands each to the same
/// `Session.handle(line:)` the line session uses, and prints what was displayed.
/// Use it only when stdin is a terminal (`REPL.isTerminal(fd: 0)`): `run()` refuses a pipe.
public final class REPL {
    private let session: Session
    private let environment: [String: String]
    private let program: String
    private let completer = Completer()
    private let progress: ProgressHub?
    private let watch: ChangeWatch?

    /// - Parameters:
    ///   - session: the app's session, with its root scene.
    ///   - environment: the process environment: `NO_COLOR`, `TERM`, `HOME`, `XDG_STATE_HOME`
    ///     and `<PROGRAM>_HISTORY` are read from it.
    ///   - program: names the history folder and variable, and the `~/.editrc` section
    ///     (`contactsbook:bind ...`).
    ///   - progress: the app's progress reports; long work is shown as a line on a terminal stderr.
    ///   - watch: what other processes change in the app's data, shown before the next prompt.
    public init(session: Session, environment: [String: String], program: String = "contactsbook",
                progress: ProgressHub? = nil, watch: ChangeWatch? = nil) {
        self.session = session; self.environment = environment; self.program = program
        self.progress = progress; self.watch = watch
    }

    /// Whether a file descriptor is a terminal (0 is stdin).
    public static func isTerminal(fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Runs until `quit` or Ctrl-D; the history is saved after every line entered.
    /// - Returns: the exit status, as the line session's: 0 when every command succeeded,
    ///   1 otherwise; 2 when stdin is not a terminal (libedit must never read a pipe).
    public func run() -> Int32 {
        let streams = StandardStreams()
        guard Self.isTerminal(fd: STDIN_FILENO) else {
            streams.writeError("error: the interactive mode needs a terminal on stdin\n")
            return 2
        }
        clibedit_use_environment_ctype() // before el_init, or non-ASCII input is dropped
        clibedit_install_sigint_handler()
        defer { clibedit_restore_sigint_handler() }

        let policy = ColorPolicy(environment: environment)
        let outputIsTerminal = Self.isTerminal(fd: STDOUT_FILENO)
        let editorOutput = outputIsTerminal ? clibedit_stdout() : clibedit_stderr()
        let prompts = PromptBuilder(colors: policy.allowsColors(isTerminal: Self.isTerminal(fd: fileno(editorOutput))))
        let printer = OutcomePrinter(
            output: TextRenderer(colors: policy.allowsColors(isTerminal: outputIsTerminal)),
            errors: TextRenderer(colors: policy.allowsColors(isTerminal: Self.isTerminal(fd: STDERR_FILENO))))
        let editor = LineEditor(program: program, output: editorOutput,
                                historyPath: HistoryLocation.path(program: program, environment: environment))
        editor.complete = { [session, completer] line, cursor in
            completer.complete(line: line, cursor: cursor, actions: session.availableActions, scene: session.stack.active)
        }

        if Self.isTerminal(fd: STDERR_FILENO) {
            let line = ProgressLine()
            progress?.observe { event in streams.writeError(line.text(for: event)) }
        }

        var failures = 0, historyWarned = false
        loop: while true {
            // What other processes changed since the last prompt: one line, before the next
            // prompt, never while the person types.
            if let changes = watch?.changes(), !changes.isEmpty {
                streams.writeOutput(ChangeWatch.notice(for: changes) + "\n")
            }
            editor.setPrompt(prompts.prompt(for: session.stackViewModel))
            switch editor.readLine() {
            case .endOfFile:
                editor.write("\n") // leave the shell's prompt on a line of its own
                break loop
            case .interrupted:
                editor.write("\n")
            case .line(let line):
                guard line.contains(where: { !$0.isWhitespace }) else { continue }
                // "list " and "list" are one command: keep one entry (completion adds spaces).
                editor.addToHistory(String(line.reversed().drop { $0.isWhitespace }.reversed()))
                // Saved as each line is entered, not only at the end: a REPL whose terminal
                // closes (SIGHUP) or that is killed keeps what was typed. At most 1000 lines.
                if !editor.saveHistory(), !historyWarned {
                    streams.writeError("warning: could not save the history\n")
                    historyWarned = true
                }
                let outcome = session.handle(line: line)
                printer.print(outcome, to: streams)
                if !outcome.succeeded { failures += 1 }
                if outcome.quit { break loop }
            }
        }
        return failures == 0 ? 0 : 1
    }
}

/// The process's stdout and stderr, through C's `FILE` so output interleaves with libedit's.
final class StandardStreams: TextStreams {
    func writeOutput(_ text: String) { write(text, clibedit_stdout()) }
    func writeError(_ text: String) { write(text, clibedit_stderr()) }

    private func write(_ text: String, _ file: UnsafeMutablePointer<FILE>) {
        fputs(text, file)
        fflush(file)
    }
}
