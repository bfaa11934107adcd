import JSONBytes

/// JSON Schemas of the tools' ViewModels, for introspection (`viewModels` in `session/describe`)
/// and for scripts reading `contactsbook duplicates|birthdays --json`.
private enum ToolsSchema {
    static let string: JSONValue = ["type": "string"]
    static let integer: JSONValue = ["type": "integer"]

    static func object(_ properties: [String: JSONValue], description: String? = nil) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "object", "required": .array(properties.keys.sorted().map { .string($0) }),
                                           "properties": .object(properties)]
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }

    static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }

    static let row: JSONValue = {
        let labelled = array(object(["label": string, "value": string]))
        guard case .object(var members) = object(["id": integer, "name": string, "organization": string, "email": string,
                                                  "phone": string, "emails": labelled, "phones": labelled],
                                                 description: "a list row, as in contactList"),
              case .object(var properties) = members["properties"] else { return [:] }
        properties["matched"] = ["type": "string", "description": "absent here: rows of a search only"]
        properties["book"] = ["type": "string", "description": "the contact's address book, when more than one is in use"]
        members["properties"] = .object(properties)
        return .object(members)
    }()
}

extension ListContacts.FindDuplicates.ViewModel: JSONSchemaDescribed {
    public static var jsonSchema: JSONValue {
        let reason = ToolsSchema.object([
            "kind": ["type": "string", "enum": ["uid", "email", "phone", "name"]],
            "value": ["type": "string", "description": "the email in lower case; the phone as +CC digits; for names the folded organisation or @domain"],
            "text": ToolsSchema.string,
        ])
        let group = ToolsSchema.object([
            "number": ToolsSchema.integer, "reasons": ToolsSchema.array(reason), "rows": ToolsSchema.array(ToolsSchema.row),
            "merge": ["type": "string", "description": "the command merging the group into its first contact"],
        ])
        return ToolsSchema.object(["groups": ToolsSchema.array(group), "caption": ToolsSchema.string],
                                  description: "groups of contacts that are probably one person, strongest first")
    }
}

extension ListContacts.MergeContacts.ViewModel: JSONSchemaDescribed {
    public static var jsonSchema: JSONValue {
        let difference = ToolsSchema.object([
            "field": ToolsSchema.string, "kept": ToolsSchema.string, "dropped": ToolsSchema.string,
            "from": ["type": "integer", "description": "the id of the contact the dropped value came from"],
        ])
        return ToolsSchema.object([
            "id": ["type": "integer", "description": "the kept contact"], "name": ToolsSchema.string,
            "removed": ToolsSchema.array(ToolsSchema.integer), "differences": ToolsSchema.array(difference),
            "text": ToolsSchema.string, "differenceLines": ToolsSchema.array(ToolsSchema.string),
        ])
    }
}

extension ListContacts.UpcomingBirthdays.ViewModel: JSONSchemaDescribed {
    public static var jsonSchema: JSONValue {
        let date: JSONValue = ["type": "string", "format": "date"]
        var entry = ToolsSchema.object([
            "id": ToolsSchema.integer, "name": ToolsSchema.string, "date": date,
            "age": ["type": "integer", "description": "the age turned; absent without a year of birth"],
            "daysAway": ["type": "integer", "minimum": 0], "when": ["type": "string", "description": "today, tomorrow or in N days"],
        ])
        if case .object(var members) = entry {
            members["description"] = "soonest first"
            members["required"] = ["date", "daysAway", "id", "name", "when"]
            entry = .object(members)
        }
        return ToolsSchema.object(["today": date, "days": ToolsSchema.integer, "entries": ToolsSchema.array(entry),
                                   "caption": ToolsSchema.string])
    }
}

extension ListContacts.ShowBooks.ViewModel: JSONSchemaDescribed {
    public static var jsonSchema: JSONValue {
        let string: JSONValue = ["type": "string"]
        let book: JSONValue = [
            "type": "object", "required": ["name", "contacts", "isDefault"],
            "properties": ["name": string, "account": ["type": "string", "description": "absent for the local book"],
                           "url": ["type": "string", "description": "the collection; absent for the local book"],
                           "contacts": ["type": "integer"],
                           "readOnly": ["type": "string", "enum": ["server", "marked"],
                                        "description": "absent when writable"],
                           "isDefault": ["type": "boolean", "description": "new contacts go here"]]]
        return ["type": "object", "required": ["books", "caption"],
                "properties": ["books": ["type": "array", "items": book], "caption": string]]
    }
}

extension ListContacts.MoveContacts.ViewModel: JSONSchemaDescribed {
    public static var jsonSchema: JSONValue {
        ["type": "object", "required": ["ids", "book", "text"],
         "properties": ["ids": ["type": "array", "items": ["type": "integer"]], "book": ["type": "string"],
                        "text": ["type": "string"]]]
    }
}
