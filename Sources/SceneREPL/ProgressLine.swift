import SceneCore

/// Draws long work's progress as one line on the terminal, rewritten in place ("\r", erase
/// line), and erased when the work ends so the answer that follows starts on a clean line.
///
/// Terminal-free: it returns the text to write; the REPL writes it to stderr when that is a
/// terminal (a pipe gets no progress line, only the final answer).
public final class ProgressLine {
    private var title = ""

    public init() {}

    /// The text to write for an event.
    public func text(for event: ProgressEvent) -> String {
        let erase = "\r\u{1B}[K"
        switch event {
        case .begin(let newTitle, let total):
            title = TerminalText.sanitize(newTitle)
            return erase + title + (total.map { " (0/\($0))" } ?? "…")
        case .report(let completed, let total, let message):
            let count = total.map { "\(completed)/\($0)" } ?? "\(completed)"
            return erase + "\(title): \(count)" + (message.map { " · " + TerminalText.sanitize($0) } ?? "")
        case .end:
            title = ""
            return erase
        }
    }
}
