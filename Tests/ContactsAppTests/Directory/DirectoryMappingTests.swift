import XCTest

@testable import ContactsApp

final class DirectoryMappingTests: XCTestCase {
    func entry(_ attributes: [(String, [String])], binary: [(String, Data)] = []) -> DirectoryEntry {
        DirectoryEntry(
            source: "corp", dn: "uid=ann,ou=people,dc=example,dc=org",
            attributes: attributes.map { ($0.0, $0.1.map { Data($0.utf8) }) } + binary.map { ($0.0, [$0.1]) })
    }

    func test_inetOrgPerson_isReadIntoTheFields() {
        let contact = DirectoryMapping.contact(
            from: entry([
                ("cn", ["Ann Lee"]), ("displayName", ["Dr. Ann Lee"]), ("givenName", ["Ann"]), ("sn", ["Lee"]),
                ("o", ["Acme"]),
                ("ou", ["Engineering"]), ("title", ["Engineer"]), ("mail", ["ann@acme.test", "not an address"]),
                ("telephoneNumber", ["+1 555 0100"]), ("mobile", ["+1 555 0199"]), ("homePhone", ["+1 555 0142"]),
                ("facsimileTelephoneNumber", ["+1 555 0111"]), ("street", ["1 Main St"]), ("l", ["Springfield"]),
                ("st", ["IL"]), ("postalCode", ["62701"]), ("c", ["US"]),
                ("labeledURI", ["https://acme.test/~ann Ann's page"]),
                ("description", ["Builds things"]),
            ]), server: "ldaps://ldap.acme.test")
        XCTAssertEqual(contact.givenName, "Ann")
        XCTAssertEqual(contact.familyName, "Lee")
        XCTAssertEqual(contact.formattedName, "Dr. Ann Lee")
        XCTAssertEqual(contact.organization, "Acme")
        XCTAssertEqual(contact.title, "Engineer")
        XCTAssertEqual(contact.emails, [LabeledValue(label: "work", value: "ann@acme.test")])
        XCTAssertEqual(
            contact.phones,
            [
                LabeledValue(label: "work", value: "+1 555 0100"), LabeledValue(label: "mobile", value: "+1 555 0199"),
                LabeledValue(label: "home", value: "+1 555 0142"), LabeledValue(label: "fax", value: "+1 555 0111"),
            ])
        XCTAssertEqual(
            contact.addresses,
            [
                PostalAddress(
                    label: "work", street: "1 Main St", city: "Springfield", region: "IL",
                    postalCode: "62701", country: "US")
            ])
        XCTAssertEqual(contact.websites, [LabeledValue(label: "work", value: "https://acme.test/~ann")])
        XCTAssertEqual(contact.notes, "Builds things")
        XCTAssertEqual(
            contact.extraProperties,
            [
                "SOURCE:ldaps://ldap.acme.test/uid=ann,ou=people,dc=example,dc=org",
                "X-CONTACTSBOOK-DIRECTORY:corp",
            ])
    }

    func test_activeDirectorysNames_areReadToo() {
        let photo = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00])
        let contact = DirectoryMapping.contact(
            from: entry(
                [
                    ("cn", ["Lee, Ann"]), ("company", ["Acme"]), ("department", ["Sales"]), ("ipPhone", ["4711"]),
                    ("streetAddress", ["2 Side St"]), ("co", ["United States"]), ("wWWHomePage", ["https://acme.test"]),
                    ("info", ["Prefers mail"]),
                ], binary: [("thumbnailPhoto", photo)]))
        XCTAssertEqual(contact.formattedName, "Lee, Ann")
        XCTAssertEqual(contact.organization, "Acme")
        XCTAssertEqual(contact.phones, [LabeledValue(label: "work", value: "4711")])
        XCTAssertEqual(contact.addresses.first?.street, "2 Side St")
        XCTAssertEqual(contact.addresses.first?.country, "United States")
        XCTAssertEqual(contact.websites.first?.value, "https://acme.test")
        XCTAssertEqual(contact.notes, "Prefers mail")
        XCTAssertEqual(contact.extraProperties.first, "PHOTO;ENCODING=b;TYPE=JPEG:" + photo.base64EncodedString())
    }

    func test_theUnit_standsForTheOrganisationWhenThereIsNone_andPostalAddressLinesAreJoined() {
        let contact = DirectoryMapping.contact(
            from: entry([
                ("sn", ["Lee"]), ("ou", ["Engineering"]),
                ("postalAddress", ["1 Main St$Springfield$USA"]),
            ]))
        XCTAssertEqual(contact.organization, "Engineering")
        XCTAssertEqual(contact.addresses, [PostalAddress(label: "work", street: "1 Main St, Springfield, USA")])
    }

    func test_hostileValues_areMadeText_cut_orLeftOut() {
        let long = String(repeating: "x", count: 5_000)
        let contact = DirectoryMapping.contact(
            from: entry(
                [("sn", ["Lee\u{1B}[31m\nRed"]), ("title", [long])],
                binary: [("givenName", Data([0xC3, 0x28, 0xFF]))]))
        XCTAssertEqual(contact.familyName, "Lee [31m Red")
        XCTAssertEqual(contact.givenName, "", "a value that is not UTF-8 is no name")
        XCTAssertEqual(contact.title.count, DirectoryEntry.maximumValueLength + 1)
        XCTAssertTrue(contact.title.hasSuffix("…"))
    }

    func test_values_areTrimmedOfBlanks_scalarByScalar_inAnyScript() {
        // Tab, no-break space and the ideographic space (Zs) are trimmed; a newline is a control
        // and becomes a space first. What is left is the value's own scalars, untouched: a
        // combining mark after a leading blank stays (a Character would take the blank along).
        let values: [(String, String?)] = [
            ("Zoë", "Zoë"), ("\tZoë\u{00A0}", "Zoë"), ("\u{3000}李 小龙\u{3000}", "李 小龙"),
            ("\nØdegaard\r", "Ødegaard"), (" \u{0301}e", "\u{0301}e"), ("\u{00A0}\t ", nil), ("  Ann Lee ", "Ann Lee"),
        ]
        for (value, expected) in values {
            XCTAssertEqual(DirectoryEntry.text(Data(value.utf8)), expected, value.debugDescription)
        }
    }

    func test_valuesWithPrintableASCIIEnds_areKeptAsTheyAre_othersCleanedAsBefore() {
        // Both ends printable ASCII: nothing to trim, whatever is between (a no-break space stays,
        // a control still becomes a space).
        let values: [(String, String?)] = [
            ("Zoë Lee", "Zoë Lee"), ("A\u{00A0}ë\u{3000}B", "A\u{00A0}ë\u{3000}B"), ("Zoë\u{2028}Lee", "Zoë Lee"),
            ("Ann\u{85}Lee", "Ann Lee"), ("ë", "ë"), ("e\u{0301}", "e\u{0301}"), ("李 小龙", "李 小龙"),
        ]
        for (value, expected) in values {
            XCTAssertEqual(DirectoryEntry.text(Data(value.utf8)), expected, value.debugDescription)
        }
    }

    func test_firstText_isTheFirstValueThatIsText_inAnyCase() {
        let person = entry(
            [("GivenName", ["Ann", "Anna"]), ("sn", ["\u{00A0}"]), ("mail", ["a@b.test"])],
            binary: [("givenName", Data([0xFF])), ("cn", Data([0xC3, 0x28]))])
        for attribute in ["givenName", "sn", "cn", "mail", "title"] {
            XCTAssertEqual(person.firstText(attribute), person.texts(attribute).first, attribute)
        }
        XCTAssertEqual(person.firstText("givenname"), "Ann")
        XCTAssertNil(person.firstText("sn"), "a blank value is no text")
    }

    func test_labelledValues_areKeptOnce_withTheFirstSourcesLabel_alsoPastSixteen() {
        // Given: a number in two attributes, and 40 addresses each sent twice
        let addresses = (0..<20).map { "p\($0)@corp.test" }
        let contact = DirectoryMapping.contact(
            from: entry([
                ("telephoneNumber", ["+1 555 0100", "+1 555 0101"]), ("mobile", ["+1 555 0100", "+1 555 0199"]),
                ("mail", addresses + addresses.reversed()),
            ]))
        // Then
        XCTAssertEqual(
            contact.phones,
            [
                LabeledValue(label: "work", value: "+1 555 0100"), LabeledValue(label: "work", value: "+1 555 0101"),
                LabeledValue(label: "mobile", value: "+1 555 0199"),
            ])
        XCTAssertEqual(contact.emails.map(\.value), addresses)
    }

    func test_anEntryWithNoName_isNamedByItsDN() {
        XCTAssertEqual(
            DirectoryMapping.contact(from: entry([("mail", ["a@b.test"])])).fullName,
            "uid=ann,ou=people,dc=example,dc=org")
    }

    func test_attributeNames_matchInAnyCase_asciiOnly() {
        let contact = DirectoryMapping.contact(
            from: entry([("GIVENNAME", ["Ann"]), ("Sn", ["Lee"]), ("MAIL", ["ann@acme.test"])]))
        XCTAssertEqual(contact.fullName, "Ann Lee")
        XCTAssertEqual(contact.emails.map(\.value), ["ann@acme.test"])
        XCTAssertTrue(DirectoryEntry.sameAttribute("telephoneNumber", "TELEPHONENUMBER"))
        XCTAssertFalse(DirectoryEntry.sameAttribute("sn", "sN2"))
        // Bytes that differ only by 0x20 outside the letters are different names ("[" is "{" with it).
        XCTAssertFalse(DirectoryEntry.sameAttribute("a[", "a{"))
        XCTAssertFalse(DirectoryEntry.sameAttribute("a-1", "a\r1"))
    }

    func test_theMailContact_isTheWholeContactsNameOrganisationAndAddresses_askingOnlyTheirAttributes() {
        let entries = [
            entry(
                [
                    ("cn", ["Ann Lee"]), ("displayName", ["Dr. Ann Lee"]), ("givenName", ["Ann"]), ("sn", ["Lee"]),
                    ("o", ["Acme"]), ("mail", ["ann@acme.test", "not an address", " ann2@acme.test "]),
                    ("telephoneNumber", ["+1 555 0100"]),
                ], binary: [("jpegPhoto", Data([0xFF, 0xD8]))]),
            entry([("department", ["Sales"]), ("mail", ["sales@acme.test"])]), // no name: the DN
            entry([("cn", ["Zoë \u{1B}[31mØdegaard"]), ("ou", ["Ingeniørar"]), ("mail", ["zoe@acme.test"])]),
        ]
        for entry in entries {
            let whole = DirectoryMapping.contact(from: entry)
            let mail = DirectoryMapping.mailContact(from: entry)
            XCTAssertEqual(mail.fullName, whole.fullName)
            XCTAssertEqual(mail.organization, whole.organization)
            XCTAssertEqual(mail.emails, whole.emails)
            XCTAssertEqual(mail.phones, [])
            XCTAssertEqual(mail.extraProperties, [], "no photo, no source: nothing a mail client's line shows")
        }
        XCTAssertEqual(
            DirectoryMapping.mailContact(from: entries[0]).emails.map(\.value), ["ann@acme.test", "ann2@acme.test"])
        XCTAssertEqual(DirectoryMapping.mailContact(from: entries[2]).fullName, "Zoë  [31mØdegaard")
        XCTAssertEqual(
            DirectoryMapping.mailAttributes,
            ["givenName", "sn", "displayName", "cn", "o", "company", "ou", "department", "mail"])
    }

    func test_everyMappedAttribute_isAskedFor_once() {
        let asked = ContactField.ldapAttributes.map { $0.lowercased() }
        XCTAssertEqual(Set(asked).count, asked.count)
        for field in ContactField.allCases {
            for source in field.ldapSources {
                XCTAssertTrue(asked.contains(source.attribute.lowercased()), source.attribute)
            }
        }
        XCTAssertTrue(asked.contains("jpegphoto"))
    }
}
