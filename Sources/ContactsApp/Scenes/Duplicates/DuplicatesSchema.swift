import JSONBytes

extension Duplicates.FindDuplicates.ViewModel: JSONSchemaDescribed {
    public static var jsonSchema: JSONValue {
        let reason = ToolsSchema.object([
            "kind": ["type": "string", "enum": ["uid", "email", "phone", "name"]],
            "value": [
                "type": "string",
                "description":
                    "the email in lower case; the phone as +CC digits; for names the folded organisation or @domain",
            ],
            "text": ToolsSchema.string,
        ])
        let group = ToolsSchema.object([
            "number": ToolsSchema.integer, "reasons": ToolsSchema.array(reason),
            "rows": ToolsSchema.array(ToolsSchema.row),
            "merge": ["type": "string", "description": "the command merging the group into its first contact"],
        ])
        return ToolsSchema.object(
            ["groups": ToolsSchema.array(group), "caption": ToolsSchema.string],
            description: "groups of contacts that are probably one person, strongest first")
    }
}

extension Duplicates.MergeContacts.ViewModel: JSONSchemaDescribed {
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
