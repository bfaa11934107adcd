import JSONBytes
import XCTest

@testable import ContactsApp

/// The tool scenes' ViewModels (duplicates, merge, birthdays) as JSON hold exactly what their
/// schemas say: every required member, and no member the schema does not name.
final class ToolScenesSchemaTests: XCTestCase {
    private func assertMatches(
        _ value: JSONValue, _ schema: JSONValue, _ path: String = "$", file: StaticString = #filePath,
        line: UInt = #line
    ) {
        guard case .object(let members)? = Optional(value), case .object(let properties)? = schema["properties"] else {
            if case .array(let items) = value, let itemSchema = schema["items"] {
                for (index, item) in items.enumerated() {
                    assertMatches(item, itemSchema, "\(path)[\(index)]", file: file, line: line)
                }
            }
            return
        }
        guard case .array(let required)? = schema["required"] else {
            return XCTFail("\(path): no required list", file: file, line: line)
        }
        for case .string(let name) in required {
            XCTAssertNotNil(members[name], "\(path).\(name) is required", file: file, line: line)
        }
        for (name, member) in members {
            guard let memberSchema = properties[name] else {
                XCTFail("\(path).\(name) is not in the schema", file: file, line: line)
                continue
            }
            assertMatches(member, memberSchema, "\(path).\(name)", file: file, line: line)
        }
    }

    func test_duplicateGroups_matchesItsSchema() throws {
        let value = try JSONValueEncoder.encode(ContactToolsFlowTests.duplicates)
        assertMatches(value, Duplicates.FindDuplicates.ViewModel.jsonSchema)
    }

    func test_contactsMerged_matchesItsSchema() throws {
        let model = Duplicates.MergeContacts.ViewModel(
            id: 1, name: "Ann Lee", removed: [2],
            differences: [.init(field: "given", kept: "Ann", dropped: "Anne", from: 2)],
            text: "Merged", differenceLines: ["  given"])
        assertMatches(try JSONValueEncoder.encode(model), Duplicates.MergeContacts.ViewModel.jsonSchema)
    }

    func test_upcomingBirthdays_matchesItsSchema_withAndWithoutAnAge() throws {
        let model = Birthdays.UpcomingBirthdays.ViewModel(
            today: "2023-11-15", days: 30,
            entries: [
                .init(id: 1, name: "Ann Lee", date: "2023-11-15", age: nil, daysAway: 0, when: "today"),
                .init(id: 2, name: "Bo Lee", date: "2023-11-16", age: 40, daysAway: 1, when: "tomorrow"),
            ], caption: "2 birthdays in the next 30 days")
        let value = try JSONValueEncoder.encode(model)
        assertMatches(value, Birthdays.UpcomingBirthdays.ViewModel.jsonSchema)
        XCTAssertNil(
            value["entries"].flatMap {
                if case .array(let items) = $0 { return items.first?["age"] } else { return nil }
            })
    }
}
