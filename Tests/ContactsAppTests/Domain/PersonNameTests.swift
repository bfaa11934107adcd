import XCTest

@testable import ContactsApp

final class PersonNameTests: XCTestCase {
    let locale = Locale(identifier: "en_US_POSIX")

    func test_tidied_capitalisesNamesTypedAllInLowerOrUpperCase_keepingParticlesLower() {
        XCTAssertEqual(PersonName.tidied("ludwig van beethoven", locale: locale), "Ludwig van Beethoven")
        XCTAssertEqual(PersonName.tidied("ANN-MARIE LEE", locale: locale), "Ann-Marie Lee")
        XCTAssertEqual(PersonName.tidied("o'neil", locale: locale), "O'Neil")
        XCTAssertEqual(PersonName.tidied("al-rashid", locale: locale), "al-Rashid")
        XCTAssertEqual(PersonName.tidied("van der berg", locale: locale), "van der Berg")
        XCTAssertEqual(PersonName.tidied("VAN", locale: locale), "Van")
        XCTAssertEqual(PersonName.tidied("josé ñúñez", locale: locale), "José Ñúñez")
    }

    func test_tidied_leavesMixedCaseAndCaselessNamesAlone() {
        XCTAssertNil(PersonName.tidied("McDonald", locale: locale))
        XCTAssertNil(PersonName.tidied("Ann Lee", locale: locale))
        XCTAssertNil(PersonName.tidied("山田", locale: locale))
        XCTAssertNil(PersonName.tidied("", locale: locale))
    }

    func test_tidied_usesTheInjectedLocale() {
        XCTAssertEqual(PersonName.tidied("istanbul", locale: locale), "Istanbul")
        XCTAssertEqual(PersonName.tidied("istanbul", locale: Locale(identifier: "tr_TR")), "İstanbul")
    }

    func test_sortingFamilyName_skipsLeadingParticles() {
        XCTAssertEqual(PersonName.sortingFamilyName("van Beethoven"), "Beethoven")
        XCTAssertEqual(PersonName.sortingFamilyName("van der Berg"), "Berg")
        XCTAssertEqual(PersonName.sortingFamilyName("al-Rashid"), "Rashid")
        XCTAssertEqual(PersonName.sortingFamilyName("De Niro"), "Niro")
        XCTAssertEqual(PersonName.sortingFamilyName("Van"), "Van")
        XCTAssertEqual(PersonName.sortingFamilyName("Lee"), "Lee")
        XCTAssertEqual(PersonName.sortingFamilyName("Alvarez"), "Alvarez")
    }

    func test_order_followsTheCardsFormattedName() {
        XCTAssertEqual(PersonName.order(ofFormattedName: "山田 太郎", given: "太郎", family: "山田"), .familyFirst)
        XCTAssertEqual(PersonName.order(ofFormattedName: "山田太郎", given: "太郎", family: "山田"), .familyFirst)
        XCTAssertEqual(PersonName.order(ofFormattedName: "太郎 山田", given: "太郎", family: "山田"), .givenFirst)
        XCTAssertEqual(PersonName.order(ofFormattedName: "", given: "Ann", family: "Lee"), .givenFirst)
    }

    func test_isSingleSpaced_onlyWhenSplittingAtSpacesAndJoiningGivesTheTextBack() {
        // Given: spaces at the ends, doubled, beside combining and prepended marks, other spaces
        let texts = [
            "", " ", "  ", "a", "a b", "a  b", " a", "a ", "Ngọc da Silva", "山田 太郎", "山田太郎", "a \u{301}b",
            "a\u{301} b", "\u{600} a", "a \u{600}b", "é b", "a\u{A0}b", "a\tb", "a\r\n b", "x y z", "x y  z",
            "Jürgen 박", "a\u{200D} b", " \u{301}", "José García", "é \u{301}x", "박 \u{200D}x", "\u{600} \u{600}",
            "ก ำ", "a \u{1F3FB}", "\u{1F1F5} \u{1F1F1}", "Zoë  Ng", "山田 ",
        ]
        for text in texts {
            let joined = text.split(separator: " ").joined(separator: " ")
            // When / Then: when it says so, the split and join give the same bytes back
            if PersonName.isSingleSpaced(text) {
                XCTAssertEqual(Array(joined.utf8), Array(text.utf8), text)
            }
            // And the order reads the same as by the split and join
            for (given, family) in [("b", "a"), ("太郎", "山田"), ("Silva", "Ngọc da"), ("b", "a\u{301}")] {
                let general: NameOrder =
                    joined == family + " " + given || joined == family + given ? .familyFirst : .givenFirst
                XCTAssertEqual(PersonName.order(ofFormattedName: text, given: given, family: family), general, text)
            }
        }
        XCTAssertTrue(PersonName.isSingleSpaced("Ngọc da Silva"))
        XCTAssertTrue(PersonName.isSingleSpaced("山田太郎"))
        XCTAssertTrue(PersonName.isSingleSpaced("José García"))
        XCTAssertTrue(PersonName.isSingleSpaced("Jürgen 박"))
        XCTAssertFalse(PersonName.isSingleSpaced("José \u{301}García"))
        XCTAssertFalse(PersonName.isSingleSpaced("a  b"))
        XCTAssertFalse(PersonName.isSingleSpaced("a \u{301}b"))
    }

    func test_fullName_writesTheNameInItsOrder() {
        XCTAssertEqual(Contact(givenName: "太郎", familyName: "山田", nameOrder: .familyFirst).fullName, "山田 太郎")
        XCTAssertEqual(Contact(givenName: "太郎", familyName: "山田").fullName, "太郎 山田")
        XCTAssertEqual(Contact(organization: "Acme").fullName, "Acme")
    }
}
