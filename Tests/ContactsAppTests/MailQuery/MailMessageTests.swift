import Foundation
import XCTest

@testable import ContactsApp

/// Messages as mailers write them (`Fixtures/mail/`): folded headers, RFC 2047 encoded-words in
/// several charsets, groups, quoted names with commas, names in comments, CRLF and LF.
final class MailMessageTests: XCTestCase {
    typealias Mailbox = MailMessage.Mailbox

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: VCardSeeds.fixtures.appendingPathComponent("mail/\(name)"))
    }

    func test_qEncodedUTF8Sender_foldedLatin1Recipient_groupAndQuotedComma() throws {
        // When
        let sut = MailMessage.parse(try Self.fixture("jose-to-ann.eml"))

        // Then
        XCTAssertEqual(sut.senders, [Mailbox(name: "José Ñúñez", address: "jose@correo.es")])
        XCTAssertEqual(
            sut.mailboxes[.to],
            [
                Mailbox(name: "Ann Lee", address: "ann@example.org"),
                Mailbox(name: "Björn Ångström", address: "bjorn@example.se"),
            ])
        // A group's name is not a mailbox; its members are
        XCTAssertEqual(
            sut.mailboxes[.cc],
            [
                Mailbox(name: "Lee, Ann", address: "ann.lee@home.example"),
                Mailbox(name: "", address: "a@x.example"), Mailbox(name: "", address: "b@x.example"),
            ])
        XCTAssertEqual(sut.date, "Tue, 24 Nov 2026 09:11:58 +0100")
        // The body's "From:" line is not a header
        XCTAssertEqual(sut.everyone.count, 6)
    }

    func test_crlfMessage_nameSplitOverTwoFoldedEncodedWords_commentName_replyTo() throws {
        // When
        let sut = MailMessage.parse(try Self.fixture("thunderbird-reply.eml"))

        // Then: the white space between two encoded-words is dropped, even across the fold
        XCTAssertEqual(sut.mailboxes[.to], [Mailbox(name: "José Ñúñez", address: "jose@correo.es")])
        XCTAssertEqual(sut.senders, [Mailbox(name: "Zoë Adams", address: "zoe@example.org")])
        XCTAssertEqual(sut.mailboxes[.replyTo], [Mailbox(name: "Zoe Adams", address: "zoe.adams@work.example")])
        XCTAssertEqual(
            sut.mailboxes[.cc],
            [
                Mailbox(name: "Mary Kowalczyk", address: "mary@kowalczyk.example"),
                Mailbox(name: "O'Brien, Seán", address: "sean@obrien.example"),
            ])
        // Senders first, then reply-to, to, cc
        XCTAssertEqual(
            sut.everyone.map(\.address),
            [
                "zoe@example.org", "zoe.adams@work.example", "jose@correo.es",
                "mary@kowalczyk.example", "sean@obrien.example",
            ])
    }

    func test_latin9Words_emptyGroup_andAValueThatIsNoAddress() throws {
        // When
        let sut = MailMessage.parse(try Self.fixture("list-latin9.eml"))

        // Then: ISO-8859-15's euro sign where Latin-1 has ¤
        XCTAssertEqual(sut.senders, [Mailbox(name: "François Müller", address: "francois@exemple.fr")])
        XCTAssertEqual(sut.mailboxes[.cc], [Mailbox(name: "Caisse €", address: "caisse@exemple.fr")])
        XCTAssertEqual(sut.mailboxes[.to], [Mailbox(name: "", address: "dev@lists.example")])
        // "Bcc: not-an-address" holds no mailbox; the Sender header is not offered
        XCTAssertEqual(sut.mailboxes[.bcc] ?? [], [])
        XCTAssertFalse(sut.everyone.contains { $0.address.hasPrefix("dev-bounces") })
    }

    func test_japaneseNames_inISO2022JPAndUTF8() throws {
        // When
        let sut = MailMessage.parse(try Self.fixture("japanese.eml"))

        // Then
        XCTAssertEqual(sut.senders, [Mailbox(name: "山田 太郎", address: "taro@yamada.example.jp")])
        XCTAssertEqual(sut.mailboxes[.to], [Mailbox(name: "鈴木 花子", address: "hanako@suzuki.example.jp")])
    }

    func test_badInput_givesNoMailboxes_andNeverTraps() {
        for text in [
            "", "\n\n", "not a message at all", "From:\n", "From: <>\n", "From: =?UTF-8?B?!!!?= <a@b.example>\n",
            "To: \"unterminated <a@b.example>\n", "From: (unclosed comment a@b.example\n", "\u{0}\u{1}From: x",
        ] {
            let sut = MailMessage.parse(Array(text.utf8))
            XCTAssertTrue(sut.senders.allSatisfy { $0.address.contains("@") }, text)
        }
        // An encoded-word that does not decode stays as written
        XCTAssertEqual(
            MailMessage.parse(Array("From: =?UTF-8?B?!!!?= <a@b.example>\n".utf8)).senders,
            [Mailbox(name: "=?UTF-8?B?!!!?=", address: "a@b.example")])
        // Raw 8-bit Latin-1 in a header (an old mailer) is read, not refused
        XCTAssertEqual(
            MailMessage.parse([UInt8]("From: Jos".utf8) + [0xE9] + [UInt8](" <j@x.example>\n".utf8)).senders,
            [Mailbox(name: "José", address: "j@x.example")])
    }

    func test_mailAddressFormat_quotesWhereRFC5322Needs() {
        XCTAssertEqual(
            MailAddressFormat.mailbox(name: "José Ñúñez", address: "jose@correo.es"), "José Ñúñez <jose@correo.es>")
        XCTAssertEqual(MailAddressFormat.mailbox(name: "Lee, Ann", address: "a@x"), "\"Lee, Ann\" <a@x>")
        XCTAssertEqual(
            MailAddressFormat.mailbox(name: "Ann \"Annie\" Lee", address: "a@x"), "\"Ann \\\"Annie\\\" Lee\" <a@x>")
        XCTAssertEqual(MailAddressFormat.mailbox(name: "", address: "a@x"), "a@x")
    }
}
