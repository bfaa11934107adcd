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
    private let completer: Completer
    private let progress: ProgressHub?
    private let watch: ChangeWatch?
    private let greeting: String?

    /// Shown on a first start (no history file yet), under the greeting.
    static let firstStartHint = "Type help to list the commands; Tab completes."

    /// - Parameters:
    ///   - session: the app's session, with its root scene.
    ///   - environment: the process environment: `NO_COLOR`, `TERM`, `HOME`, `XDG_STATE_HOME`
    ///     and `<PROGRAM>_HISTORY` are read from it.
    ///   - program: names the history folder and variable, and the `~/.editrc` section
    ///     (`contactsbook:bind ...`).
    ///   - progress: the app's progress reports; long work is shown as a line on a terminal stderr.
    ///   - greeting: a line shown on every start (the app says what it opened); on a first start
    ///     (history kept but no history file yet) a hint on `help` and Tab follows it.
    ///   - watch: what other processes change in the app's data, shown before the next prompt.
    public init(
        session: Session, environment: [String: String], program: String = "contactsbook",
        progress: ProgressHub? = nil, greeting: String? = nil, watch: ChangeWatch? = nil
    ) {
        self.session = session; self.environment = environment; self.program = program
        self.progress = progress; self.greeting = greeting; self.watch = watch
        completer = Completer(home: environment["HOME"])
    }

    /// The lines shown before the first prompt: the greeting (control characters, as a path
    /// may hold, shown as spaces), and the hint on a first start.
    static func welcome(greeting: String?, historyPath: String?, fileExists: (String) -> Bool) -> [String] {
        var lines =
            greeting.map {
                [String($0.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })]
            } ?? []
        if let historyPath, !fileExists(historyPath) { lines.append(firstStartHint) }
        return lines
    }

    /// Whether a file descriptor is a terminal (0 is stdin).
    public static func isTerminal(fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Runs until `quit` or Ctrl-D; the history is saved after every line entered.
    /// - Returns: the exit status: 0 unless the session ends on an error (its last command
    ///   failed), then 1; 2 when stdin is not a terminal (libedit must never read a pipe). A
    ///   person corrects a mistake and goes on: an earlier failure is not the session's outcome.
    public func run() -> Int32 {
        let streams = StandardStreams()
        guard Self.isTerminal(fd: STDIN_FILENO) else {
            streams.writeError("error: the interactive mode needs a terminal on stdin\n")
            return 2
        }
        session.canAsk = true // a scene's confirmations are put to the person (see `answer`)
        clibedit_use_environment_ctype() // before el_init, or non-ASCII input is dropped
        clibedit_install_sigint_handler()
        defer { clibedit_restore_sigint_handler() }
        // Ctrl-C while a command runs stops its long work (a sync, an import) at its next look:
        // the SIGINT flag is the cancellation, cleared before each command and each prompt.
        progress?.observeCancellation { clibedit_sigint_pending() != 0 }

        let policy = ColorPolicy(environment: environment)
        let outputIsTerminal = Self.isTerminal(fd: STDOUT_FILENO)
        let editorOutput = outputIsTerminal ? clibedit_stdout() : clibedit_stderr()
        let prompts = PromptBuilder(colors: policy.allowsColors(isTerminal: Self.isTerminal(fd: fileno(editorOutput))))
        let errorsAreTerminal = Self.isTerminal(fd: STDERR_FILENO)
        let historyPath = HistoryLocation.path(program: program, environment: environment)
        // Read before the editor loads (and later saves) the history file.
        let welcome = Self.welcome(greeting: greeting, historyPath: historyPath) { access($0, F_OK) == 0 }
        let editor = LineEditor(program: program, output: editorOutput, historyPath: historyPath)
        // Tables and prose fit the terminal; a stream redirected to a file gets the full text.
        let printer = OutcomePrinter(
            output: TextRenderer(colors: policy.allowsColors(isTerminal: outputIsTerminal)),
            errors: TextRenderer(colors: policy.allowsColors(isTerminal: errorsAreTerminal)),
            outputWidth: { [editor] in outputIsTerminal ? editor.columns : nil },
            errorWidth: { [editor] in errorsAreTerminal ? editor.columns : nil })
        editor.complete = { [session, completer] line, cursor in
            completer.complete(
                line: line, cursor: cursor, actions: session.availableActions, scene: session.stack.active)
        }

        if Self.isTerminal(fd: STDERR_FILENO) {
            let line = ProgressLine()
            progress?.observe { event in streams.writeError(line.text(for: event)) }
        }

        for line in welcome { editor.write(line + "\n") }
        var lastFailed = false, historyWarned = false
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
                if mayQuit(editor: editor, printer: printer, streams: streams) { break loop }
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
                _ = clibedit_take_sigint()
                var outcome = session.handle(line: line)
                if let request = outcome.confirmation {
                    printer.print(outcome.withoutConfirmation, to: streams)
                    outcome = answer(request, editor: editor)
                }
                printer.print(outcome, to: streams)
                lastFailed = !outcome.succeeded
                if outcome.quit, mayQuit(editor: editor, printer: printer, streams: streams) { break loop }
            }
        }
        return lastFailed ? 1 : 0
    }

    /// Puts a scene's question to the person (`y`/`yes` confirm; anything else, Ctrl-C or
    /// Ctrl-D declines) and returns what followed: the confirmed action's outcome, or the
    /// scene's "declined" message.
    private func answer(_ request: ConfirmationRequest, editor: LineEditor) -> Outcome {
        if ask(request.question, editor: editor) { return session.run(request.confirmed) }
        var declined = Outcome()
        declined.displayed = [request.declined]
        return declined
    }

    /// Whether to leave now (Ctrl-D or `quit`): yes unless a scene would lose something and
    /// the person, asked, says no (then its "declined" message is shown).
    private func mayQuit(editor: LineEditor, printer: OutcomePrinter, streams: TextStreams) -> Bool {
        guard let request = session.confirmationBeforeQuitting() else { return true }
        if ask(request.question, editor: editor) { return true }
        var declined = Outcome()
        declined.displayed = [request.declined]
        printer.print(declined, to: streams)
        return false
    }

    /// A y/N question read by the line editor; Ctrl-C and Ctrl-D mean no.
    private func ask(_ question: String, editor: LineEditor) -> Bool {
        editor.setPrompt(TerminalText.sanitize(question) + " [y/N] ")
        switch editor.readLine() {
        case .line(let text):
            return ["y", "yes"].contains(text.filter { !$0.isWhitespace }.lowercased())
        case .interrupted, .endOfFile:
            editor.write("\n")
            return false
        }
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
