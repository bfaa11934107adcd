import XCTest

@testable import ContactsApp

/// The three-way merge of a group's members as a set, and of its name.
final class GroupMergeTests: XCTestCase {
    private func group(_ name: String, _ members: [String], convention: GroupConvention = .apple) -> ContactGroup {
        GroupCard.new(uid: "g", name: name, members: members, convention: convention)
    }

    func test_bothSidesAdditionsKept_aRemovalOnEitherSideApplied_membersElsewhereKept() {
        // Given: base a, b, elsewhere; here b removed and c added; there d added
        let base = group("Family", ["a", "b", "elsewhere"])
        var local = group("Family", ["a", "elsewhere", "c"], convention: .kind)
        local.id = 4; local.version = 3
        let remote = group("Family", ["a", "b", "elsewhere", "d"])
        // When
        let merged = GroupMerge.merge(base: base, local: local, remote: remote)
        // Then: the server's card (Apple's form) with b gone and c added after its members
        XCTAssertEqual(merged.members, ["a", "elsewhere", "d", "c"])
        XCTAssertEqual(merged.id, 4)
        XCTAssertEqual(merged.version, 3)
        XCTAssertEqual(merged.card.lines.filter { $0.hasPrefix("X-ADDRESSBOOKSERVER-MEMBER") }.count, 4)
        XCTAssertEqual(GroupCard.read(merged.card)?.members, ["a", "elsewhere", "d", "c"])
    }

    func test_aRemovalThereIsApplied_andWithoutABaseNothingIsRemoved() {
        // Given
        let base = group("Family", ["a", "b"])
        let local = group("Family", ["a", "b"])
        let remote = group("Family", ["a"])
        // Then
        XCTAssertEqual(GroupMerge.merge(base: base, local: local, remote: remote).members, ["a"])
        XCTAssertEqual(GroupMerge.merge(base: nil, local: local, remote: remote).members, ["a", "b"])
    }

    func test_theNameIsTheSidesThatChangedIt_theServersWhenBothDid() {
        let base = group("Family", [])
        XCTAssertEqual(GroupMerge.merge(base: base, local: group("Kin", []), remote: group("Family", [])).name, "Kin")
        XCTAssertEqual(GroupMerge.merge(base: base, local: group("Family", []), remote: group("Clan", [])).name, "Clan")
        XCTAssertEqual(GroupMerge.merge(base: base, local: group("Kin", []), remote: group("Clan", [])).name, "Clan")
        let renamed = GroupMerge.merge(base: base, local: group("Kin", []), remote: group("Family", []))
        XCTAssertTrue(renamed.card.lines.contains("FN:Kin"))
    }
}
