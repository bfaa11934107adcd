import XCTest

@testable import ContactsApp

final class LDAPFilterTests: XCTestCase {
    func test_escape_writesRFC4515sSpecialCharactersAsHex() {
        XCTAssertEqual(LDAPFilter.escape("a*b(c)d\\e"), "a\\2ab\\28c\\29d\\5ce")
        XCTAssertEqual(LDAPFilter.escape("nul\u{0}"), "nul\\00")
    }

    func test_escape_writesControlCharactersAsHex_andLeavesUTF8AsItIs() {
        XCTAssertEqual(LDAPFilter.escape("\u{1B}[31m\u{7F}"), "\\1b[31m\\7f")
        XCTAssertEqual(LDAPFilter.escape("Zoë 山田 Ἀλέξανδρος"), "Zoë 山田 Ἀλέξανδρος")
    }

    func test_search_makesEveryWordAPrefixOfAnyPeopleAttribute_insideThePeopleFilter() {
        let filter = LDAPFilter.search("ann  lee", people: "(objectClass=person)")
        let any = { (word: String) in
            "(|(cn=\(word)*)(displayName=\(word)*)(givenName=\(word)*)(sn=\(word)*)(mail=\(word)*)"
                + "(telephoneNumber=\(word)*)(mobile=\(word)*)(o=\(word)*)(ou=\(word)*)(title=\(word)*))"
        }
        XCTAssertEqual(filter, "(&(objectClass=person)" + any("ann") + any("lee") + ")")
    }

    func test_search_escapesAWordThatIsFilterSyntax() {
        let filter = LDAPFilter.search("*)(uid=*", people: "(objectClass=person)")!
        XCTAssertTrue(filter.contains("(cn=\\2a\\29\\28uid=\\2a*)"), filter)
        XCTAssertFalse(filter.contains("(uid=*"))
    }

    func test_search_usesTheDefaultPeopleFilter_andNoWordsGiveNoFilter() {
        XCTAssertTrue(
            LDAPFilter.search("ann")!.hasPrefix("(&(|(objectClass=inetOrgPerson)(objectClass=person))(|(cn=ann*)"))
        XCTAssertNil(LDAPFilter.search("  \t "))
    }

    func test_search_keepsTheFirstWordsOnly() {
        let words = (1...20).map { "w\($0)" }.joined(separator: " ")
        let filter = LDAPFilter.search(words)!
        XCTAssertTrue(filter.contains("(cn=w\(LDAPFilter.maximumWords)*)"))
        XCTAssertFalse(filter.contains("(cn=w\(LDAPFilter.maximumWords + 1)*)"))
    }

    func test_validate_acceptsBalancedFilters_andSaysWhatIsWrongWithOthers() {
        XCTAssertNil(LDAPFilter.validate("(&(objectClass=user)(!(cn=a\\29b)))"))
        XCTAssertEqual(
            LDAPFilter.validate("objectClass=user"), "a filter is written in parentheses: (objectClass=person)")
        XCTAssertEqual(LDAPFilter.validate("(&(objectClass=user)"), "the filter's parentheses do not match")
        XCTAssertEqual(LDAPFilter.validate("(a=b))(c=d)"), "the filter's parentheses do not match")
        XCTAssertEqual(LDAPFilter.validate("(a=b\n)"), "a filter is one line")
    }
}

final class DirectorySourceTests: XCTestCase {
    func test_parse_readsSchemeHostPortAndPercentDecodedBase() throws {
        let parsed = try DirectorySource.parse(
            name: "corp", url: "ldaps://ldap.example.org:1636/ou=people,o=Caf%C3%A9", plaintext: false)
        XCTAssertEqual(parsed.server, "ldaps://ldap.example.org:1636")
        XCTAssertEqual(parsed.base, "ou=people,o=Café")
        XCTAssertEqual(parsed.security, .ldaps)
        XCTAssertEqual(
            try DirectorySource.parse(name: "c", url: "ldap://[::1]/dc=x", plaintext: false).security, .startTLS)
        XCTAssertEqual(try DirectorySource.parse(name: "c", url: "LDAP://h/dc=x", plaintext: true).security, .plaintext)
    }

    func test_parse_refusesWhatIsNoLDAPAddress() {
        for url in [
            "https://h/dc=x", "ldap://h", "ldap:///dc=x", "ldap://h:0/dc=x", "ldap://h:x/dc=x", "ldap://u@h/dc=x",
            "ldap://h/dc=x?cn?sub",
        ] {
            XCTAssertThrowsError(try DirectorySource.parse(name: "c", url: url, plaintext: false), url)
        }
    }
}
