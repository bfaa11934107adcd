import JSONBytes

/// What the JSON Schemas of the tools' ViewModels share (`DuplicatesSchema.swift`,
/// `BirthdaysSchema.swift`), for introspection (`viewModels` in `session/describe`) and for
/// scripts reading `contactsbook duplicates|birthdays --json`.
enum ToolsSchema {
    static let string: JSONValue = ["type": "string"]
    static let integer: JSONValue = ["type": "integer"]

    static func object(_ properties: [String: JSONValue], description: String? = nil) -> JSONValue {
        var schema: [String: JSONValue] = [
            "type": "object", "required": .array(properties.keys.sorted().map { .string($0) }),
            "properties": .object(properties),
        ]
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }

    static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }

    static let row: JSONValue = {
        let labelled = array(object(["label": string, "value": string]))
        guard
            case .object(var members) = object(
                [
                    "id": integer, "name": string, "organization": string, "email": string,
                    "phone": string, "emails": labelled, "phones": labelled,
                ],
                description: "a list row, as in contactList"),
            case .object(var properties) = members["properties"]
        else { return [:] }
        properties["matched"] = ["type": "string", "description": "absent here: rows of a search only"]
        properties["book"] = [
            "type": "string", "description": "the contact's address book, when more than one is in use",
        ]
        members["properties"] = .object(properties)
        return .object(members)
    }()
}
