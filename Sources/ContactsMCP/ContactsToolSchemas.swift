import ContactsApp
import JSONBytes

/// Output schemas of the tools whose structured content is not a ViewModel already described
/// (the detail's schema is `ShowContact.FetchContact.ViewModel.jsonSchema`).
enum ContactsToolSchemas {
    private static let string: JSONValue = ["type": "string"]
    private static let integer: JSONValue = ["type": "integer"]
    private static let labelled: JSONValue = [
        "type": "array",
        "items": [
            "type": "object", "required": ["label", "value"],
            "properties": ["label": ["type": "string"], "value": ["type": "string"]],
        ],
    ]

    /// The list's ViewModel (`contactList`), as `search` returns it.
    static let contactList: JSONValue = [
        "type": "object", "required": ["rows", "page", "pageCount", "total", "search", "sort", "caption"],
        "properties": [
            "rows": [
                "type": "array",
                "items": [
                    "type": "object", "required": ["id", "name", "organization", "email", "phone", "emails", "phones"],
                    "properties": [
                        "id": ["type": "integer", "description": "the contact's number, for get, update and delete"],
                        "name": string, "organization": string,
                        "email": ["type": "string", "description": "the first email"],
                        "phone": ["type": "string", "description": "the first phone, formatted"],
                        "emails": labelled,
                        "phones": [
                            "type": "array", "description": "every phone, formatted", "items": labelled["items"] ?? [:],
                        ],
                        "matched": [
                            "type": "string", "description": "where the search found a contact the row does not show",
                        ],
                        "book": [
                            "type": "string",
                            "description": "the contact's address book, when the file has more than one in use",
                        ],
                    ],
                ],
            ],
            "page": integer, "pageCount": integer, "total": ["type": "integer", "description": "contacts matching"],
            "search": string, "sort": string, "caption": string,
            "directories": ListContacts.SearchDirectories.ViewModel.jsonSchema,
        ],
    ]

    static let deleted: JSONValue = [
        "type": "object", "required": ["deleted", "message"],
        "properties": [
            "deleted": [
                "type": "object", "required": ["id", "uid", "name"],
                "properties": ["id": integer, "uid": string, "name": string],
            ],
            "message": string,
        ],
    ]

    /// `import` and `export`: what the book said; with export's path `-`, the text itself.
    static let transfer: JSONValue = [
        "type": "object", "required": ["message"],
        "properties": [
            "message": string,
            "format": string, "mediaType": ["type": "string", "description": "text/vcard or text/csv"],
            "count": integer, "text": ["type": "string", "description": "the exported file, for path '-'"],
            "changes": [
                "type": "array", "items": string,
                "description": "for path '-': what writing kept cards in the format's version changed, a line per kind",
            ],
        ],
    ]

    /// `undo`: what the book said it took back.
    static let undone: JSONValue = [
        "type": "object", "required": ["message"],
        "properties": ["message": ["type": "string", "description": "'Undid: ' and the change, as history names it"]],
    ]

    /// `sync`: one line per account, or that there is none.
    static let synced: JSONValue = [
        "type": "object", "required": ["message"],
        "properties": [
            "message": [
                "type": "string",
                "description": "'home: pulled 2, pushed 1, merged 0, conflicts 0', a line per account",
            ]
        ],
    ]
}
