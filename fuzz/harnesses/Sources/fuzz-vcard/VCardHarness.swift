import Foundation
import FuzzSupport

@testable import ContactsApp

/// One input is a .vcf file as another program could export it.
///
/// Checks, beyond no crash, leak or hang:
/// - reading the file a chunk at a time (the first byte picks the chunk size) gives what reading
///   it whole gives, as `read(batchSize:nextChunk:_:)` promises, but that it stops at a line over
///   the limit outside any card, which reading it whole names;
/// - every contact read is written in its card's own version (`sameVersionTrip`), in the other
///   version or versions (`otherVersionTrip`), and each card written is well formed
///   (`checkWellFormed`); the checks are stated on those functions;
/// - a contact just read is what its card says: the store's `CardPatch.reconciled`, which every
///   save goes through, changes nothing in it (`checkPatchKeeps`); an edit saved is what the
///   card then says (`checkPatchedEdit`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVCard(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = input(start, count)
    let reader = VCardReader(maximumLineBytes: 4096)
    let whole = reader.read(Data(bytes))

    let chunkSize = Int(bytes.first ?? 0) % 61 + 1
    var streamed = ParsedContacts()
    var offset = 0
    var stopped: VCardReader.LineTooLong?
    do {
        try reader.read(
            batchSize: 2,
            nextChunk: { chunk in
                guard offset < bytes.count else { return false }
                chunk = Array(bytes[offset..<min(offset + chunkSize, bytes.count)])
                offset += chunkSize
                return true
            }
        ) { batch in
            streamed.entries += batch.entries
            streamed.problems += batch.problems
            streamed.warnings += batch.warnings
            streamed.skippedLines += batch.skippedLines
        }
    } catch let tooLong as VCardReader.LineTooLong {
        stopped = tooLong
    } catch {
        fatalError("reading in chunks threw \(error)")
    }
    if let stopped {
        // In chunks, a line over the limit outside any card stops the reading (a file read as it
        // comes may never end: /dev/zero); whole, it is named and the rest read. Up to there the
        // two agree.
        let named = ParsedContacts.Problem(
            line: stopped.line,
            reason: "the line is longer than 4096 bytes, outside any card: not a vCard file")
        guard whole.problems.contains(named), streamed.entries == Array(whole.entries.prefix(streamed.entries.count))
        else {
            fatalError(
                "chunks of \(chunkSize) bytes stopped at \(stopped) with \(streamed), the whole file read \(whole)")
        }
    } else {
        guard streamed == whole else {
            fatalError("chunks of \(chunkSize) bytes read \(streamed), the whole file \(whole)")
        }
    }

    for contact in whole.entries.map(\.contact) {
        guard let card = contact.card else { fatalError("a contact read from a vCard has no card: \(contact)") }
        checkPatchKeeps(contact, "as read")
        checkPatchedEdit(contact)
        switch card.version {
        case .v21:
            otherVersionTrip(contact, to: .v3)
            otherVersionTrip(contact, to: .v4)
        case .v3:
            sameVersionTrip(contact, in: .v3)
            otherVersionTrip(contact, to: .v4)
        case .v4:
            sameVersionTrip(contact, in: .v4)
            otherVersionTrip(contact, to: .v3)
        }
    }
    return 0
}

// MARK: - In the card's own version

/// A 3.0 card written as 3.0, or a 4.0 card as 4.0:
/// - the converter is line-local on this path and repairs only what is invalid: converting the
///   card's lines gives, line by line, what converting each line alone gives; a BEGIN, END or
///   VERSION line (once its control characters are gone) is dropped; any other line holding no
///   control character and not in 2.1's syntax (`Syntax.needsRepair`) comes back byte for byte
///   with no note; a line that changed comes with a note; every line it gives is valid in the
///   version (no control character, needs no repair);
/// - the card written holds exactly those lines (the converter's output: the card's own lines,
///   but for the repaired ones), after the writer's BEGIN and VERSION, except the UID line: one
///   UID line saying the contact's UID (none when it has none and the card had none), the
///   card's own line byte for byte when it said the same;
/// - read back, its card's lines are what was written, and its contact is what reading the
///   converter's output gives (with the contact's UID): so with nothing repaired, the same
///   contact, every field, `extraProperties` and the display name included;
/// - written again, the same bytes.
private func sameVersionTrip(_ contact: Contact, in version: VCardWriter.Version) {
    let source = VCardVersionConverter.SourceVersion(version)
    let body = contact.card!.lines.filter { !isVersionLine($0) }
    let converted = VCardVersionConverter.convert(body, from: source, to: version)
    var lineByLine: [String] = []
    for line in body {
        let alone = VCardVersionConverter.convert([line], from: source, to: version)
        lineByLine += alone.lines
        if isWritersOwn(line) {
            guard alone.lines.isEmpty else {
                fatalError("vCard \(version.rawValue): \(line.debugDescription) came back as \(alone.lines)")
            }
        } else if isValid(line, in: version) {
            guard alone.lines == [line], alone.notes.isEmpty else {
                fatalError(
                    "vCard \(version.rawValue): a valid line came back as \(alone.lines) \(alone.notes): \(line.debugDescription)"
                )
            }
        } else if alone.lines != [line] && alone.notes.isEmpty {
            fatalError(
                "vCard \(version.rawValue): a line was changed without a note, \(line.debugDescription) to \(alone.lines)"
            )
        }
        for repaired in alone.lines where !isValid(repaired, in: version) {
            fatalError(
                "vCard \(version.rawValue): the converter's line is not valid vCard \(version.rawValue): \(repaired.debugDescription) (from \(line.debugDescription))"
            )
        }
    }
    guard converted.lines == lineByLine else {
        fatalError("vCard \(version.rawValue): converting the card gave \(converted.lines), line by line \(lineByLine)")
    }

    let writer = VCardWriter(version: version)
    let text = writer.card(for: contact)
    let written = checkWellFormed(text, version: version)
    checkUID(written, contact.uid, keptFrom: converted.lines, text)
    // FN (3.0, 4.0) and N (3.0) are required: a card without them gets them first, from the fields.
    let required = VCardWriter(version: version).requiredLines(contact, before: converted.lines)
    for line in required where !isValid(line, in: version) {
        fatalError("vCard \(version.rawValue): the added \(line.debugDescription) is not valid")
    }
    guard Array(written.prefix(required.count)) == required,
        written.dropFirst(required.count).filter({ !isUIDLine($0) }) == converted.lines.filter({ !isUIDLine($0) })
    else {
        fatalError(
            "vCard \(version.rawValue): the card written is not \(required) then the converter's lines \(converted.lines) (UID aside):\n\(text)"
        )
    }
    let back = readOne(text)
    guard back.card?.lines == ["VERSION:" + version.rawValue] + written else {
        fatalError(
            "vCard \(version.rawValue): the card read back keeps \(back.card?.lines ?? []), not the lines written:\n\(text)"
        )
    }
    let expected = readOne(unfoldedCard(required + converted.lines, uid: contact.uid, version: version))
    guard fields(back) == fields(expected) else {
        fatalError("vCard \(version.rawValue) read back \(difference([fields(expected)], [fields(back)]))\n\(text)")
    }
    if converted.lines == body {
        guard fields(back) == fields(contact) else {
            fatalError(
                "vCard \(version.rawValue), nothing repaired, read back \(difference([fields(contact)], [fields(back)]))\n\(text)"
            )
        }
    }
    let again = writer.card(for: back)
    guard again == text else {
        fatalError("vCard \(version.rawValue) written a second time:\n\(again)\nnot as the first time:\n\(text)")
    }
}

// MARK: - In another version

/// A card written in another version (2.1 in 3.0 and in 4.0, 3.0 in 4.0, 4.0 in 3.0):
/// - read back, as the card reads without its control characters (which every conversion
///   removes first, a raw line break becoming `\n`), the UID, names (given, family, display, nickname), organisation, title, emails,
///   phones (labels too: the TYPEs RFC 6350 Appendix A took out of its lists, and 4.0's text
///   and textphone in 3.0, are kept as the valid iana-tokens they are), addresses, birthday,
///   notes and tags are the same. The order of phones, emails or addresses may change only in a card with PREF parameters (3.0
///   has one preferred item where 4.0 ranks them, and the converter notes the others dropped);
/// - written again in the same version, the same bytes, and read back, the same contact (fields,
///   `extraProperties` and card lines): a conversion is done once.
private func otherVersionTrip(_ original: Contact, to version: VCardWriter.Version) {
    let writer = VCardWriter(version: version)
    let text = writer.card(for: original)
    _ = checkWellFormed(text, version: version)
    let back = readOne(text)
    guard let contact = withoutControlCharacters(original) else { return }
    let hasPref = contact.card!.lines.contains { line in
        let head = (line.splitAtFirst(":")?.head ?? line).uppercased()
        return head.contains(";PREF") || head.contains("PREF,") || head.contains("=PREF")
    }
    func same<T: Equatable>(_ what: String, _ before: [T], _ after: [T], _ key: (T) -> String) {
        guard before != after else { return }
        if hasPref, before.map(key).sorted() == after.map(key).sorted() { return }
        fatalError("vCard \(version.rawValue): \(what) \(before) read back as \(after)\n\(text)")
    }
    func check<T: Equatable>(_ what: String, _ before: T, _ after: T) {
        guard before == after else {
            fatalError("vCard \(version.rawValue): \(what) \(before) read back as \(after)\n\(text)")
        }
    }
    check("the UID", contact.uid, back.uid)
    check("the given name", contact.givenName, back.givenName)
    check("the family name", contact.familyName, back.familyName)
    check("the display name", contact.fullName, back.fullName)
    check("the nickname", contact.nickname, back.nickname)
    check("the organisation", contact.organization, back.organization)
    check("the title", contact.title, back.title)
    check("the birthday", contact.birthday, back.birthday)
    check("the notes", contact.notes, back.notes)
    check("the tags", contact.tags, back.tags)
    same("the phones", contact.phones, back.phones) { $0.label + "\u{1}" + $0.value }
    same("the emails", contact.emails, back.emails) { $0.label + "\u{1}" + $0.value }
    same("the addresses", contact.addresses, back.addresses) { "\($0)" }

    let again = writer.card(for: back)
    guard again == text else {
        fatalError("vCard \(version.rawValue) written a second time:\n\(again)\nnot as the first time:\n\(text)")
    }
    let backAgain = readOne(again)
    guard fields(backAgain) == fields(back), backAgain.card == back.card else {
        fatalError("vCard \(version.rawValue) read back, a second time, \(difference([back], [backAgain]))\n\(text)")
    }
    checkPatchKeeps(back, "written in vCard \(version.rawValue) and read back")
}

/// The contact as its card reads with the converter's first step done on every line: control
/// characters removed, and then the lines naming BEGIN, END or VERSION dropped (the card is read
/// in the version it was). Nil when those lines, read as a card, are not the same lines: a
/// removal can make a parameter say quoted-printable, whose trailing `=` would join the next
/// line, or leave a card with nothing in it (`D:<NUL>`); the converter works line by line and
/// never joins them, so such a card has no oracle here (the other checks still hold for it).
private func withoutControlCharacters(_ contact: Contact) -> Contact? {
    let card = contact.card!
    let lines = card.lines
    guard lines.contains(where: VCardVersionConverter.ControlCharacters.contains) else { return contact }
    var notes = VCardVersionConverter.Notes()
    let cleaned = lines.map { line in
        VCardVersionConverter.ControlCharacters.contains(line)
            ? VCardVersionConverter.ControlCharacters.removed(from: line, notes: &notes) : line
    }.filter { !isWritersOwn($0) }
    let text = (["BEGIN:VCARD", "VERSION:" + card.version.rawValue] + cleaned + ["END:VCARD"]).map { $0 + "\r\n" }
        .joined()
    let read = VCardReader().read(Data(text.utf8))
    guard read.problems.isEmpty, read.entries.count == 1, let readCard = read.entries[0].contact.card,
        readCard.lines.filter({ !isVersionLine($0) }).count == cleaned.count
    else { return nil }
    return read.entries[0].contact
}

// MARK: - What is written

/// Every card written, whatever its version: BEGIN, the writer's VERSION, END; no control
/// character but the CRLF ending each line (a tab is allowed: RFC 6350 §3.3's VALUE-CHAR has
/// WSP); every physical line at most 75 octets; every unfolded line a name and a colon.
/// Returns the unfolded lines between VERSION and END.
@discardableResult
private func checkWellFormed(_ text: String, version: VCardWriter.Version) -> [String] {
    let bytes = Array(text.utf8)
    var previous: UInt8 = 0
    for (index, byte) in bytes.enumerated() {
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        let allowed = byte == 0x09 || (byte == 0x0D && next == 0x0A) || (byte == 0x0A && previous == 0x0D)
        if (byte < 0x20 && !allowed) || byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte <= 0x9F) {
            fatalError(
                "vCard \(version.rawValue): a control character (byte \(byte)) at byte \(index) of\n\(text.debugDescription)"
            )
        }
        previous = byte
    }
    guard text.hasSuffix("\r\n") else {
        fatalError("vCard \(version.rawValue): the card does not end in CRLF:\n\(text.debugDescription)")
    }
    var logical: [String] = []
    for physical in text.utf8.dropLast(2).split(separator: 0x0D, omittingEmptySubsequences: false) {
        let line = physical.first == 0x0A ? physical.dropFirst() : physical[...]
        guard line.count <= 75 else {
            fatalError("vCard \(version.rawValue): a line of \(line.count) octets:\n\(text)")
        }
        if line.first == 0x20 || line.first == 0x09 {
            guard !logical.isEmpty else { fatalError("vCard \(version.rawValue): a continuation first:\n\(text)") }
            logical[logical.count - 1] += String(decoding: line.dropFirst(), as: UTF8.self)
        } else {
            logical.append(String(decoding: line, as: UTF8.self))
        }
    }
    for line in logical {
        // Scalars, not Characters: `:` and a combining mark after it are one Character.
        let name = line.unicodeScalars.prefix { $0 != ":" && $0 != ";" }
        // A group or name is kept as the card had it (the reader takes `i tem2.TEL`).
        guard !name.isEmpty, line.unicodeScalars.contains(":") else {
            fatalError(
                "vCard \(version.rawValue): a line without a name or colon, \(line.debugDescription), in\n\(text)")
        }
    }
    guard logical.count >= 3, logical.first == "BEGIN:VCARD", logical[1] == "VERSION:" + version.rawValue,
        logical.last == "END:VCARD"
    else {
        fatalError("vCard \(version.rawValue): not one card's BEGIN, VERSION and END:\n\(text)")
    }
    let inside = Array(logical.dropFirst(2).dropLast())
    if let marker = inside.first(where: { ["BEGIN:VCARD", "END:VCARD"].contains($0.uppercased()) }) {
        fatalError("vCard \(version.rawValue): a line that ends or begins a card, \(marker), inside one:\n\(text)")
    }
    return inside
}

/// One UID line, saying the contact's UID (none for a contact without one, unless its card had
/// an empty one); the card's own line as it was when it said the same.
private func checkUID(_ written: [String], _ uid: String, keptFrom lines: [String], _ text: String) {
    let uids = written.filter(isUIDLine)
    let values = uids.map(uidValue)
    guard uids.count <= 1, uid.isEmpty ? values.allSatisfy(\.isEmpty) : values == [uid] else {
        fatalError("the card written has the UID lines \(uids), not one for \(uid.debugDescription):\n\(text)")
    }
    if let own = lines.first(where: isUIDLine), uidValue(own) == uid, uids != [own] {
        fatalError("the card's UID line \(own.debugDescription) was written as \(uids)")
    }
}

private func isUIDLine(_ line: String) -> Bool {
    // By scalars, as the writer: `UID:` and a combining mark is one Character, and still a UID line.
    let upper = String(String.UnicodeScalarView(line.unicodeScalars.prefix(4))).uppercased()
    return upper == "UID:" || upper == "UID;"
}

private func uidValue(_ line: String) -> String {
    line.splitAtFirst(":").map { VCardText.unescape($0.rest).trimmingSpaces } ?? ""
}

/// BEGIN, END or VERSION, which the writer writes itself: named so once control characters are gone.
private func isWritersOwn(_ line: String) -> Bool {
    var notes = VCardVersionConverter.Notes()
    let text =
        VCardVersionConverter.ControlCharacters.contains(line)
        ? VCardVersionConverter.ControlCharacters.removed(from: line, notes: &notes) : line
    return ["BEGIN", "END", "VERSION"].contains(
        String(text.unicodeScalars.prefix { $0 != ":" && $0 != ";" }).uppercased())
}

private func isVersionLine(_ line: String) -> Bool {
    line.utf8.count <= 16 && String(String.UnicodeScalarView(line.unicodeScalars.prefix(8))).uppercased() == "VERSION:"
}

/// Valid in the version as the converter decides: no control character, not in 2.1's syntax,
/// a property the version has a place for (`Names.hasNoPlace`: 3.0's ANNIVERSARY, 4.0's CLASS),
/// and no REV that is no date and time (dropped).
private func isValid(_ line: String, in version: VCardWriter.Version) -> Bool {
    !VCardVersionConverter.ControlCharacters.contains(line)
        && !VCardVersionConverter.Syntax.needsRepair(line, in: version)
        && !VCardVersionConverter.Names.hasNoPlace(line, in: version)
        && !VCardVersionConverter.isUnreadableRevision(line)
}

/// The lines as one card, unfolded, UID lines replaced by the contact's: what the writer is
/// checked against, written without the writer.
private func unfoldedCard(_ lines: [String], uid: String, version: VCardWriter.Version) -> String {
    var card = ["BEGIN:VCARD", "VERSION:" + version.rawValue] + lines.filter { !isUIDLine($0) }
    if !uid.isEmpty { card.append("UID:" + VCardText.escape(uid)) }
    return (card + ["END:VCARD"]).map { $0 + "\r\n" }.joined()
}

// MARK: - Reading back

/// The one contact a card written reads as; a problem or another count is a failure.
private func readOne(_ text: String) -> Contact {
    let read = VCardReader().read(Data(text.utf8))
    guard read.problems.isEmpty, read.entries.count == 1 else {
        fatalError("a card written reads as \(read.entries.count) contacts with problems \(read.problems):\n\(text)")
    }
    return read.entries[0].contact
}

/// What a contact says, without its card (compared on its own) and the store's bookkeeping.
private func fields(_ contact: Contact) -> Contact {
    var contact = contact
    contact.card = nil
    contact.id = nil
    contact.version = 0
    return contact
}

/// The store patches a contact's card on every save (`CardPatch.reconciled`): a contact whose
/// fields are what its card says saves as it is, card and display name unchanged.
private func checkPatchKeeps(_ contact: Contact, _ when: String) {
    let patched = CardPatch.reconciled(contact)
    guard patched == contact else {
        fatalError("a contact \(when), saved unchanged, changed: \(difference([contact], [patched]))")
    }
}

/// Two edits of several fields at once, each saved through `CardPatch.reconciled` as the store
/// does: a phone added, the last email removed, the title, the birthday, the notes and the tags
/// set; and a rename, the first phone and email relabelled (a group's `X-ABLabel`, a `TYPE`),
/// the first website removed and the first address's city changed. The patched card reads as the
/// edited fields, every field not edited and the kept properties included (what the writer makes
/// of a card is checked by the trips above).
private func checkPatchedEdit(_ contact: Contact) {
    var edited = contact
    edited.phones.append(LabeledValue(label: "work", value: "+1 555 0199"))
    if !edited.emails.isEmpty { edited.emails.removeLast() }
    edited.title = "Edited, title"
    edited.birthday = Birthday(year: 2000, month: 2, day: 29)
    edited.notes = "Edited note; with, punctuation\nand a line"
    edited.tags = contact.tags + ["fuzz"]
    checkPatched(edited)
    var renamed = contact
    renamed.givenName = "Renamed; Given"
    if !renamed.phones.isEmpty { renamed.phones[0].label = "Lab bench" }
    if !renamed.emails.isEmpty { renamed.emails[0].label = "work" }
    if !renamed.websites.isEmpty { renamed.websites.removeFirst() }
    if !renamed.addresses.isEmpty { renamed.addresses[0].city = "Edited, City" }
    checkPatched(renamed)
}

private func checkPatched(_ edited: Contact) {
    let patched = CardPatch.reconciled(edited)
    guard let card = patched.card, let view = VCardReader.view(of: card)?.contact else {
        fatalError("the card patched for an edit does not read: \(patched.card?.lines ?? [])")
    }
    func same(_ a: Contact, _ b: Contact) -> Bool {
        CardPatch.sameFields(a, b) && a.addresses == b.addresses
    }
    // A rename renames its word in the display name (`CardPatch.renamedDisplayName`): the card
    // says what the contact saved says, which is the edit but for that.
    var expected = edited
    expected.formattedName = patched.formattedName
    guard fields(patched) == fields(expected) else {
        fatalError("an edit saved as \(difference([fields(expected)], [fields(patched)]))")
    }
    guard same(view, expected) else {
        fatalError(
            "an edit saved reads back as \(difference([fields(expected)], [fields(view)]))\nfrom the card \(card.lines)"
        )
    }
}
