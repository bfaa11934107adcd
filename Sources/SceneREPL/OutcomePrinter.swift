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

    /// A printer with a renderer per stream, each coloured only if its stream may be.
    public init(output: TextRenderer, errors: TextRenderer) {
        self.output = output; self.errors = errors
    }

    /// Writes every ViewModel the outcome displayed, in order.
    public func print(_ outcome: Outcome, to streams: TextStreams) {
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
