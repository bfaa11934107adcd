import Foundation
import XCTest

/// `contactsbook search|show|list|birthdays|duplicates`, with and without `--json`, as a script runs them.
final class OneShotToolsEndToEndTests: XCTestCase {
    var home: URL!
    var database: String { home.appendingPathComponent("book.sqlite").path }
    /// Today where the process runs (TZ=UTC), for the birthday written on the cards.
    var today = DateComponents()

    override func setUpWithError() throws {
        home = try makeTemporaryHome()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        today = calendar.dateComponents([.year, .month, .day], from: Date())
        let cards = [
            card(
                "ann-1", "Lee;Ann", email: "ann@example.org", phone: "+1 555 000 1111",
                birthday: String(format: "1990%02d%02d", today.month!, today.day!)),
            card("anne-2", "Lee;Anne", email: "ANN@Example.org", phone: "(555) 000-1111"),
            card("bob-3", "King;Bob", email: "bob@king.example", phone: "+44 20 7946 0000"),
        ].joined()
        let imported = try run(["import", "--db", database, "--create", "-"], stdin: cards)
        XCTAssertEqual(imported.status, 0, imported.stderr)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: home) }

    private func card(_ uid: String, _ name: String, email: String, phone: String, birthday: String? = nil) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nN:\(name);;;\r\nEMAIL:\(email)\r\nTEL:\(phone)\r\n"
            + (birthday.map { "BDAY:\($0)\r\n" } ?? "") + "END:VCARD\r\n"
    }

    private func run(_ arguments: [String], stdin: String = "", country: String? = "US") throws
        -> ContactsBookProcess.Result
    {
        var environment = ["TZ": "UTC"]
        environment["CONTACTSBOOK_COUNTRY"] = country
        return try ContactsBookProcess.run(arguments, stdin: stdin, home: home, environment: environment)
    }

    /// The JSON a `--json` run printed, as an object.
    private func json(_ result: ContactsBookProcess.Result) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try XCTUnwrap(object as? [String: Any], result.stdout)
    }

    /// The value of the first displayed ViewModel of `kind`.
    private func displayed(_ kind: String, in result: [String: Any]) throws -> [String: Any] {
        let displayed = try XCTUnwrap(result["displayed"] as? [[String: Any]])
        let match = try XCTUnwrap(displayed.first { $0["kind"] as? String == kind }, "\(displayed)")
        return try XCTUnwrap(match["value"] as? [String: Any])
    }

    // MARK: - search and list

    func testSearch_printsATable_orTheResultJSONRPCReturns() throws {
        let plain = try run(["search", "--db", database, "lee"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(
            plain.stdout,
            """
            #  Name      Organization  Email            Phone
            1  Ann Lee                 ann@example.org  +1 (555) 000-1111
            2  Anne Lee                ANN@Example.org  (555) 000-1111
            Page 1 of 1 · 2 contacts · matching "lee" · by last name

            """)
        let result = try json(try run(["search", "lee", "--json", "--db", database]))
        let list = try displayed("contactList", in: result)
        XCTAssertEqual(list["total"] as? Int, 2)
        XCTAssertEqual(
            (list["rows"] as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["Ann Lee", "Anne Lee"])
        XCTAssertEqual((result["stack"] as? [[String: Any]])?.compactMap { $0["scene"] as? String }, ["contacts"])
    }

    func testSearchWithoutMatches_exitsOne_inBothForms() throws {
        let plain = try run(["search", "--db", database, "nobody"])
        XCTAssertEqual(plain.status, 1)
        XCTAssertEqual(plain.stdout, "#  Name  Organization  Email  Phone\nNo contacts match \"nobody\"\n")
        let json = try run(["search", "--db", database, "--json", "nobody"])
        XCTAssertEqual(json.status, 1)
        XCTAssertEqual(try displayed("contactList", in: try self.json(json))["total"] as? Int, 0)
    }

    func testList_pagesWithLimit_andJSON() throws {
        let plain = try run(["list", "--db", database, "--limit", "2", "--page", "2"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(
            plain.stdout,
            """
            #  Name      Organization  Email            Phone
            2  Anne Lee                ANN@Example.org  (555) 000-1111
            Page 2 of 2 · 3 contacts · by last name

            """)
        let list = try displayed("contactList", in: try json(try run(["list", "--db", database, "--json"])))
        XCTAssertEqual(list["total"] as? Int, 3)
        let bad = try run(["list", "--db", database, "--limit", "0"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("--limit must be from 1 to 500"), bad.stderr)
    }

    // MARK: - show

    func testShow_byNumberOrName_andAnUnknownContactExitsOne() throws {
        let plain = try run(["show", "--db", database, "bob", "king"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(plain.stdout.hasPrefix("#3 Bob King\n"), plain.stdout)
        XCTAssertTrue(plain.stdout.contains("+44 20 7946 0000"), plain.stdout)
        let result = try json(try run(["show", "--db", database, "--json", "3"]))
        XCTAssertEqual(try displayed("contactDetail", in: result)["name"] as? String, "Bob King")
        XCTAssertEqual(
            (result["stack"] as? [[String: Any]])?.compactMap { $0["scene"] as? String }, ["contacts", "contact"])

        let missing = try run(["show", "--db", database, "42"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stdout, "")
        XCTAssertEqual(missing.stderr, "error: no contact matches '#42'\n")
        let missingJSON = try run(["show", "--db", database, "--json", "42"])
        XCTAssertEqual(missingJSON.status, 1)
        let error = try XCTUnwrap(try json(missingJSON)["error"] as? [String: Any])
        XCTAssertEqual(error["message"] as? String, "no contact matches '#42'")
        XCTAssertEqual((error["data"] as? [String: Any])?["code"] as? String, "not_found")
    }

    // MARK: - birthdays

    func testBirthdays_today_inBothForms_andNoneExitsOne() throws {
        let plain = try run(["birthdays", "--db", database])
        let json = try run(["birthdays", "7", "--json", "--db", database])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard calendar.dateComponents([.year, .month, .day], from: Date()) == today else {
            throw XCTSkip("the day changed while the test ran")
        }
        let date = String(format: "%04d-%02d-%02d", today.year!, today.month!, today.day!)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(
            plain.stdout,
            """
            #  Name     Date        Turns  When
            1  Ann Lee  \(date)     \(today.year! - 1990)  today
            1 birthday in the next 30 days

            """)
        let birthdays = try displayed("upcomingBirthdays", in: try self.json(json))
        let entries = try XCTUnwrap(birthdays["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries.first?["date"] as? String, date)
        XCTAssertEqual(entries.first?["when"] as? String, "today")
        XCTAssertEqual(entries.first?["daysAway"] as? Int, 0)
        XCTAssertEqual(birthdays["days"] as? Int, 7)

        // And a book without birthdays: exit status 1
        let other = home.appendingPathComponent("other.sqlite").path
        _ = try run(
            ["import", "--db", other, "--create", "-"],
            stdin: card("c-1", "Cole;Cy", email: "cy@example.org", phone: "1234567"))
        let none = try run(["birthdays", "--db", other])
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.stdout, "#  Name  Date  Turns  When\nNo birthdays in the next 30 days\n")
        XCTAssertEqual(try run(["birthdays", "400", "--db", other]).status, 64)
    }

    // MARK: - duplicates

    func testDuplicates_withTheBooksCountry_andWithout_inBothForms() throws {
        let plain = try run(["duplicates", "--db", database])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(
            plain.stdout,
            """
            #  Name      Organization  Email            Phone
            1  Ann Lee                 ann@example.org  +1 (555) 000-1111
            2  Anne Lee                ANN@Example.org  (555) 000-1111
            Group 1: same email ann@example.org; same phone +1 (555) 000-1111; nearly the same name, both with @example.org

            1 group of possible duplicates; merge one into its first contact with 'merge 1 2'

            """)
        let groups = try XCTUnwrap(
            try displayed("duplicateGroups", in: try json(try run(["duplicates", "--json", "--db", database])))[
                "groups"]
                as? [[String: Any]])
        XCTAssertEqual(groups.count, 1)
        XCTAssertEqual(
            (groups.first?["reasons"] as? [[String: Any]])?.compactMap { $0["kind"] as? String },
            ["email", "phone", "name"])
        XCTAssertEqual(groups.first?["merge"] as? String, "merge 1 2")

        // Without a country the two ways of writing the number meet by their national number, and say so
        let unknown = try json(try run(["duplicates", "--json", "--db", database], country: nil))
        let reasons =
            (try displayed("duplicateGroups", in: unknown)["groups"] as? [[String: Any]])?.first?["reasons"]
            as? [[String: Any]]
        XCTAssertEqual(reasons?.compactMap { $0["kind"] as? String }, ["email", "phone", "name"])
        XCTAssertEqual(
            reasons?.compactMap { $0["text"] as? String }.dropFirst().first,
            "same phone +1 (555) 000-1111, once written without its country code")
    }

    func testDuplicatesAfterAMerge_noneLeft_exitsOne() throws {
        let merged = try ContactsBookProcess.run(
            ["--db", database], stdin: "merge 1 2\n", home: home,
            environment: ["CONTACTSBOOK_COUNTRY": "US"])
        XCTAssertEqual(merged.status, 0, merged.stderr)
        XCTAssertEqual(
            merged.stdout,
            "Merged #2 Anne Lee into #1 Ann Lee; values that differed:\n  given: kept \"Ann\", not \"Anne\" from #2\n")
        let none = try run(["duplicates", "--db", database])
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.stdout, "No duplicates found\n")
    }

    // MARK: - never a new book

    func testReaders_neverMakeABook() throws {
        for command in [["list"], ["search", "x"], ["show", "1"], ["birthdays"], ["duplicates"]] {
            let missing = home.appendingPathComponent("missing.sqlite").path
            let result = try run(command + ["--db", missing])
            XCTAssertEqual(result.status, 2, "\(command)")
            XCTAssertEqual(result.stderr, "error: there is no book at \(missing) (check --db)\n", "\(command)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "\(command)")
            // And the default book under HOME is not made either
            let fallback = try run(command)
            XCTAssertEqual(fallback.status, 2, "\(command)")
            XCTAssertFalse(
                FileManager.default.fileExists(
                    atPath: home.appendingPathComponent("data/contactsbook/contacts.sqlite").path))
        }
    }
}
