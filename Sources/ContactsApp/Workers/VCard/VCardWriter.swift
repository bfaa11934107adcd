import Foundation

/// Writes contacts as vCard 4.0 (RFC 6350), or 3.0 (RFC 2426) for older programs.
///
/// Lines end in CRLF and are folded at 75 octets without splitting a UTF-8 character; text is
/// escaped. Properties kept from an import (`Contact.extraProperties`) are written back as
/// they came. Labels that are vCard types (`home`, `work`, `mobile` as `cell`, ...) become
/// `TYPE`s; any other label is written the way Apple and Google do, as an `itemN.X-ABLabel`.
public struct VCardWriter {
    public enum Version: String, Sendable {
        case v3 = "3.0"
        case v4 = "4.0"
    }

    public let version: Version

    public init(version: Version = .v4) { self.version = version }

    /// One card, every line folded and ending in CRLF.
    public func card(for contact: Contact) -> String {
        var out: [UInt8] = []
        append(contact, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends one card's bytes (as `card(for:)`) to `out`.
    ///
    /// Written into one byte buffer, line by line, instead of building an array of strings
    /// per card and folding each: measured with `perf`, an export of 100k contacts spent most of
    /// its time in those strings, `String(format:)` and `Calendar`. The bytes are the same.
    public func append(_ contact: Contact, to out: inout [UInt8]) {
        var notes: [String] = []
        append(contact, to: &out, notes: &notes)
    }

    /// `append(_:to:)`, with what writing a kept card in this version changed or dropped added
    /// to `notes` (`VCardVersionConverter`'s sentences, and the FN or N it was given), for the
    /// export's report. A contact written from its fields has none.
    public func append(_ contact: Contact, to out: inout [UInt8], notes: inout [String]) {
        var lines = Lines(out: out)
        out = []
        lines.line("BEGIN:VCARD")
        lines.line(version == .v4 ? "VERSION:4.0" : "VERSION:3.0")
        if let card = contact.card {
            appendCard(card, of: contact, to: &lines, notes: &notes)
            lines.line("END:VCARD")
            out = lines.out
            return
        }
        var groups = Groups(taken: contact.extraProperties)
        if !contact.uid.isEmpty { lines.start("UID:"); lines.escaped(contact.uid); lines.end() }
        lines.start("FN:"); lines.escaped(contact.fullName); lines.end()
        lines.start("N:")
        lines.escaped(contact.familyName); lines.raw(";")
        lines.escaped(contact.givenName); lines.raw(";;")
        if !contact.extraProperties.isEmpty {
            lines.escaped(extra(VCardReader.namePrefixProperty, in: contact)); lines.raw(";")
            lines.escaped(extra(VCardReader.nameSuffixProperty, in: contact))
        } else {
            lines.raw(";")
        }
        lines.end()
        if !contact.nickname.isEmpty { lines.start("NICKNAME:"); lines.escaped(contact.nickname); lines.end() }
        if !contact.organization.isEmpty { lines.start("ORG:"); lines.escaped(contact.organization); lines.end() }
        if !contact.title.isEmpty { lines.start("TITLE:"); lines.escaped(contact.title); lines.end() }
        for phone in contact.phones { write(.phone(phone), &groups, &lines) }
        for email in contact.emails { write(.email(email), &groups, &lines) }
        for address in contact.addresses { write(.address(address), &groups, &lines) }
        for website in contact.websites { write(.website(website), &groups, &lines) }
        if let birthday = contact.birthday { lines.line(self.birthday(birthday)) }
        if !contact.notes.isEmpty { lines.start("NOTE:"); lines.escaped(contact.notes); lines.end() }
        if !contact.tags.isEmpty {
            lines.start("CATEGORIES:")
            for (index, tag) in contact.tags.enumerated() {
                if index > 0 { lines.raw(",") }
                lines.escaped(tag)
            }
            lines.end()
        }
        lines.start("REV:"); Self.appendTimestamp(contact.updatedAt, to: &lines.out); lines.end()
        for line in contact.extraProperties where !Self.isNameAffix(line) { lines.line(line) }
        lines.line("END:VCARD")
        out = lines.out
    }

    /// A card kept from an import or a sync, written back as it came (`CardPatch` has already
    /// made it say what the fields say), in this writer's version. A card that came without a
    /// UID, or with one another contact had (the import gave it a new one and said so), is
    /// written with the contact's, so the next import of the file finds the contact.
    private func appendCard(_ card: VCardRecord, of contact: Contact, to lines: inout Lines, notes: inout [String]) {
        let uid = contact.uid
        var hasUID = false
        let source: VCardVersionConverter.SourceVersion
        switch card.version {
        case .v21: source = .v21
        case .v3: source = .v3
        case .v4: source = .v4
        }
        if source == .v3 && version == .v4
            && appendPlanned(card, of: contact, to: &lines, notes: &notes, plan: VCardVersionConverter.plan3To4)
        {
            return
        }
        if source == VCardVersionConverter.SourceVersion(version) {
            let version = version
            _ = appendPlanned(card, of: contact, to: &lines, notes: &notes) { bytes, notes in
                VCardVersionConverter.planSameVersion(bytes, in: version, notes: &notes)
            }
            return
        }
        // Valid for the version written: 2.1 syntax repaired, 3.0 and 4.0 converted (RFC 6350
        // Appendix A); a card already in this version comes back as it is.
        let converted = VCardVersionConverter.convert(
            card.lines.filter { !Self.isVersionLine($0) }, from: source, to: version)
        notes += converted.notes
        for line in requiredLines(contact, before: converted.lines, notes: &notes) { lines.line(line) }
        for line in converted.lines {
            if Self.isUIDLine(line) {
                guard !hasUID else { continue }
                hasUID = true
                let value = line.splitAtFirst(":").map { VCardText.unescape($0.rest).trimmingSpaces }
                if !uid.isEmpty && value != uid { lines.start("UID:"); lines.escaped(uid); lines.end(); continue }
            }
            lines.line(line)
        }
        if !hasUID && !uid.isEmpty { lines.start("UID:"); lines.escaped(uid); lines.end() }
    }

    /// `appendCard` from the record's bytes, by a plan of its lines: a 3.0 card in 4.0
    /// (`VCardVersionConverter.plan3To4`), a card in its own version (`planSameVersion`). The
    /// same bytes and notes, with no String per line. False, having written nothing, for a card
    /// the plan does not read.
    private func appendPlanned(
        _ card: VCardRecord, of contact: Contact, to lines: inout Lines, notes: inout [String],
        plan: (UnsafeBufferPointer<UInt8>, inout VCardVersionConverter.Notes) -> [VCardVersionConverter.PlannedLine]?
    ) -> Bool {
        var text = card.text
        return text.withUTF8 { bytes in
            var converterNotes = VCardVersionConverter.Notes()
            guard let plan = plan(bytes, &converterNotes) else { return false }
            notes += converterNotes.sentences
            var hasFN = false, hasN = false
            func see(_ name: NameProperty) {
                if name == .fn { hasFN = true } else if name == .n { hasN = true }
            }
            for line in plan {
                switch line {
                case .kept(let range), .preferred(let range, _, _):
                    see(Self.nameProperty(UnsafeBufferPointer(rebasing: bytes[range])))
                case .converted(let converted): for text in converted { see(Self.nameProperty(text)) }
                }
            }
            for line in requiredLines(contact, hasFN: hasFN, hasN: hasN, notes: &notes) { lines.line(line) }
            var hasUID = false
            // The contact's UID in place of the card's first (`appendCard`), the card's others left out.
            func keepsUID(_ line: String) -> Bool {
                guard Self.isUIDLine(line) else { return true }
                guard !hasUID else { return false }
                hasUID = true
                let value = line.splitAtFirst(":").map { VCardText.unescape($0.rest).trimmingSpaces }
                if !contact.uid.isEmpty && value != contact.uid {
                    lines.start("UID:"); lines.escaped(contact.uid); lines.end(); return false
                }
                return true
            }
            for line in plan {
                switch line {
                case .kept(let range):
                    let line = UnsafeBufferPointer(rebasing: bytes[range])
                    if Self.isUIDLine(line) {
                        // The card's UID byte for byte the contact's (every card of a book its
                        // import made): kept without a String made and unescaped.
                        if !hasUID && Self.isPlainUIDLine(line, of: contact.uid) {
                            hasUID = true
                        } else if !keepsUID(String(decoding: line, as: UTF8.self)) {
                            continue
                        }
                    }
                    lines.line(line)
                case .preferred(let range, let colon, let name):
                    lines.startLine()
                    lines.out.append(
                        contentsOf: UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<name.lowerBound]))
                    for byte in UnsafeBufferPointer(rebasing: bytes[name]) {
                        lines.out.append(byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte)
                    }
                    VCardVersionConverter.Syntax.appendPrefAs4Parameters(
                        UnsafeBufferPointer(rebasing: bytes[range]), (true, colon), to: &lines.out)
                    lines.end()
                case .converted(let converted):
                    for line in converted where keepsUID(line) { lines.line(line) }
                }
            }
            if !hasUID && !contact.uid.isEmpty { lines.start("UID:"); lines.escaped(contact.uid); lines.end() }
            return true
        }
    }

    /// FN is required in 3.0 and 4.0, N in 3.0: the lines a card that came without them (a phone's
    /// card with only a number, a 4.0 card with FN alone) is written with first, from the fields.
    /// N too when FN was missing, in 4.0 as well: read back, an FN alone would be split into names
    /// ("+81 3 0000 0000" into a given and a family name); an N keeps the fields as they are.
    func requiredLines(_ contact: Contact, before lines: [String]) -> [String] {
        var notes: [String] = []
        return requiredLines(contact, before: lines, notes: &notes)
    }

    /// `requiredLines(_:before:)`, each line added named in `notes` (`Self.addedNote`).
    func requiredLines(_ contact: Contact, before lines: [String], notes: inout [String]) -> [String] {
        var hasFN = false, hasN = false
        for line in lines {
            switch Self.nameProperty(line) {
            case .fn: hasFN = true
            case .n: hasN = true
            case .other: break
            }
        }
        return requiredLines(contact, hasFN: hasFN, hasN: hasN, notes: &notes)
    }

    private func requiredLines(_ contact: Contact, hasFN: Bool, hasN: Bool, notes: inout [String]) -> [String] {
        var required: [String] = []
        if !hasFN { required.append("FN:" + VCardText.escape(contact.fullName)) }
        if !hasN && (version == .v3 || !hasFN) {
            required.append(
                "N:" + VCardText.escape(contact.familyName) + ";" + VCardText.escape(contact.givenName) + ";;;")
        }
        guard !required.isEmpty else { return [] }
        // Names read from a card keep what they held; a control character never goes out.
        var removed = VCardVersionConverter.Notes()
        required = required.map {
            VCardVersionConverter.ControlCharacters.contains($0)
                ? VCardVersionConverter.ControlCharacters.removed(from: $0, notes: &removed) : $0
        }
        if !hasFN { notes.append(Self.addedNote("FN", version: version)) }
        if !hasN && (version == .v3 || !hasFN) { notes.append(Self.addedNote("N", version: version)) }
        return required
    }

    /// The note for an FN or N the card did not have, written from the contact's name.
    static func addedNote(_ name: String, version: Version) -> String {
        name == "FN"
            ? "FN added from the contact's name (vCard \(version.rawValue) requires FN; the card had none)"
            : version == .v3
                ? "N added from the contact's name (vCard 3.0 requires N; the card had none)"
                : "N added from the contact's name beside the FN added (so the name reads back in its parts)"
    }

    /// Whether a line is `FN` or `N` (grouped or not, any case), by its bytes: every line of
    /// every card exported comes here.
    enum NameProperty { case fn, n, other }

    static func nameProperty(_ line: String) -> NameProperty {
        var line = line
        return line.withUTF8(nameProperty)
    }

    static func nameProperty(_ bytes: UnsafeBufferPointer<UInt8>) -> NameProperty {
        var start = 0, end = 0
        while end < bytes.count, bytes[end] != UInt8(ascii: ":"), bytes[end] != UInt8(ascii: ";") {
            if bytes[end] == UInt8(ascii: ".") { start = end + 1 }
            end += 1
        }
        switch end - start {
        case 1 where bytes[start] | 0x20 == UInt8(ascii: "n"): return .n
        case 2 where bytes[start] | 0x20 == UInt8(ascii: "f") && bytes[start + 1] | 0x20 == UInt8(ascii: "n"):
            return .fn
        default: return .other
        }
    }

    // By bytes: both names are ASCII, and an upper-cased String per line cost 4 % of an export.
    private static func isVersionLine(_ line: String) -> Bool {
        var line = line
        return line.utf8.count <= 16 && line.withUTF8 { VCardRecord.startsWithVersionName($0) }
    }

    /// `UID:` or `UID;` at the start, in any case.
    private static func isUIDLine(_ line: String) -> Bool {
        // Four bytes from an iterator: indexing `utf8.prefix(4)` was 2 % of an export (issue 32).
        var bytes = line.utf8.makeIterator()
        guard bytes.next().map({ $0 & 0xDF == UInt8(ascii: "U") }) == true,
            bytes.next().map({ $0 & 0xDF == UInt8(ascii: "I") }) == true,
            bytes.next().map({ $0 & 0xDF == UInt8(ascii: "D") }) == true,
            let separator = bytes.next()
        else { return false }
        return separator == UInt8(ascii: ":") || separator == UInt8(ascii: ";")
    }

    /// Whether a UID line's value is `uid`'s bytes, with nothing that unescaping or trimming
    /// it would change (no backslash or CR; no space, tab or byte beyond ASCII at either end):
    /// `keepsUID` would keep it then. Bytes that differ may still be the same String (Unicode's
    /// canonical equivalence): the String's way decides those.
    private static func isPlainUIDLine(_ line: UnsafeBufferPointer<UInt8>, of uid: String) -> Bool {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let value = UnsafeBufferPointer(rebasing: line[(colon + 1)...])
        guard let first = value.first, let last = value.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F,
            memchr(value.baseAddress!, 0x5C, value.count) == nil, memchr(value.baseAddress!, 0x0D, value.count) == nil
        else { return false }
        var uid = uid
        return uid.withUTF8 { $0.count == value.count && memcmp($0.baseAddress!, value.baseAddress!, value.count) == 0 }
    }

    private static func isUIDLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 4 && bytes[0] & 0xDF == UInt8(ascii: "U") && bytes[1] & 0xDF == UInt8(ascii: "I")
            && bytes[2] & 0xDF == UInt8(ascii: "D")
            && (bytes[3] == UInt8(ascii: ":") || bytes[3] == UInt8(ascii: ";"))
    }

    /// Lines appended to a byte buffer, each folded and ended with CRLF as it is closed.
    private struct Lines {
        var out: [UInt8]
        private var lineStart = 0
        /// False for lines handed to `CardPatch`: each ends in LF alone, unfolded.
        private let folds: Bool

        init(out: [UInt8], folds: Bool = true) { self.out = out; self.folds = folds }

        mutating func start(_ text: String) { lineStart = out.count; raw(text) }

        mutating func raw(_ text: String) {
            var text = text
            text.withUTF8 { out.append(contentsOf: $0) }
        }

        mutating func line(_ text: String) { start(text); end() }

        mutating func line(_ bytes: UnsafeBufferPointer<UInt8>) { startLine(); out.append(contentsOf: bytes); end() }

        /// Starts a line whose bytes the caller appends to `out`.
        mutating func startLine() { lineStart = out.count }

        /// `VCardText.escape`, by bytes (every character it escapes is ASCII): the runs between
        /// escaped bytes are appended whole, as most values have none (byte by byte, this was
        /// the export's largest single cost).
        mutating func escaped(_ text: String) {
            var text = text
            text.withUTF8 { bytes in
                var run = 0, previousCR = false
                for (index, byte) in bytes.enumerated() {
                    let escape: UInt8?
                    switch byte {
                    case 0x5C: escape = 0x5C
                    case 0x0A: escape = previousCR ? 0 : UInt8(ascii: "n")
                    case 0x0D: escape = UInt8(ascii: "n")
                    case 0x2C: escape = 0x2C
                    case 0x3B: escape = 0x3B
                    default: escape = nil
                    }
                    previousCR = byte == 0x0D
                    guard let escape else { continue }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                    if escape != 0 { out.append(0x5C); out.append(escape) } // 0: a CRLF's LF, already written
                    run = index + 1
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
            }
        }

        /// Ends the line begun by `start`: CRLF, folded first if longer than 75 octets.
        mutating func end() {
            if !folds {
                out.append(0x0A)
            } else if out.count - lineStart > 75 {
                let line = Array(out[lineStart...])
                out.removeSubrange(lineStart...)
                VCardWriter.appendFolded(line, to: &out)
            } else {
                out.append(0x0D); out.append(0x0A)
            }
        }
    }

    // MARK: - One item, for a card's patch

    /// The unfolded line (or two, with an `itemN.X-ABLabel`) this writer writes for one phone,
    /// email or address; `taken` are the group names the card already uses.
    func lines(for item: CardItem, taken: [String]) -> [String] {
        var groups = Groups(taken: taken)
        var lines = Lines(out: [], folds: false)
        write(item, &groups, &lines)
        return String(decoding: lines.out, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    enum CardItem {
        case phone(LabeledValue), email(LabeledValue), address(PostalAddress), website(LabeledValue)
    }

    /// One phone, email, address or website, as a card written from the fields and a card's patch write it.
    private func write(_ item: CardItem, _ groups: inout Groups, _ lines: inout Lines) {
        switch item {
        case .phone(let phone):
            labelled("TEL", phone.label, known: Self.phoneTypes, &groups, &lines) { $0.escaped(phone.value) }
        case .email(let email):
            labelled("EMAIL", email.label, known: Self.placeTypes, &groups, &lines) { $0.escaped(email.value) }
        case .address(let address):
            labelled("ADR", address.label, known: Self.placeTypes, &groups, &lines) {
                $0.raw(";;")
                $0.escaped(address.street); $0.raw(";")
                $0.escaped(address.city); $0.raw(";")
                $0.escaped(address.region); $0.raw(";")
                $0.escaped(address.postalCode); $0.raw(";")
                $0.escaped(address.country)
            }
        case .website(let website):
            labelled("URL", website.label, known: Self.placeTypes, &groups, &lines) { $0.escaped(website.value) }
        }
    }

    /// Whether a label is written as `TYPE`s (not as an `X-ABLabel`).
    static func isTypeLabel(_ label: String, known: Set<String>) -> Bool {
        let words = label.lowercased().split(separator: " ").map { $0 == "mobile" ? "cell" : String($0) }
        return label.isEmpty || label.lowercased() == "other" || words.allSatisfy(known.contains)
    }

    // MARK: - Labels

    /// Labels that are `TYPE`s of `TEL` in both versions (the label "mobile" is `cell`).
    static let phoneTypes: Set<String> = [
        "home", "work", "cell", "fax", "pager", "voice", "text", "video", "textphone",
    ]
    /// Labels that are `TYPE`s of `EMAIL` and `ADR`.
    static let placeTypes: Set<String> = ["home", "work"]
    /// Each lower-case label of one word that is a `TYPE`, with the `TYPE` it is written as.
    private static let typeOfLabel: [String: String] =
        Dictionary(uniqueKeysWithValues: phoneTypes.map { ($0, $0) }).merging(["mobile": "cell"]) { $1 }

    private func labelled(
        _ name: String, _ label: String, known: Set<String>, _ groups: inout Groups,
        _ lines: inout Lines, value: (inout Lines) -> Void
    ) {
        if label.isEmpty { lines.start(name); lines.raw(":"); value(&lines); lines.end(); return }
        // The common case, one known type as the reader writes it ("home", "mobile"): no folding
        // or splitting of the label for every phone and email of an export.
        if let type = Self.typeOfLabel[label], known.contains(type) {
            lines.start(name); lines.raw(";TYPE="); lines.raw(type); lines.raw(":"); value(&lines); lines.end()
            return
        }
        let lower = label.lowercased()
        if lower == "other" { lines.start(name); lines.raw(":"); value(&lines); lines.end(); return }
        let words = lower.split(separator: " ").map { $0 == "mobile" ? "cell" : String($0) }
        if words.allSatisfy(known.contains) {
            lines.start(name); lines.raw(";TYPE="); lines.raw(words.joined(separator: ",")); lines.raw(":")
            value(&lines)
            lines.end()
            return
        }
        let group = groups.next()
        lines.start(group); lines.raw("."); lines.raw(name); lines.raw(":"); value(&lines); lines.end()
        lines.start(group); lines.raw(".X-ABLabel:"); lines.escaped(label); lines.end()
    }

    /// Group names for custom labels that no kept property already uses.
    private struct Groups {
        var taken: Set<String>
        var counter = 0

        init(taken extras: [String]) {
            if extras.isEmpty { taken = []; return }
            taken = Set(
                extras.compactMap { line in
                    let name = String(String.UnicodeScalarView(line.unicodeScalars.prefix { $0 != ":" && $0 != ";" }))
                    return name.unicodeScalars.firstIndex(of: ".").map {
                        String(name.unicodeScalars[..<$0]).lowercased()
                    }
                })
        }

        mutating func next() -> String {
            repeat { counter += 1 } while taken.contains("item\(counter)")
            return "item\(counter)"
        }
    }

    // MARK: - Values

    /// 4.0: `19900517` or `--0517`. 3.0 has no form without a year: Apple's `1604` with
    /// `X-APPLE-OMIT-YEAR`, which Apple, Google and this reader understand.
    func birthday(_ birthday: Birthday) -> String {
        let monthDay = Self.padded(birthday.month, 2) + Self.padded(birthday.day, 2)
        switch (version, birthday.year) {
        case (.v4, let year?): return "BDAY:" + Self.padded(year, 4) + monthDay
        case (.v4, nil): return "BDAY:--" + monthDay
        case (.v3, let year?):
            return "BDAY:" + Self.padded(year, 4) + "-" + Self.padded(birthday.month, 2) + "-"
                + Self.padded(birthday.day, 2)
        case (.v3, nil):
            return "BDAY;X-APPLE-OMIT-YEAR=1604:1604-" + Self.padded(birthday.month, 2) + "-"
                + Self.padded(birthday.day, 2)
        }
    }

    static func padded(_ value: Int, _ width: Int) -> String { Birthday.padded(value, width) }

    private func extra(_ name: String, in contact: Contact) -> String {
        guard let line = contact.extraProperties.first(where: { $0.hasPrefix(name + ":") }) else { return "" }
        return VCardText.unescape(String(line.dropFirst(name.count + 1)))
    }

    private static func isNameAffix(_ line: String) -> Bool {
        line.hasPrefix(VCardReader.namePrefixProperty + ":") || line.hasPrefix(VCardReader.nameSuffixProperty + ":")
    }

    /// `20231114T221320Z`, in UTC whatever the machine's time zone.
    static func timestamp(_ date: Date) -> String {
        var out: [UInt8] = []
        appendTimestamp(date, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The timestamp's bytes, from the seconds since 1970 by the civil-from-days algorithm
    /// (proleptic Gregorian, UTC: what `Calendar(identifier: .gregorian)` in UTC gives, tested
    /// against it) instead of a `Calendar` and `String(format:)` per card.
    static func appendTimestamp(_ date: Date, to out: inout [UInt8]) {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < 1e11 else {
            return out.append(contentsOf: Array(calendarTimestamp(date).utf8))
        }
        let seconds = Int(interval.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Howard Hinnant's days_from_civil inverse.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        guard year >= 0 && year <= 9999 else { return out.append(contentsOf: Array(calendarTimestamp(date).utf8)) }
        func two(_ value: Int) { out.append(0x30 + UInt8(value / 10)); out.append(0x30 + UInt8(value % 10)) }
        two(year / 100); two(year % 100); two(month); two(day)
        out.append(UInt8(ascii: "T"))
        two(secondOfDay / 3600); two(secondOfDay / 60 % 60); two(secondOfDay % 60)
        out.append(UInt8(ascii: "Z"))
    }

    /// The timestamp through `Calendar`, for dates outside years 0-9999.
    static func calendarTimestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0,
            c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    // MARK: - Folding

    /// The line with CRLF, folded so no physical line exceeds 75 octets (CRLF not counted);
    /// a fold never falls inside a UTF-8 character.
    static func fold(_ line: String) -> String {
        let bytes = Array(line.utf8)
        guard bytes.count > 75 else { return line + "\r\n" }
        var out: [UInt8] = []
        appendFolded(bytes, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func appendFolded(_ bytes: [UInt8], to out: inout [UInt8]) {
        out.reserveCapacity(out.count + bytes.count + bytes.count / 70 * 3 + 2)
        var start = 0, limit = 75
        while start < bytes.count {
            var end = min(start + limit, bytes.count)
            while end < bytes.count && end > start + 1 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            if start > 0 { out.append(0x20) }
            out += bytes[start..<end]
            out += [0x0D, 0x0A]
            start = end
            limit = 74 // the leading space of a continuation counts
        }
    }
}
