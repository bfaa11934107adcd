import Foundation
import SceneCore

/// What Tab does: replace the word being typed, and list the matches when there are several.
public struct Completion: Equatable, Sendable {
    /// How many characters (Unicode scalars, as libedit's `el_deletestr` counts) before the
    /// cursor the insertion replaces: the word typed so far, opening quote included.
    public var replacing: Int
    /// What to insert instead, quoted for the command parser; empty to leave the line alone.
    public var insertion: String
    /// Every match, unquoted, for listing when there are several.
    public var candidates: [String]

    /// A completion; the REPL deletes `replacing` characters, inserts `insertion`, and lists
    /// `candidates` when there are several.
    public init(replacing: Int, insertion: String, candidates: [String]) {
        self.replacing = replacing; self.insertion = insertion; self.candidates = candidates
    }
}

/// Tab completion from the action declarations: no terminal, no libedit, fully testable.
///
/// The first word completes to the available actions; later words to the values of the
/// parameter at that position: the choices of a `.choice`, yes/no for a `.boolean`, and
/// `Scene.completions(for:prefix:)` for a `.named` source (`.named("action")`, which the
/// session declares for `help`, completes to the actions).
public struct Completer: Sendable {
    /// The home folder, for paths typed `~/...`.
    let home: String?
    /// A folder's entries for file names, folders ending in `/`; nil when it cannot be read.
    let listFolder: @Sendable (String) -> [String]?

    /// A completer; it holds no state, the session and scene are passed to each call.
    public init(
        home: String? = nil, listFolder: @escaping @Sendable (String) -> [String]? = { Completer.entriesOnDisk($0) }
    ) {
        self.home = home; self.listFolder = listFolder
    }

    /// The entries of a folder on disk, folders marked with a trailing `/`.
    public static func entriesOnDisk(_ folder: String) -> [String]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        return names.map { name in
            var isFolder: ObjCBool = false
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
                ? name + "/" : name
        }
    }

    /// The completion for the word before the cursor.
    /// - Parameters:
    ///   - line: the whole line buffer.
    ///   - cursor: the cursor as a UTF-8 byte offset into `line`, as `el_line()` gives it.
    ///   - actions: the actions available now (`Session.availableActions`).
    ///   - scene: the active scene, asked for the values of `.named` sources.
    /// - Returns: nil when nothing matches.
    public func complete(line: String, cursor: Int, actions: [ActionSpec], scene: Scene) -> Completion? {
        let before = String(decoding: line.utf8.prefix(max(0, cursor)), as: UTF8.self)
        let typed = TypedLine(before)
        let words = typed.words
        guard let action = words.first, words.count > 1 else {
            return finish(actionNames(actions, prefix: typed.fragment.text), typed.fragment, rest: false)
        }
        guard let spec = try? CommandLineParser.resolve(action.text, in: actions) else { return nil }
        let position = words.count - 2
        var candidates: [String] = []
        var rest = false
        for (index, parameter) in spec.parameters.enumerated()
        where Self.canFill(index, at: position, of: spec.parameters) {
            if case .namedWords = parameter.completion {
                // Its words are read back one by one: what Tab inserts must be one word.
                candidates += values(parameter, prefix: typed.fragment.text, actions, scene)
                continue
            }
            if parameter.type == .text && position > index {
                // A trailing text parameter takes the rest of the line verbatim.
                let fragment = typed.rest(from: index + 1)
                return finish(values(parameter, prefix: fragment.text, actions, scene), fragment, rest: true)
            }
            rest = rest || parameter.type == .text
            candidates += values(parameter, prefix: typed.fragment.text, actions, scene)
        }
        return finish(candidates, typed.fragment, rest: rest)
    }

    /// Whether parameter `index` can receive the argument at `position`: optional parameters
    /// are filled from the left only when words remain beyond the required ones, so an optional
    /// one sits at its own index and a required one anywhere from the count of required
    /// parameters before it up to its index; a trailing text parameter also takes later words.
    static func canFill(_ index: Int, at position: Int, of parameters: [ParameterSpec]) -> Bool {
        let parameter = parameters[index]
        if index == CommandLineParser.textParameterIndex(parameters) && position > index { return true }
        guard parameter.isRequired else { return position == index }
        let requiredBefore = parameters[..<index].filter(\.isRequired).count
        return (requiredBefore...index).contains(position)
    }

    private func actionNames(_ actions: [ActionSpec], prefix: String) -> [String] {
        let names = actions.map(\.name).filter { Self.matches($0, prefix) }
        return names.isEmpty ? actions.flatMap(\.aliases).filter { Self.matches($0, prefix) } : names
    }

    private func values(_ parameter: ParameterSpec, prefix: String, _ actions: [ActionSpec], _ scene: Scene) -> [String]
    {
        var values: [String] = []
        switch parameter.type {
        case .choice(let choices): values += choices.filter { Self.matches($0, prefix) }
        case .boolean: values += ["yes", "no"].filter { Self.matches($0, prefix) }
        default: break
        }
        switch parameter.completion {
        case .named(let source), .namedWords(let source):
            // The scene filters its own values: it may match "jose" to "José".
            values +=
                source == "action"
                ? actionNames(actions, prefix: prefix)
                : scene.completions(for: source, prefix: prefix)
        case .files: values += paths(prefix)
        case .none: break
        }
        return values
    }

    /// The paths starting with what was typed, spelled as typed: `da` in the working folder,
    /// `~/bo` in the home folder, `/tmp/x` where it says. Hidden entries only when a dot is typed.
    func paths(_ typed: String) -> [String] {
        let slash = typed.lastIndex(of: "/")
        let folderTyped = slash.map { String(typed[...$0]) } ?? ""
        let name = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        var folder = folderTyped.isEmpty ? "." : folderTyped
        if folder.hasPrefix("~/") {
            guard let home else { return [] }
            folder = home + folder.dropFirst()
        }
        guard let entries = listFolder(folder) else { return [] }
        return entries.filter { $0.hasPrefix(name) && (name.hasPrefix(".") || !$0.hasPrefix(".")) }
            .sorted().map { folderTyped + $0 }
    }

    private func finish(_ found: [String], _ fragment: TypedLine.Fragment, rest: Bool) -> Completion? {
        var seen = Set<String>()
        // A value that would need sanitising cannot be typed back as it is: leave it out.
        let candidates = found.filter { !$0.isEmpty && TerminalText.sanitize($0) == $0 && seen.insert($0).inserted }
        guard let first = candidates.first else { return nil }
        if candidates.count == 1 {
            // A folder goes on: Tab again lists what is in it.
            let insertion =
                first.hasSuffix("/") ? Quoting.open(first, rest: rest) : Quoting.quote(first, rest: rest) + " "
            return Completion(replacing: fragment.length, insertion: insertion, candidates: candidates)
        }
        let common = Quoting.commonPrefix(candidates)
        guard common.count >= fragment.text.count, common != fragment.text else {
            return Completion(replacing: 0, insertion: "", candidates: candidates)
        }
        return Completion(
            replacing: fragment.length, insertion: Quoting.open(common, rest: rest), candidates: candidates)
    }

    static func matches(_ value: String, _ prefix: String) -> Bool {
        value.lowercased().hasPrefix(prefix.lowercased())
    }
}
