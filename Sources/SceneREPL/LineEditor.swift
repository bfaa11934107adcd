import CLibEdit
import CLibEditSupport

#if canImport(Glibc)
    import Glibc
#endif

/// libedit behind a small Swift face: prompt, line reading, history, Tab.
///
/// Everything that touches the terminal lives here, so the REPL's logic stays testable.
/// libedit calls back through C function pointers, which cannot capture: they find this
/// object again through `EL_CLIENTDATA`.
final class LineEditor {
    enum Input: Equatable {
        case line(String)
        /// Ctrl-C: the line was dropped.
        case interrupted
        /// Ctrl-D on an empty line, or the terminal went away.
        case endOfFile
    }

    /// Called on Tab with the line buffer and the cursor as a UTF-8 byte offset.
    var complete: (_ line: String, _ cursor: Int) -> Completion? = { _, _ in nil }

    let output: UnsafeMutablePointer<FILE>
    private let editLine: OpaquePointer
    private let history: OpaquePointer?
    private let historyPath: String?
    /// libedit reads the prompt through a callback, so the string must outlive each call.
    private var promptText: UnsafeMutablePointer<CChar>?

    /// - Parameters:
    ///   - output: where the editor draws: stdout, or stderr when stdout is redirected.
    ///   - historyPath: the history file, or nil to keep no history.
    init(program: String, output: UnsafeMutablePointer<FILE>, historyPath: String?) {
        self.output = output
        self.historyPath = historyPath
        editLine = el_init(program, clibedit_stdin(), output, clibedit_stderr())
        history = historyPath == nil ? nil : history_init()
        configure()
    }

    deinit {
        el_end(editLine)
        if let history { history_end(history) }
        free(promptText)
    }

    private func configure() {
        clibedit_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
        clibedit_set_prompt_esc(
            editLine,
            { editLine in
                LineEditor.from(editLine)?.promptText
            }, CChar(PromptBuilder.ignoreMarker.asciiValue ?? 1))
        clibedit_set_editor(editLine, "emacs")
        // libedit restores the terminal on signals and passes them on to our SIGINT handler.
        clibedit_set_signal(editLine, 1)
        clibedit_add_function(editLine, "scene-complete", "complete the word before the cursor") { editLine, _ in
            LineEditor.from(editLine)?.completeWord() ?? UInt8(CC_ERROR)
        }
        clibedit_bind(editLine, "^I", "scene-complete")
        clibedit_bind(editLine, "^R", "em-inc-search-prev")
        if let history, let historyPath {
            clibedit_history_set_size(history, 1000)
            clibedit_history_set_unique(history, 1)
            clibedit_history_load(history, historyPath) // a missing file is a first run
            clibedit_set_history(editLine, history)
        }
        el_source(editLine, nil) // ~/.editrc last, so a person's settings win
    }

    private static func from(_ editLine: OpaquePointer?) -> LineEditor? {
        guard let editLine, let data = clibedit_get_clientdata(editLine) else { return nil }
        return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
    }

    func setPrompt(_ prompt: String) {
        free(promptText)
        promptText = strdup(prompt)
    }

    func readLine() -> Input {
        _ = clibedit_take_sigint()
        var count: Int32 = 0
        guard let text = el_gets(editLine, &count) else {
            // A Ctrl-C in an incremental search (Ctrl-R) ends libedit's read as an end of file
            // (count 0, no EINTR): the SIGINT flag, not the count, tells the two apart.
            if clibedit_take_sigint() != 0 || (count < 0 && errno == EINTR) {
                el_reset(editLine) // drop the half-typed line
                return .interrupted
            }
            return .endOfFile
        }
        var line = String(cString: text)
        if line.hasSuffix("\n") { line.removeLast() }
        return .line(line)
    }

    func addToHistory(_ line: String) {
        guard let history else { return }
        clibedit_history_enter(history, line)
    }

    /// Writes the history file (libedit's own format). Called explicitly: `exit()` skips deinit.
    /// - Returns: false when the file could not be written.
    @discardableResult func saveHistory() -> Bool {
        guard let history, let historyPath else { return true }
        if let directory = HistoryLocation.directory(of: historyPath) { Self.makeDirectories(directory) }
        return clibedit_history_save(history, historyPath) >= 0
    }

    /// The terminal's width as libedit knows it (kept up to date on SIGWINCH).
    var columns: Int { Int(clibedit_columns(editLine)) }

    func write(_ text: String) {
        fputs(text, output)
        fflush(output)
    }

    private func completeWord() -> UInt8 {
        guard let info = el_line(editLine)?.pointee else { return UInt8(CC_ERROR) }
        let length = info.lastchar - info.buffer
        let bytes = UnsafeRawBufferPointer(start: info.buffer, count: max(0, length))
        let line = String(decoding: bytes, as: UTF8.self)
        guard let completion = complete(line, info.cursor - info.buffer) else { return UInt8(CC_ERROR) }
        if completion.replacing > 0 { el_deletestr(editLine, Int32(completion.replacing)) }
        if !completion.insertion.isEmpty { el_insertstr(editLine, completion.insertion) }
        guard completion.candidates.count > 1 else { return UInt8(CC_REFRESH) }
        let lines = CandidateColumns.lines(completion.candidates, width: Int(clibedit_columns(editLine)))
        write("\n" + lines.map { $0 + "\n" }.joined())
        return UInt8(CC_REDISPLAY)
    }

    /// `mkdir -p` with owner-only permissions: history may hold names and numbers.
    private static func makeDirectories(_ path: String) {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            mkdir(current, 0o700)
        }
    }
}
