import Foundation

/// Turns one command line into an `ActionCall` using the action declarations.
///
/// Written by hand because the grammar is ours: positional parameters, optional ones skipped
/// from the left when fewer words are given, and a trailing `.text` parameter that takes the rest
/// of the line verbatim. Argument parsers for process flags do not fit a REPL line.
public enum CommandLineParser {
    /// A word of the line and where the rest of the line after it begins.
    struct Word: Equatable {
        var text: String
        /// Index in the line where this word starts (before any quote).
        var start: String.Index
    }

    /// Splits a line into words; single or double quotes group, backslash escapes one character.
    static func words(_ line: String) throws -> [Word] {
        var words: [Word] = []
        var current = ""
        var start: String.Index?
        var quote: Character?
        var escaped = false
        var index = line.startIndex
        while index < line.endIndex {
            let ch = line[index]
            if escaped {
                current.append(ch); escaped = false
            } else if ch == "\\" && quote != "'" {
                escaped = true; start = start ?? index
            } else if let q = quote {
                if ch == q { quote = nil } else { current.append(ch) }
            } else if ch == "\"" || ch == "'" {
                quote = ch; start = start ?? index
            } else if ch.isWhitespace {
                if let s = start { words.append(Word(text: current, start: s)); current = ""; start = nil }
            } else {
                current.append(ch); start = start ?? index
            }
            index = line.index(after: index)
        }
        if quote != nil || escaped { throw DispatchError.unbalancedQuote }
        if let s = start { words.append(Word(text: current, start: s)) }
        return words
    }

    /// The action a typed name means: an exact name or alias, else a unique prefix.
    public static func resolve(_ typed: String, in actions: [ActionSpec]) throws -> ActionSpec {
        if let exact = actions.first(where: { $0.name == typed || $0.aliases.contains(typed) }) {
            return exact
        }
        let matches = actions.filter { spec in
            spec.name.hasPrefix(typed) || spec.aliases.contains { $0.hasPrefix(typed) }
        }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw DispatchError.unknownAction(typed, available: actions.map(\.name))
        default: throw DispatchError.ambiguousAction(typed, candidates: matches.map(\.name))
        }
    }

    /// Parses a whole line. Returns nil for a blank line.
    public static func parse(_ line: String, actions: [ActionSpec]) throws -> ActionCall? {
        let words = try words(line)
        guard let first = words.first else { return nil }
        let spec = try resolve(first.text, in: actions)
        return try bind(Array(words.dropFirst()), line: line, to: spec)
    }

    static func bind(_ words: [Word], line: String, to spec: ActionSpec) throws -> ActionCall {
        let params = spec.parameters
        let takesRest = params.last?.type == .text
        let required = params.filter(\.isRequired).count
        // Optional parameters are filled left to right while words remain beyond the required ones.
        var optionalBudget = max(0, words.count - required)
        var arguments: [String: ArgumentValue] = [:]
        var next = 0
        for (position, param) in params.enumerated() {
            if !param.isRequired {
                if optionalBudget == 0 { continue }
                optionalBudget -= 1
            }
            guard next < words.count else {
                if param.isRequired {
                    throw DispatchError.missingParameter(action: spec.name, parameter: param.name, usage: spec.usage)
                }
                continue
            }
            let raw: String
            if takesRest && position == params.count - 1 {
                // Verbatim rest of the line, unless it is one quoted word.
                let rest = words.count - next == 1 ? words[next].text
                    : String(line[words[next].start...]).trimmingCharacters(in: .whitespaces)
                raw = rest
                next = words.count
            } else {
                raw = words[next].text
                next += 1
            }
            arguments[param.name] = try ArgumentChecker.check(raw, as: param, action: spec.name)
        }
        if next < words.count {
            throw DispatchError.unexpectedParameter(action: spec.name, parameter: words[next].text, usage: spec.usage)
        }
        return ActionCall(spec.name, arguments)
    }
}
