/// Draws a `DisplayLayout` as lines of text: aligned tables, labelled records, messages.
///
/// Every string is sanitised here, in the one place all text output passes through.
public struct TextRenderer {
    /// Colour messages with ANSI codes (only on a terminal, never with `NO_COLOR`).
    public var colors: Bool
    /// The terminal's width in columns: tables are fitted to it (cells cut with `…`, widest
    /// column first) and prose wrapped at spaces. Nil (a pipe, a file) gives the full text.
    public var width: Int?

    public init(colors: Bool = false, width: Int? = nil) { self.colors = colors; self.width = width }

    /// The lines for a layout. Messages are included; see `messageLine` for their form.
    public func lines(for layout: DisplayLayout) -> [String] {
        switch layout {
        case .message(let message):
            return messageLines(message)
        case .lines(let lines):
            return lines.map(TerminalText.sanitize).flatMap { wrapped($0) }
        case .record(let heading, let fields):
            // Widths are measured after sanitising: a NUL takes no column but its "?" takes one.
            let labels = fields.map { TerminalText.sanitize($0.label) }
            let width = labels.map(TerminalText.width).max() ?? 0
            return wrapped(TerminalText.sanitize(heading))
                + zip(labels, fields).flatMap { label, field in
                    wrapped(
                        "  " + TerminalText.pad(label, to: width) + "  " + TerminalText.sanitize(field.value),
                        indent: width + 4)
                }
        case .table(let columns, let rows, let caption):
            return table(columns: columns, rows: rows)
                + (caption.isEmpty ? [] : wrapped(TerminalText.sanitize(caption)))
        case .group(let layouts):
            return layouts.flatMap(lines(for:))
        }
    }

    /// A line as it is when it fits (or without a width), else broken at spaces; continuation
    /// lines are indented by `indent`, or by default as far as the line's own text starts
    /// (`  name   what it does` continues under `what`).
    func wrapped(_ line: String, indent: Int? = nil) -> [String] {
        guard let width, TerminalText.width(line) > width else { return [line] }
        return TerminalText.wrap(
            line, width: width, indent: indent ?? TerminalText.hangingIndent(of: line, width: width))
    }

    /// `error: ...` with per-key details indented below, or the text of other messages.
    public func messageLines(_ message: Message) -> [String] {
        let prefix: String
        switch message.kind {
        case .error: prefix = "error: "
        case .success, .info: prefix = ""
        }
        let first = wrapped(prefix + TerminalText.sanitize(message.text), indent: 2).map { paint($0, message.kind) }
        let details = message.details.keys.sorted().flatMap { key in
            wrapped("  \(TerminalText.sanitize(key)): \(TerminalText.sanitize(message.details[key] ?? ""))", indent: 4)
        }
        return first + details
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
        var widths = columns.indices.map { index in
            ([TerminalText.width(titles[index])]
                + clean.map { index < $0.count ? TerminalText.width($0[index]) : 0 }).max() ?? 0
        }
        if let width { widths = Self.fit(widths, into: width - 2 * max(0, columns.count - 1)) }
        func line(_ cells: [String]) -> String {
            let padded = columns.indices.map { index in
                TerminalText.pad(
                    TerminalText.truncate(index < cells.count ? cells[index] : "", to: widths[index]),
                    to: widths[index], right: columns[index].alignRight)
            }
            var text = padded.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        return [line(titles)] + clean.map(line)
    }

    /// Column widths that fit `available` columns: the widest column gives up a column at a
    /// time (so a long note shrinks before a name does), none below `minimumColumn` or its own width.
    static func fit(_ widths: [Int], into available: Int) -> [Int] {
        var widths = widths
        while widths.reduce(0, +) > available {
            guard let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
                widths[widest] > minimumColumn
            else { break }
            widths[widest] -= 1
        }
        return widths
    }

    /// Narrower than this, a column would show little more than its `…`.
    static let minimumColumn = 6
}
