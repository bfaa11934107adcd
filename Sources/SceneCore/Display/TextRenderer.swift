/// Draws a `DisplayLayout` as lines of text: aligned tables, labelled records, messages.
///
/// Every string is sanitised here, in the one place all text output passes through.
public struct TextRenderer {
    /// Colour messages with ANSI codes (only on a terminal, never with `NO_COLOR`).
    public var colors: Bool

    public init(colors: Bool = false) { self.colors = colors }

    /// The lines for a layout. Messages are included; see `messageLine` for their form.
    public func lines(for layout: DisplayLayout) -> [String] {
        switch layout {
        case .message(let message):
            return messageLines(message)
        case .lines(let lines):
            return lines.map(TerminalText.sanitize)
        case .record(let heading, let fields):
            // Widths are measured after sanitising: a NUL takes no column but its "?" takes one.
            let labels = fields.map { TerminalText.sanitize($0.label) }
            let width = labels.map(TerminalText.width).max() ?? 0
            return [TerminalText.sanitize(heading)] + zip(labels, fields).map { label, field in
                "  " + TerminalText.pad(label, to: width) + "  " + TerminalText.sanitize(field.value)
            }
        case .table(let columns, let rows, let caption):
            return table(columns: columns, rows: rows) + (caption.isEmpty ? [] : [TerminalText.sanitize(caption)])
        case .group(let layouts):
            return layouts.flatMap(lines(for:))
        }
    }

    /// `error: ...` with per-key details indented below, or the text of other messages.
    public func messageLines(_ message: Message) -> [String] {
        let prefix: String
        switch message.kind {
        case .error: prefix = "error: "
        case .success, .info: prefix = ""
        }
        let first = paint(prefix + TerminalText.sanitize(message.text), message.kind)
        let details = message.details.keys.sorted().map { key in
            "  \(TerminalText.sanitize(key)): \(TerminalText.sanitize(message.details[key] ?? ""))"
        }
        return [first] + details
    }

    private func paint(_ text: String, _ kind: Message.Kind) -> String {
        guard colors else { return text }
        let code: String
        switch kind {
        case .success: code = "32"
        case .error: code = "31"
        case .info: code = "33"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    private func table(columns: [DisplayLayout.Column], rows: [[String]]) -> [String] {
        let clean = rows.map { $0.map(TerminalText.sanitize) }
        let titles = columns.map { TerminalText.sanitize($0.title) }
        let widths = columns.indices.map { index in
            ([TerminalText.width(titles[index])]
                + clean.map { index < $0.count ? TerminalText.width($0[index]) : 0 }).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            let padded = columns.indices.map { index in
                TerminalText.pad(index < cells.count ? cells[index] : "", to: widths[index],
                                 right: columns[index].alignRight)
            }
            var text = padded.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        return [line(titles)] + clean.map(line)
    }
}
