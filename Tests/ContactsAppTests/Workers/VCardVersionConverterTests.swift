import XCTest

@testable import ContactsApp

/// The converter on lines taken from real cards: RFC 2426's and RFC 6350's examples, and cards
/// written by Outlook, Android, iPhone, Mac Address Book, Evolution and FullContact (the files
/// under `Fixtures/versions/`, see its README). Each line is given as the reader keeps it.
final class VCardVersionConverterTests: XCTestCase {
    typealias SUT = VCardVersionConverter

    // MARK: - Same version in and out

    func test_convert_sameVersion3_iPhoneCardComesBackByteForByte() throws {
        // Given
        let card = try XCTUnwrap(VersionSeeds.cards("John_Doe_IPHONE.vcf").first)
        // When
        let result = SUT.convert(card.lines, from: .v3, to: .v3)
        // Then
        XCTAssertEqual(result.lines, card.lines)
        XCTAssertEqual(result.notes, [])
    }

    func test_convert_sameVersion4_rfc6350CardComesBackByteForByte() throws {
        // Given
        let card = try XCTUnwrap(VersionSeeds.cards("rfc6350-example.vcf").first)
        // When
        let result = SUT.convert(card.lines, from: .v4, to: .v4)
        // Then
        XCTAssertEqual(result.lines, card.lines)
        XCTAssertEqual(result.notes, [])
    }

    func test_convert_sameVersion3_macAddressBookBase64Photo_repairedAlone() throws {
        // Given: Mac OS X Address Book's `PHOTO;BASE64:` in a 3.0 card, its data indented by two spaces
        let lines = try VersionSeeds.card("John_Doe_MAC_ADDRESS_BOOK.vcf")
        let photoIndex = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("PHOTO;BASE64:") })
        // (the reader already drops the spaces 2.1 writers indent base64 with)
        XCTAssertFalse(lines[photoIndex].contains(" "))
        // When
        let result = SUT.convert(lines, from: .v3, to: .v3)
        // Then: every other line as it came
        XCTAssertEqual(result.lines.count, lines.count)
        for index in lines.indices where index != photoIndex { XCTAssertEqual(result.lines[index], lines[index]) }
        XCTAssertEqual(
            result.lines[photoIndex],
            "PHOTO;ENCODING=b:" + lines[photoIndex].dropFirst("PHOTO;BASE64:".count).filter { $0 != " " })
        XCTAssertEqual(result.notes, ["PHOTO: written in vCard 3.0's syntax (the card held it in vCard 2.1's)"])
    }

    func test_convert_sameVersion4_photoInThreeZeroSyntax_becomesDataURI() {
        // Given: a 3.0 photo line inside a 4.0 card, which SabreDAV refuses
        // ("ENCODING parameter is not valid in vCard 4")
        let lines = [
            "FN:Ann Lee", "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQAAAQABAAD/4QBYRXhpZgAATU0AKgAA",
            "TEL;WORK:+1 555 0100",
        ]
        // When
        let result = SUT.convert(lines, from: .v4, to: .v4)
        // Then
        XCTAssertEqual(
            result.lines,
            [
                "FN:Ann Lee", "PHOTO:data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/4QBYRXhpZgAATU0AKgAA",
                "TEL;TYPE=work:+1 555 0100",
            ])
        XCTAssertEqual(
            result.notes,
            [
                "PHOTO: written in vCard 4.0's syntax (the card held it in vCard 2.1's)",
                "TEL: written in vCard 4.0's syntax (the card held it in vCard 2.1's)",
            ])
    }

    func test_convert_crossVersion_linesIn21SyntaxOfA3Or4Card_readAs21First() {
        // Given: Mac OS X Address Book's bare BASE64 in a 3.0 card, and a 3.0 photo line kept in a 4.0 card
        let photo = "/9j/4AAQSkZJRgABAQAAAQABAAD/4QBYRXhpZgAATU0AKgAA"
        // When
        let to4 = SUT.convert(["PHOTO;BASE64:" + photo, "TEL;WORK;PREF:+1 555 0100"], from: .v3, to: .v4).lines
        let to3 = SUT.convert(["PHOTO;ENCODING=b;TYPE=JPEG:" + photo], from: .v4, to: .v3).lines
        // Then
        XCTAssertEqual(to4, ["PHOTO:data:image/jpeg;base64," + photo, "TEL;TYPE=work;PREF=1:+1 555 0100"])
        XCTAssertEqual(to3, ["PHOTO;ENCODING=b;TYPE=JPEG:" + photo])
    }

    func test_convert_crossVersion_beginEndAndVersionLeftToTheWriter() {
        // When
        let result = SUT.convert(["BEGIN:VCARD", "VERSION:3.0", "FN:A", "END:VCARD"], from: .v3, to: .v4)
        // Then
        XCTAssertEqual(result.lines, ["FN:A"])
    }

    func test_convert_sameVersion_beginEndAndVersionInAnyCaseLeftToTheWriter_namesLikeThemKept() {
        // Given: the names in any case and with parameters, beside lines that only start like them
        // (a non-ASCII name is upper-cased as a String: `ı` becomes `I`, `ſ` becomes `S`)
        let lines = [
            "begin:VCARD", "Version;X=1:4.0", "eNd:VCARD", "VERSıON:4.0", "ENDſ:x", "EMAIL:a@example.org",
            "BEGINS:x", "END", "VERSIONS:4.0", "ENDE:x", "item1.END:x", "FN:A",
        ]
        // When
        let result = SUT.convert(lines, from: .v4, to: .v4)
        // Then
        XCTAssertEqual(
            result.lines,
            ["ENDſ:x", "EMAIL:a@example.org", "BEGINS:x", "VERSIONS:4.0", "ENDE:x", "item1.END:x", "FN:A"])
    }

    func test_convert_sameVersion_controlBytesRemovedWithNote() {
        // Given: a form feed and a C1 control (U+0085) in a note; a tab is allowed (RFC 6350's WSP)
        let lines = ["FN:Ann Lee", "NOTE:page one\u{0C}page two\u{85}", "X-TABBED:a\tb"]
        // When
        let result = SUT.convert(lines, from: .v4, to: .v4)
        // Then
        XCTAssertEqual(result.lines, ["FN:Ann Lee", "NOTE:page onepage two", "X-TABBED:a\tb"])
        XCTAssertEqual(result.notes, ["NOTE: control characters removed (a vCard may not hold them)"])
    }

    func test_convert_crossVersion_controlBytesRemovedToo() {
        // When
        let result = SUT.convert(["NOTE:a\u{7F}b\u{01}"], from: .v3, to: .v4)
        // Then
        XCTAssertEqual(result.lines, ["NOTE:ab"])
        XCTAssertEqual(result.notes, ["NOTE: control characters removed (a vCard may not hold them)"])
    }

    func test_convert_lineThatIsNotAProperty_droppedWithNote() {
        // When
        let result = SUT.convert(["FN:A", "this is no property"], from: .v3, to: .v4)
        // Then
        XCTAssertEqual(result.lines, ["FN:A"])
        XCTAssertEqual(result.notes, ["A line that is not a vCard property was dropped: this is no property"])
    }

    // MARK: - Every real card, every direction

    func test_convert_everyFixtureCard_outputNeedsNoSecondConversion() throws {
        // Given
        let names = try FileManager.default.contentsOfDirectory(
            atPath: VCardSeeds.fixtures.appendingPathComponent("versions").path
        )
        .filter { $0.hasSuffix(".vcf") }
        for name in names {
            for card in try VersionSeeds.cards(name) {
                for target in [VCardWriter.Version.v3, .v4] {
                    // When
                    let once = SUT.convert(card.lines, from: card.version, to: target).lines
                    let twice = SUT.convert(once, from: SUT.SourceVersion(target), to: target)
                    // Then: what we write is already in its version's syntax
                    XCTAssertEqual(twice.lines, once, "\(name) to \(target.rawValue)")
                    XCTAssertEqual(twice.notes, [], "\(name) to \(target.rawValue)")
                }
            }
        }
    }

    func test_convert_mutatedLines_neverCrashOrWriteControlBytes() throws {
        // Given: lines of the real cards, cut and spliced at places chosen by a fixed-seed generator
        var lines: [String] = []
        for name in ["rfc6350-example.vcf", "John_Doe_MS_OUTLOOK.vcf", "rfc2426-example.vcf", "fullcontact.vcf"] {
            lines += try VersionSeeds.cards(name).flatMap(\.lines).map { String($0.prefix(300)) }
        }
        var seed: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        let pieces = [
            ";", ":", ",", "\"", "=", "\\", "^", "data:", "tel:", "--", "T", "Z", "+", "\u{0C}", "\u{85}", "é",
            ";TYPE=", ";PREF=",
        ]
        for _ in 0..<3000 {
            var line = Array(lines[next(lines.count)])
            for _ in 0..<(1 + next(3)) {
                let at = next(line.count + 1)
                if next(2) == 0 {
                    line.insert(contentsOf: pieces[next(pieces.count)], at: at)
                } else if at < line.count {
                    line.remove(at: at)
                }
            }
            let mutated = String(line)
            for source in SUT.SourceVersion.allCases {
                for target in [VCardWriter.Version.v3, .v4] {
                    // When
                    let result = SUT.convert([mutated, "FN:A"], from: source, to: target)
                    // Then
                    for output in result.lines {
                        XCTAssertFalse(SUT.ControlCharacters.contains(output), "\(mutated) -> \(output)")
                    }
                }
            }
        }
    }

    // MARK: - 2.1 syntax into 3.0 and 4.0

    func test_convert_outlook21To3_bareParametersBecomeLowerCaseTypes() throws {
        // Given
        let lines = try VersionSeeds.card("John_Doe_MS_OUTLOOK.vcf")
        // When
        let result = SUT.convert(lines, from: .v21, to: .v3).lines
        // Then
        XCTAssertTrue(result.contains("TEL;TYPE=work,voice:(905) 555-1234"), "\(result)")
        XCTAssertTrue(
            result.contains("ADR;TYPE=work,pref:;;Cresent moon drive;Albaney;New York;12345;United States of America"))
        XCTAssertTrue(result.contains("EMAIL;TYPE=pref,internet:john.doe@ibm.cm"))
        XCTAssertTrue(result.contains("URL;TYPE=work:http://www.ibm.com"))
        XCTAssertTrue(
            result.contains("N;LANGUAGE=en-us:Doe;John;Richter\\,James;Mr.;Sr."), "2.1 has no lists: its comma is text")
        XCTAssertTrue(result.contains("X-MS-OL-DEFAULT-POSTAL-ADDRESS:2"))
        XCTAssertTrue(result.contains("REV:20120305T131933Z"))
    }

    func test_convert_outlook21To3_quotedPrintableLabelKeptAsLabel() throws {
        // Given
        let lines = try VersionSeeds.card("John_Doe_MS_OUTLOOK.vcf")
        // When
        let result = SUT.convert(lines, from: .v21, to: .v3).lines
        // Then
        XCTAssertTrue(
            result.contains("LABEL;TYPE=work,pref:Cresent moon drive\\nAlbaney\\, New York  12345"), "\(result)")
        XCTAssertTrue(result.contains("LABEL;TYPE=home:Silicon Alley 5\\,\\nNew York\\, New York  12345"))
    }

    func test_convert_outlook21To3_base64PhotoCleanedAsEncodingB() throws {
        // Given
        let lines = try VersionSeeds.card("John_Doe_MS_OUTLOOK.vcf")
        // When
        let result = SUT.convert(lines, from: .v21, to: .v3).lines
        // Then
        let photo = try XCTUnwrap(result.first { $0.hasPrefix("PHOTO") })
        XCTAssertTrue(
            photo.hasPrefix(
                "PHOTO;TYPE=JPEG;ENCODING=b:/9j/4AAQSkZJRgABAQEAYABgAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcU"
            ))
        XCTAssertTrue(photo.hasSuffix("vH86ShZ3uNXtY/9k="), String(photo.suffix(40)))
        XCTAssertFalse(photo.contains(" "))
        XCTAssertNotNil(Data(base64Encoded: String(photo.drop { $0 != ":" }.dropFirst())))
    }

    func test_convert_outlook200721_keyX509() throws {
        // Given
        let lines = try VersionSeeds.card("outlook-2007.vcf")
        // When
        let v3 = SUT.convert(lines, from: .v21, to: .v3).lines
        let v4 = SUT.convert(lines, from: .v21, to: .v4).lines
        // Then
        let key3 = try XCTUnwrap(v3.first { $0.hasPrefix("KEY") })
        XCTAssertTrue(
            key3.hasPrefix(
                "KEY;TYPE=X509;ENCODING=b:MIIB/jCCAWugAwIBAgIQDdkWkvA2cqtGkw2P4zAoZDAJBgUrDgMCHQUAMBMxETAPBgNVBAMTCG1h"),
            key3)
        XCTAssertFalse(key3.contains(" "))
        let key4 = try XCTUnwrap(v4.first { $0.hasPrefix("KEY") })
        XCTAssertTrue(
            key4.hasPrefix("KEY:data:application/pkix-cert;base64,MIIB/jCCAWugAwIBAgIQDdkWkvA2cqtGkw2P4zAo"), key4)
        XCTAssertEqual(
            String(key3.drop { $0 != ":" }.dropFirst()),
            String(key4.dropFirst("KEY:data:application/pkix-cert;base64,".count)))
    }

    func test_convert_outlook200721_quotedPrintableNoteInUSASCII_decodedAndEscaped() throws {
        // Given
        let lines = try VersionSeeds.card("outlook-2007.vcf")
        // When
        let result = SUT.convert(lines, from: .v21, to: .v4).lines
        // Then: the tab inside is kept (a vCard value may hold one)
        XCTAssertTrue(
            result.contains(
                "NOTE:This is the NOTE field\t\\nI assume it encodes this text inside a NOTE vCard type.\\n"
                    + "But I'm not sure because there's text formatting going on here.\\nIt does not preserve the formatting"
            ), "\(result)")
    }

    func test_convert_android21To4_prefTypeBecomesPrefParameter() throws {
        // Given
        let cards = try VersionSeeds.cards("John_Doe_ANDROID.vcf")
        // When
        let result = SUT.convert(cards[2].lines, from: .v21, to: .v4)
        // Then: N and FN came quoted-printable in CHARSET=UTF-8
        XCTAssertEqual(
            result.lines,
            ["N:Ñ Ñ Ñ Ñ ;;;;", "FN:Ñ Ñ Ñ Ñ Ñ ", "TEL;TYPE=cell;PREF=1:123456789", "CATEGORIES:My Contacts"])
        XCTAssertEqual(result.notes, [])
    }

    func test_convert_outlook21To4_photoAsDataURIAndLabelIntoAddress() throws {
        // Given
        let lines = try VersionSeeds.card("John_Doe_MS_OUTLOOK.vcf")
        // When
        let result = SUT.convert(lines, from: .v21, to: .v4)
        // Then
        XCTAssertTrue(
            result.lines.contains(
                "ADR;TYPE=work;PREF=1;LABEL=\"Cresent moon drive^nAlbaney, New York  12345\":;;Cresent moon drive;Albaney;New York;12345;United States of America"
            ),
            "\(result.lines)")
        XCTAssertTrue(
            result.lines.contains(
                "ADR;TYPE=home;LABEL=\"Silicon Alley 5,^nNew York, New York  12345\":;;Silicon Alley 5\\,;New York;New York;12345;United States of America"
            ))
        XCTAssertFalse(result.lines.contains { $0.hasPrefix("LABEL") })
        XCTAssertTrue(result.lines.contains("EMAIL;TYPE=internet;PREF=1:john.doe@ibm.cm"), "\(result.lines)")
        let photo = try XCTUnwrap(result.lines.first { $0.hasPrefix("PHOTO") })
        XCTAssertTrue(photo.hasPrefix("PHOTO:data:image/jpeg;base64,/9j/4AAQSkZJRgABAQEAYABgAAD/2wBD"), photo)
        XCTAssertEqual(
            result.notes, ["LABEL dropped: vCard 4.0 has no LABEL property (kept as its ADR's LABEL parameter)"])
    }

    func test_convert_vCard21SpecGeoAndTimeZone_to3And4() {
        // Given: GEO as vCard 2.1 writes it (a comma between latitude and longitude), TZ in extended form
        let lines = ["GEO:37.24,-17.87", "TZ:-08:00"]
        // When
        let v3 = SUT.convert(lines, from: .v21, to: .v3).lines
        let v4 = SUT.convert(lines, from: .v21, to: .v4).lines
        // Then
        XCTAssertEqual(v3, ["GEO:37.24;-17.87", "TZ:-08:00"])
        XCTAssertEqual(v4, ["GEO:geo:37.24,-17.87", "TZ;VALUE=utc-offset:-0800"])
    }

    func test_convert_21PhotoByURL_withAndWithoutValueURL() {
        // Given: Wikipedia's vCard 2.1 example (`PHOTO;GIF:` and a link, no VALUE) and the same with VALUE=URL
        let lines = [
            "PHOTO;GIF:http://www.example.com/dir_photos/my_photo.gif",
            "PHOTO;VALUE=URL;TYPE=GIF:http://www.example.com/dir_photos/my_photo.gif",
        ]
        // When
        let v3 = SUT.convert(lines, from: .v21, to: .v3).lines
        let v4 = SUT.convert(lines, from: .v21, to: .v4).lines
        // Then: 3.0's PHOTO is inline binary unless it says it is a link
        XCTAssertEqual(
            v3,
            [
                "PHOTO;TYPE=GIF;VALUE=uri:http://www.example.com/dir_photos/my_photo.gif",
                "PHOTO;VALUE=uri;TYPE=GIF:http://www.example.com/dir_photos/my_photo.gif",
            ])
        XCTAssertEqual(
            v4,
            [
                "PHOTO;MEDIATYPE=image/gif:http://www.example.com/dir_photos/my_photo.gif",
                "PHOTO;MEDIATYPE=image/gif:http://www.example.com/dir_photos/my_photo.gif",
            ])
    }

    func test_convert_wikipedia21Label_alreadyEscapedCommaKept() {
        // Given: Wikipedia's vCard 2.1 example, whose quoted-printable LABEL escapes one comma and not the other
        let data = Data(
            ("BEGIN:VCARD\r\nVERSION:2.1\r\n"
                + "LABEL;WORK;PREF;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:100 Waters Edge=0D=\r\n=0ABaytown\\, LA 30314=0D=0AUnited States of America\r\n"
                + "LABEL;HOME;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:42 Plantation St.=0D=0A=\r\nBaytown, LA 30314=0D=0AUnited States of America\r\n"
                + "END:VCARD\r\n").utf8)
        let lines = try? VersionSeeds.cards(in: data).first?.lines
        // When
        let result = SUT.convert(lines ?? [], from: .v21, to: .v3).lines
        // Then
        XCTAssertEqual(
            result,
            [
                "LABEL;TYPE=work,pref:100 Waters Edge\\nBaytown\\, LA 30314\\nUnited States of America",
                "LABEL;TYPE=home:42 Plantation St.\\nBaytown\\, LA 30314\\nUnited States of America",
            ])
    }

    func test_convert_windowsMobile21To3_anniversaryAndTextAgent() {
        // Given: lines of Android's test card from Windows Mobile 6.5 (v21_winmo_65.vcf)
        let lines = [
            "ANNIVERSARY;VALUE=DATE:20091010", "AGENT:Invalid line which must be handled correctly.", "X-CLASS:PUBLIC",
        ]
        // When
        let result = SUT.convert(lines, from: .v21, to: .v3)
        // Then
        XCTAssertEqual(
            result.lines,
            ["X-ANNIVERSARY:2009-10-10", "X-AGENT:Invalid line which must be handled correctly.", "X-CLASS:PUBLIC"])
        XCTAssertEqual(
            result.notes,
            [
                "ANNIVERSARY written as X-ANNIVERSARY (vCard 3.0 has no ANNIVERSARY)",
                "AGENT written as X-AGENT: vCard 3.0's AGENT is a card or a link, and this one is neither",
            ])
    }

    // MARK: - 3.0 into 4.0

    func test_convert_iPhone3To4_photoAsDataURIAndPrefAsParameter() {
        // Given: lines of John_Doe_IPHONE.vcf (its photo cut short)
        let lines = [
            "item1.EMAIL;type=INTERNET;type=pref:john.doe@ibm.com",
            "TEL;type=CELL;type=VOICE;type=pref:905-555-1234",
            "item2.X-ABLabel:_$!<AssistantPhone>!$_",
            "BDAY;value=date:2012-06-06",
            "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQAAAQABAAD/4QBYRXhpZgAATU0AKgAA",
        ]
        // When
        let result = SUT.convert(lines, from: .v3, to: .v4)
        // Then
        XCTAssertEqual(
            result.lines,
            [
                "item1.EMAIL;TYPE=INTERNET;PREF=1:john.doe@ibm.com",
                "TEL;TYPE=CELL,VOICE;PREF=1:905-555-1234",
                "item2.X-ABLabel:_$!<AssistantPhone>!$_",
                "BDAY:20120606",
                "PHOTO:data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/4QBYRXhpZgAATU0AKgAA",
            ])
        XCTAssertEqual(result.notes, [])
    }

    /// Lines whose parameters are all plain TYPEs are converted without being parsed: the same
    /// lines as parsing and writing them anew would give.
    func test_convert_3To4_plainTypeLines_prefAsParameter_restUntouched() {
        let cases: [(String, String)] = [
            ("email;type=internet;type=pref:a@example.org", "EMAIL;TYPE=internet;PREF=1:a@example.org"),
            (
                "item2.ADR;TYPE=HOME;TYPE=PREF:;;1 Main St\\;x:y;Town;;;",
                "item2.ADR;TYPE=HOME;PREF=1:;;1 Main St\\;x:y;Town;;;"
            ),
            ("TEL;TYPE=pref:+1 555", "TEL;PREF=1:+1 555"),
            ("TEL;TYPE=CELL,Pref,VOICE:+1 555", "TEL;TYPE=CELL,VOICE;PREF=1:+1 555"),
            ("EMAIL;type=INTERNET;type=HOME:b@example.org", "EMAIL;type=INTERNET;type=HOME:b@example.org"),
            ("X-SOCIALPROFILE;type=twitter:x", "X-SOCIALPROFILE;type=twitter:x"),
            ("TEL;TYPE=prefer:1", "TEL;TYPE=prefer:1"),
            // Not plain: parsed, as before.
            ("TEL;TYPE=pref:tel:+1-555", "TEL;PREF=1;VALUE=uri:tel:+1-555"),
            ("EMAIL;TYPE=\"home,pref\":c@example.org", "EMAIL;TYPE=home;PREF=1:c@example.org"),
            ("EMAIL;TYPE=pref;X-A=1:d@example.org", "EMAIL;X-A=1;PREF=1:d@example.org"),
        ]
        for (line, expected) in cases {
            let result = SUT.convert([line], from: .v3, to: .v4)
            XCTAssertEqual(result.lines, [expected], line)
            XCTAssertEqual(result.notes, [], line)
            // 4.0 into 3.0 leaves a plain line as it is.
            XCTAssertEqual(SUT.convert([expected], from: .v4, to: .v3).lines.count, 1, expected)
        }
        XCTAssertEqual(
            SUT.convert(["EMAIL;type=INTERNET;type=pref:a@example.org"], from: .v4, to: .v3).lines,
            ["EMAIL;type=INTERNET;type=pref:a@example.org"])
    }

    /// RFC 6350's own example quotes a TYPE list (`TYPE="work,voice"`): one quoted value to a 3.0
    /// reader, so 3.0 gets the types it lists.
    func test_convert_4To3_quotedTypeList_writtenAsItsTypes() {
        XCTAssertEqual(
            SUT.convert(["TEL;TYPE=\"work,voice\":+1 555"], from: .v4, to: .v3).lines, ["TEL;TYPE=work,voice:+1 555"])
    }

    func test_convert_macAddressBook3To4_barePhotoBase64_mediaTypeFromTheBytes() throws {
        // Given: Mac OS X Address Book writes `PHOTO;BASE64:` in a 3.0 card
        let lines = try VersionSeeds.card("John_Doe_MAC_ADDRESS_BOOK.vcf")
        // When
        let result = SUT.convert(lines, from: .v3, to: .v4).lines
        // Then
        let photo = try XCTUnwrap(result.first { $0.hasPrefix("PHOTO") })
        XCTAssertTrue(photo.hasPrefix("PHOTO:data:image/jpeg;base64,/9j/"), String(photo.prefix(60)))
        XCTAssertTrue(result.contains("X-ABUID:6B29A774-D124-4822-B8D0-2780EC117F60\\:ABPerson"))
    }

    func test_convert_3To4_encodingBOnAnotherProperty_becomesDataURIWithNote() {
        // When
        let result = SUT.convert(["X-CERT;ENCODING=b:AAEC"], from: .v3, to: .v4)
        // Then
        XCTAssertEqual(result.lines, ["X-CERT;VALUE=uri:data:application/octet-stream;base64,AAEC"])
        XCTAssertEqual(result.notes, ["X-CERT: base64 value written as a data: URI (vCard 4.0 has no ENCODING)"])
    }

    func test_convert_onlyAddressAndOnlyLabel_withoutTypes_joined() {
        // When
        let result = SUT.convert(["FN:A", "ADR:;;1 Main St;Town;;;", "LABEL:1 Main St\\nTown"], from: .v3, to: .v4)
        // Then
        XCTAssertEqual(result.lines, ["FN:A", "ADR;LABEL=1 Main St^nTown:;;1 Main St;Town;;;"])
    }

    func test_convert_rfc2426LabelWithoutAddress_droppedWithNote() {
        // Given: RFC 2426 §3.2.2's example
        let lines = [
            "FN:John Q. Public",
            "LABEL;TYPE=dom,home,postal,parcel:Mr.John Q. Public\\, Esq.\\nMail Drop: TNE QB\\n123 Main Street\\nAny Town\\, CA  91921-1234\\nU.S.A.",
        ]
        // When
        let result = SUT.convert(lines, from: .v3, to: .v4)
        // Then
        XCTAssertEqual(result.lines, ["FN:John Q. Public"])
        XCTAssertEqual(
            result.notes, ["LABEL dropped: vCard 4.0 has no LABEL property, and no address of the same type holds it"])
    }

    /// RFC 6350 Appendix A took internet, msg, postal... out of its lists, but §5.6's grammar takes
    /// any iana-token as a TYPE value: they are kept, so a 3.0 card comes back from 4.0 whole.
    func test_convert_rfc2426Types_outOfRFC6350sLists_keptAsValidTypes() throws {
        // Given
        let card = try XCTUnwrap(VersionSeeds.cards("rfc2426-example.vcf").first)
        // When
        let result = SUT.convert(card.lines, from: .v3, to: .v4)
        // Then
        XCTAssertEqual(
            result.lines,
            [
                "FN:Frank Dawson",
                "ORG:Lotus Development Corporation",
                "ADR;TYPE=WORK,POSTAL,PARCEL:;;6544 Battleford Drive;Raleigh;NC;27613-3502;U.S.A.",
                "TEL;TYPE=VOICE,MSG,WORK:+1-919-676-9515",
                "TEL;TYPE=FAX,WORK:+1-919-676-9564",
                "EMAIL;TYPE=INTERNET;PREF=1:Frank_Dawson@Lotus.com",
                "EMAIL;TYPE=INTERNET:fdawson@earthlink.net",
                "URL:http://home.earthlink.net/~fdawson",
            ])
        XCTAssertEqual(result.notes, [])
        // And back: the card as it came, but for PREF=1, which 3.0 spells TYPE=pref.
        XCTAssertEqual(
            SUT.convert(result.lines, from: .v4, to: .v3).lines,
            card.lines.filter { !$0.hasPrefix("VERSION") }.map {
                $0.replacingOccurrences(of: "EMAIL;TYPE=INTERNET,PREF:", with: "EMAIL;TYPE=INTERNET,pref:")
            })
    }

    func test_convert_lotusNotes3To4_everyRemovedPropertyDroppedOrMoved() throws {
        // Given
        let lines = try VersionSeeds.card("John_Doe_LOTUS_NOTES.vcf")
        // When
        let result = SUT.convert(lines, from: .v3, to: .v4)
        // Then
        let names = Set(result.lines.map { $0.prefix { $0 != ":" && $0 != ";" }.uppercased() })
        XCTAssertTrue(
            names.isDisjoint(with: ["PROFILE", "NAME", "MAILER", "CLASS", "SORT-STRING", "LABEL"]), "\(names)")
        XCTAssertTrue(result.lines.contains { $0.hasPrefix("N;SORT-AS=JOHN:") }, "\(result.lines)")
        XCTAssertEqual(
            result.lines.filter {
                $0.hasPrefix("item1.ADR;") && $0.contains(";LABEL=\"John Doe^nNew York, NewYork,^nSouth Crecent Dr")
            }.count, 1, "\(result.lines)")
        XCTAssertTrue(result.notes.contains("PROFILE dropped: vCard 4.0 has no PROFILE property"), "\(result.notes)")
    }

    func test_convert_rfc2426RemovedProperties_classNameMailerDroppedWithNotes() {
        // Given: RFC 2426's examples of each
        let lines = ["NAME:RFC 2426 vCard", "FN:A", "MAILER:PigeonMail 2.1", "CLASS:PUBLIC", "PROFILE:VCard"]
        // When
        let result = SUT.convert(lines, from: .v3, to: .v4)
        // Then
        XCTAssertEqual(result.lines, ["FN:A"])
        XCTAssertEqual(
            result.notes,
            [
                "NAME dropped: vCard 4.0 has no NAME property",
                "MAILER dropped: vCard 4.0 has no MAILER property",
                "CLASS dropped: vCard 4.0 has no CLASS property",
                "PROFILE dropped: vCard 4.0 has no PROFILE property",
            ])
    }

    func test_convert_rfc2426Agent_uriAsRelatedAgent_inlineCardDropped() {
        // Given: RFC 2426 §3.5.4's two examples
        let lines = [
            "AGENT;VALUE=uri:CID:JQPUBLIC.part3.960129T083020.xyzMail@host3.com",
            "AGENT:BEGIN:VCARD\\nFN:Susan Thomas\\nTEL:+1-919-555-1234\\nEMAIL\\;INTERNET:sthomas@host.com\\nEND:VCARD\\n",
        ]
        // When
        let result = SUT.convert(lines, from: .v3, to: .v4)
        // Then
        XCTAssertEqual(result.lines, ["RELATED;TYPE=agent:CID:JQPUBLIC.part3.960129T083020.xyzMail@host3.com"])
        XCTAssertEqual(
            result.notes,
            [
                "AGENT written as vCard 4.0's RELATED;TYPE=agent",
                "AGENT dropped: vCard 4.0 has no place for a card inside a card (only RELATED;TYPE=agent with a URI)",
            ])
    }

    func test_convert_rfc2426SortString_becomesSortAsOfN() {
        // Given: RFC 2426 §3.6.5's example
        let lines = ["FN:Rene van der Harten", "N:van der Harten;Rene;J.;Sir;R.D.O.N.", "SORT-STRING:Harten"]
        // When
        let result = SUT.convert(lines, from: .v3, to: .v4)
        // Then
        XCTAssertEqual(
            result.lines, ["FN:Rene van der Harten", "N;SORT-AS=Harten:van der Harten;Rene;J.;Sir;R.D.O.N."])
        XCTAssertEqual(
            result.notes, ["SORT-STRING dropped: vCard 4.0 has no SORT-STRING (kept as N's SORT-AS parameter)"])
    }

    func test_convert_sortStringOfACompany_becomesSortAsOfOrg() {
        // When
        let result = SUT.convert(
            ["FN:The Acme Company", "ORG:The Acme Company", "SORT-STRING:Acme\\, The"], from: .v3, to: .v4)
        // Then
        XCTAssertEqual(result.lines, ["FN:The Acme Company", "ORG;SORT-AS=\"Acme, The\":The Acme Company"])
    }

    func test_convert_appleGroup3To4_kindAndMember() {
        // Given: a group as Apple's CalendarServer tests write it
        let lines = [
            "UID:group1", "FN:Group 1", "N:group1;;;;", "X-ADDRESSBOOKSERVER-KIND:group",
            "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:card1", "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:card2",
        ]
        // When
        let result = SUT.convert(lines, from: .v3, to: .v4)
        // Then
        XCTAssertEqual(
            result.lines,
            [
                "UID:group1", "FN:Group 1", "N:group1;;;;", "KIND:group",
                "MEMBER:urn:uuid:card1", "MEMBER:urn:uuid:card2",
            ])
        XCTAssertEqual(
            result.notes,
            [
                "X-ADDRESSBOOKSERVER-KIND written as vCard 4.0's KIND",
                "X-ADDRESSBOOKSERVER-MEMBER written as vCard 4.0's MEMBER",
            ])
    }

    func test_convert_appleCompany3To4_kindOrg() {
        // When
        let result = SUT.convert(["FN:Globex", "ORG:Globex", "X-ABShowAs:COMPANY"], from: .v3, to: .v4)
        // Then
        XCTAssertEqual(result.lines, ["FN:Globex", "ORG:Globex", "KIND:org"])
    }

    func test_convert_appleBirthdayWithoutYear3To4_partialDate() {
        // When
        let result = SUT.convert(
            ["BDAY;X-APPLE-OMIT-YEAR=1604:1604-03-15", "BDAY;X-APPLE-OMIT-YEAR=1604;VALUE=date:1990-03-15"],
            from: .v3, to: .v4)
        // Then: the year is dropped only when it is the one Apple says to omit
        XCTAssertEqual(result.lines, ["BDAY:--0315", "BDAY:19900315"])
        XCTAssertEqual(result.notes, [])
    }

    func test_convert_3To4_dateTimesRevisionTimeZoneAndGeoInBasicForms() throws {
        // Given: Evolution's REV, RFC 2426's BDAY, TZ and GEO examples
        let lines = [
            "REV:2012-03-05T13:32:54Z", "BDAY:1953-10-15T23:10:00Z", "TZ:-05:00", "GEO:37.386013;-122.082932",
            "X-EVOLUTION-ANNIVERSARY:1980-03-22", "BDAY:sometime in spring",
        ]
        // When
        let result = SUT.convert(lines, from: .v3, to: .v4)
        // Then
        XCTAssertEqual(
            result.lines,
            [
                "REV:20120305T133254Z", "BDAY:19531015T231000Z", "TZ;VALUE=utc-offset:-0500",
                "GEO:geo:37.386013,-122.082932", "X-EVOLUTION-ANNIVERSARY:1980-03-22",
                "BDAY;VALUE=text:sometime in spring",
            ])
        XCTAssertEqual(result.notes, ["BDAY is not a date; written as text"])
    }

    func test_convert_3To4_telURIGetsValueURI_textNumberKept() {
        // When
        let result = SUT.convert(
            ["TEL;TYPE=work:tel:+1-418-656-9254;ext=102", "TEL;TYPE=HOME:+1 555 0100 ext. 7"], from: .v3, to: .v4)
        // Then
        XCTAssertEqual(
            result.lines, ["TEL;TYPE=work;VALUE=uri:tel:+1-418-656-9254;ext=102", "TEL;TYPE=HOME:+1 555 0100 ext. 7"])
    }

    func test_convert_3To4_charsetOfThunderbird_removedWithNote() throws {
        // Given
        let lines = try VersionSeeds.card("thunderbird-MoreFunctionsForAddressBook-extension.vcf")
        // When
        let result = SUT.convert(lines, from: .v3, to: .v4)
        // Then
        XCTAssertFalse(result.lines.contains { $0.uppercased().contains("CHARSET") })
        // The reader decodes CHARSET values and keeps the lines without it; a kept line that
        // still holds one (written by an older reader) loses it here, with a note
        let kept = SUT.convert(["FN;CHARSET=UTF-8:Ann Lee"], from: .v3, to: .v4)
        XCTAssertEqual(kept.lines, ["FN:Ann Lee"])
        XCTAssertEqual(kept.notes, ["FN: CHARSET parameter removed (vCard 3.0 and 4.0 text is always UTF-8)"])
    }

    func test_convert_sameVersion3_charsetOfThunderbird_removedWithOneNote() {
        // Given: lines of the Thunderbird extension's card
        let lines = [
            "FN;CHARSET=UTF-8:John Doe",
            "ADR;TYPE=WORK,POSTAL;CHARSET=UTF-8:;222 Broadway;Suite 100;New York;NY;98765;USA",
            "TEL;TYPE=WORK,VOICE:555-555-1111",
        ]
        // When
        let result = SUT.convert(lines, from: .v3, to: .v3)
        // Then
        XCTAssertEqual(
            result.lines,
            [
                "FN:John Doe", "ADR;TYPE=work,postal:;222 Broadway;Suite 100;New York;NY;98765;USA",
                "TEL;TYPE=WORK,VOICE:555-555-1111",
            ])
        XCTAssertEqual(
            result.notes,
            [
                "FN: CHARSET parameter removed (vCard 3.0 and 4.0 text is always UTF-8)",
                "ADR: CHARSET parameter removed (vCard 3.0 and 4.0 text is always UTF-8)",
            ])
    }

    func test_convert_xAnniversary3To4_becomesAnniversary() {
        // When
        let result = SUT.convert(["X-ANNIVERSARY:2004-05-01", "X-GENDER:F"], from: .v3, to: .v4)
        // Then
        XCTAssertEqual(result.lines, ["ANNIVERSARY:20040501", "GENDER:F"])
    }

    // MARK: - 4.0 into 3.0

    func test_convert_rfc6350Example4To3() throws {
        // Given
        let card = try XCTUnwrap(VersionSeeds.cards("rfc6350-example.vcf").first)
        // When
        let result = SUT.convert(card.lines, from: .v4, to: .v3)
        // Then
        XCTAssertEqual(
            result.lines,
            [
                "FN:Simon Perreault",
                "N:Perreault;Simon;;;ing. jr,M.Sc.",
                "BDAY;X-APPLE-OMIT-YEAR=1604:1604-02-03",
                "X-ANNIVERSARY:2009-08-08T14:30:00-05:00",
                "X-GENDER:M",
                "X-LANG;TYPE=pref:fr",
                "X-LANG:en",
                "ORG;TYPE=work:Viagenie",
                "ADR;TYPE=work:;Suite D2-630;2875 Laurier;Quebec;QC;G1V 2M2;Canada",
                "TEL;TYPE=work,voice,pref:+1-418-656-9254 ext. 102",
                "TEL;TYPE=work,cell,voice,video,text:+1-418-262-6501",
                "EMAIL;TYPE=work:simon.perreault@viagenie.ca",
                "GEO;TYPE=work:46.772673;-71.282945",
                "KEY;TYPE=work;VALUE=text:http://www.viagenie.ca/simon.perreault/simon.asc",
                "TZ:-05:00",
                "URL;TYPE=home:http://nomis80.org",
            ])
        XCTAssertEqual(
            result.notes,
            [
                "ANNIVERSARY written as X-ANNIVERSARY (vCard 3.0 has no ANNIVERSARY)",
                "GENDER written as X-GENDER (vCard 3.0 has no GENDER)",
                "LANG written as X-LANG (vCard 3.0 has no LANG)",
                "LANG: PREF=2 dropped (vCard 3.0 has only one preferred item)",
                "KEY: a link to a key written as text (vCard 3.0's KEY cannot be a link)",
            ])
    }

    func test_convert_rfc6350Photos4To3_dataURIAsEncodingB_linkAsValueURI() {
        // Given: RFC 6350 §6.2.4's examples
        let lines = [
            "PHOTO:http://www.example.com/pub/photos/jqpublic.gif",
            "PHOTO:data:image/jpeg;base64,MIICajCCAdOgAwIBAgICBEUwDQYJKoZIhvcNAQEEBQAwdzELMAkGA1UEBhMCVVMxLDAqBgNVBAoTI05l",
            "LOGO;MEDIATYPE=image/png:http://www.example.com/pub/logos/abccorp.png",
            "SOUND:data:audio/basic;base64,MIICajCCAdOgAwIBAgICBEUwDQYJKoZIhvcNAQEEBQAwdzELMAkGA1UEBhMCVVMxLDAqBgNVBAoTI05l",
        ]
        // When
        let result = SUT.convert(lines, from: .v4, to: .v3)
        // Then
        XCTAssertEqual(
            result.lines,
            [
                "PHOTO;VALUE=uri:http://www.example.com/pub/photos/jqpublic.gif",
                "PHOTO;ENCODING=b;TYPE=JPEG:MIICajCCAdOgAwIBAgICBEUwDQYJKoZIhvcNAQEEBQAwdzELMAkGA1UEBhMCVVMxLDAqBgNVBAoTI05l",
                "LOGO;VALUE=uri;TYPE=PNG:http://www.example.com/pub/logos/abccorp.png",
                "SOUND;ENCODING=b;TYPE=BASIC:MIICajCCAdOgAwIBAgICBEUwDQYJKoZIhvcNAQEEBQAwdzELMAkGA1UEBhMCVVMxLDAqBgNVBAoTI05l",
            ])
        XCTAssertEqual(result.notes, [])
    }

    func test_convert_3To4And4To3_photoRoundTrips() {
        // Given
        let photo3 = "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQAAAQABAAD/4QBYRXhpZgAATU0AKgAA"
        // When
        let photo4 = SUT.convert([photo3], from: .v3, to: .v4).lines
        let back = SUT.convert(photo4, from: .v4, to: .v3).lines
        // Then
        XCTAssertEqual(back, [photo3])
    }

    func test_convert_rfc6350Group4To3_appleKindAndMember() {
        // Given: RFC 6350 §6.6.5's example
        let lines = [
            "KIND:group", "FN:The Doe family", "MEMBER:urn:uuid:03a0e51f-d1aa-4385-8a53-e29025acd8af",
            "MEMBER:urn:uuid:b8767877-b4a1-4c70-9acc-505d3819e519",
        ]
        // When
        let result = SUT.convert(lines, from: .v4, to: .v3)
        // Then
        XCTAssertEqual(
            result.lines,
            [
                "X-ADDRESSBOOKSERVER-KIND:group", "FN:The Doe family",
                "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:03a0e51f-d1aa-4385-8a53-e29025acd8af",
                "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:b8767877-b4a1-4c70-9acc-505d3819e519",
            ])
        XCTAssertEqual(
            result.notes,
            [
                "KIND written as X-ADDRESSBOOKSERVER-KIND (Apple's form; vCard 3.0 has no KIND)",
                "MEMBER written as X-ADDRESSBOOKSERVER-MEMBER (Apple's form; vCard 3.0 has no MEMBER)",
            ])
    }

    func test_convert_kindOrgAndIndividual4To3() {
        // When
        let org = SUT.convert(["KIND:org", "FN:ABC Marketing"], from: .v4, to: .v3)
        let person = SUT.convert(["KIND:individual", "FN:Jane Doe"], from: .v4, to: .v3)
        // Then
        XCTAssertEqual(org.lines, ["X-ABShowAs:COMPANY", "FN:ABC Marketing"])
        XCTAssertEqual(person.lines, ["FN:Jane Doe"])
        XCTAssertEqual(
            person.notes,
            ["KIND:individual dropped (vCard 3.0 has no KIND; a card is a person unless it says otherwise)"])
    }

    func test_convert_rfc6350PidAltIdAndClientPidMap4To3() {
        // Given: RFC 6350 §7.1.2's and §5.4's examples
        let lines = [
            "FN;PID=1.1:J. Doe", "N:Doe;J.;;;", "EMAIL;PID=1.1:jdoe@example.com",
            "CLIENTPIDMAP:1;urn:uuid:53e374d9-337e-4727-8803-a1e9c14e0556",
            "TITLE;ALTID=1;LANGUAGE=fr:Patron", "TITLE;ALTID=1;LANGUAGE=en:Boss",
        ]
        // When
        let result = SUT.convert(lines, from: .v4, to: .v3)
        // Then
        XCTAssertEqual(
            result.lines,
            [
                "FN:J. Doe", "N:Doe;J.;;;", "EMAIL:jdoe@example.com",
                "X-CLIENTPIDMAP:1;urn:uuid:53e374d9-337e-4727-8803-a1e9c14e0556",
                "TITLE;LANGUAGE=fr:Patron", "TITLE;LANGUAGE=en:Boss",
            ])
        XCTAssertEqual(
            result.notes,
            [
                "FN: PID parameter dropped (vCard 3.0 has no PID)",
                "EMAIL: PID parameter dropped (vCard 3.0 has no PID)",
                "CLIENTPIDMAP written as X-CLIENTPIDMAP (vCard 3.0 has no CLIENTPIDMAP)",
                "TITLE: ALTID parameter dropped (vCard 3.0 has no ALTID)",
            ])
    }

    func test_convert_rfc6350Related4To3_agentAsAgent_othersAsX() {
        // Given: RFC 6350 §6.6.6's examples (the first with TYPE=agent for TYPE=contact)
        let lines = [
            "RELATED;TYPE=agent:http://example.com/directory/jdoe.vcf",
            "RELATED;TYPE=co-worker;VALUE=text:Please contact my assistant Jane Doe for any inquiries.",
        ]
        // When
        let result = SUT.convert(lines, from: .v4, to: .v3)
        // Then
        XCTAssertEqual(
            result.lines,
            [
                "AGENT;VALUE=uri:http://example.com/directory/jdoe.vcf",
                "X-RELATED;TYPE=co-worker;VALUE=text:Please contact my assistant Jane Doe for any inquiries.",
            ])
    }

    func test_convert_rfc6350AddressLabelAndGeo4To3_labelPropertyAfterAddress() {
        // Given: RFC 6350 §6.3.1's example, which writes the label's line breaks as `\n`
        let lines = [
            "ADR;TYPE=home;GEO=\"geo:12.3457,78.910\";LABEL=\"Mr. John Q. Public, Esq.\\nMail Drop: TNE QB\\n123 Main Street\\nAny Town, CA  91921-1234\\nU.S.A.\":;;123 Main Street;Any Town;CA;91921-1234;U.S.A."
        ]
        // When
        let result = SUT.convert(lines, from: .v4, to: .v3)
        // Then
        XCTAssertEqual(
            result.lines,
            [
                "ADR;TYPE=home:;;123 Main Street;Any Town;CA;91921-1234;U.S.A.",
                "LABEL;TYPE=home:Mr. John Q. Public\\, Esq.\\nMail Drop: TNE QB\\n123 Main Street\\nAny Town\\, CA  91921-1234\\nU.S.A.",
            ])
        XCTAssertEqual(result.notes, ["ADR: GEO parameter dropped (vCard 3.0 has no GEO parameter on an address)"])
    }

    func test_convert_labelParameterRoundTrips3To4To3() {
        // Given
        let lines = [
            "ADR;TYPE=work:;;Cresent moon drive;Albaney;New York;12345;USA",
            "LABEL;TYPE=work:Cresent moon drive\\nAlbaney\\, New York  12345",
        ]
        // When
        let v4 = SUT.convert(lines, from: .v3, to: .v4).lines
        let back = SUT.convert(v4, from: .v4, to: .v3).lines
        // Then
        XCTAssertEqual(
            v4,
            [
                "ADR;TYPE=work;LABEL=\"Cresent moon drive^nAlbaney, New York  12345\":;;Cresent moon drive;Albaney;New York;12345;USA"
            ])
        XCTAssertEqual(back, lines)
    }

    func test_convert_rfc6350SortAs4To3_sortString() {
        // Given: RFC 6350 §5.9's example
        let lines = ["FN:Rene van der Harten", "N;SORT-AS=\"Harten,Rene\":van der Harten;Rene,J.;Sir;R.D.O.N."]
        // When
        let result = SUT.convert(lines, from: .v4, to: .v3)
        // Then
        XCTAssertEqual(
            result.lines,
            ["FN:Rene van der Harten", "N:van der Harten;Rene,J.;Sir;R.D.O.N.", "SORT-STRING:Harten Rene"])
    }

    func test_convert_preferences4To3_onlyTheLowestBecomesPref() {
        // When
        let result = SUT.convert(
            ["EMAIL;PREF=3:c@example.com", "EMAIL;PREF=2:b@example.com", "TEL;PREF=1:+1 555 0100"],
            from: .v4, to: .v3)
        // Then
        XCTAssertEqual(
            result.lines, ["EMAIL:c@example.com", "EMAIL;TYPE=pref:b@example.com", "TEL;TYPE=pref:+1 555 0100"])
        XCTAssertEqual(result.notes, ["EMAIL: PREF=3 dropped (vCard 3.0 has only one preferred item)"])
    }

    func test_convert_rfc6350TimeZones4To3() {
        // Given: RFC 6350 §5.11's examples
        let lines = [
            "TZ:Raleigh/North America", "TZ;VALUE=utc-offset:-0500",
            "TZ;VALUE=uri:https://example.com/tz-database/America/New_York",
        ]
        // When
        let result = SUT.convert(lines, from: .v4, to: .v3)
        // Then
        XCTAssertEqual(
            result.lines,
            [
                "TZ;VALUE=text:Raleigh/North America", "TZ:-05:00",
                "TZ;VALUE=text:https://example.com/tz-database/America/New_York",
            ])
    }

    func test_convert_fullContact4To3_textBirthdayAsXBirthdayAndAltIdDropped() throws {
        // Given
        let lines = try VersionSeeds.card("fullcontact.vcf")
        // When
        let result = SUT.convert(lines, from: .v4, to: .v3)
        // Then
        XCTAssertTrue(result.lines.contains("BDAY:2016-08-01"), "\(result.lines)")
        XCTAssertTrue(result.lines.contains("X-BDAY:2016-08-01"))
        XCTAssertTrue(
            result.lines.contains(
                "PHOTO;VALUE=uri:https://d3m0kzytmr41b1.cloudfront.net/c335e945d1b60edd9d75eb4837c432f637e95c8a"))
        XCTAssertTrue(result.lines.contains("X-GENDER:M"))
        XCTAssertTrue(result.lines.contains("X-GENDER:male"), "an X- property of the card is kept as it came")
        XCTAssertTrue(
            result.notes.contains("BDAY written as X-BDAY: vCard 3.0's BDAY must be a whole date, and this one is not"))
        XCTAssertTrue(result.notes.contains("BDAY: ALTID parameter dropped (vCard 3.0 has no ALTID)"))
    }

    func test_convert_rfc6350Xml4To3_asXProperty() {
        // Given: RFC 6350 §6.1.5's property, holding a value RFC 6351 defines
        let lines = ["XML:<a xmlns=\"http://www.w3.org/1999/xhtml\" href=\"http://www.example.com\">My web page!</a>"]
        // When
        let result = SUT.convert(lines, from: .v4, to: .v3)
        // Then
        XCTAssertEqual(
            result.lines,
            ["X-XML:<a xmlns=\"http://www.w3.org/1999/xhtml\" href=\"http://www.example.com\">My web page!</a>"])
        XCTAssertEqual(result.notes, ["XML written as X-XML (vCard 3.0 has no XML)"])
    }

    func test_convert_4To3_partialDatesThat3CannotHold() {
        // When
        let result = SUT.convert(["BDAY:1996", "DEATHDATE:--04"], from: .v4, to: .v3)
        // Then
        XCTAssertEqual(result.lines, ["X-BDAY:1996", "X-DEATHDATE:--04"])
    }

    // MARK: - Causes of the real-card corpus's failures (Tests/Fixtures/vcards)

    func test_convert_21BackslashesInText_writtenIn3sEscaping() {
        // Given: Android's test card v21_backslash.vcf, as the reader keeps its lines
        let lines = ["N:;A\\;B\\\\;C\\\\\\;;D;\\:E;\\\\\\\\;", "FN:A;B\\C\\;D:E\\\\"]
        // When
        let v3 = SUT.convert(lines, from: .v21, to: .v3).lines
        let v4 = SUT.convert(lines, from: .v21, to: .v4).lines
        // Then: 2.1's only escapes are a component's `\;` and `\\`; any other backslash is a character
        let expected = ["N:;A\\;B\\\\;C\\\\\\;;D;\\\\:E;\\\\\\\\;", "FN:A\\;B\\\\C\\\\\\;D:E\\\\\\\\"]
        XCTAssertEqual(v3, expected)
        XCTAssertEqual(v4, expected)
        XCTAssertEqual(
            VCardText.components(String(v3[0].dropFirst(2))), ["", "A;B\\", "C\\;", "D", "\\:E", "\\\\", ""])
        XCTAssertEqual(VCardText.unescape(String(v3[1].dropFirst(3))), "A;B\\C\\;D:E\\\\")
    }

    func test_convert_21TextLineBreakAndCommas_stayLineBreakAndCommas() {
        // Given: a quoted-printable line break as the reader keeps it, a plain comma and an escaped one
        let lines = ["NOTE:one\\ntwo, three\\, four", "ORG:Acme, Inc.;Sales"]
        // When
        let result = SUT.convert(lines, from: .v21, to: .v3)
        // Then
        XCTAssertEqual(result.lines, ["NOTE:one\\ntwo\\, three\\, four", "ORG:Acme\\, Inc.;Sales"])
    }

    func test_convert_revisionThatIsNoTimestamp_droppedWithANote_inEveryDirection() {
        // Given: Evolution's REVs (evolution/custom-1.vcf, logo-1.vcf), and a good one
        for bad in ["REV:0", "REV:2017-05-10T14:36:01Z(2)"] {
            for (source, target) in [
                (SUT.SourceVersion.v3, VCardWriter.Version.v3), (.v3, .v4), (.v21, .v3), (.v4, .v4),
            ] {
                // When
                let result = SUT.convert(["FN:A", bad], from: source, to: target)
                // Then
                XCTAssertEqual(result.lines, ["FN:A"], "\(bad) \(source) \(target)")
                XCTAssertEqual(result.notes, ["REV dropped: \(bad.dropFirst(4)) is not a date and time"])
            }
        }
        XCTAssertEqual(
            SUT.convert(["REV:2017-05-10T14:36:01Z"], from: .v3, to: .v3).lines, ["REV:2017-05-10T14:36:01Z"])
        XCTAssertEqual(SUT.convert(["REV:2017-05-10T14:36:01Z"], from: .v3, to: .v4).lines, ["REV:20170510T143601Z"])
    }

    func test_convert_khardDataURIWithEscapedComma_to3AsInlineBinary() {
        // Given: khard's photov4.vcf, whose data: URI has its comma escaped as text's
        let line = "PHOTO:data:image/png;base64\\,iVBORw0KGgo="
        // When
        let result = SUT.convert([line], from: .v4, to: .v3)
        // Then: the base64 is the data, not text to encode again
        XCTAssertEqual(result.lines, ["PHOTO;ENCODING=b;TYPE=PNG:iVBORw0KGgo="])
    }

    func test_convert_photoLink_3To4To3_withoutVALUEIn4() {
        // Given: FullContact's 4.0 PHOTO link, as 3.0 writes it
        let v3 = ["PHOTO;VALUE=uri:https://example.com/a.jpg"]
        // When
        let v4 = SUT.convert(v3, from: .v3, to: .v4).lines
        let back = SUT.convert(v4, from: .v4, to: .v3).lines
        // Then: a URI is 4.0's default for PHOTO, and 3.0 must say it
        XCTAssertEqual(v4, ["PHOTO:https://example.com/a.jpg"])
        XCTAssertEqual(back, v3)
    }

    func test_convert_sameVersion_whatTheVersionHasNoPlaceFor_writtenAsAConversionWould() {
        // Given: vcard4android's 3.0 card with 4.0's ANNIVERSARY and RELATED, ical4j's 4.0 card with CLASS and a bare GEO
        let v3 = ["FN:A", "ANNIVERSARY:20140812", "RELATED;TYPE=parent;VALUE=uri:muuum@example.com", "ORG:Acme"]
        let v4 = ["FN:A", "CLASS:PUBLIC", "WORK.GEO:46.772673,-71.282945", "GEO:geo:1,2"]
        // When
        let three = SUT.convert(v3, from: .v3, to: .v3)
        let four = SUT.convert(v4, from: .v4, to: .v4)
        // Then: valid for the version, the rest as it came, and each change named
        XCTAssertEqual(
            three.lines,
            ["FN:A", "X-ANNIVERSARY:2014-08-12", "X-RELATED;TYPE=parent;VALUE=uri:muuum@example.com", "ORG:Acme"])
        XCTAssertEqual(three.notes.count, 2)
        XCTAssertEqual(four.lines, ["FN:A", "WORK.GEO:geo:46.772673,-71.282945", "GEO:geo:1,2"])
        XCTAssertEqual(
            four.notes, ["CLASS dropped: vCard 4.0 has no CLASS property", "GEO written as vCard 4.0's geo: URI"])
    }

    func test_convert21To4_aFieldsTextSaidToBeBase64_staysText_aBinaryOneBecomesADataURI() {
        // Given the shape fuzz-vcard found: a 2.1 ADR with a bare `b` (read as text without spaces)
        let lines = ["ADR;HOME;b:;;1MainSt;Paris;;;", "X-BLOB;ENCODING=BASE64:AAEC"]
        // When
        let result = SUT.convert(lines, from: .v21, to: .v4)
        // Then
        XCTAssertEqual(
            result.lines,
            ["ADR;TYPE=home:;;1MainSt;Paris;;;", "X-BLOB;VALUE=uri:data:application/octet-stream;base64,AAEC"])
        XCTAssertEqual(
            result.notes,
            [
                "ADR: ENCODING parameter removed (vCard 4.0 has no ENCODING)",
                "X-BLOB: base64 value written as a data: URI (vCard 4.0 has no ENCODING)",
            ])
    }

    func test_convert_telephoneSaidToBeURIThatIsNone_writtenAsText_inEveryDirection() {
        // Given: khard's tel-value-uri.vcf, and a real tel: URI beside it
        let lines = ["TEL;TYPE=cell;VALUE=URI:67545678", "TEL;TYPE=home;VALUE=uri:tel:+1-555-0100"]
        // When
        let same3 = SUT.convert(lines, from: .v3, to: .v3)
        let to4 = SUT.convert(lines, from: .v3, to: .v4)
        // Then: the number is text; the URI stays one
        XCTAssertEqual(same3.lines, ["TEL;TYPE=cell:67545678", "TEL;TYPE=home;VALUE=uri:tel:+1-555-0100"])
        XCTAssertEqual(same3.notes, ["TEL: VALUE=uri removed from a number that is no URI (67545678)"])
        XCTAssertEqual(to4.lines, ["TEL;TYPE=cell:67545678", "TEL;TYPE=home;VALUE=uri:tel:+1-555-0100"])
        XCTAssertEqual(SUT.convert(["TEL;VALUE=uri:67545678"], from: .v4, to: .v4).lines, ["TEL:67545678"])
    }

    func test_convert_quotedTypeThatIsNoList_staysOneType() {
        // Given: Android's test card v30_comma_separated.vcf
        let line = "TEL;TYPE=\"COMMA,SEPARATED:INSIDE.DQUOTE\",PREF:1"
        // When
        let v4 = SUT.convert([line], from: .v3, to: .v4).lines
        // Then: quoted again as the one value it is
        XCTAssertEqual(v4, ["TEL;TYPE=\"COMMA,SEPARATED:INSIDE.DQUOTE\";PREF=1:1"])
        XCTAssertEqual(SUT.convert(v4, from: .v4, to: .v3).lines, ["TEL;TYPE=\"COMMA,SEPARATED:INSIDE.DQUOTE\",pref:1"])
    }

    func test_convert_21TextAgent_throughEitherVersion_isXAgentIn3() {
        // Given: Windows Mobile's 2.1 AGENT that holds text (Android's v21_winmo_65.vcf)
        let line = "AGENT:Invalid line which must be handled correctly."
        // When
        let direct = SUT.convert([line], from: .v21, to: .v3).lines
        let v4 = SUT.convert([line], from: .v21, to: .v4).lines
        let back = SUT.convert(v4, from: .v4, to: .v3).lines
        // Then
        XCTAssertEqual(direct, ["X-AGENT:Invalid line which must be handled correctly."])
        XCTAssertEqual(v4, ["RELATED;VALUE=text;TYPE=agent:Invalid line which must be handled correctly."])
        XCTAssertEqual(back, direct)
    }

    func test_convert_outlookCardPicture_3To4To3_backAsInlineBinary() {
        // Given: Outlook's X-MS-CARDPICTURE (ical4j-vcard/vcard-antoni-cardpicture.vcf), in 3.0's syntax
        let v3 = ["X-MS-CARDPICTURE;TYPE=JPEG;ENCODING=b:/9j/4AAQSkZJRg=="]
        // When
        let v4 = SUT.convert(v3, from: .v3, to: .v4).lines
        let back = SUT.convert(v4, from: .v4, to: .v3).lines
        // Then
        XCTAssertEqual(
            v4, ["X-MS-CARDPICTURE;TYPE=JPEG;VALUE=uri:data:application/octet-stream;base64,/9j/4AAQSkZJRg=="])
        XCTAssertEqual(back, v3)
    }
}

/// The kept lines of the cards in the files under `Fixtures/versions/`.
enum VersionSeeds {
    struct Card {
        var version: VCardVersionConverter.SourceVersion
        var lines: [String]
    }

    static func card(_ name: String) throws -> [String] {
        try XCTUnwrap(cards(name).first).lines
    }

    static func cards(_ name: String) throws -> [Card] {
        let data = try Data(
            contentsOf: VCardSeeds.fixtures.appendingPathComponent("versions").appendingPathComponent(name))
        return try cards(in: data)
    }

    /// Each card's lines as the reader keeps them (`VCardProperty.raw`), without BEGIN, VERSION
    /// and END; a card nested in an AGENT is left out with its AGENT line. iOS's CR CR LF is read
    /// as one line end (its CRs dropped, folds included), and a line today's reader refuses (Android's stray `=80` in
    /// quoted-printable) is left out: the reader's business, not the converter's.
    static func cards(in data: Data) throws -> [Card] {
        var cards: [Card] = []
        var depth = 0
        var current = Card(version: .v3, lines: [])
        for var line in VCardContentLines.split(data) {
            line.bytes.removeAll { $0 == 0x0D }
            let text = String(decoding: line.bytes, as: UTF8.self).uppercased()
            if text == "BEGIN:VCARD" || text.hasPrefix("AGENT") && text.hasSuffix(":BEGIN:VCARD") {
                depth += 1
                if depth == 1 { current = Card(version: .v3, lines: []) }
                continue
            }
            if text == "END:VCARD" {
                depth -= 1
                if depth == 0 { cards.append(current) }
                continue
            }
            guard depth == 1 else { continue }
            if text.hasPrefix("VERSION:") {
                current.version = try XCTUnwrap(
                    VCardVersionConverter.SourceVersion(versionValue: String(text.dropFirst(8))))
                continue
            }
            if let property = try? VCardProperty(line) { current.lines.append(property.raw) }
        }
        return cards
    }
}

// MARK: - An independent validator

/// Every card under `Fixtures/versions/`, converted to 3.0 and to 4.0, checked by ez-vcard's
/// `VCard.validate(version)` (Debian's libez-vcard-java, installed by scripts/setup) and by its
/// parser's warnings. Skipped where no Java or ez-vcard is installed.
final class VCardVersionConverterValidationTests: XCTestCase {
    static let jars = ["/usr/share/java/ez-vcard.jar", "/usr/share/java/vinnie.jar"]
    static let java = "/usr/bin/java"

    /// Prints one line per warning: file, property class, code, message.
    static let validator = """
        import ezvcard.*;
        import ezvcard.io.text.VCardReader;
        import java.io.File;
        public class Validate {
            public static void main(String[] args) throws Exception {
                for (String path : args) {
                    try (VCardReader reader = new VCardReader(new File(path))) {
                        VCard card;
                        while ((card = reader.readNext()) != null) {
                            for (ezvcard.io.ParseWarning w : reader.getWarnings())
                                System.out.println(new File(path).getName() + "\\tparse " + w.getPropertyName() + "\\t" + w.getCode() + "\\t" + w.getMessage());
                            for (java.util.Map.Entry<ezvcard.property.VCardProperty, java.util.List<ValidationWarning>> e : card.validate(card.getVersion())) {
                                String property = e.getKey() == null ? "card" : e.getKey().getClass().getSimpleName();
                                for (ValidationWarning w : e.getValue())
                                    System.out.println(new File(path).getName() + "\\t" + property + "\\t" + w.getCode() + "\\t" + w.getMessage());
                            }
                        }
                    }
                }
            }
        }
        """

    func test_realCards_convertedTo3And4_passEzVCardValidation() throws {
        let files = FileManager.default
        guard files.isExecutableFile(atPath: Self.java), Self.jars.allSatisfy(files.fileExists) else {
            throw XCTSkip("Java and Debian's libez-vcard-java are not installed (scripts/setup installs them)")
        }
        // Given
        let directory = files.temporaryDirectory.appendingPathComponent("vcard-versions-\(UUID().uuidString)")
        try files.createDirectory(at: directory, withIntermediateDirectories: true)
        var keep = false
        defer { if !keep { try? files.removeItem(at: directory) } }
        try Self.validator.write(
            to: directory.appendingPathComponent("Validate.java"), atomically: true, encoding: .utf8)
        let names = try files.contentsOfDirectory(atPath: VCardSeeds.fixtures.appendingPathComponent("versions").path)
            .filter { $0.hasSuffix(".vcf") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 10)
        var written: [String] = []
        var cardsWithoutName: Set<String> = []
        for name in names {
            for (index, card) in try VersionSeeds.cards(name).enumerated() {
                for target in [VCardWriter.Version.v3, .v4] {
                    // When
                    let lines = SUT.convert(card.lines, from: card.version, to: target).lines
                    let file = "\(name.dropLast(4))-\(index + 1).\(target.rawValue).vcf"
                    let text = (["BEGIN:VCARD", "VERSION:\(target.rawValue)"] + lines + ["END:VCARD"]).map(
                        VCardWriter.fold
                    ).joined()
                    try Data(text.utf8).write(to: directory.appendingPathComponent(file))
                    written.append(file)
                    if !lines.contains(where: { $0.hasPrefix("N:") || $0.hasPrefix("N;") }) {
                        cardsWithoutName.insert(file + " N")
                    }
                    if !lines.contains(where: { $0.hasPrefix("FN:") || $0.hasPrefix("FN;") }) {
                        cardsWithoutName.insert(file + " FN")
                    }
                }
            }
        }
        // A control, to show the validator is awake: Outlook's 2.1 lines, not converted, in a 4.0 card.
        let outlook = try VersionSeeds.card("John_Doe_MS_OUTLOOK.vcf")
        let control = (["BEGIN:VCARD", "VERSION:4.0"] + outlook + ["END:VCARD"]).map(VCardWriter.fold).joined()
        try Data(control.utf8).write(to: directory.appendingPathComponent("control.4.0.vcf"))
        let output = try Self.run(
            Self.java, ["-cp", Self.jars.joined(separator: ":"), "Validate.java", "control.4.0.vcf"] + written,
            in: directory)
        // Then
        let lines = output.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            Set(lines.filter { $0.hasPrefix("control.") }.map { $0.split(separator: "\t")[1] }),
            ["Photo", "Email"], output) // ENCODING=BASE64, TYPE=internet
        let warnings = lines.filter {
            !$0.hasPrefix("control.") && !Self.isAccepted($0, cardsWithoutName: cardsWithoutName)
        }
        if !warnings.isEmpty { keep = true }
        XCTAssertEqual(warnings, [], "converted cards kept in \(directory.path)")
        XCTAssertGreaterThan(written.count, 2 * names.count, "some files hold several cards")
    }

    typealias SUT = VCardVersionConverter

    /// ez-vcard's warnings that are not faults of the conversion.
    static func isAccepted(_ warning: String, cardsWithoutName: Set<String>) -> Bool {
        let fields = warning.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 4 else { return false }
        let (file, property, code) = (fields[0], fields[1], fields[2])
        let is3 = file.hasSuffix(".3.0.vcf")
        switch (property, code) {
        // RFC 2426 lets EMAIL take any registered TYPE; Apple, Google and Android write home and work.
        // A TYPE value the version does not list (Apple's EMAIL home in 3.0; RFC 2426's internet,
        // msg or parcel in 4.0, 4.0's text in 3.0): both grammars take any iana-token as a TYPE
        // value, so the conversion keeps them (Tests/python/vcard_validator.py accepts code 9 too).
        case ("Email", "9"), ("Telephone", "9"), ("Address", "9"), ("Label", "9"): return true
        // FBURL, CALURI and CALADRURI are vCard 3.0 properties too (RFC 2739); ez-vcard knows them in 4.0 only.
        case ("FreeBusyUrl", "2"), ("CalendarUri", "2"), ("CalendarRequestUri", "2"): return is3
        // The card came without N (RFC 2426's own examples) or FN (Android's); the writer adds them.
        case ("card", "0"): return cardsWithoutName.contains(file + " N")
        case ("card", "1"): return cardsWithoutName.contains(file + " FN")
        default: return false
        }
    }

    static func run(_ executable: String, _ arguments: [String], in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, text)
        return text
    }
}
