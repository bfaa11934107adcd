import JSONBytes

extension ShowContact.FetchContact.ViewModel: JSONSchemaDescribed {
    /// The detail's JSON: display fields for people, and `contact`, the structured record for programs.
    public static var jsonSchema: JSONValue {
        let string: JSONValue = ["type": "string"]
        let labelled: JSONValue = ["type": "array", "items": [
            "type": "object", "required": ["label", "value"],
            "properties": ["label": string, "value": string]]]
        let address: JSONValue = ["type": "object", "required": ["label", "street", "city", "region", "postalCode", "country"],
                                  "properties": ["label": string, "street": string, "city": string, "region": string,
                                                 "postalCode": string, "country": string]]
        let birthday: JSONValue = ["type": "object", "required": ["month", "day"],
                                   "description": "absent when not set; year absent when unknown",
                                   "properties": ["year": ["type": "integer"],
                                                  "month": ["type": "integer", "minimum": 1, "maximum": 12],
                                                  "day": ["type": "integer", "minimum": 1, "maximum": 31]]]
        let timestamp: JSONValue = ["type": "string", "format": "date-time", "description": "ISO 8601, UTC"]
        let record: JSONValue = [
            "type": "object",
            "description": "the contact as stored: names as typed, values unformatted",
            "required": ["id", "uid", "version", "givenName", "familyName", "nameOrder", "nickname", "organization", "title",
                         "phones", "emails", "addresses", "tags", "notes", "displayName", "formattedName", "created", "updated"],
            "properties": [
                "id": ["type": "integer"], "uid": string, "version": ["type": "integer"],
                "givenName": string, "familyName": string,
                "nameOrder": ["type": "string", "enum": .array(NameOrder.allCases.map { .string($0.rawValue) }),
                              "description": "how the name is written out: given name or family name first"],
                "nickname": string, "organization": string, "title": string,
                "phones": labelled, "emails": labelled, "addresses": ["type": "array", "items": address],
                "birthday": birthday, "tags": ["type": "array", "items": string], "notes": string,
                "displayName": ["type": "string", "description": "the name as shown"],
                "formattedName": ["type": "string", "description": "the card's own display name (vCard FN) when the name parts do not give it, else empty"],
                "photo": ["type": "object", "required": ["mediaType"], "description": "absent without a photo",
                          "properties": ["mediaType": string, "bytes": ["type": "integer", "description": "absent for a linked photo"],
                                         "uri": ["type": "string", "description": "the link, for a linked photo"]]],
                "created": timestamp, "updated": timestamp,
            ],
        ]
        return ["type": "object", "required": ["id", "uid", "name", "version", "fields", "contact"],
                "properties": [
                    "id": ["type": "integer", "description": "the contact's number"],
                    "uid": string, "name": ["type": "string", "description": "the name as displayed"],
                    "version": ["type": "integer", "description": "for detecting concurrent edits"],
                    "fields": ["type": "array", "description": "labelled values formatted for display",
                               "items": ["type": "object", "required": ["label", "value"],
                                         "properties": ["label": string, "value": string]]],
                    "contact": record,
                ]]
    }
}
