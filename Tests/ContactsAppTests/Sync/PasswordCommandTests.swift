import Foundation
import XCTest

@testable import ContactsApp

/// Issue 26, items 8 and 9: the password command cannot read the session's input, cannot hold a
/// sync for ever, and only the first line of what it prints is the password.
final class PasswordCommandTests: XCTestCase {
    var sut = PasswordCommand(timeout: 10)

    func account(_ command: String) -> SyncAccount {
        SyncAccount(
            name: "home", serverURL: "http://h/", bookURL: "http://h/book/", user: "ann", passwordCommand: command)
    }

    func test_password_theFirstLine_withoutItsCRLF() throws {
        XCTAssertEqual(try sut.password(for: account(#"printf 'hunter2\r\nlogin: ann\r\n'"#)), "hunter2")
        XCTAssertEqual(try sut.password(for: account("echo secret")), "secret")
        XCTAssertEqual(try sut.password(for: account("printf 'no newline'")), "no newline")
        XCTAssertEqual(try sut.password(for: account("printf 'a\\rb\\n'")), "a\rb")
        XCTAssertEqual(try sut.password(for: account("true")), "")
        XCTAssertNil(try sut.password(for: SyncAccount(name: "home", serverURL: "", bookURL: "", user: "ann")))
    }

    func test_password_theCommandsStdinIsDevNull_andNoOtherDescriptorOfOurs() throws {
        XCTAssertEqual(try sut.password(for: account("readlink /proc/self/fd/0")), "/dev/null")
        // 3: ls's own listing
        XCTAssertEqual(try sut.password(for: account("ls /proc/self/fd | tr '\\n' ' '")), "0 1 2 3 ")
    }

    func test_password_aCommandThatFails_namesTheAccountAndTheStatus() {
        XCTAssertThrowsError(try sut.password(for: account("echo secret; exit 3"))) { error in
            XCTAssertEqual("\(error)", "account home: the password command failed (exit 3)")
        }
        XCTAssertThrowsError(try sut.password(for: account("kill -TERM $$"))) { error in
            XCTAssertEqual("\(error)", "account home: the password command failed (signal 15)")
        }
    }

    func test_password_aCommandOverItsTime_isStopped_withItsWholeProcessGroup() throws {
        // Given: a command whose child outlives it unless its group is killed
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: pidFile) }
        sut = PasswordCommand(timeout: 0.3)

        // When
        XCTAssertThrowsError(try sut.password(for: account("sleep 1000 & echo $! > \(pidFile.path); wait"))) { error in
            // Then
            XCTAssertEqual(
                "\(error)",
                "account home: the password command did not finish within 0.3 s "
                    + "(stopped; CONTACTSBOOK_PASSWORD_TIMEOUT sets the limit)")
        }
        let pid = try XCTUnwrap(
            Int32(
                String(decoding: try Data(contentsOf: pidFile), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertTrue(Self.ends(pid), "the command's child \(pid) is still running")
    }

    func test_password_aCommandPrintingWithoutEnd_isStoppedAtTheLimit() {
        sut = PasswordCommand(timeout: 10, maximumOutput: 1_000)
        XCTAssertThrowsError(try sut.password(for: account("yes"))) { error in
            XCTAssertEqual("\(error)", "account home: the password command printed more than 1000 bytes (stopped)")
        }
    }

    func test_configuredTimeout_fromTheEnvironment_elseThirtySeconds() {
        XCTAssertEqual(PasswordCommand.configuredTimeout(["CONTACTSBOOK_PASSWORD_TIMEOUT": "2.5"]), 2.5)
        XCTAssertEqual(PasswordCommand.configuredTimeout([:]), 30)
        for bad in ["0", "-1", "soon", "inf", "nan"] {
            XCTAssertEqual(PasswordCommand.configuredTimeout(["CONTACTSBOOK_PASSWORD_TIMEOUT": bad]), 30, bad)
        }
    }

    /// Whether `pid` is gone (or a zombie waiting for init) within a few seconds: SIGKILL is
    /// delivered at once, but the death itself is the kernel's to finish.
    static func ends(_ pid: Int32) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            if stat.split(separator: ")").last?.split(separator: " ").first == "Z" { return true }
            usleep(10_000)
        }
        return false
    }
}
