import ContactsApp
import FuzzSupport

@testable import SceneCore

/// Every action the app declares, as the session offers them scene by scene.
private let scenes = ContactsSceneFactory.sceneKinds.map(\.actions)

/// One input is a line typed at the prompt or piped to the line session.
///
/// Checks, beyond no crash, leak or hang:
/// - a parsed call names an action of the scene, binds only that action's parameters, every
///   required one, each with a value of its declared type (integers in range, choices spelled out);
/// - the word splitter's words, each quoted again, split back into the same words.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLine(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let line = String(decoding: input(start, count), as: UTF8.self)
    for actions in scenes {
        guard let call = try? CommandLineParser.parse(line, actions: actions) else { continue }
        guard let spec = actions.first(where: { $0.name == call.name }) else {
            fatalError("'\(line)' called an undeclared \(call.name)")
        }
        for (name, value) in call.arguments {
            guard let parameter = spec.parameters.first(where: { $0.name == name }) else {
                fatalError("'\(line)' bound an undeclared \(name) of \(spec.name)")
            }
            check(value, as: parameter.type, line: line)
        }
        for parameter in spec.parameters where parameter.isRequired && call.arguments[parameter.name] == nil {
            fatalError("'\(line)' left out the required \(parameter.name) of \(spec.name)")
        }
    }
    if let words = try? CommandLineParser.words(line).map(\.text) {
        let quoted = words.map(quote).joined(separator: " ")
        guard let again = try? CommandLineParser.words(quoted).map(\.text), again == words else {
            fatalError("\(words) quoted as \(quoted) split differently")
        }
    }
    return 0
}

private func check(_ value: ArgumentValue, as type: ParameterType, line: String) {
    switch (type, value) {
    case (.string, .string), (.text, .string), (.boolean, .boolean): return
    case (.integer(let min, let max), .integer(let number)):
        if let min, number < min { fatalError("'\(line)' gave \(number) below \(min)") }
        if let max, number > max { fatalError("'\(line)' gave \(number) above \(max)") }
    case (.choice(let choices), .string(let choice)):
        if !choices.contains(choice) { fatalError("'\(line)' gave \(choice), not one of \(choices)") }
    default: fatalError("'\(line)' gave \(value) for a parameter of type \(type)")
    }
}

/// A word in double quotes, its backslashes and double quotes escaped (scalar by scalar, as the
/// parser reads: a backslash followed by a combining mark is one Character).
private func quote(_ word: String) -> String {
    var text = String.UnicodeScalarView(["\""])
    for scalar in word.unicodeScalars {
        if scalar == "\\" || scalar == "\"" { text.append("\\") }
        text.append(scalar)
    }
    text.append("\"")
    return String(text)
}
