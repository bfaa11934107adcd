import SceneCore

/// Builds the prompt from the scene stack: `contacts › Ann Lee › edit> `.
///
/// Titles come from stored data (a contact's name), so they are sanitised and shortened
/// here: a prompt must never carry an escape sequence, nor fill the line.
public struct PromptBuilder: Sendable {
    /// Wrap the path in a colour, with libedit's `\1` markers around each escape sequence
    /// (`EL_PROMPT_ESC`) so libedit does not count them as columns.
    public var colors: Bool
    /// Longest title shown, in terminal columns; longer ones end with "…".
    public var maxTitleWidth: Int
    /// Deeper stacks show the root, "…" and the last scenes, this many in all.
    public var maxSegments: Int

    /// The marker libedit expects around invisible prompt characters.
    public static let ignoreMarker: Character = "\u{1}"

    /// A builder; the defaults keep a four-deep prompt under about 100 columns.
    public init(colors: Bool, maxTitleWidth: Int = 24, maxSegments: Int = 4) {
        self.colors = colors; self.maxTitleWidth = maxTitleWidth; self.maxSegments = max(2, maxSegments)
    }

    /// The prompt for the stack, root first: titles (or ids when a title is empty) joined by " › ".
    public func prompt(for stack: StackViewModel) -> String {
        var titles = stack.scenes.map { entry in
            shorten(TerminalText.sanitize(entry.title.isEmpty ? entry.scene : entry.title))
        }
        if titles.count > maxSegments {
            titles = [titles[0], "…"] + titles.suffix(maxSegments - 2)
        }
        let path = titles.joined(separator: " › ")
        guard colors else { return path + "> " }
        let marker = String(Self.ignoreMarker)
        return marker + "\u{1B}[1;36m" + marker + path + marker + "\u{1B}[0m" + marker + "> "
    }

    private func shorten(_ title: String) -> String {
        guard TerminalText.width(title) > maxTitleWidth else { return title }
        var result = ""
        var width = 0
        for character in title {
            let columns = TerminalText.width(String(character))
            if width + columns > maxTitleWidth - 1 { break }
            result.append(character); width += columns
        }
        return result + "…"
    }
}
