import JSONBytes

/// JSON Schemas of the books' ViewModels, for introspection (`viewModels` in `session/describe`).
extension ListContacts.ShowBooks.ViewModel: JSONSchemaDescribed {
    public static var jsonSchema: JSONValue {
        let string: JSONValue = ["type": "string"]
        let book: JSONValue = [
            "type": "object", "required": ["name", "contacts", "isDefault"],
            "properties": [
                "name": string, "account": ["type": "string", "description": "absent for the local book"],
                "url": ["type": "string", "description": "the collection; absent for the local book"],
                "contacts": ["type": "integer"],
                "readOnly": [
                    "type": "string", "enum": ["server", "marked"],
                    "description": "absent when writable",
                ],
                "isDefault": ["type": "boolean", "description": "new contacts go here"],
            ],
        ]
        return [
            "type": "object", "required": ["books", "caption"],
            "properties": ["books": ["type": "array", "items": book], "caption": string],
        ]
    }
}

extension ListContacts.MoveContacts.ViewModel: JSONSchemaDescribed {
    public static var jsonSchema: JSONValue {
        [
            "type": "object", "required": ["ids", "book", "text"],
            "properties": [
                "ids": ["type": "array", "items": ["type": "integer"]], "book": ["type": "string"],
                "text": ["type": "string"],
            ],
        ]
    }
}
