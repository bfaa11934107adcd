import SceneCore

/// Lays completion candidates out in columns, filled top to bottom as `ls` does.
public enum CandidateColumns {
    /// The lines to print for `candidates` on a terminal `width` columns wide.
    public static func lines(_ candidates: [String], width: Int) -> [String] {
        let items = candidates.map(TerminalText.sanitize)
        guard !items.isEmpty else { return [] }
        let columnWidth = (items.map(TerminalText.width).max() ?? 0) + 2
        let columns = max(1, min(items.count, width / columnWidth))
        let rows = (items.count + columns - 1) / columns
        return (0..<rows).map { row in
            var line = ""
            for column in 0..<columns {
                let index = column * rows + row
                guard index < items.count else { break }
                line += TerminalText.pad(items[index], to: columnWidth)
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}
