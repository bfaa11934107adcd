import Foundation
import SceneCore

/// Fixtures for the REPL's tests: a small app vocabulary that is not the contacts app.
enum REPLSeeds {
    static let list = SceneDescriptor(
        id: "people", summary: "the people",
        actions: [
            ActionSpec("add", summary: "add a person"),
            ActionSpec(
                "show", summary: "show a person",
                parameters: [ParameterSpec("id", .integer, help: "whom", completion: .named("person"))]),
            ActionSpec(
                "search", summary: "find people",
                parameters: [ParameterSpec("query", .text, help: "what", completion: .named("person"))]),
            ActionSpec(
                "join", summary: "join people",
                parameters: [ParameterSpec("people", .text, help: "whom", completion: .namedWords("person"))]),
            ActionSpec(
                "load", summary: "load a file",
                parameters: [ParameterSpec("path", .string, help: "which", completion: .files)]),
            ActionSpec(
                "sort", summary: "choose the order",
                parameters: [ParameterSpec("by", .choice(["first", "last"]), help: "which name")]),
            ActionSpec(
                "page", summary: "go to a page",
                parameters: [
                    ParameterSpec("number", .integer, required: false, help: "page"),
                    ParameterSpec("wrap", .boolean, help: "wrap around"),
                ]),
        ])

    static var actions: [ActionSpec] { list.actions + Session.globalActions }

    static let names = ["Ann Lee", "Anna Key", "José Ñúñez"]
    static let hostileName = "Eve \u{1B}[2J"
}

/// A scene that records what completion asked it and answers from `names`.
final class SceneSpy: Scene {
    let descriptor: SceneDescriptor
    var title: String
    var names: [String]
    private(set) var completionsCalls: [(source: String, prefix: String)] = []
    private(set) var performed: [ActionCall] = []

    init(descriptor: SceneDescriptor = REPLSeeds.list, title: String = "people", names: [String] = REPLSeeds.names) {
        self.descriptor = descriptor; self.title = title; self.names = names
    }

    func perform(_ call: ActionCall) { performed.append(call) }

    func completions(for source: String, prefix: String) -> [String] {
        completionsCalls.append((source, prefix))
        // As an app would: "jose" finds "José".
        func fold(_ text: String) -> String {
            text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }
        return names.filter { fold($0).hasPrefix(fold(prefix)) }
    }
}

/// Captures what a front end writes.
final class TextStreamsSpy: TextStreams {
    private(set) var output = ""
    private(set) var errors = ""
    func writeOutput(_ text: String) { output += text }
    func writeError(_ text: String) { errors += text }
}
