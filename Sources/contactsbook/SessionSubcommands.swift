import ArgumentParser
import ContactsApp
import SceneCore

// The session's commands that scripts want, as subcommands with the same words: each runs the
// list's actions (and the form's, for add and edit) through `OneShot`, so the output, `--json`
// and the exit statuses (0 done, 1 failed or nothing found, 2 no book) are the one-shot ones.

/// `contactsbook export PATH|-`: the session's `export`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the contacts to a vCard or CSV file, or print them (-).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions
    @Option(name: .long, help: "vcard4 (the default; csv for a .csv file), vcard3 or csv.") var format: String?
    @Flag(name: .long, help: "Replace a file that exists.") var overwrite = false
    @Argument(help: "The file to write, or - for the text itself.", completion: .file()) var path: String

    func run() throws {
        var arguments: [String: ArgumentValue] = ["path": .string(path), "overwrite": .boolean(overwrite)]
        if let format { arguments["format"] = .string(format) }
        try OneShot.run(global, options, [ActionCall(ListContacts.Action.export, arguments)])
    }
}

/// `contactsbook history [CONTACT]`: what changed, newest first.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Print what changed, newest first, or only one contact's changes.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions
    @Argument(help: "The contact's number (#) or a name (deleted ones too).") var contact: [String] = []

    func run() throws {
        let arguments: [String: ArgumentValue] =
            contact.isEmpty ? [:] : ["contact": .string(contact.joined(separator: " "))]
        try OneShot.run(global, options, [ActionCall(ListContacts.Action.history, arguments)])
    }
}

/// `contactsbook undo [CHANGE]`: takes back the latest change, or the one numbered.
struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Take back the most recent change (or CHANGE, as history numbers it), in any session.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions
    @Argument(help: "An older change's number, as history shows it.") var change: Int?

    func run() throws {
        try OneShot.run(
            global, options, writing: true,
            [ActionCall(ListContacts.Action.undo, change.map { ["change": .integer($0)] } ?? [:])])
    }
}

/// `contactsbook trash`: the deleted contacts.
struct TrashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trash", abstract: "Print the deleted contacts.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions

    func run() throws { try OneShot.run(global, options, [ActionCall(ListContacts.Action.trash)]) }
}

/// `contactsbook delete CONTACT [--yes]`: as the session deletes; part of a name needs `--yes`.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a contact named by its number, UID or full name (part of a name needs --yes).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions
    @Flag(name: .long, help: "Delete a contact named by part of its name without asking.") var yes = false
    @Argument(help: "The contact's number (#), UID or name.") var contact: [String]

    func run() throws {
        try OneShot.run(
            global, options, writing: true,
            [
                ActionCall(
                    ListContacts.Action.delete,
                    [
                        "contact": .string(contact.joined(separator: " ")), "confirm": .boolean(yes),
                    ])
            ])
    }
}

/// The form's fields as options, for `add` and `edit`: each is the form's command of that name.
struct FieldOptions: ParsableArguments {
    @Option(name: .long, help: "The given name.") var given: String?
    @Option(name: .long, help: "The family name.") var family: String?
    @Option(name: .long, help: "The display name (vCard FN), when not the given and family names.") var display: String?
    @Option(name: .long, help: "The nickname.") var nickname: String?
    @Option(name: .long, help: "The organization.") var organization: String?
    @Option(name: .long, help: "The job title.") var title: String?
    @Option(name: .long, help: "The birthday: YYYY-MM-DD, or --MM-DD without a year.") var birthday: String?
    @Option(name: .long, help: "The notes.") var notes: String?
    @Option(
        name: .long,
        help:
            "A phone: [LABEL] NUMBER, as the form's phone ('mobile +44 20 7946 0000'; '1 NUMBER' on edit replaces phone 1). Repeatable."
    )
    var phone: [String] = []
    @Option(name: .long, help: "An email: [LABEL] ADDRESS. Repeatable.") var email: [String] = []
    @Option(name: .long, help: "An address: [LABEL] STREET; CITY; REGION; POSTCODE; COUNTRY. Repeatable.") var address:
        [String] = []
    @Option(name: .long, help: "A tag. Repeatable.") var tag: [String] = []

    /// The form's actions these options stand for, in the form's order.
    var calls: [ActionCall] {
        let fields: [(EditContact.Field, String?)] = [
            (.given, given), (.family, family), (.display, display), (.nickname, nickname),
            (.organization, organization), (.title, title), (.birthday, birthday), (.notes, notes),
        ]
        var calls = fields.compactMap { field, value in
            value.map { ActionCall(EditContact.Action.field(.set(field)), ["value": .string($0)]) }
        }
        for (kind, values) in [(EditContact.ItemKind.phone, phone), (.email, email), (.address, address)] {
            calls += values.map { Self.item(kind, $0) }
        }
        calls += tag.map { ActionCall(EditContact.Action.field(.add(.tag)), ["value": .string($0)]) }
        return calls
    }

    /// `[LABEL] VALUE` split as the form's command line splits it: a first word and the rest.
    static func item(_ kind: EditContact.ItemKind, _ text: String) -> ActionCall {
        let words = text.split(separator: " ", maxSplits: 1).map(String.init)
        let action = EditContact.Action.field(.add(kind))
        guard words.count == 2 else { return ActionCall(action, ["value": .string(text)]) }
        return ActionCall(action, ["label": .string(words[0]), "value": .string(words[1])])
    }
}

/// `contactsbook add --given Ann --family Lee --email 'work ann@example.org'`: the form, filled and saved.
struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a contact from the field options.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions
    @OptionGroup var fields: FieldOptions

    func run() throws {
        try OneShot.run(
            global, options, writing: true,
            [ActionCall(ListContacts.Action.add)] + fields.calls + [ActionCall(EditContact.Action.save)])
    }
}

/// `contactsbook edit CONTACT --title Chair`: the contact's form, changed and saved.
struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a contact with the field options ('--phone \"1 NUMBER\"' replaces phone 1).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions
    @OptionGroup var fields: FieldOptions
    @Argument(help: "The contact's number (#) or a name.") var contact: [String]

    func run() throws {
        try OneShot.run(
            global, options, writing: true,
            [ActionCall(ListContacts.Action.edit, ["contact": .string(contact.joined(separator: " "))])] + fields.calls
                + [ActionCall(EditContact.Action.save)])
    }
}

/// `contactsbook groups`: the groups with their sizes.
struct GroupsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groups", abstract: "Print the groups with their sizes.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions

    func run() throws { try OneShot.run(global, options, [ActionCall(ListContacts.Action.groups)]) }
}

/// `contactsbook group new|rename|delete|add|remove NAME [VALUES...]`: the session's `group`.
struct GroupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group", abstract: "Make, rename or delete a group, or add and remove its members.",
        discussion: """
            group new NAME [--book BOOK] · group rename OLD NEW · group delete NAME · group add NAME CONTACT... · \
            group remove NAME CONTACT... (contacts by number, UID or name; a name of several words is one argument)
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions
    @Argument(help: "new, rename, delete, add or remove.") var action: String
    @Argument(help: "The group's name (or the start of it).") var name: String
    @Argument(help: "rename: the new name; add, remove: the contacts.") var values: [String] = []
    @Option(help: "new: the address book the group goes to (else the default book).") var book: String?

    func run() throws {
        var arguments: [String: ArgumentValue] = ["action": .string(action), "name": .string(name)]
        if let book { arguments["book"] = .string(book) }
        // Each argument stays one value, as quoted words do on a session's line.
        if !values.isEmpty {
            arguments["values"] = .string(
                action == "rename"
                    ? values.joined(separator: " ")
                    : values.map(Self.quoted).joined(separator: " "))
        }
        try OneShot.run(global, options, writing: true, [ActionCall(ListContacts.Action.group, arguments)])
    }

    static func quoted(_ word: String) -> String {
        guard word.contains(where: { $0 == " " || $0 == "\"" || $0 == "'" || $0 == "\\" }) else { return word }
        return "\"" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }
}
