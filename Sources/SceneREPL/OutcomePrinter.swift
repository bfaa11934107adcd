import SceneCore

/// Writes what one command displayed: errors to the error stream, the rest to the output.
///
/// Each stream has its own renderer because each may or may not be a terminal
/// (`contactsbook 2>log` keeps colours on stdout only).
public struct OutcomePrinter {
    /// Draws what goes to the output stream.
    public let output: TextRenderer
    /// Draws error messages, for the error stream.
    public let errors: TextRenderer

    /// Each stream's width now, asked before each outcome (a window may have been resized
    /// since): a terminal's columns, or nil for a pipe or a file, which get the full text.
    let outputWidth: () -> Int?
    let errorWidth: () -> Int?

    /// A printer with a renderer per stream, each coloured only if its stream may be.
    public init(
        output: TextRenderer, errors: TextRenderer,
        outputWidth: @escaping () -> Int? = { nil }, errorWidth: @escaping () -> Int? = { nil }
    ) {
        self.output = output; self.errors = errors; self.outputWidth = outputWidth; self.errorWidth = errorWidth
    }

    /// Writes every ViewModel the outcome displayed, in order.
    public func print(_ outcome: Outcome, to streams: TextStreams) {
        var output = self.output, errors = self.errors
        output.width = outputWidth()
        errors.width = errorWidth()
        for viewModel in outcome.displayed {
            if let message = viewModel as? Message, message.kind == .error {
                streams.writeError(text(errors.lines(for: viewModel.layout)))
            } else {
                streams.writeOutput(text(output.lines(for: viewModel.layout)))
            }
        }
    }

    private func text(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }
}
