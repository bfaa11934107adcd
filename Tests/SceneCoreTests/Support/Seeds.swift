@testable import SceneCore

/// Fixtures: a fake notes app with three kinds of scene, enough to exercise the core without contacts.
///
/// `notes` (the root) lists and opens notes; `note` shows one and can open its `history`.
/// Between them the descriptors use every parameter type, optional and required.
enum Seeds {
    enum Actions {
        static let list = ActionSpec(
            "list", aliases: ["ls"], summary: "list the notes",
            parameters: [
                ParameterSpec("page", .integer(min: 1, max: nil), required: false, help: "page number"),
                ParameterSpec("limit", .integer(min: 1, max: 100), required: false, help: "notes per page"),
            ])
        static let open = ActionSpec(
            "open", aliases: ["show"], summary: "open a note",
            parameters: [
                ParameterSpec("id", .integer(min: 1, max: nil), help: "the note's number")
            ], details: "Example: open 2")
        static let new = ActionSpec(
            "new", aliases: ["add"], summary: "start a note",
            parameters: [
                ParameterSpec("title", .text, required: false, help: "the title")
            ])
        static let sort = ActionSpec(
            "sort", summary: "sort the notes",
            parameters: [
                ParameterSpec("by", .choice(["title", "date", "dated"]), help: "the order")
            ])
        static let email = ActionSpec(
            "email", summary: "email the notes",
            parameters: [
                ParameterSpec("label", .string, required: false, help: "which address book label"),
                ParameterSpec("address", .string, help: "where to"),
            ])
        static let pin = ActionSpec(
            "pin", summary: "pin the list",
            parameters: [
                ParameterSpec("on", .boolean, help: "pinned or not")
            ])

        static let edit = ActionSpec(
            "edit", summary: "replace the text",
            parameters: [
                ParameterSpec("text", .text, help: "the new text")
            ])
        static let tag = ActionSpec(
            "tag", summary: "add a tag",
            parameters: [
                ParameterSpec("name", .string, help: "the tag")
            ])
        static let tags = ActionSpec("tags", summary: "list the tags")
        static let history = ActionSpec("history", summary: "show earlier versions")
        static let close = ActionSpec("close", summary: "close the note and go back to the list")

        static let restore = ActionSpec(
            "restore", summary: "restore a version",
            parameters: [
                ParameterSpec("version", .integer(min: 1, max: 9), help: "the version")
            ])
    }

    static let notes = SceneDescriptor(
        id: "notes", summary: "the list of notes",
        actions: [
            Actions.list, Actions.open, Actions.new, Actions.sort, Actions.email, Actions.pin,
        ])
    static let note = SceneDescriptor(
        id: "note", summary: "one note",
        actions: [
            Actions.edit, Actions.tag, Actions.tags, Actions.history, Actions.close,
        ])
    static let history = SceneDescriptor(id: "history", summary: "a note's versions", actions: [Actions.restore])

    static let sceneKinds = [notes, note, history]

    /// The titles `list` shows.
    static let noteTitles = ["Groceries", "Ideas", "Trip"]

    /// A session whose root is a `notes` SceneSpy wired like a real scene: `open ID` pushes a
    /// `note` and says so, `list` shows the titles, `new` confirms; in a note, `history` pushes
    /// the history and `close` pops back to the list.
    static func makeSession() -> Session {
        Session(sceneKinds: sceneKinds) { context in
            let root = SceneSpy(notes, title: "Notes")
            root.performStub = { call in
                switch call.name {
                case "list":
                    context.display.display(NoteListViewModel(titles: noteTitles))
                case "open":
                    let id = call.integer("id") ?? 0
                    guard noteTitles.indices.contains(id - 1) else {
                        return context.display.display(Message.error("no note \(id)", code: .notFound))
                    }
                    context.navigator.push(makeNote(titled: noteTitles[id - 1], context: context))
                    context.display.display(Message.info("opened note \(id)"))
                case "new":
                    context.display.display(Message.success("created \(call.string("title") ?? "untitled")"))
                default:
                    break
                }
            }
            return root
        }
    }

    static func makeNote(titled title: String, context: SceneContext) -> SceneSpy {
        let note = SceneSpy(Seeds.note, title: title)
        note.performStub = { call in
            switch call.name {
            case "history": context.navigator.push(SceneSpy(history, title: "\(title) history"))
            case "close": context.navigator.pop(to: notes.id)
            default: break
            }
        }
        return note
    }
}

/// The fake app's list, as a Presenter would format it.
struct NoteListViewModel: ViewModel, Equatable {
    static let kind = "noteList"
    let titles: [String]

    var layout: DisplayLayout {
        .table(
            columns: [.init("#", alignRight: true), .init("Title")],
            rows: titles.enumerated().map { [String($0.offset + 1), $0.element] },
            caption: "\(titles.count) notes")
    }
}
