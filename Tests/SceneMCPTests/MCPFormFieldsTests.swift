import JSONBytes
import SceneCore
import SceneMCP
import XCTest

final class MCPFormFieldsTests: XCTestCase {
    private let nameField = ActionSpec(
        "name", summary: "set the name", parameters: [ParameterSpec("value", .text, help: "the new value")])
    private let phone = ActionSpec(
        "phone", summary: "add a phone",
        parameters: [
            ParameterSpec("label", .string, required: false, help: "a label"),
            ParameterSpec("value", .text, help: "the number"),
        ])
    private let tag = ActionSpec(
        "tag", summary: "add a tag", parameters: [ParameterSpec("value", .text, help: "the tag")])
    private var sut: MCPFormFields!

    override func setUp() {
        super.setUp()
        sut = MCPFormFields(single: [nameField], repeated: [phone, tag])
    }

    func test_properties_nameEachFieldAsItsAction_repeatedOnesAsArraysOfTheirParameters() {
        // When
        let properties = sut.properties
        // Then
        XCTAssertEqual(properties["name"], ["type": "string", "description": "set the name"])
        XCTAssertEqual(
            properties["tag"],
            [
                "type": "array", "description": "add a tag (one per item)",
                "items": ["type": "string", "description": "the tag"],
            ])
        XCTAssertEqual(properties["phone"]?["items"], phone.parametersSchema)
    }

    func test_calls_comeInDeclarationOrder_oneForEachItem() throws {
        // When
        let calls = try sut.calls(from: [
            "tag": ["a", "b"], "phone": [["value": "555", "label": "work"]], "name": "Ann",
        ])
        // Then
        XCTAssertEqual(
            calls,
            [
                ActionCall("name", ["value": .string("Ann")]),
                ActionCall("phone", ["label": .string("work"), "value": .string("555")]),
                ActionCall("tag", ["value": .string("a")]), ActionCall("tag", ["value": .string("b")]),
            ])
    }

    func test_aBadItem_isAFailureNamingTheFieldAndItsIndex() {
        // When
        XCTAssertThrowsError(try sut.calls(from: ["phone": [["value": "1"], ["label": "work"]]])) { error in
            // Then
            XCTAssertEqual(
                error as? MCPToolFailure,
                MCPToolFailure(
                    "phone[1]: 'value' is required (a string)",
                    details: ["phone[1].value": "'value' is required (a string)"]))
        }
    }

    func test_aScalarWhereAnItemTakesSeveralParameters_isAFailureSayingTheObjectItMustBe() {
        // When
        XCTAssertThrowsError(try sut.calls(from: ["phone": ["555 0100"]])) { error in
            // Then
            XCTAssertEqual(
                error as? MCPToolFailure,
                MCPToolFailure(
                    "'phone[0]' must be an object {label?, value}, not string",
                    details: ["phone[0]": "must be an object {label?, value}"]))
        }
    }

    func test_aFieldOfTheWrongShape_isAFailureNamingIt() {
        // When
        XCTAssertThrowsError(try sut.calls(from: ["name": 3])) { error in
            // Then
            XCTAssertEqual(
                error as? MCPToolFailure,
                MCPToolFailure(
                    "'name' must be a string, not integer",
                    details: ["name": "must be a string"]))
        }
        XCTAssertThrowsError(try sut.calls(from: ["tag": "x"])) { error in
            XCTAssertEqual((error as? MCPToolFailure)?.details, ["tag": "must be an array"])
        }
    }
}
