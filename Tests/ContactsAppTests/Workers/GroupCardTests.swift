import XCTest

@testable import ContactsApp

/// Group cards in both conventions: read, made, and edited without touching other lines.
final class GroupCardTests: XCTestCase {
    /// The cards of a fixture file, as the import keeps them.
    private func cards(_ name: String) throws -> [VCardRecord] {
        VCardReader().read(VCardSeeds.fixture(name)).entries.compactMap(\.contact.card)
    }

    func test_read_applesFormAsFastmailServesIt_givesNameMembersAndConvention() throws {
        // Given: two people and a group whose third member is not in the file
        let cards = try cards("groups/fastmail-3.0.vcf")
        // When
        let groups = cards.compactMap(GroupCard.read)
        // Then
        XCTAssertEqual(cards.count, 3)
        XCTAssertEqual(groups.count, 1)
        XCTAssertEqual(groups.first?.name, "test group")
        XCTAssertEqual(groups.first?.uid, "6b2cf630-ac03-4ca1-b266-34a451a2d6bb")
        XCTAssertEqual(
            groups.first?.members,
            [
                "1c6cd38e-79be-4902-84bf-0010cc256d07", "52A079D5-5884-4AF9-9367-6BF82251838B",
                "d4c1baf6-f603-4fb5-8f19-d45eb1e7fb23",
            ])
        XCTAssertEqual(groups.first?.convention, .apple)
    }

    func test_read_vCard4Kind_givesTheGroup_andPeopleAreNoGroups() throws {
        // Given
        let cards = try cards("groups/kind-4.0.vcf")
        // When
        let groups = cards.map(GroupCard.read)
        // Then
        XCTAssertNil(groups[0])
        XCTAssertEqual(groups[1]?.name, "Team")
        XCTAssertEqual(groups[1]?.members, ["0e6f6b0b-7f0e-4b43-9c51-6c2a4b1e8a11"])
        XCTAssertEqual(groups[1]?.convention, .kind)
    }

    func test_isGroup_isFalseForOtherKinds_andForAKindWordInAValue() {
        XCTAssertFalse(GroupCard.isGroup(VCardRecord(lines: ["VERSION:4.0", "KIND:org", "FN:Acme"])))
        XCTAssertFalse(GroupCard.isGroup(VCardRecord(lines: ["VERSION:3.0", "NOTE:KIND:group", "FN:Joker"])))
        XCTAssertTrue(GroupCard.isGroup(VCardRecord(lines: ["VERSION:4.0", "kind:GROUP", "FN:Crew"])))
    }

    func test_mentionsKind_findsKINDColonInAnyASCIICase_likeASubstringSearch() {
        // Given: texts around the word, each with what a plain search of the lower-cased bytes says
        let texts = [
            "", "KIND:", "kind:", "KiNd:group", "KIND", "KIND group", ":KIND", "KIN:D:", "KKIND:", "KIKIND:",
            "X-ADDRESSBOOKSERVER-KIND:group", "NOTE:a KIND:b", "ǩIND:", "KÍND:", "zoë\nKIND:group", "::::KIND:",
            "K\u{1A}ND:", "KIND\u{1A}",
        ]
        for text in texts {
            let bytes = text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, word = Array("kind:".utf8)
            let expected =
                bytes.count >= word.count
                && (0...bytes.count - word.count).contains { at in
                    Array(bytes[at..<at + word.count]) == word
                }
            // When / Then
            XCTAssertEqual(GroupCard.mentionsKind(text), expected, text)
        }
    }

    func test_new_writesEachConvention() {
        // When
        let kind = GroupCard.new(uid: "g1", name: "Book club; Tuesdays", members: ["a"], convention: .kind)
        let apple = GroupCard.new(
            uid: "g2", name: "Family", members: ["a", "mailto:x@example.org"], convention: .apple)
        // Then
        XCTAssertEqual(
            kind.card.lines, ["VERSION:4.0", "KIND:group", "FN:Book club\\; Tuesdays", "MEMBER:urn:uuid:a", "UID:g1"])
        XCTAssertEqual(
            apple.card.lines,
            [
                "VERSION:3.0", "N:Family;;;;", "FN:Family", "X-ADDRESSBOOKSERVER-KIND:group",
                "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:a", "X-ADDRESSBOOKSERVER-MEMBER:mailto:x@example.org",
                "UID:g2",
            ])
        XCTAssertEqual(GroupCard.read(apple.card)?.members, ["a", "mailto:x@example.org"])
        XCTAssertEqual(GroupCard.read(kind.card)?.name, "Book club; Tuesdays")
    }

    func test_updated_changesOnlyNameAndMemberLines_inTheCardsConvention() throws {
        // Given: Fastmail's group, one member removed, one added, renamed
        let card = try cards("groups/fastmail-3.0.vcf")[2]
        var group = try XCTUnwrap(GroupCard.read(card))
        group.members = ["52A079D5-5884-4AF9-9367-6BF82251838B", "d4c1baf6-f603-4fb5-8f19-d45eb1e7fb23", "new-one"]
        group.name = "Climbing"
        // When
        let updated = GroupCard.updated(group)
        // Then
        XCTAssertEqual(
            updated.card.lines,
            [
                "PRODID:-//CyrusIMAP.org//Cyrus3.11.0-alpha0-1131-gb22d593e1-fm-20241..//EN", "VERSION:3.0",
                "UID:6b2cf630-ac03-4ca1-b266-34a451a2d6bb", "N:Climbing;;;;", "FN:Climbing",
                "X-ADDRESSBOOKSERVER-KIND:group",
                "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:52A079D5-5884-4AF9-9367-6BF82251838B",
                "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:d4c1baf6-f603-4fb5-8f19-d45eb1e7fb23",
                "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:new-one", "REV:20241116T062141Z",
            ])
        XCTAssertEqual(GroupCard.read(updated.card)?.members, group.members)
    }
}
