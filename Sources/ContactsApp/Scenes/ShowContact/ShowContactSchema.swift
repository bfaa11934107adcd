import JSONBytes

extension ShowContact.FetchContact.ViewModel: JSONSchemaDescribed {
    /// The detail's JSON: display fields for people, and `contact`, the structured record for programs.
    public static var jsonSchema: JSONValue {
        let string: JSONValue = ["type": "string"]
        let labelled: JSONValue = [
            "type": "array",
            "items": [
                "type": "object", "required": ["label", "value"],
                "properties": ["label": string, "value": string],
            ],
        ]
        let address: JSONValue = [
            "type": "object", "required": ["label", "street", "city", "region", "postalCode", "country"],
            "properties": [
                "label": string, "street": string, "city": string, "region": string,
                "postalCode": string, "country": string,
            ],
        ]
        let birthday: JSONValue = [
            "type": "object", "required": ["month", "day"],
            "description": "absent when not set; year absent when unknown",
            "properties": [
                "year": ["type": "integer"],
                "month": ["type": "integer", "minimum": 1, "maximum": 12],
                "day": ["type": "integer", "minimum": 1, "maximum": 31],
            ],
        ]
        let timestamp: JSONValue = ["type": "string", "format": "date-time", "description": "ISO 8601, UTC"]
        // The fields' members from the field table, by their shapes (a date is absent when not set).
        var properties: [String: JSONValue] = [:]
        var required: [String] = ["id", "uid", "version", "nameOrder", "displayName", "created", "updated"]
        for field in ContactField.allCases {
            let key = field.declaration.recordKey
            switch field.declaration.shape {
            case .line, .text: properties[key] = string
            case .date: properties[key] = birthday
            case .labelled: properties[key] = labelled
            case .addresses: properties[key] = ["type": "array", "items": address]
            case .words: properties[key] = ["type": "array", "items": string]
            }
            if field.declaration.shape != .date { required.append(key) }
        }
        properties["formattedName"] = [
            "type": "string",
            "description": "the card's own display name (vCard FN) when the name parts do not give it, else empty",
        ]
        properties["websites"] = [
            "type": "array", "description": "web pages (vCard URL), since protocol 1.5",
            "items": [
                "type": "object", "required": ["label", "value"],
                "properties": ["label": string, "value": string],
            ],
        ]
        let record: JSONValue = [
            "type": "object",
            "description": "the contact as stored: names as typed, values unformatted",
            "required": .array(required.map { .string($0) }),
            "properties": .object(
                properties.merging([
                    "id": ["type": "integer"], "uid": string, "version": ["type": "integer"],
                    "nameOrder": [
                        "type": "string", "enum": .array(NameOrder.allCases.map { .string($0.rawValue) }),
                        "description": "how the name is written out: given name or family name first",
                    ],
                    "displayName": ["type": "string", "description": "the name as shown"],
                    "photo": [
                        "type": "object", "required": ["mediaType"], "description": "absent without a photo",
                        "properties": [
                            "mediaType": string,
                            "bytes": ["type": "integer", "description": "absent for a linked photo"],
                            "uri": ["type": "string", "description": "the link, for a linked photo"],
                        ],
                    ],
                    "created": timestamp, "updated": timestamp,
                    "groups": [
                        "type": "array", "items": string,
                        "description": "the names of the groups it is a member of, by name; since protocol 1.6",
                    ],
                ]) { $1 }),
        ]
        return [
            "type": "object", "required": ["id", "uid", "name", "version", "fields", "contact"],
            "properties": [
                "id": ["type": "integer", "description": "the contact's number"],
                "uid": string, "name": ["type": "string", "description": "the name as displayed"],
                "version": ["type": "integer", "description": "for detecting concurrent edits"],
                "fields": [
                    "type": "array", "description": "labelled values formatted for display",
                    "items": [
                        "type": "object", "required": ["label", "value"],
                        "properties": ["label": string, "value": string],
                    ],
                ],
                "contact": record,
                "book": [
                    "type": "string",
                    "description": "the contact's address book, when more than one is in use; since protocol 1.6",
                ],
            ],
        ]
    }
}
