import ContactsApp
import JSONBytes
import SceneCore
import SceneMCP

/// The book's MCP tools. Each one does one whole task by driving the session as a person would
/// (add = open the form, set the fields, save), so the same scenes, rules and messages answer an
/// agent; their arguments come from the same action declarations as the REPL and JSON-RPC.
public final class ContactsTools {
    private let session: Session
    private typealias List = ListContactsViewController
    private typealias Form = EditContactViewController
    private typealias Detail = ShowContactViewController
    private typealias ListAction = ListContacts.Action
    private typealias DetailAction = ShowContact.Action
    private typealias FormAction = EditContact.Action

    public init(session: Session) { self.session = session }

    /// The form's fields, from its declarations: single values, then repeated items.
    static let formFields = MCPFormFields(
        single: EditContact.Field.allCases.map { FormAction.field(.set($0)).declaration },
        repeated: EditContact.ItemKind.allCases.map { FormAction.field(.add($0)).declaration })

    public var all: [MCPTool] {
        [
            search, get, add, update, delete, importFile, exportFile, duplicates, merge, birthdays, groups, group, undo,
            sync,
        ]
    }

    // MARK: Reading

    var search: MCPTool {
        let spec = ListAction.search.declaration
        let list = ListAction.list.declaration
        let properties = Dictionary(
            uniqueKeysWithValues: (spec.parameters + list.parameters).map { ($0.name, $0.jsonSchema) })
        return MCPTool(
            name: "search", title: "Search contacts",
            description: spec.summary
                + "; empty text lists every contact. One page of rows (number, name, organization, "
                + "email, phone); get a row's number for every field.",
            inputSchema: Self.object(properties, required: ["text"]), outputSchema: ContactsToolSchemas.contactList,
            annotations: .read
        ) { [self] arguments in
            let members = try MCPArguments.members(arguments)
            let search = try MCPArguments.bind(.object(members.filter { $0.key == "text" }), to: spec, tool: "search")
            let paging = try MCPArguments.bind(.object(members.filter { $0.key != "text" }), to: list, tool: "search")
            try toList()
            // `list` sets the page size and clears an earlier search; `search` keeps that size.
            var listing: [String: ArgumentValue] = ["page": .integer(1)]
            listing["limit"] = paging.arguments["limit"]
            listing["group"] = paging.arguments["group"]
            listing["ungrouped"] = paging.arguments["ungrouped"]
            var outcome = try run(ActionCall(ListAction.list, listing), in: List.descriptor)
            if !(search.string("text") ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
                outcome = try run(search, in: List.descriptor)
            }
            if let page = paging.integer("page"), page > 1 {
                outcome = try run(ActionCall(ListAction.page, ["number": .integer(page)]), in: List.descriptor)
            }
            guard let model = outcome.last(ListContacts.FetchContacts.ViewModel.self) else {
                throw MCPToolFailure("the search showed no list")
            }
            // The organisation's directories' answer after the book's (issue 31), when one was asked.
            guard let directories = outcome.last(ListContacts.SearchDirectories.ViewModel.self),
                case .object(var members) = try JSONValueEncoder.encode(model)
            else {
                return MCPToolResult(try JSONValueEncoder.encode(model), text: model.caption)
            }
            members["directories"] = try JSONValueEncoder.encode(directories)
            return MCPToolResult(
                .object(members),
                text: ([model.caption, directories.caption] + directories.notices)
                    .joined(separator: "\n"))
        }
    }

    var get: MCPTool {
        let spec = ListAction.show.declaration
        return MCPTool(
            name: "get", title: "Get a contact",
            description: "Every field of one contact, with its uid and the version to send to update.",
            inputSchema: spec.parametersSchema, outputSchema: ShowContact.FetchContact.ViewModel.jsonSchema,
            annotations: .read
        ) { [self] arguments in
            let call = try MCPArguments.bind(arguments, to: spec, tool: "get")
            let detail = try open(call.string("contact") ?? "")
            try toList()
            return MCPToolResult(try JSONValueEncoder.encode(detail), text: Self.summary(detail))
        }
    }

    // MARK: Changing

    var add: MCPTool {
        MCPTool(
            name: "add", title: "Add a contact",
            description:
                "Add a contact with all its fields at once. It needs a given name, a family name or an organization. "
                + "Repeated fields take arrays; an address value is 'street; city; region; postal code; country'.",
            inputSchema: Self.object(Self.formFields.properties),
            outputSchema: ShowContact.FetchContact.ViewModel.jsonSchema,
            annotations: MCPToolAnnotations()
        ) { [self] arguments in
            let members = try MCPArguments.members(arguments)
            try Self.refuseUnknown(members, known: Self.formFields.names)
            let calls = try Self.formFields.calls(from: members)
            try toList()
            let added = try run(ActionCall(ListAction.add), in: List.descriptor)
            guard session.stack.active is Form else {
                throw MCPToolFailure(added.error?.text ?? "the form did not open")
            }
            try fill(calls)
            let saved = try save()
            guard let inserted = saved.last(ListContacts.ShowInsertedContact.ViewModel.self) else {
                throw MCPToolFailure("the contact was saved but not shown")
            }
            let detail = try open(String(inserted.row.id))
            try toList()
            return MCPToolResult(try JSONValueEncoder.encode(detail), text: "added " + Self.summary(detail))
        }
    }

    var update: MCPTool {
        let show = ListAction.show.declaration
        var properties = Self.formFields.properties
        properties["contact"] = show.parameters[0].jsonSchema
        properties["version"] = [
            "type": "integer", "minimum": 0,
            "description": "the version you read (get gives it); a contact changed since is refused",
        ]
        return MCPTool(
            name: "update", title: "Update a contact",
            description: "Change fields of a contact, given the version you read. A field set to \"\" is cleared; "
                + "an array replaces all items of its kind. Fields left out keep their value.",
            inputSchema: Self.object(properties, required: ["contact", "version"]),
            outputSchema: ShowContact.FetchContact.ViewModel.jsonSchema,
            // It overwrites and clears fields (MCP: destructive unless only additive).
            annotations: MCPToolAnnotations(destructive: true, idempotent: true)
        ) { [self] arguments in
            let members = try MCPArguments.members(arguments)
            try Self.refuseUnknown(members, known: Self.formFields.names + ["contact", "version"])
            let reference = try MCPArguments.bind(
                .object(members.filter { $0.key == "contact" }), to: show, tool: "update")
            guard case .integer(let version)? = members["version"] else {
                throw MCPToolFailure(
                    "'version' is required: the integer version you read with get",
                    details: ["version": "required, an integer"])
            }
            let calls = try Self.formFields.calls(from: members)
            try toList()
            let current = try open(reference.string("contact") ?? "")
            guard current.version == version else {
                try toList()
                throw Self.stale(current, yourVersion: version)
            }
            _ = try run(ActionCall(DetailAction.edit), in: Detail.descriptor)
            guard session.stack.active is Form else { throw MCPToolFailure("the form did not open") }
            try fill(Self.replacing(calls, in: members))
            _ = try save()
            let detail = try run(ActionCall(DetailAction.show), in: Detail.descriptor).last(
                ShowContact.FetchContact.ViewModel.self)
            try toList()
            guard let detail else { throw MCPToolFailure("the contact was saved but not shown") }
            return MCPToolResult(try JSONValueEncoder.encode(detail), text: "updated " + Self.summary(detail))
        }
    }

    var delete: MCPTool {
        let spec = ListAction.delete.declaration
        var properties = Dictionary(uniqueKeysWithValues: spec.parameters.map { ($0.name, $0.jsonSchema) })
        properties["version"] = [
            "type": "integer", "minimum": 0,
            "description": "the version you read; when given, a contact changed since is not deleted",
        ]
        return MCPTool(
            name: "delete", title: "Delete a contact",
            description: "Delete one contact for good. Name it by number or UID (or its full name); a contact named by "
                + "only part of its name needs confirm: true.",
            inputSchema: Self.object(properties, required: ["contact"]), outputSchema: ContactsToolSchemas.deleted,
            annotations: MCPToolAnnotations(destructive: true, idempotent: true)
        ) { [self] arguments in
            let members = try MCPArguments.members(arguments)
            let call = try MCPArguments.bind(.object(members.filter { $0.key != "version" }), to: spec, tool: "delete")
            var version: Int?
            switch members["version"] {
            case nil, .null?: break
            case .integer(let number)?: version = number
            case let other?:
                throw MCPToolFailure(
                    "'version' must be an integer, not \(other.typeName)", details: ["version": "must be an integer"])
            }
            try toList()
            let current = try open(call.string("contact") ?? "")
            try toList()
            if let version, version != current.version { throw Self.stale(current, yourVersion: version) }
            // The agent's own words go to the list's delete, so the same rule holds: a contact named by
            // only part of its name is deleted only with `confirm`.
            let outcome = try run(call, in: List.descriptor)
            let message = outcome.messages(.success).last ?? "deleted"
            return MCPToolResult(
                [
                    "deleted": [
                        "id": .integer(Int(current.id)), "uid": .string(current.uid),
                        "name": .string(current.name),
                    ],
                    "message": .string(message),
                ], text: message)
        }
    }

    // MARK: Files

    var importFile: MCPTool {
        let spec = ListAction.import.declaration
        return MCPTool(
            name: "import", title: "Import contacts",
            description: spec.summary
                + ". A card whose UID is in the book updates that contact. Send a progressToken to follow it.",
            inputSchema: spec.parametersSchema, outputSchema: ContactsToolSchemas.transfer,
            // A card whose UID is in the book overwrites that contact.
            annotations: MCPToolAnnotations(destructive: true, openWorld: true)
        ) { [self] arguments in
            let call = try MCPArguments.bind(arguments, to: spec, tool: "import")
            try toList()
            let outcome = try run(call, in: List.descriptor)
            let message = (outcome.messages(.success) + outcome.messages(.info)).joined(separator: "\n")
            return MCPToolResult(["message": .string(message)], text: message)
        }
    }

    var exportFile: MCPTool {
        let spec = ListAction.export.declaration
        return MCPTool(
            name: "export", title: "Export contacts",
            description: spec.summary
                + ". With path '-' the text comes back in the result. Send a progressToken to follow it.",
            inputSchema: spec.parametersSchema, outputSchema: ContactsToolSchemas.transfer,
            annotations: MCPToolAnnotations(destructive: true, openWorld: true)
        ) { [self] arguments in
            let call = try MCPArguments.bind(arguments, to: spec, tool: "export")
            try toList()
            let outcome = try run(call, in: List.descriptor)
            if let text = outcome.last(ListContacts.ExportContacts.ViewModel.self) {
                let message = "exported \(text.count) contacts as \(text.format)"
                return MCPToolResult(
                    [
                        "message": .string(message), "format": .string(text.format),
                        "mediaType": .string(text.mediaType), "count": .integer(text.count),
                        "text": .string(text.text), "changes": .array(text.changes.map { .string($0) }),
                    ],
                    text: message)
            }
            // An export that changed cards to make them valid is an info message, as an import's notes.
            let message = (outcome.messages(.success) + outcome.messages(.info)).joined(separator: "\n")
            return MCPToolResult(["message": .string(message)], text: message)
        }
    }

    // MARK: Everyday tools (the list's duplicates, merge and birthdays)

    var duplicates: MCPTool {
        listActionTool(
            .duplicates, title: "Find duplicate contacts",
            description: ". Strongest first: the same email, the same phone, or nearly the same name with a "
                + "shared organization or email domain. Each group's `merge` names its contacts for the merge tool.",
            outputSchema: Duplicates.FindDuplicates.ViewModel.jsonSchema, annotations: .read
        ) { outcome in
            let model = try Self.last(
                Duplicates.FindDuplicates.ViewModel.self, in: outcome, orFail: "duplicates showed no groups")
            return MCPToolResult(try JSONValueEncoder.encode(model), text: model.caption)
        }
    }

    var merge: MCPTool {
        listActionTool(
            .merge, title: "Merge contacts",
            description: ": `contacts` is two or more numbers, UIDs or quoted names, the first kept. "
                + "Emails, phones, addresses, websites and tags are joined; other fields keep the first's value unless empty "
                + "(the values dropped are listed). The others go to the trash; the undo tool brings every contact back.",
            outputSchema: Duplicates.MergeContacts.ViewModel.jsonSchema,
            annotations: MCPToolAnnotations(destructive: true)
        ) { outcome in
            let model = try Self.last(
                Duplicates.MergeContacts.ViewModel.self, in: outcome, orFail: "the merge showed no result")
            return MCPToolResult(
                try JSONValueEncoder.encode(model), text: ([model.text] + model.differenceLines).joined(separator: "\n")
            )
        }
    }

    var birthdays: MCPTool {
        listActionTool(
            .birthdays, title: "Upcoming birthdays",
            description: " (default \(BirthdaysInteractor.defaultDays)). Each entry has the contact's "
                + "number, the date this year, the age turned when the year of birth is known, and how many days away.",
            outputSchema: Birthdays.UpcomingBirthdays.ViewModel.jsonSchema, annotations: .read
        ) { outcome in
            let model = try Self.last(
                Birthdays.UpcomingBirthdays.ViewModel.self, in: outcome, orFail: "birthdays showed no list")
            return MCPToolResult(try JSONValueEncoder.encode(model), text: model.caption)
        }
    }

    // MARK: Groups

    var groups: MCPTool {
        listActionTool(
            .groups, title: "List groups",
            description: ": each group's name, size, members (their UIDs) and convention. The search tool's "
                + "`group` lists a group's members as contacts; `ungrouped` those in no group.",
            outputSchema: ListContacts.ListGroups.ViewModel.jsonSchema, annotations: .read
        ) { outcome in
            let model = try Self.last(
                ListContacts.ListGroups.ViewModel.self, in: outcome, orFail: "groups showed no list")
            return MCPToolResult(
                try JSONValueEncoder.encode(model),
                text: ([model.caption]
                    + model.groups.map { "\($0.name): \($0.size)" }).joined(separator: "\n"))
        }
    }

    var group: MCPTool {
        listActionTool(
            .group, title: "Change a group",
            description: ". `action` new, rename, delete, add or remove; `name` the group; `values` the new "
                + "name (rename) or the contacts (add, remove): numbers, UIDs or quoted names; `book` (new) the address "
                + "book it goes to, else the default one. A delete keeps the members; "
                + "the undo tool takes any of these back.",
            outputSchema: ListContacts.ChangeGroup.ViewModel.jsonSchema,
            annotations: MCPToolAnnotations(destructive: true)
        ) { outcome in
            let model = try Self.last(
                ListContacts.ChangeGroup.ViewModel.self, in: outcome, orFail: "the group said nothing")
            return MCPToolResult(
                try JSONValueEncoder.encode(model), text: ([model.text] + model.notes).joined(separator: "\n"))
        }
    }

    // MARK: The journal

    var undo: MCPTool {
        listActionTool(
            .undo, title: "Undo a change",
            description: ". Without `change` the most recent change; with it, an older one by its number "
                + "(the list's history shows it). Refused, naming it, when a later change touched the same contact.",
            outputSchema: ContactsToolSchemas.undone,
            // Undoing an add deletes that contact, and undoing again takes back the next change.
            annotations: MCPToolAnnotations(destructive: true)
        ) { outcome in
            guard let message = outcome.messages(.success).last else { throw MCPToolFailure("the undo said nothing") }
            return MCPToolResult(["message": .string(message)], text: message)
        }
    }

    // MARK: CardDAV

    var sync: MCPTool {
        let spec = ListAction.sync.declaration
        return MCPTool(
            name: "sync", title: "Sync with CardDAV",
            description: spec.summary
                + ". Pulls what changed on each server, merges it with what changed here field by "
                + "field and pushes the rest; one line per account: pulled, pushed, merged, conflicts. Accounts are added "
                + "with 'contactsbook account add'. Send a progressToken to follow it; cancelling stops it before its next "
                + "request to the server (what it pushed stays pushed; the next sync goes on).",
            inputSchema: spec.parametersSchema, outputSchema: ContactsToolSchemas.synced,
            // It overwrites fields here and on the servers with the other side's newer values.
            annotations: MCPToolAnnotations(destructive: true, openWorld: true)
        ) { [self] arguments in
            let call = try MCPArguments.bind(arguments, to: spec, tool: "sync")
            try toList()
            let outcome = try run(call, in: List.descriptor)
            let message = (outcome.messages(.success) + outcome.messages(.info)).joined(separator: "\n")
            return MCPToolResult(["message": .string(message)], text: message)
        }
    }

    // MARK: Driving the session

    /// A tool that is one of the list's actions, under its name: its arguments are the action's
    /// parameters, its description the action's summary and `description`, and `result` makes its
    /// result from what the action displayed (the tools differ only there).
    private func listActionTool(
        _ action: ListAction, title: String, description: String, outputSchema: JSONValue,
        annotations: MCPToolAnnotations,
        result: @escaping (Outcome) throws -> MCPToolResult
    ) -> MCPTool {
        let spec = action.declaration
        return MCPTool(
            name: spec.name, title: title, description: spec.summary + description,
            inputSchema: spec.parametersSchema, outputSchema: outputSchema, annotations: annotations
        ) { [self] arguments in
            let call = try MCPArguments.bind(arguments, to: spec, tool: spec.name)
            try toList()
            return try result(try run(call, in: List.descriptor))
        }
    }

    /// The last ViewModel of `type` an action displayed; its absence is the tool's failure.
    private static func last<Model: ViewModel>(_ type: Model.Type, in outcome: Outcome, orFail missing: String) throws
        -> Model
    {
        guard let model = outcome.last(type) else { throw MCPToolFailure(missing) }
        return model
    }

    /// Back to the list, whatever an earlier call left open (a form is cancelled, not dropped).
    private func toList() throws {
        _ = session.reach(List.descriptor.id)
    }

    /// Runs an action of the active scene; a failure becomes the tool's failure.
    @discardableResult
    private func run(_ call: ActionCall, in scene: SceneDescriptor) throws -> Outcome {
        let outcome = session.run(call, inScene: scene.id)
        if let error = outcome.error { throw MCPToolFailure(error.text, details: error.details) }
        return outcome
    }

    /// Opens a contact from the list and returns its detail; a failure names `contact`.
    private func open(_ reference: String) throws -> ShowContact.FetchContact.ViewModel {
        let outcome: Outcome
        do {
            outcome = try run(ActionCall(ListAction.show, ["contact": .string(reference)]), in: List.descriptor)
        } catch let failure as MCPToolFailure {
            throw MCPToolFailure(
                failure.message, details: failure.details.isEmpty ? ["contact": failure.message] : failure.details)
        }
        guard let detail = outcome.last(ShowContact.FetchContact.ViewModel.self) else {
            throw MCPToolFailure("no contact was shown for '\(reference)'", details: ["contact": "not found"])
        }
        return detail
    }

    /// Runs the field calls in the open form; on a refused value the form is cancelled.
    private func fill(_ calls: [ActionCall]) throws {
        for call in calls {
            do { try run(call, in: Form.descriptor) } catch let failure as MCPToolFailure {
                try toList()
                throw MCPToolFailure(
                    failure.message, details: failure.details.isEmpty ? [call.name: failure.message] : failure.details)
            }
        }
    }

    /// Saves the form; when the form refuses (per-field errors, a newer version), it is cancelled.
    private func save() throws -> Outcome {
        do { return try run(ActionCall(FormAction.save), in: Form.descriptor) } catch {
            try toList()
            throw error
        }
    }

    /// For an update: an empty string clears its field, and an array first clears its kind.
    private static func replacing(_ calls: [ActionCall], in members: [String: JSONValue]) -> [ActionCall] {
        let clears = formFields.repeated.compactMap { spec -> ActionCall? in
            guard case .array? = members[spec.name] else { return nil }
            return ActionCall(
                FormAction.clear, ["field": .string(EditContact.ItemKind(rawValue: spec.name)?.plural ?? spec.name)])
        }
        let sets = calls.map { call -> ActionCall in
            let isField = EditContact.Field(rawValue: call.name) != nil
            return isField && call.string("value") == ""
                ? ActionCall(FormAction.clear, ["field": .string(call.name)]) : call
        }
        return clears + sets
    }

    private static func stale(_ current: ShowContact.FetchContact.ViewModel, yourVersion: Int) -> MCPToolFailure {
        MCPToolFailure(
            "#\(current.id) \(current.name) was changed since you read it: it is at version \(current.version), "
                + "you sent version \(yourVersion). Get it again, then send your changes with version \(current.version).",
            details: [
                "version": "stale: the contact is at version \(current.version)",
                "currentVersion": String(current.version),
            ])
    }

    private static func refuseUnknown(_ members: [String: JSONValue], known: [String]) throws {
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw MCPToolFailure(
                "unexpected argument '\(unknown)'; expected: \(known.joined(separator: ", "))",
                details: [unknown: "unexpected"])
        }
    }

    private static func summary(_ detail: ShowContact.FetchContact.ViewModel) -> String {
        "#\(detail.id) \(detail.name) (uid \(detail.uid), version \(detail.version))"
    }

    private static func object(_ properties: [String: JSONValue], required: [String] = []) -> JSONValue {
        [
            "type": "object", "properties": .object(properties), "required": .array(required.map { .string($0) }),
            "additionalProperties": false,
        ]
    }
}

extension Outcome {
    fileprivate func last<Model: ViewModel>(_ type: Model.Type) -> Model? {
        displayed.lazy.compactMap { $0 as? Model }.last
    }

    fileprivate func messages(_ kind: Message.Kind) -> [String] {
        displayed.compactMap { ($0 as? Message).flatMap { $0.kind == kind ? $0.text : nil } }
    }
}
