import JSONBytes

extension Birthdays.UpcomingBirthdays.ViewModel: JSONSchemaDescribed {
    public static var jsonSchema: JSONValue {
        let date: JSONValue = ["type": "string", "format": "date"]
        var entry = ToolsSchema.object([
            "id": ToolsSchema.integer, "name": ToolsSchema.string, "date": date,
            "age": ["type": "integer", "description": "the age turned; absent without a year of birth"],
            "daysAway": ["type": "integer", "minimum": 0],
            "when": ["type": "string", "description": "today, tomorrow or in N days"],
        ])
        if case .object(var members) = entry {
            members["description"] = "soonest first"
            members["required"] = ["date", "daysAway", "id", "name", "when"]
            entry = .object(members)
        }
        return ToolsSchema.object([
            "today": date, "days": ToolsSchema.integer, "entries": ToolsSchema.array(entry),
            "caption": ToolsSchema.string,
        ])
    }
}
