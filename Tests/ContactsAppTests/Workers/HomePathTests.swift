import XCTest

@testable import ContactsApp

final class HomePathTests: XCTestCase {
    func test_expanding_tildeIsHOME_notThePasswdEntry() {
        // Given a HOME that is not the user's passwd home
        let environment = ["HOME": "/tmp/elsewhere"]
        // Then ~ and ~/… are taken from it
        XCTAssertEqual(HomePath.expanding("~", environment: environment), "/tmp/elsewhere")
        XCTAssertEqual(HomePath.expanding("~/book.vcf", environment: environment), "/tmp/elsewhere/book.vcf")
        XCTAssertEqual(HomePath.expanding("~/a/b.vcf", environment: ["HOME": "/home/ann/"]), "/home/ann/a/b.vcf")
    }

    func test_expanding_pathsWithoutALeadingTilde_areUnchanged() {
        let environment = ["HOME": "/tmp/elsewhere"]
        for path in ["book.vcf", "/abs/~/x", "a~b", "", "-"] {
            XCTAssertEqual(HomePath.expanding(path, environment: environment), path)
        }
    }

    func test_expanding_withoutHOME_fallsBackToThePasswdEntry() {
        // Given no HOME (or an empty one)
        let passwd = String(cString: getpwuid(getuid()).pointee.pw_dir)
        // Then the passwd entry's home is used
        XCTAssertEqual(HomePath.expanding("~/x", environment: [:]), passwd + "/x")
        XCTAssertEqual(HomePath.expanding("~/x", environment: ["HOME": ""]), passwd + "/x")
    }

    func test_expanding_anotherUsersHome_andAnUnknownUser() {
        XCTAssertEqual(
            HomePath.expanding("~root/x", environment: ["HOME": "/tmp/elsewhere"]),
            String(cString: getpwnam("root").pointee.pw_dir) + "/x")
        XCTAssertEqual(HomePath.expanding("~no-such-user-here/x", environment: [:]), "~no-such-user-here/x")
    }
}
