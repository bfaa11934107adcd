import JSONBytes

/// JSON Schemas of the groups' ViewModels, for introspection and for scripts reading
/// `contactsbook groups --json`.
private enum GroupsSchema {
    static let string: JSONValue = ["type": "string"]
    static let integer: JSONValue = ["type": "integer"]
    static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }
    static func object(_ properties: [String: JSONValue], description: String? = nil) -> JSONValue {
        var schema: [String: JSONValue] = [
            "type": "object", "required": .array(properties.keys.sorted().map { .string($0) }),
            "properties": .object(properties),
        ]
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }
}

extension ListContacts.ListGroups.ViewModel: JSONSchemaDescribed {
    public static var jsonSchema: JSONValue {
        let group = GroupsSchema.object([
            "id": GroupsSchema.integer, "uid": GroupsSchema.string, "name": GroupsSchema.string,
            "size": ["type": "integer", "description": "every member the group's card names"],
            "inBook": ["type": "integer", "description": "the members whose card is in this book"],
            "members": [
                "type": "array", "items": GroupsSchema.string, "description": "the members' UIDs, in the card's order",
            ],
            "convention": [
                "type": "string", "enum": ["vcard4", "apple"],
                "description": "vcard4: KIND:group and MEMBER; apple: X-ADDRESSBOOKSERVER-KIND and -MEMBER",
            ],
        ])
        return GroupsSchema.object(
            ["groups": GroupsSchema.array(group), "caption": GroupsSchema.string],
            description: "the groups, by name")
    }
}

extension ListContacts.ChangeGroup.ViewModel: JSONSchemaDescribed {
    public static var jsonSchema: JSONValue {
        GroupsSchema.object(
            [
                "action": [
                    "type": "string",
                    "enum": .array(ListContacts.ChangeGroup.Action.allCases.map { .string($0.rawValue) }),
                ],
                "id": GroupsSchema.integer, "uid": GroupsSchema.string, "name": GroupsSchema.string,
                "members": [
                    "type": "array", "items": GroupsSchema.string,
                    "description": "the members' UIDs after the change (before it, for a delete)",
                ],
                "changed": [
                    "type": "array", "items": GroupsSchema.integer,
                    "description": "the ids of the contacts added or removed",
                ],
                "text": GroupsSchema.string, "notes": GroupsSchema.array(GroupsSchema.string),
            ], description: "a group made, renamed, deleted, or its members changed")
    }
}
