import XCTest

@testable import ContactsApp

final class VCardReaderTests: XCTestCase {
    var sut: VCardReader!

    override func setUp() {
        super.setUp()
        sut = VCardReader()
    }

    private func read(_ text: String) -> ParsedContacts { sut.read(Data(text.utf8)) }

    // MARK: - Real exports

    func test_read_appleExport_groupsLabelsBirthdayWithoutYearAndPhoto() {
        // When
        let result = sut.read(VCardSeeds.fixture("apple-3.0.vcf"))
        // Then
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.entries.map(\.contact.withoutCard), [VCardSeeds.appleAnn, VCardSeeds.appleGlobex])
        XCTAssertEqual(result.entries.map(\.line), [1, 36])
    }

    func test_read_android21_quotedPrintableCharsetsBareParametersAndBOM() {
        // When
        let result = sut.read(VCardSeeds.fixture("android-2.1.vcf"))
        // Then
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.entries.map(\.contact.withoutCard), [VCardSeeds.androidJose, VCardSeeds.androidZoe])
    }

    func test_read_vcard4_addressBookWrapperUriPhonesPrefEscapesAndSplitCharacterFold() {
        // When
        let result = sut.read(VCardSeeds.fixture("rfc6350-4.0.vcf"))
        // Then
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.entries.count, 4)
        XCTAssertEqual(result.entries.first?.contact.withoutCard, VCardSeeds.emile)
        XCTAssertEqual(
            result.entries.map(\.contact.fullName), ["Émile Zola", "No Uid Person", "Twin First", "Twin Second"])
        XCTAssertEqual(result.entries.map(\.contact.uid), ["urn:uuid:6f0c1d3e-emile", "", "same-uid", "same-uid"])
        XCTAssertEqual(result.entries[3].contact.birthday, Birthday(year: 1990, month: 5, day: 17))
    }

    // MARK: - Syntax details

    func test_read_lfEndingsAndLowercaseNames() {
        // When
        let result = read("begin:vcard\nversion:3.0\nn:lee;ann;;;\nemail;type=work:ann@example.org\nend:vcard\n")
        // Then
        XCTAssertEqual(result.entries.map(\.contact.emails), [[LabeledValue(label: "work", value: "ann@example.org")]])
        XCTAssertEqual(result.entries.map(\.contact.familyName), ["lee"])
    }

    func test_read_repeatedTypesAndCommaTypes_makeOneLabel() {
        // When
        let result = read(
            "BEGIN:VCARD\r\nN:A;B;;;\r\nTEL;TYPE=work;TYPE=fax:1\r\nTEL;TYPE=HOME,VOICE:2\r\nTEL;TYPE=pref:3\r\nEND:VCARD\r\n"
        )
        // Then
        XCTAssertEqual(
            result.entries.first?.contact.phones,
            [
                LabeledValue(label: "other", value: "3"), LabeledValue(label: "work fax", value: "1"),
                LabeledValue(label: "home", value: "2"),
            ])
    }

    func test_types_lowerCasedSplitOnCommas_emptyPartsLeftOut_asTheGeneralRuleGives() throws {
        // Given: values kept as they are (no comma, nothing to lower-case) and values that are not
        let lines = [
            "TEL;TYPE=work;TYPE=fax:1", "TEL;TYPE=HOME,VOICE:2", "TEL;TYPE=:3", "TEL;TYPE=work,,Cell,:4",
            "TEL;TYPE=Büro;TYPE=\"x-a b\":5", "TEL;CELL;PREF:6", "TEL;TYPE=,:7", "TEL:8",
        ]
        for line in lines {
            // When
            let property = try VCardProperty(VCardContentLine(bytes: Array(line.utf8), line: 1))
            // Then: what lower-casing every comma-separated part, empty ones left out, gives
            let general = property.parameters.filter { $0.name == "TYPE" }.flatMap(\.values)
                .flatMap { $0.split(separator: ",").map { $0.lowercased() } }
            XCTAssertEqual(property.types, general, line)
        }
        let busy = try VCardProperty(VCardContentLine(bytes: Array("TEL;TYPE=work,,Cell,:4".utf8), line: 1))
        XCTAssertEqual(busy.types, ["work", "cell"])
        let bare = try VCardProperty(VCardContentLine(bytes: Array("TEL;TYPE=:3".utf8), line: 1))
        XCTAssertEqual(bare.types, [])
    }

    func test_plain_readsWhatTheGeneralPathReads_andLeavesItTheRest() throws {
        // Given: lines the fast path reads (plain ASCII heads) and lines it must leave to the
        // general path (quotes, carets, non-ASCII, encodings, charsets, bad UTF-8, no colon)
        let plain: [[UInt8]] = [
            "TEL;VALUE=text;TYPE=cell:+351 945 874 9326", "FN:Ngọc da Silva", "N:da Silva;Ngọc;;;",
            "email;type=Work:ann@example.org", "item1.TEL;type=CELL;type=pref:+1 555", "item1.X-ABLabel:_$!<Mobile>!$_",
            "a.b.c.TEL:1", ".TEL:2", "TEL;CELL;PREF:6", "TEL;;TYPE=;;X=:7", "TEL;TYPE=work,,Cell,:4",
            "X-A;TYPE=x-a b;X-Y=1=2:v", "NOTE:", "NOTE:a:b;c\\,d", "X-FOO;=v:w", "NOTE;LANGUAGE=de-CH:Grüße 😀",
            "TEL;B64:1", "TEL;BIT:1", "TEL;8bitx:1", "PHOTO;VALUE=uri:data:image/png;base64,AAA", "NOTE:a\u{1}b",
            "NOTE:\u{FFFD}", "tel;x-encoding=b:3", "NOTE:\\",
        ].map { Array($0.utf8) }
        let general: [[UInt8]] = [
            "TEL;TYPE=\"cell\":1", "X-A;LABEL=\"a:b\":c", "ADR;LABEL=Line^nTwo:;;x", "FN;ENCODING=QUOTED-PRINTABLE:=41",
            "FN;QUOTED-PRINTABLE:=41", "FN;quoted-printable:=41", "PHOTO;b:AAAA", "PHOTO;BASE64:AA AA",
            "FN;CHARSET=ISO-8859-1:x", "FN;charset=UTF-8:x", "NOTE;8BIT:x", "NOTE;7bit:x", "X-ÜBER:x",
            "TEL;TYPE=Büro:5", "no colon", "X-messaging/gadu-All:1", ":nameless", "TEL\tX:1",
            "NOTE;X=a\rb:c", "grp.:x",
        ].map { Array($0.utf8) }
        let bad: [[UInt8]] = [
            Array("NOTE:".utf8) + [0xFF], Array("NOTE:".utf8) + [0xEF, 0xBB, 0xBF, 0x41], Array("N".utf8) + [0xC3],
            [0x3A], [], Array("FN:a".utf8) + [0xED, 0xA0, 0x80],
        ]
        for bytes in plain + general + bad {
            let text = String(decoding: bytes, as: UTF8.self)
            // When
            let fast = VCardProperty.plain(bytes)
            let slow = try? VCardProperty(general: VCardContentLine(bytes: bytes, line: 1))
            // Then
            XCTAssertEqual(fast != nil, plain.contains(bytes), "plain or not: \(text)")
            if let fast {
                assertSameProperty(fast, try XCTUnwrap(slow, text), text)
            }
        }
        let busy = try XCTUnwrap(VCardProperty.plain(Array("item1.tel;TYPE=work;Cell;x-a=b,,c:+1 555".utf8)))
        XCTAssertEqual(busy.group, "item1")
        XCTAssertEqual(busy.name, "TEL")
        XCTAssertEqual(busy.parameters.map(\.name), ["TYPE", "TYPE", "X-A"])
        XCTAssertEqual(busy.parameters.map(\.values), [["work"], ["Cell"], ["b", "", "c"]])
        XCTAssertEqual(busy.value, "+1 555")
    }

    func test_read_cardsOfEveryKind_readAlikeThroughTheFastAndTheGeneralPath() throws {
        // Given: every .vcf file under Tests/ (the real-card corpus and the fixtures), split
        // as an import splits it
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let files = try XCTUnwrap(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "vcf" }
        XCTAssertGreaterThan(files.count, 100)
        var plain = 0, lines = 0
        for file in files {
            let name = file.lastPathComponent
            for line in VCardContentLines.split(try Data(contentsOf: file)) {
                lines += 1
                if VCardProperty.plain(line.bytes) != nil { plain += 1 }
                // When
                let fast = try? VCardProperty(line)
                let slow = try? VCardProperty(general: line)
                // Then
                let text = "\(name):\(line.line)"
                XCTAssertEqual(fast == nil, slow == nil, text)
                guard let fast, let slow else { continue }
                assertSameProperty(fast, slow, text)
            }
        }
        // Both paths taken, many times
        XCTAssertGreaterThan(plain, 1000)
        XCTAssertGreaterThan(lines - plain, 100)
    }

    /// The fast path's property against the general path's, field by field (`types` derives from
    /// the parameters, and is compared too).
    private func assertSameProperty(
        _ fast: VCardProperty, _ slow: VCardProperty, _ text: String, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(fast.group, slow.group, text, file: file, line: line)
        XCTAssertEqual(fast.name, slow.name, text, file: file, line: line)
        XCTAssertEqual(fast.parameters.map(\.name), slow.parameters.map(\.name), text, file: file, line: line)
        XCTAssertEqual(fast.parameters.map(\.values), slow.parameters.map(\.values), text, file: file, line: line)
        XCTAssertEqual(fast.value, slow.value, text, file: file, line: line)
        XCTAssertEqual(fast.raw, slow.raw, text, file: file, line: line)
        XCTAssertEqual(fast.repairs, slow.repairs, text, file: file, line: line)
        XCTAssertEqual(fast.types, slow.types, text, file: file, line: line)
    }

    func test_split_ofTheContiguousBytes_isTheSplitOfTheUTF8View() {
        // Given: escapes, empty parts, multi-byte characters, marks after separators and backslashes
        let values = [
            "", ";", ";;", "a;b", "da Silva;Ngọc;;;", "a\\;b;c", "a\\\\;b", "\\", "a\\", "é;ü\\;x", "山田;太郎",
            "a,b\\,c,", "x\u{301};y", "\\\u{301};z", ";\u{301}", "Café Müller Inc.", "a\\nb;c\\,d,e",
        ]
        // The split as it was, stepping the UTF-8 view
        func viewSplit(_ value: String, _ separator: UInt8) -> [String] {
            let utf8 = value.utf8
            var parts: [String] = [], start = utf8.startIndex, escaped = false, index = utf8.startIndex
            while index != utf8.endIndex {
                let byte = utf8[index]
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == separator {
                    parts.append(String(value[start..<index]))
                    start = utf8.index(after: index)
                }
                index = utf8.index(after: index)
            }
            parts.append(String(value[start...]))
            return parts
        }
        for value in values {
            for separator in [";", ","] as [Character] {
                // When
                let parts = VCardText.split(value, on: separator)
                // Then
                XCTAssertEqual(
                    parts.map { Array($0.utf8) }, viewSplit(value, separator.asciiValue!).map { Array($0.utf8) },
                    value)
            }
        }
        XCTAssertEqual(VCardText.components("da Silva;Ngọc;;;"), ["da Silva", "Ngọc", "", "", ""])
        XCTAssertEqual(VCardText.components("a\\;b;c"), ["a;b", "c"])
    }

    func test_firstValue_isTheFirstOfValuesOf() throws {
        for line in [
            "TEL;VALUE=uri:x", "TEL;VALUE=;VALUE=text,uri:x", "TEL;TYPE=a:x", "TEL:x", "TEL;value=Uri;VALUE=text:x",
        ] {
            let property = try VCardProperty(VCardContentLine(bytes: Array(line.utf8), line: 1))
            XCTAssertEqual(property.firstValue(of: "VALUE"), property.values(of: "VALUE").first, line)
        }
    }

    func test_read_phoneNumbers_telURIsExtensionsAndSemicolons() {
        let numbers = [
            "+48 12 345 67 89": "+48 12 345 67 89", "tel:+1-555-0100": "+1-555-0100", "TEL:+1-555-0101": "+1-555-0101",
            "tel:+1-555-0102;ext=7": "+1-555-0102 ext. 7", "+1 555 0103;phone-context=example.com": "+1 555 0103",
            "+1 ;x": "+1", "tel: 5": "5",
        ]
        for (text, expected) in numbers {
            // When
            let result = read("BEGIN:VCARD\nFN:A B\nTEL;VALUE=uri:\(text)\nEND:VCARD\n")
            // Then
            XCTAssertEqual(result.entries.first?.contact.phones.first?.value, expected, text)
        }
    }

    func test_read_birthdayInTheCommonForms_asTheGeneralPathReadsThem() {
        // Given: dates in the forms read from their bytes, and each as a date-time, which is not
        let dates = [
            ("1990", "05", "17"), ("2000", "02", "29"), ("1900", "02", "29"), ("0000", "01", "01"),
            ("1990", "13", "01"), ("1990", "04", "31"), ("9999", "12", "31"), ("1990", "05", "1x"),
            ("199x", "05", "17"), ("", "05", "17"), ("", "02", "29"), ("", "02", "30"), ("", "00", "10"),
        ]
        for (year, month, day) in dates {
            let forms =
                year.isEmpty
                ? ["--\(month)-\(day)", "--\(month)\(day)"] : ["\(year)-\(month)-\(day)", "\(year)\(month)\(day)"]
            // The store's own parser of the ISO form, and the reader's general path (a date-time)
            let expected = Birthday(parsing: forms[0])
            XCTAssertEqual(VCardReader.birthday(forms[0] + "T00:00:00Z", omittedYear: nil), expected, forms[0])
            for form in forms {
                // When / Then
                XCTAssertEqual(VCardReader.birthday(form, omittedYear: nil), expected, form)
            }
        }
        XCTAssertEqual(VCardReader.birthday("19900517", omittedYear: nil), Birthday(year: 1990, month: 5, day: 17))
        XCTAssertEqual(VCardReader.birthday("--0229", omittedYear: nil), Birthday(year: nil, month: 2, day: 29))
        XCTAssertNil(VCardReader.birthday("1900-02-29", omittedYear: nil), "1900 was no leap year")
        XCTAssertNil(VCardReader.birthday("0000-01-01", omittedYear: nil), "there is no year 0")
        XCTAssertEqual(
            VCardReader.birthday("1604-05-17", omittedYear: "1604"), Birthday(year: nil, month: 5, day: 17),
            "Apple's year for none")
        XCTAssertEqual(VCardReader.birthday("16040517", omittedYear: "1604"), Birthday(year: nil, month: 5, day: 17))
        XCTAssertEqual(VCardReader.birthday(" 1990-05-17 ", omittedYear: nil), Birthday(year: 1990, month: 5, day: 17))
        XCTAssertNil(VCardReader.birthday("1990-5-17", omittedYear: nil), "a month of one digit, as before")
        XCTAssertNil(VCardReader.birthday("1990/05/17", omittedYear: nil))
        XCTAssertNil(VCardReader.birthday("--05-17-18", omittedYear: nil))
    }

    func test_read_rfc6868ParameterEscapes() throws {
        // When
        let property = try VCardProperty(
            VCardContentLine(
                bytes: Array("ADR;LABEL=\"Line^none ^'two^' ^^ three\":;;street".utf8), line: 1))
        // Then
        XCTAssertEqual(property.values(of: "LABEL"), ["Line\none \"two\" ^ three"])
    }

    func test_utf8_acceptsValidUTF8Only_asValidatingDoes() {
        // Given: valid text (a real U+FFFD among it) and each way bytes fail to be UTF-8
        let cases: [[UInt8]] = [
            Array("FN:Ann".utf8), Array("FN:Ñúñez 山田 😀".utf8), Array("FN:a\u{FFFD}b".utf8), [],
            [0x46, 0xFF], [0x46, 0xF0, 0x9F, 0x98], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xEF, 0xBB, 0xBF, 0x46], [0xEF, 0xBB, 0xBF, 0xFF],
        ]
        for bytes in cases {
            // When: read from a slice, as a content line is
            let slice = ([0x20] + bytes + [0x20])[1..<bytes.count + 1]
            // Then
            let expected =
                bytes.starts(with: [0xEF, 0xBB, 0xBF])
                ? String(bytes: bytes, encoding: .utf8)
                : String(validating: bytes, as: UTF8.self)
            XCTAssertEqual(VCardProperty.utf8(slice), expected, "\(bytes)")
        }
        XCTAssertNil(VCardProperty.utf8([0x46, 0xF0, 0x9F, 0x98][...]), "a cut-off character is refused, not repaired")
        XCTAssertEqual(VCardProperty.utf8(Array("FN:a\u{FFFD}b".utf8)[...]), "FN:a\u{FFFD}b")
    }

    func test_read_birthdayForms() {
        let forms = [
            "19900517": Birthday(year: 1990, month: 5, day: 17), "1990-05-17": Birthday(year: 1990, month: 5, day: 17),
            "--0517": Birthday(year: nil, month: 5, day: 17), "--05-17": Birthday(year: nil, month: 5, day: 17),
            "1990-05-17T10:00:00Z": Birthday(year: 1990, month: 5, day: 17),
        ]
        for (text, expected) in forms {
            // When
            let result = read("BEGIN:VCARD\nFN:A B\nBDAY:\(text)\nEND:VCARD\n")
            // Then
            XCTAssertEqual(result.entries.first?.contact.birthday, expected, text)
        }
    }

    func test_read_unreadableBirthday_isKeptAsExtraProperty() {
        // When
        let result = read("BEGIN:VCARD\nFN:A B\nBDAY;VALUE=text:circa 1800\nEND:VCARD\n")
        // Then
        XCTAssertNil(result.entries.first?.contact.birthday)
        XCTAssertEqual(result.entries.first?.contact.extraProperties, ["BDAY;VALUE=text:circa 1800"])
    }

    // MARK: - Bad input

    func test_read_undeclaredWindows1252_readAsWindows1252_andNamed() throws {
        // Given: SAP's export (ical4j-vcard/vcard-vCards-SAP.vcf): Windows-1252 bytes, no CHARSET,
        // and Outlook 2003's quoted-printable LABEL in Latin bytes
        let card =
            Array("BEGIN:VCARD\nVERSION:3.0\nN:T".utf8) + [0xF6] + Array("cken;Frida;;;\nFN:Frida\nTEL;type=WORK:".utf8)
            + [0xA7] + Array("\nLABEL;HOME;ENCODING=QUOTED-PRINTABLE:Krak=F3w\nEND:VCARD\n".utf8)
        // When
        let result = sut.read(Data(card))
        // Then: the letters, not U+FFFD, and each guess named by its line
        let contact = try XCTUnwrap(result.entries.first?.contact)
        XCTAssertEqual(contact.familyName, "Töcken")
        XCTAssertEqual(contact.phones.map(\.value), ["§"])
        XCTAssertEqual(contact.extraProperties, ["LABEL;HOME:Kraków"])
        XCTAssertEqual(contact.card?.lines.first, "VERSION:3.0")
        XCTAssertTrue(contact.card?.lines.contains("N:Töcken;Frida;;;") == true)
        XCTAssertEqual(result.warnings.filter { $0.reason.contains("Windows-1252") }.map(\.line), [3, 5, 6])
    }

    func test_read_propertyNameNoVCardHas_costsTheLineOnly() throws {
        // Given: Kontact's card (ical4j-vcard/vcard-antoni-kontact.vcf) with a `/` in a property name
        let card = "BEGIN:VCARD\nVERSION:3.0\nFN:Antoni\nX-messaging/gadu-All:123\nEMAIL:a@example.org\nEND:VCARD\n"
        // When
        let result = read(card)
        // Then: the card is read, that line left out and named
        XCTAssertEqual(result.problems, [])
        let contact = try XCTUnwrap(result.entries.first?.contact)
        XCTAssertEqual(contact.emails.map(\.value), ["a@example.org"])
        XCTAssertEqual(contact.card?.lines, ["VERSION:3.0", "FN:Antoni", "EMAIL:a@example.org"])
        XCTAssertEqual(
            result.warnings.withoutAddedNames,
            [
                .init(
                    line: 4, reason: "not a vCard property name: 'X-messaging/gadu-All': the line left out",
                    kind: .changed)
            ])
    }

    func test_read_21Backslashes_readAsTheCharactersTheyAre_asAnExportWritesThem() throws {
        // Given: Android's test card v21_backslash.vcf, and a quoted-printable line break
        let card =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:;A\\;B\\\\;C\\\\\\;;D;\\:E;\\\\\\\\;\r\nFN:A;B\\C\\;D:E\\\\\r\n"
            + "NOTE;ENCODING=QUOTED-PRINTABLE:one=0D=0Atwo\r\nEND:VCARD\r\n"
        // When
        let contact = try XCTUnwrap(read(card).entries.first?.contact)
        let back = try XCTUnwrap(read(VCardWriter(version: .v3).card(for: contact)).entries.first?.contact)
        // Then: 2.1 escapes only a component's `\;` (and `\\`); the 3.0 export reads the same
        XCTAssertEqual(contact.fullName, "A;B\\C\\;D:E\\\\")
        XCTAssertEqual(contact.givenName, "A;B\\")
        XCTAssertEqual(contact.notes, "one\ntwo")
        XCTAssertEqual(
            [back.fullName, back.givenName, back.notes], [contact.fullName, contact.givenName, contact.notes])
    }

    func test_read_versionWrittenAs4_isVersion4() throws {
        // Given: ical4j's `VERSION:4` (vcard-group.vcf)
        let result = read("BEGIN:VCARD\nVERSION:4\nFN:A\nitem1.ADR;type=WORK;type=pref:;;Lierstr. 20a\nEND:VCARD\n")
        // When
        let card = try XCTUnwrap(result.entries.first?.contact.card)
        // Then: read and written as the 4.0 card it is (its ADR as it came, not converted from 3.0)
        XCTAssertEqual(card.version, .v4)
        XCTAssertTrue(
            VCardWriter(version: .v4).card(for: try XCTUnwrap(result.entries.first?.contact))
                .contains("item1.ADR;type=WORK;type=pref:;;Lierstr. 20a\r\n"))
    }

    func test_read_whatTheCardsVersionHasNoPlaceFor_namedByLine() {
        // Given: a 3.0 card with 4.0's ANNIVERSARY, a 4.0 card with 3.0's CLASS, a 2.1 AGENT of text
        let file =
            "BEGIN:VCARD\nVERSION:3.0\nFN:A\nANNIVERSARY:20140812\nEND:VCARD\n"
            + "BEGIN:VCARD\nVERSION:4.0\nFN:B\nCLASS:PUBLIC\nEND:VCARD\n"
            + "BEGIN:VCARD\nVERSION:2.1\nN:C\nFN:C\nAGENT:Invalid line\nEND:VCARD\n"
            + "BEGIN:VCARD\nVERSION:3.0\nFN:D\nTEL;TYPE=cell;VALUE=URI:67545678\nEND:VCARD\n"
        // When
        let result = read(file)
        // Then: what an export in the card's version will write otherwise is said at import
        XCTAssertEqual(
            result.warnings.withoutAddedNames,
            [
                .init(
                    line: 4,
                    reason: "ANNIVERSARY: vCard 3.0 has no ANNIVERSARY: an export as 3.0 writes it as X-ANNIVERSARY",
                    kind: .changed),
                .init(line: 9, reason: "CLASS: vCard 4.0 has no CLASS: an export as 4.0 leaves it out", kind: .changed),
                .init(
                    line: 15,
                    reason:
                        "AGENT: neither a card nor a link, which vCard 3.0's AGENT must be: an export as 3.0 writes it as X-AGENT",
                    kind: .changed),
                .init(
                    line: 20, reason: "TEL: VALUE=uri, but \"67545678\" is no URI: an export writes it as text",
                    kind: .changed),
            ])
    }

    func test_read_utf8WithAStrayByte_staysUTF8() throws {
        // Given: UTF-8 letters and one byte that is not (a stray `=80` in an iPhone's NOTE)
        let card = "BEGIN:VCARD\nVERSION:3.0\nFN:A\nNOTE;ENCODING=QUOTED-PRINTABLE:caf=C3=A9 =80\nEND:VCARD\n"
        // When
        let result = read(card)
        // Then: not read as Windows-1252 (`cafÃ©`)
        XCTAssertEqual(result.entries.first?.contact.notes, "café \u{FFFD}")
        XCTAssertEqual(
            result.warnings.withoutAddedNames,
            [.init(line: 4, reason: "NOTE: 1 byte not valid in UTF-8 replaced by U+FFFD", kind: .changed)])
    }

    func test_read_badFile_reportsEachBadCardWithLine_andReadsTheRest() {
        // When
        let result = sut.read(VCardSeeds.fixture("bad.vcf"))
        // Then
        XCTAssertEqual(
            result.entries.map(\.contact.fullName), ["One Good", "Bytes Bad", "nobody@example.org", "Two Good"])
        XCTAssertEqual(result.entries.map(\.line), [2, 12, 17, 24])
        XCTAssertEqual(
            result.problems,
            [
                .init(line: 10, reason: "not a vCard property (no ':' in 'this line has no colon')"),
                .init(line: 21, reason: "the card has no END:VCARD"),
                .init(line: 29, reason: "the card has no END:VCARD (is the file truncated?)"),
            ])
        // The cards have N alone: the FN an export adds is named (and the N too, for the nameless one).
        XCTAssertEqual(
            result.warnings,
            [
                .init(line: 1, reason: "a line outside any card (expected BEGIN:VCARD): skipped", kind: .skipped),
                .init(
                    line: 2,
                    reason: "no FN (display name): an export writes FN:One Good (vCard 3.0 and 4.0 require FN)",
                    kind: .changed),
                .init(
                    line: 12,
                    reason: "no FN (display name): an export writes FN:Bytes Bad (vCard 3.0 and 4.0 require FN)",
                    kind: .changed),
                .init(
                    line: 15, reason: "NOTE: bytes not valid in UTF-8 and no CHARSET: read as Windows-1252",
                    kind: .changed),
                .init(
                    line: 19,
                    reason: "the card has no name (N, FN or ORG): named \"nobody@example.org\" after its EMAIL",
                    kind: .changed),
                .init(
                    line: 17,
                    reason:
                        "no FN (display name): an export writes FN:nobody@example.org (vCard 3.0 and 4.0 require FN)",
                    kind: .changed),
                .init(
                    line: 17,
                    reason: "no N (name parts): an export writes N:;nobody@example.org;;; beside the FN "
                        + "(3.0 requires N; in 4.0 it keeps the name's parts)", kind: .changed),
                .init(
                    line: 24,
                    reason: "no FN (display name): an export writes FN:Two Good (vCard 3.0 and 4.0 require FN)",
                    kind: .changed),
            ])
    }

    func test_read_enormousLine_makesItsCardUnreadable() {
        // Given
        sut = VCardReader(maximumLineBytes: 1_000)
        let huge = String(repeating: "A", count: 100_000)
        // When
        let result = read("BEGIN:VCARD\nFN:Big\nNOTE:\(huge)\nEND:VCARD\nBEGIN:VCARD\nFN:Small One\nEND:VCARD\n")
        // Then
        XCTAssertEqual(result.entries.map(\.contact.fullName), ["Small One"])
        XCTAssertEqual(result.problems, [.init(line: 3, reason: "the line is longer than 1000 bytes")])
    }

    func test_read_emptyAndBinaryInput_neverCrash() {
        XCTAssertEqual(sut.read(Data()), ParsedContacts())
        XCTAssertEqual(sut.read(Data([0xFF, 0x00, 0xFE, 0x0A, 0x0D])).entries, [])
    }

    func test_theNameOrderOfTheCardsFN_isKept() throws {
        // When
        let result = read(
            "BEGIN:VCARD\nN:山田;太郎;;;\nFN:山田 太郎\nEND:VCARD\nBEGIN:VCARD\nN:Lee;Ann;;;\nFN:Ann Lee\nEND:VCARD\n")
        // Then
        XCTAssertEqual(result.entries.map(\.contact.nameOrder), [.familyFirst, .givenFirst])
        XCTAssertEqual(result.entries.map(\.contact.fullName), ["山田 太郎", "Ann Lee"])
    }
}
