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
        var index = line.startIndex
        while let (word, next) = try scanWord(line, from: index) {
            words.append(word)
            index = next
        }
        return words
    }

    /// The next word at or after `index`, and where scanning continues; nil at the end.
    /// By Unicode scalars, not Characters: a quote, backslash or space followed by a combining
    /// mark is one Character, and was taken for a letter (found by fuzz-commandline).
    static func scanWord(_ line: String, from index: String.Index) throws -> (Word, String.Index)? {
        let scalars = line.unicodeScalars
        var index = index
        while index < scalars.endIndex, scalars[index].properties.isWhitespace { index = scalars.index(after: index) }
        guard index < scalars.endIndex else { return nil }
        let start = index
        var current = String.UnicodeScalarView()
        var quote: Unicode.Scalar?
        var escaped = false
        while index < scalars.endIndex {
            let ch = scalars[index]
            if escaped {
                current.append(ch); escaped = false
            } else if ch == "\\" && quote != "'" {
                escaped = true
            } else if let q = quote {
                if ch == q { quote = nil } else { current.append(ch) }
            } else if ch == "\"" || ch == "'" {
                quote = ch
            } else if ch.properties.isWhitespace {
                break
            } else {
                current.append(ch)
            }
            index = scalars.index(after: index)
        }
        if quote != nil || escaped { throw DispatchError.unbalancedQuote }
        return (Word(text: String(current), start: start), index)
    }

    /// The words of a `.text` argument that holds a list (`merge 3 "ann lee"`), grouped and
    /// escaped as a command line's words are. Throws `DispatchError.unbalancedQuote`.
    public static func splitWords(_ text: String) throws -> [String] {
        try words(text).map(\.text)
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
        guard let (first, rest) = try scanWord(line, from: line.startIndex) else { return nil }
        let spec = try resolve(first.text, in: actions)
        return try bind(String(line.unicodeScalars[rest...]), to: spec)
    }

    /// Binds the words after the action's name to its parameters. Words are scanned one at a
    /// time so a `.text` parameter takes the rest of the line verbatim, apostrophes and all
    /// ("family O'Brien"). Optional parameters declared after the text parameter are trailing
    /// options: a last word that checks as one is taken off the text (`delete bo yes`).
    static func bind(_ arguments: String, to spec: ActionSpec) throws -> ActionCall {
        if spec.parameters.contains(where: \.isFlag) { return try bindFlags(arguments, to: spec) }
        let params = spec.parameters
        let textIndex = textParameterIndex(params)
        let textParameter = textIndex.map { params[$0] }
        let trailing = textIndex.map { Array(params[($0 + 1)...]) } ?? []
        let leading = textIndex.map { Array(params[...$0]) } ?? params
        // Count the words up front only where it is safe: the text parameter may hold anything.
        let wordCount = textParameter == nil ? try words(arguments).count : countWords(arguments, upTo: leading.count)
        let required = leading.filter(\.isRequired).count
        // Optional parameters are filled left to right while words remain beyond the required ones.
        var optionalBudget = max(0, wordCount - required)
        var values: [String: ArgumentValue] = [:]
        var index = arguments.startIndex
        for param in leading {
            if !param.isRequired {
                if optionalBudget == 0 { continue }
                optionalBudget -= 1
            }
            var raw: String?
            if param == textParameter {
                var rest = restOfLine(arguments, from: index)
                index = arguments.endIndex
                rest = try peelTrailingOptions(trailing, from: rest, into: &values, action: spec.name)
                raw = rest.isEmpty ? nil : rest
            } else if let (word, next) = try scanWord(arguments, from: index) {
                raw = word.text
                index = next
            }
            guard let raw else {
                if param.isRequired {
                    throw DispatchError.missingParameter(action: spec.name, parameter: param.name, usage: spec.usage)
                }
                continue
            }
            values[param.name] = try ArgumentChecker.check(raw, as: param, action: spec.name)
        }
        if let (extra, _) = try scanWord(arguments, from: index) {
            throw DispatchError.unexpectedParameter(action: spec.name, parameter: extra.text, usage: spec.usage)
        }
        return ActionCall(spec.name, values)
    }

    /// Takes the flag parameters (`--group NAME`, `--ungrouped`) out of the words wherever they
    /// are, then binds the words left to the positional parameters as `bind` does.
    static func bindFlags(_ arguments: String, to spec: ActionSpec) throws -> ActionCall {
        let flags = spec.parameters.filter(\.isFlag)
        var values: [String: ArgumentValue] = [:]
        var rest: [String] = []
        var words = try words(arguments).map(\.text)[...]
        while let word = words.popFirst() {
            guard word.hasPrefix("--"), let flag = flags.first(where: { "--" + $0.name == word }) else {
                rest.append(word); continue
            }
            if flag.type == .boolean {
                values[flag.name] = .boolean(true)
            } else {
                guard let value = words.popFirst() else {
                    throw DispatchError.missingParameter(action: spec.name, parameter: flag.name, usage: spec.usage)
                }
                values[flag.name] = try ArgumentChecker.check(value, as: flag, action: spec.name)
            }
        }
        let positional = ActionSpec(
            spec.name, aliases: spec.aliases, summary: spec.summary,
            parameters: spec.parameters.filter { !$0.isFlag }, details: spec.details)
        // The words left are quoted again, so a value with spaces stays one word.
        let line = rest.map { word in
            word.contains(where: { $0 == " " || $0 == "\"" || $0 == "'" || $0 == "\\" })
                ? "'" + word.replacingOccurrences(of: "'", with: "") + "'" : word
        }.joined(separator: " ")
        let call = try bind(line, to: positional)
        return ActionCall(spec.name, call.arguments.merging(values) { _, flag in flag })
    }

    /// The text parameter: the last parameter, or the last `.text` one followed only by
    /// optional parameters that are not text (trailing options).
    public static func textParameterIndex(_ params: [ParameterSpec]) -> Int? {
        guard let index = params.lastIndex(where: { $0.type == .text }),
            params[(index + 1)...].allSatisfy({ !$0.isRequired })
        else { return nil }
        return index
    }

    /// Takes trailing options off the end of a text, last declared first, while its last word
    /// checks as the option and some text remains before it; returns the text left.
    static func peelTrailingOptions(
        _ options: [ParameterSpec], from text: String,
        into values: inout [String: ArgumentValue], action: String
    ) throws -> String {
        var text = text
        for option in options.reversed() {
            guard let space = text.lastIndex(where: \.isWhitespace) else { break }
            let word = String(text[text.index(after: space)...])
            guard let value = try? ArgumentChecker.check(word, as: option, action: action) else { continue }
            values[option.name] = value
            text = trimmingSpaces(text[..<space].unicodeScalars)
        }
        return text
    }

    /// The rest of the line, trimmed; one quoted word is unquoted (`given "Ann Marie"`).
    static func restOfLine(_ text: String, from index: String.Index) -> String {
        let rest = trimmingSpaces(text.unicodeScalars[index...])
        if let only = try? words(rest), only.count == 1,
            rest.unicodeScalars.first == "\"" || rest.unicodeScalars.first == "'"
        {
            return only[0].text
        }
        return rest
    }

    /// Words before the text parameter (the last of `parameterCount`), plus one if any text
    /// follows: enough to decide which optional parameters are given, without scanning the free
    /// text for quotes.
    static func countWords(_ text: String, upTo parameterCount: Int) -> Int {
        var count = 0
        var index = text.startIndex
        while count < parameterCount - 1, let (_, next) = try? scanWord(text, from: index) {
            count += 1
            index = next
        }
        return count + (text.unicodeScalars[index...].allSatisfy(isSpace) ? 0 : 1)
    }

    /// `trimmingCharacters(in: .whitespaces)` without Foundation: the same result, but the
    /// process's first call made NSString bridge its answer back (0.9M instructions, a piped
    /// command's largest cost after the book itself: bench/FINDINGS.md, `start6`).
    static func trimmingSpaces(_ scalars: Substring.UnicodeScalarView) -> String {
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, isSpace(scalars[start]) { start = scalars.index(after: start) }
        while start < end, isSpace(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return String(scalars[start..<end])
    }

    /// A scalar of Foundation's `CharacterSet.whitespaces` on this platform: Unicode's Zs, the
    /// tab, and U+200B (CoreFoundation's list; `CommandLineParserTests` holds it to Foundation's).
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }
}
