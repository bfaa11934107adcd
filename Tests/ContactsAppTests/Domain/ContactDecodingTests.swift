import Foundation
import XCTest

@testable import ContactsApp

/// Journal images (`JournalImage`) are read back for as long as the book lives: a contact's JSON
/// from an older version lacks today's fields, one from a newer version has fields we do not know.
final class ContactDecodingTests: XCTestCase {
    func test_anImageWrittenToday_readsBackEqual() throws {
        // Given: every field set
        var contact = StoreSeeds.full
        contact.id = 7
        contact.version = 3
        contact.nameOrder = .familyFirst
        contact.extraProperties = ["X-ABUID:1"]
        // When
        let read = try JournalImage.decode(JournalImage.encode(contact))
        // Then
        XCTAssertEqual(read, contact)
    }

    func test_anImageWithoutLaterFields_readsThemAsTheirDefaults() throws {
        // Given: an image as the first journal wrote it, less the fields added since, and a
        // birthday, phone and address of that time
        let image = """
            {"id":3,"uid":"ann-1","givenName":"Ann","familyName":"Lee","createdAt":700000000,
             "updatedAt":700000100,"version":2,"phones":[{"label":"mobile","value":"+1 555 123 4567"}],
             "addresses":[{"label":"home","street":"12 Elm St","city":"Springfield"}],
             "birthday":{"year":1990,"month":5,"day":17}}
            """
        // When
        let contact = try JournalImage.decode(image)
        // Then
        XCTAssertEqual(
            contact,
            Contact(
                id: 3, uid: "ann-1", givenName: "Ann", familyName: "Lee",
                phones: [LabeledValue(label: "mobile", value: "+1 555 123 4567")],
                addresses: [PostalAddress(label: "home", street: "12 Elm St", city: "Springfield")],
                birthday: Birthday(year: 1990, month: 5, day: 17),
                createdAt: Date(timeIntervalSinceReferenceDate: 700_000_000),
                updatedAt: Date(timeIntervalSinceReferenceDate: 700_000_100), version: 2))
    }

    func test_anImageWithFieldsThisVersionDoesNotKnow_readsTheOthers() throws {
        // Given: a newer version's image: new fields on the contact, its phones and addresses,
        // and a name order we do not know
        let image = """
            {"uid":"ann-1","givenName":"Ann","createdAt":0,"updatedAt":0,"version":1,
             "pronouns":"she/her","groups":["urn:uuid:g1"],"website":[{"label":"work","value":"https://a.example"}],
             "phones":[{"label":"work","value":"+1 418 656 9254","extension":"102"}],
             "addresses":[{"label":"work","street":"Main St","poBox":"12","extended":"Suite 3"}],
             "nameOrder":"some-order-of-later"}
            """
        // When
        let contact = try JournalImage.decode(image)
        // Then
        XCTAssertEqual(contact.givenName, "Ann")
        XCTAssertEqual(contact.phones, [LabeledValue(label: "work", value: "+1 418 656 9254")])
        XCTAssertEqual(contact.addresses, [PostalAddress(label: "work", street: "Main St")])
        XCTAssertEqual(contact.nameOrder, .givenFirst)
    }

    func test_theCardAndDisplayName_readBack_andAnImageFromBeforeThem_hasNone() throws {
        // Given: an image with the card (its lines in one text) and one written before it
        let withCard =
            #"{"uid":"a","createdAt":0,"updatedAt":0,"version":1,"formattedName":"Dr. Ann Lee","card":"VERSION:3.0\nFN:Dr. Ann Lee"}"#
        let before = #"{"uid":"a","createdAt":0,"updatedAt":0,"version":1,"givenName":"Ann"}"#
        // When
        let read = try JournalImage.decode(withCard), old = try JournalImage.decode(before)
        // Then
        XCTAssertEqual(read.formattedName, "Dr. Ann Lee")
        XCTAssertEqual(read.card?.lines, ["VERSION:3.0", "FN:Dr. Ann Lee"])
        XCTAssertEqual(old.formattedName, "")
        XCTAssertNil(old.card)
    }

    func test_anImageWithoutItsEssentials_orOfAnotherShape_isAnError() {
        // Not a contact: no uid, no version; a field of the wrong type
        XCTAssertThrowsError(try JournalImage.decode(#"{"givenName":"Ann"}"#))
        XCTAssertThrowsError(try JournalImage.decode(#"{"uid":"a","createdAt":0,"updatedAt":0}"#))
        XCTAssertThrowsError(
            try JournalImage.decode(#"{"uid":"a","createdAt":0,"updatedAt":0,"version":1,"tags":"x"}"#))
        XCTAssertThrowsError(try JournalImage.decode("not json"))
    }

    func test_everyStoredFieldHasAKey_soTheJournalKeepsIt() {
        // A field left out of `CodingKeys` would be neither written nor read: every image would
        // lose it silently. Mirror lists the stored properties.
        let fields = Mirror(reflecting: Contact()).children.compactMap(\.label)
        XCTAssertEqual(fields, Contact.CodingKeys.allCases.map(\.stringValue))
    }
}
