import JSONBytes

/// JSON Schemas of the directories' ViewModels, for introspection (`viewModels` in `session/describe`).
private enum DirectorySchema {
    static let string: JSONValue = ["type": "string"]

    static func object(_ properties: [String: JSONValue], optional: Set<String> = [], description: String? = nil)
        -> JSONValue
    {
        var schema: [String: JSONValue] = [
            "type": "object", "properties": .object(properties),
            "required": .array(properties.keys.filter { !optional.contains($0) }.sorted().map { .string($0) }),
        ]
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }

    static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }
}

extension ListContacts.SearchDirectories.ViewModel: JSONSchemaDescribed {
    public static let jsonSchema = DirectorySchema.object(
        [
            "rows": DirectorySchema.array(
                DirectorySchema.object(
                    [
                        "reference": DirectorySchema.string, "directory": DirectorySchema.string,
                        "dn": DirectorySchema.string,
                        "name": DirectorySchema.string, "organization": DirectorySchema.string,
                        "email": DirectorySchema.string,
                        "phone": DirectorySchema.string,
                    ],
                    description: "a directory's entry; reference (corp:2) is what show and copy take")),
            "notices": DirectorySchema.array(DirectorySchema.string),
            "caption": DirectorySchema.string,
        ], description: "the directories' answer to a search, after the book's contactList")
}

extension ListContacts.ShowDirectoryEntry.ViewModel: JSONSchemaDescribed {
    public static let jsonSchema = DirectorySchema.object(
        [
            "directory": DirectorySchema.string, "dn": DirectorySchema.string, "name": DirectorySchema.string,
            "fields": DirectorySchema.array(
                DirectorySchema.object(["label": DirectorySchema.string, "value": DirectorySchema.string])),
            "photo": ["type": "string", "description": "the photo (jpegPhoto) as a data: URI"],
        ], optional: ["photo"], description: "one directory entry, every mapped field")
}
