import Foundation

/// Rewrites a card's kept property lines from the vCard version they came in (2.1, 3.0 or 4.0)
/// into valid 3.0 (RFC 2426) or 4.0 (RFC 6350), following RFC 6350 Appendix A.
///
/// A line is one unfolded content line as `VCardProperty.raw` gives it: `group.NAME;P=a,b:value`,
/// the value still vCard-escaped, quoted-printable and `CHARSET` already decoded. VERSION, BEGIN
/// and END are not among the lines. Pure: the same lines give the same answer.
///
/// - Same version in and out: the lines come back byte for byte (the point of keeping the card),
///   except that BEGIN, END and VERSION lines are dropped (as in a conversion: the writer writes
///   its own), control characters are removed and a line the card holds in 2.1's syntax
///   (bare parameters, `ENCODING=BASE64`, CHARSET; any ENCODING in 4.0) is written in the
///   card's own version's syntax, with a note: such a line is not valid in its version, and
///   servers check (SabreDAV refuses an ENCODING in 4.0).
/// - A line that needs no change comes back as it was; a changed line is written anew
///   (parameter names upper-cased, TYPE values in one `TYPE=a,b`, values quoted when they hold
///   `:;,` and RFC 6868's `^` escapes).
/// - `notes` has one sentence for each kind of change that alters or loses what a reader sees:
///   a property or parameter dropped, renamed or moved. Pure re-spellings of the same meaning
///   (2.1's bare parameters, `ENCODING=b` and `data:` URIs, `TYPE=pref` and `PREF=1`, the two
///   ISO 8601 date formats) are not noted. Repeated sentences are given once.
struct VCardVersionConverter {
    /// The version a card was read in.
    enum SourceVersion: String, Sendable, CaseIterable {
        case v21 = "2.1"
        case v3 = "3.0"
        case v4 = "4.0"

        /// From a VERSION property's value (`3.0`, ` 4.0 `); nil for anything else.
        init?(versionValue: String) {
            self.init(rawValue: versionValue.trimmingWhitespaces)
        }

        init(_ version: VCardWriter.Version) {
            self = version == .v4 ? .v4 : .v3
        }
    }

    static func convert(_ lines: [String], from source: SourceVersion, to target: VCardWriter.Version)
        -> (lines: [String], notes: [String])
    {
        var notes = Notes()
        if source == SourceVersion(target) {
            // The fast path of every export of an unchanged card: only the names and parameters
            // are looked at, and a line is parsed only when it is not valid in its own version.
            var out: [String] = []
            out.reserveCapacity(lines.count)
            for line in lines { sameVersion(line, in: target, notes: &notes, to: &out) }
            return (out, notes.sentences)
        }
        var card = Card()
        card.properties.reserveCapacity(lines.count)
        for line in lines {
            let text = ControlCharacters.contains(line) ? ControlCharacters.removed(from: line, notes: &notes) : line
            if Self.isWritersOwn(text) || Self.isUnreadableRevision(text, notes: &notes) { continue }
            // Most lines (FN, NOTE, X- properties without parameters, EMAIL;TYPE=work) need no
            // change, or only `TYPE=pref` as `PREF=1`: they are not parsed (parsing every line
            // with parameters was most of a 3.0 card's conversion to 4.0).
            if let head = Property.head(of: text), !Names.mayConvert(head.name, text) {
                if !head.hasParameters && !(source == .v21 && Card.textIn21.contains(head.name)) {
                    card.properties.append(Property(unchanged: text, group: head.group, name: head.name))
                    continue
                }
                if source != .v21, let plain = Syntax.plainTypes(text) {
                    let line =
                        plain.hasPref && target == .v4
                        ? Syntax.prefAs4(text, plain, group: head.group, name: head.name) : text
                    card.properties.append(Property(unchanged: line, group: head.group, name: head.name))
                    continue
                }
            }
            guard var property = Property(parsing: text, notes: &notes) else {
                notes.add("A line that is not a vCard property was dropped: \(Property.excerpt(text))")
                continue
            }
            // A 3.0 or 4.0 card's line in 2.1's syntax is read as 2.1 first, and written anew
            // (`N;:x`'s empty parameter is no parameter, but not valid either).
            let needsRepair = Syntax.needsRepair(text, in: source == .v4 ? .v4 : .v3)
            property.in21Syntax = source == .v21 || needsRepair
            if needsRepair { property.changed = true }
            card.properties.append(property)
        }
        card.from21(notes: &notes, escapingCommas: source == .v21)
        switch (source, target) {
        case (.v21, .v4), (.v3, .v4): card.to4(notes: &notes)
        // 2.1 has a few of 4.0's properties too (Windows Mobile writes ANNIVERSARY): 3.0 has not.
        case (.v4, .v3), (.v21, .v3): card.to3(notes: &notes)
        default: break
        }
        return (card.lines, notes.sentences)
    }

    /// One line of a card written in its own version: appended to `out` as it is, repaired,
    /// formed as the version has it, or not at all (`convert`'s same-version path, line by line).
    static func sameVersion(
        _ line: String, in target: VCardWriter.Version, notes: inout Notes, to out: inout [String]
    ) {
        var line = line
        if ControlCharacters.contains(line) { line = ControlCharacters.removed(from: line, notes: &notes) }
        // Checked after the control characters are gone: `VERSION:2.\0 1` is a VERSION too.
        if Self.isWritersOwn(line) || Self.isUnreadableRevision(line, notes: &notes) { return }
        if Syntax.needsRepair(line, in: target) {
            // A repaired line may still have no place in the version (fuzz-vcard: a 3.0
            // card's `RELATED;BEGI;N:x`, in 2.1's syntax and 4.0-only): formed as one then.
            for repaired in Syntax.repaired(line, in: target, notes: &notes) {
                if Names.hasNoPlace(repaired, in: target) {
                    out.append(contentsOf: Self.ownVersionForm(repaired, in: target, notes: &notes))
                } else {
                    out.append(repaired)
                }
            }
        } else if Names.hasNoPlace(line, in: target) {
            out.append(contentsOf: Self.ownVersionForm(line, in: target, notes: &notes))
        } else {
            out.append(line)
        }
    }

    /// A line of a card in the version written that the version has no place for (a 3.0 card's
    /// ANNIVERSARY or RELATED, as vcard4android writes them; a 4.0 card's CLASS or a GEO that is
    /// no `geo:` URI, as ical4j's examples hold): written as a conversion into the version would.
    private static func ownVersionForm(_ line: String, in version: VCardWriter.Version, notes: inout Notes) -> [String]
    {
        guard var property = Property(parsing: line, notes: &notes) else { return [line] }
        property.changed = true
        if property.name == "TEL" {
            Card.textTelephoneSaidToBeURI(&property, notes: &notes)
            return [property.line]
        }
        var card = Card(properties: [property])
        if version == .v4 { card.to4(notes: &notes) } else { card.to3(notes: &notes) }
        // `to4` rewrites a GEO silently (a 3.0 card's GEO is valid there); in a 4.0 card it was not.
        if version == .v4 && property.name == "GEO" && card.lines != [line] {
            notes.add("GEO written as vCard 4.0's geo: URI")
        }
        return card.lines
    }

    /// A REV that is no date and time (Evolution's `REV:0`, `REV:2017-05-10T14:36:01Z(2)`): no
    /// reader can use it and validators refuse it, so it is left out, with a note. REV only says
    /// when the card last changed; a card without one is valid.
    static func isUnreadableRevision(_ line: String, notes: inout Notes) -> Bool {
        guard isUnreadableRevision(line), let value = line.splitAtFirst(":")?.rest else { return false }
        notes.add("REV dropped: \(Property.excerpt(value)) is not a date and time")
        return true
    }

    /// `isUnreadableRevision(_:notes:)` without the note: whether the line is such a REV.
    static func isUnreadableRevision(_ line: String) -> Bool {
        guard let first = line.utf8.first, first | 0x20 == UInt8(ascii: "r"),
            let head = Property.head(of: line), head.name == "REV",
            let value = line.splitAtFirst(":")?.rest
        else { return false }
        if let date = DateValue(parsing: value), date.hasFullDate { return false }
        return true
    }

    /// BEGIN, END and VERSION, which the writer writes: not among the lines, and dropped if they are.
    private static func isWritersOwn(_ line: String) -> Bool {
        guard let first = line.utf8.first,
            first | 0x20 == UInt8(ascii: "b") || first | 0x20 == UInt8(ascii: "e")
                || first | 0x20 == UInt8(ascii: "v")
        else { return false }
        // An ASCII name (EMAIL, every E line of an export) is compared by its bytes: building and
        // upper-casing it as a String was 9 % of a 4.0 export (bench/FINDINGS.md, issue 32).
        var name: UInt64 = 0 // its bytes upper-cased, packed; the three names fit
        var length = 0
        for byte in line.utf8 {
            if byte == UInt8(ascii: ":") || byte == UInt8(ascii: ";") { break }
            // Upper-cased, a letter beyond ASCII may become ASCII (`ı` is `I`): the String's way then.
            if byte >= 0x80 { return isWritersOwnByScalars(line) }
            if length == 7 { return false }
            name = name << 8 | UInt64(byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte)
            length += 1
        }
        return name == packedName("BEGIN") || name == packedName("END") || name == packedName("VERSION")
    }

    private static func packedName(_ name: StaticString) -> UInt64 {
        name.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt64($1) } }
    }

    private static func isWritersOwnByScalars(_ line: String) -> Bool {
        // By scalars: `VERSION:` and a combining mark after the colon is one Character.
        let name = String(String.UnicodeScalarView(line.unicodeScalars.prefix { $0 != ":" && $0 != ";" })).uppercased()
        return name == "BEGIN" || name == "END" || name == "VERSION"
    }

    // MARK: - Notes

    struct Notes {
        private(set) var sentences: [String] = []
        private var seen: Set<String> = []

        mutating func add(_ sentence: String) {
            if seen.insert(sentence).inserted { sentences.append(sentence) }
        }
    }

    // MARK: - 2.1 syntax inside a 3.0 or 4.0 card

    /// Lines a 3.0 or 4.0 card holds in 2.1's syntax (Mac OS X Address Book's `PHOTO;BASE64:` with
    /// spaces in the data, `TEL;WORK:`), or with an ENCODING that 4.0 does not have: written as
    /// their own version spells them, since a server checks (SabreDAV refuses `ENCODING=BASE64`).
    enum Syntax {
        /// Looks at the bytes before the value only (and a 3.0 inline binary's for spaces), without
        /// allocating: every line of every same-version export comes here.
        static func needsRepair(_ line: String, in version: VCardWriter.Version, countingCharset: Bool = true) -> Bool {
            func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
                needsRepair(bytes, in: version, countingCharset: countingCharset)
            }
            return line.utf8.withContiguousStorageIfAvailable(scan) ?? Array(line.utf8).withUnsafeBufferPointer(scan)
        }

        /// `needsRepair` of a line's UTF-8 bytes.
        static func needsRepair(
            _ bytes: UnsafeBufferPointer<UInt8>, in version: VCardWriter.Version, countingCharset: Bool = true
        ) -> Bool {
            var quoted = false, encodingB = false
            var segmentStart = -1 // the first parameter's start, once the name has ended
            var index = 0
            while index <= bytes.count {
                let byte = index < bytes.count ? bytes[index] : UInt8(ascii: ":")
                if byte == UInt8(ascii: "\"") { quoted.toggle() }
                if quoted || (byte != UInt8(ascii: ";") && byte != UInt8(ascii: ":")) { index += 1; continue }
                if segmentStart >= 0 {
                    let segment = UnsafeBufferPointer(rebasing: bytes[segmentStart..<index])
                    // A bare parameter (2.1's `TEL;WORK`), CHARSET, or an ENCODING the version has not.
                    guard let equals = segment.firstIndex(of: UInt8(ascii: "=")) else { return true }
                    let name = UnsafeBufferPointer(rebasing: segment[..<equals])
                    if countingCharset && isName(name, "CHARSET") { return true }
                    if isName(name, "ENCODING") {
                        let value = UnsafeBufferPointer(rebasing: segment[(equals + 1)...])
                        if version == .v4 || !(value.count == 1 && value[0] | 0x20 == UInt8(ascii: "b")) {
                            return true
                        }
                        encodingB = true
                    }
                }
                if byte == UInt8(ascii: ":") { break }
                segmentStart = index + 1
                index += 1
            }
            // 3.0's inline binary with the spaces of a 2.1 fold left in it.
            return encodingB
                && (memchr(bytes.baseAddress!, 0x20, bytes.count) != nil
                    || memchr(bytes.baseAddress!, 0x09, bytes.count) != nil)
        }

        /// A line whose parameters are all `TYPE=` with plain values (letters, digits, `-`, `_`;
        /// Apple's `EMAIL;type=INTERNET;type=pref:`), group and name plain too: whether `pref` is
        /// among its types, and the offset of the colon before its value. Nil for any other line.
        /// Such a line is valid as it is in 3.0 and 4.0 but for 4.0's `PREF=1` (`prefAs4`).
        static func plainTypes(_ line: String) -> (hasPref: Bool, colon: Int)? {
            line.utf8.withContiguousStorageIfAvailable(plainTypes)
                ?? Array(line.utf8).withUnsafeBufferPointer(plainTypes)
        }

        /// `plainTypes(_:)` of a line's bytes.
        static func plainTypes(_ bytes: UnsafeBufferPointer<UInt8>) -> (hasPref: Bool, colon: Int)? {
            func isPlain(_ byte: UInt8) -> Bool {
                let letter = byte | 0x20
                return (letter >= 0x61 && letter <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
                    || byte == 0x5F
            }
            var index = 0
            while index < bytes.count, isPlain(bytes[index]) || bytes[index] == UInt8(ascii: ".") { index += 1 }
            guard index > 0, index < bytes.count, bytes[index] == UInt8(ascii: ";") else { return nil }
            var hasPref = false
            while index < bytes.count, bytes[index] == UInt8(ascii: ";") {
                // `TYPE=` in any case, then values separated by commas, none empty.
                guard bytes.count - index > 6 else { return nil }
                for (offset, letter) in "TYPE".utf8.enumerated() where bytes[index + 1 + offset] & 0xDF != letter {
                    return nil
                }
                guard bytes[index + 5] == UInt8(ascii: "=") else { return nil }
                index += 6
                while true {
                    let start = index
                    while index < bytes.count, isPlain(bytes[index]) { index += 1 }
                    guard index > start, index < bytes.count else { return nil }
                    if index - start == 4 && bytes[start] | 0x20 == UInt8(ascii: "p")
                        && bytes[start + 1] | 0x20 == UInt8(ascii: "r")
                        && bytes[start + 2] | 0x20 == UInt8(ascii: "e") && bytes[start + 3] | 0x20 == UInt8(ascii: "f")
                    {
                        hasPref = true
                    }
                    guard bytes[index] == UInt8(ascii: ",") else { break }
                    index += 1
                }
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            return (hasPref, index)
        }

        /// A `plainTypes` line with `pref` as `PREF=1`, as parsing and writing it anew would give:
        /// the name upper-cased, its other types in one `TYPE=a,b`, the value untouched.
        static func prefAs4(_ line: String, _ plain: (hasPref: Bool, colon: Int), group: String?, name: String)
            -> String
        {
            // By bytes: slicing the line as Characters was a quarter of a 3.0 export as 4.0.
            func build(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
                var out: [UInt8] = []
                out.reserveCapacity(bytes.count + 4)
                if let group { out.append(contentsOf: group.utf8); out.append(UInt8(ascii: ".")) }
                out.append(contentsOf: name.utf8)
                appendPrefAs4Parameters(bytes, plain, to: &out)
                return String(decoding: out, as: UTF8.self)
            }
            var line = line
            return line.withUTF8(build)
        }

        /// `prefAs4` from the parameters on: the other types in one `TYPE=a,b`, `;PREF=1`, the colon and the value.
        static func appendPrefAs4Parameters(
            _ bytes: UnsafeBufferPointer<UInt8>, _ plain: (hasPref: Bool, colon: Int), to out: inout [UInt8]
        ) {
            var index = 0
            while bytes[index] != UInt8(ascii: ";") { index += 1 }
            var first = true
            while index < plain.colon { // at a `;TYPE=`
                index += 6
                while true {
                    let start = index
                    while bytes[index] != UInt8(ascii: ",") && bytes[index] != UInt8(ascii: ";")
                        && bytes[index] != UInt8(ascii: ":")
                    {
                        index += 1
                    }
                    let isPref =
                        index - start == 4 && bytes[start] | 0x20 == UInt8(ascii: "p")
                        && bytes[start + 1] | 0x20 == UInt8(ascii: "r")
                        && bytes[start + 2] | 0x20 == UInt8(ascii: "e") && bytes[start + 3] | 0x20 == UInt8(ascii: "f")
                    if !isPref {
                        out.append(contentsOf: first ? ";TYPE=".utf8 : ",".utf8)
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                        first = false
                    }
                    guard bytes[index] == UInt8(ascii: ",") else { break }
                    index += 1
                }
            }
            out.append(contentsOf: ";PREF=1".utf8)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain.colon...]))
        }

        /// Whether the bytes spell an upper-case ASCII name, in any case.
        private static func isName(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
            guard bytes.count == name.utf8CodeUnitCount else { return false }
            let expected = name.utf8Start
            for index in 0..<bytes.count where bytes[index] & 0xDF != expected[index] & 0xDF { return false }
            return true
        }

        /// The line in its version's syntax: none when it has no place in the version.
        static func repaired(_ line: String, in version: VCardWriter.Version, notes: inout Notes) -> [String] {
            guard var property = Property(parsing: line, notes: &notes) else { return [line] }
            // Written anew even when parsing changed nothing (`N;:x`'s empty parameter).
            property.changed = true
            var card = Card(properties: [property])
            card.from21(notes: &notes, escapingCommas: false)
            if version == .v4 {
                card.to4(notes: &notes)
            } else if card.properties[0].name == "TEL" {
                // As `to4` does: a TEL;VALUE=uri holding no URI is text (fuzz-vcard: `TEL;VALUE=uri;TSION:4.0`).
                Card.textTelephoneSaidToBeURI(&card.properties[0], notes: &notes)
            }
            let lines = card.lines
            // A line whose only fault was CHARSET has its note already.
            if lines.count == 1 && lines[0] != line && needsRepair(line, in: version, countingCharset: false) {
                notes.add(
                    "\(property.name): written in vCard \(version.rawValue)'s syntax (the card held it in vCard 2.1's)")
            }
            return lines
        }
    }

    // MARK: - Control characters

    /// U+0000-U+001F and U+007F-U+009F, which no vCard value may hold raw (RFC 6350 §3.3's
    /// VALUE-CHAR). A tab is allowed (WSP) and kept; line breaks are `\n` in a kept line already.
    enum ControlCharacters {
        static func isControl(_ scalar: Unicode.Scalar) -> Bool {
            (scalar.value < 0x20 && scalar != "\t") || (scalar.value >= 0x7F && scalar.value <= 0x9F)
        }

        /// By the contiguous bytes (every line of every export comes here; a photo is 50 kB, and
        /// stepping through `utf8`'s iterator was a third of a same-version export's time).
        /// C1 controls are U+0080-U+009F, encoded 0xC2 0x80-0x9F.
        static func contains(_ line: String) -> Bool {
            line.utf8.withContiguousStorageIfAvailable(contains) ?? Array(line.utf8).withUnsafeBufferPointer(contains)
        }

        static func contains(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            // A first pass without branches (vectorised), for the bytes that may start a control.
            var suspect: UInt8 = 0
            for byte in bytes { suspect |= (byte < 0x20 ? 1 : 0) | (byte == 0x7F ? 1 : 0) | (byte == 0xC2 ? 1 : 0) }
            guard suspect != 0 else { return false }
            var previous: UInt8 = 0
            for byte in bytes {
                if byte < 0x20 && byte != 0x09 || byte == 0x7F || previous == 0xC2 && byte >= 0x80 && byte <= 0x9F {
                    return true
                }
                previous = byte
            }
            return false
        }

        static func removed(from line: String, notes: inout Notes) -> String {
            // A raw line break (a lone CR a writer left in a value or a quoted parameter) is a
            // line break still: `\n` in the value, RFC 6868's `^n` in a parameter; a CRLF is one.
            var kept = String.UnicodeScalarView()
            // `escaping`: the value's last kept backslash escapes what follows. The reader reads
            // `\<NUL>` as the NUL, then drops it (fuzz-vcard: `UID:bf3ly\<NUL>`), so the backslash
            // goes with the control character: the line written reads as the line read.
            var inValue = false, quoted = false, previousCR = false, escaping = false
            for scalar in line.unicodeScalars {
                defer { previousCR = scalar == "\r" }
                if scalar == "\"" && !inValue { quoted.toggle() }
                if scalar == ":" && !quoted && !inValue {
                    inValue = true
                    kept.append(scalar)
                    continue
                }
                if isControl(scalar) && escaping {
                    kept.removeLast()
                    escaping = false
                }
                if scalar == "\r" || scalar == "\n" {
                    if scalar == "\n" && previousCR { continue }
                    kept.append(contentsOf: (inValue ? "\\n" : "^n").unicodeScalars)
                    continue
                }
                if !isControl(scalar) {
                    kept.append(scalar)
                    escaping = inValue && scalar == "\\" && !escaping
                }
            }
            let head = String(String.UnicodeScalarView(line.unicodeScalars.prefix { $0 != ":" && $0 != ";" }))
            let name = head.split(separator: ".").last.map(String.init) ?? ""
            notes.add("\(name.uppercased()): control characters removed (a vCard may not hold them)")
            // A line written starting with a space or tab would be read as the previous one's fold.
            while let first = kept.first, first == " " || first == "\t" { kept.removeFirst() }
            return String(kept)
        }
    }
}

// MARK: - One property

extension VCardVersionConverter {
    struct Property {
        /// The line as given (after control characters were removed); written back when unchanged.
        var original: String
        var group: String?
        var name: String
        var parameters: [(name: String, values: [String])]
        var value: String
        var changed = false
        var dropped = false
        /// Written in vCard 2.1's syntax (bare parameters, `ENCODING=BASE64`), whatever the card's version.
        var in21Syntax = true
        /// Lines that follow this one in the output (a LABEL made from ADR's LABEL parameter).
        var following: [Property] = []

        init?(parsing text: String, notes: inout Notes) {
            guard var property = try? VCardProperty(text: text) else { return nil }
            let encoding = property.values(of: "ENCODING").first?.uppercased()
            let charset = property.values(of: "CHARSET").first?.uppercased()
            if encoding == "QUOTED-PRINTABLE" || (charset != nil && charset != "UTF-8") {
                // Not decoded yet (the reader's lines are): `raw` is the decoded line. Its control
                // characters are removed too: decoding makes them (`=C2=91`), after the line's were.
                var raw = property.raw
                if ControlCharacters.contains(raw) { raw = ControlCharacters.removed(from: raw, notes: &notes) }
                guard let decoded = try? VCardProperty(text: raw) else { return nil }
                property = decoded
                changed = true
            }
            original = text
            group = property.group
            name = property.name
            parameters = property.parameters
            value = property.value
            // Names no vCard has (`C\`HARSET`, `TYP"W`) are dropped, not mended: mended, one could
            // become a name that means something (CHARSET).
            if let group, !Self.isName(group, dots: true) {
                self.group = nil
                changed = true
                notes.add("\(name): a group that is not a vCard name dropped")
            }
            if parameters.contains(where: { !Self.isName($0.name, dots: false) }) {
                parameters.removeAll { !Self.isName($0.name, dots: false) }
                changed = true
                notes.add("\(name): a parameter whose name is not a vCard name dropped")
            }
            if has("CHARSET") {
                remove("CHARSET")
                notes.add("\(name): CHARSET parameter removed (vCard 3.0 and 4.0 text is always UTF-8)")
            }
        }

        /// A line that needs no change, known by its name alone; `materialize` parses it if it must
        /// change after all (an ADR given a LABEL, an N given a SORT-AS).
        init(unchanged line: String, group: String?, name: String) {
            self.original = line
            self.group = group
            self.name = name
            self.parameters = []
            self.value = ""
            self.parsed = false
        }

        /// False for a line taken by its name alone (`init(unchanged:)`).
        private(set) var parsed = true

        mutating func materialize(notes: inout Notes) {
            guard !parsed, let property = Property(parsing: original, notes: &notes) else { return }
            self = property
        }

        /// The group and upper-cased name, and whether parameters follow, from the bytes before
        /// the first `;` or `:`; nil when there is neither.
        static func head(of line: String) -> (group: String?, name: String, hasParameters: Bool)? {
            let utf8 = line.utf8
            guard let end = utf8.firstIndex(where: { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ":") }) else {
                return nil
            }
            let qualified = line[..<end]
            let hasParameters = utf8[end] == UInt8(ascii: ";")
            guard let dot = qualified.utf8.lastIndex(of: UInt8(ascii: ".")) else {
                return (nil, uppercased(qualified), hasParameters)
            }
            return (
                String(qualified[..<dot]), uppercased(qualified[qualified.utf8.index(after: dot)...]), hasParameters
            )
        }

        private static func uppercased(_ text: Substring) -> String {
            text.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A || $0 >= 0x80 }) ? text.uppercased() : String(text)
        }

        /// A new property (one that replaces or follows another).
        init(group: String?, name: String, parameters: [(name: String, values: [String])] = [], value: String) {
            self.original = ""
            self.group = group
            self.name = name
            self.parameters = parameters
            self.value = value
            self.changed = true
        }

        var line: String { changed ? serialized : original }

        var serialized: String {
            var out = ""
            if let group { out += group + "." }
            out += name
            for parameter in parameters {
                out += ";" + parameter.name + "="
                out += parameter.values.map(Self.parameterValue).joined(separator: ",")
            }
            return out + ":" + value
        }

        /// Whether a group or parameter name is one RFC 6350 §3.3 allows (letters, digits, `-`;
        /// `_` and a group's dots are common): the reader takes others (`TYP"W=`), but written
        /// anew a quote in a name opens a quoted value that never closes, and the card does not read.
        static func isName(_ text: String, dots: Bool) -> Bool {
            text.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A) || c == 0x2D || c == 0x5F
                    || (dots && c == 0x2E)
            }
        }

        /// RFC 6868's escapes, then quotes around a value holding `:`, `;` or `,` (RFC 6350 §3.3).
        /// By scalars, as the reader splits and unescapes: `:` and a combining mark after it are
        /// one Character, which is no `:` (fuzz-vcard, seed 16).
        static func parameterValue(_ text: String) -> String {
            var escaped = String.UnicodeScalarView()
            var needsQuotes = false
            var afterCR = false
            for scalar in text.unicodeScalars {
                defer { afterCR = scalar == "\r" }
                switch scalar {
                case "^": escaped.append(contentsOf: "^^".unicodeScalars)
                case "\r": escaped.append(contentsOf: "^n".unicodeScalars)
                case "\n": if !afterCR { escaped.append(contentsOf: "^n".unicodeScalars) }
                case "\"": escaped.append(contentsOf: "^'".unicodeScalars)
                case ":", ";", ",": needsQuotes = true; escaped.append(scalar)
                default: escaped.append(scalar)
                }
            }
            return needsQuotes ? "\"" + String(escaped) + "\"" : String(escaped)
        }

        static func excerpt(_ text: String) -> String {
            text.count > 40 ? String(text.prefix(40)) + "..." : text
        }

        // MARK: Parameters

        func has(_ parameter: String) -> Bool { parameters.contains { $0.name == parameter } }

        func values(of parameter: String) -> [String] {
            parameters.filter { $0.name == parameter }.flatMap(\.values)
        }

        /// The first value of a parameter, lower-cased (VALUE, ENCODING).
        func lowered(_ parameter: String) -> String? { values(of: parameter).first?.lowercased() }

        mutating func remove(_ parameter: String) {
            guard has(parameter) else { return }
            parameters.removeAll { $0.name == parameter }
            changed = true
        }

        /// Sets a parameter in place of the first of its name, or at the end.
        mutating func set(_ parameter: String, _ values: [String]) {
            if let index = parameters.firstIndex(where: { $0.name == parameter }) {
                if parameters[index].values == values && parameters.filter({ $0.name == parameter }).count == 1 {
                    return
                }
                parameters[index].values = values
                parameters = parameters.enumerated().filter { $0.offset == index || $0.element.name != parameter }.map(
                    \.element)
            } else {
                parameters.append((parameter, values))
            }
            changed = true
        }

        /// Every TYPE value as written, `TYPE=a,b` and repeated TYPEs alike. A comma left after the
        /// reader's split was inside quotes: a list of types (RFC 6350's `TYPE="work,voice"`), but
        /// one value when a piece is no type name (Android's test card v30_comma_separated.vcf:
        /// `TYPE="COMMA,SEPARATED:INSIDE.DQUOTE",PREF`, which only quotes can hold).
        var types: [String] {
            values(of: "TYPE").flatMap { value -> [String] in
                guard value.utf8.contains(UInt8(ascii: ",")) else { return value.isEmpty ? [] : [value] }
                let pieces = value.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
                let plain = pieces.allSatisfy {
                    $0.utf8.allSatisfy { c in
                        (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A) || c == 0x2D || c == 0x5F
                            || c == 0x20
                    }
                }
                return plain ? pieces : [value]
            }
        }

        /// Replaces the TYPE values by one `TYPE=a,b` where the first TYPE was.
        mutating func setTypes(_ newTypes: [String]) {
            guard newTypes != types || values(of: "TYPE").count > 1 else { return }
            if newTypes.isEmpty { remove("TYPE") } else { set("TYPE", newTypes) }
            changed = true
        }

        func hasType(_ type: String) -> Bool { types.contains { $0.lowercased() == type } }

        mutating func removeTypes(where predicate: (String) -> Bool) -> [String] {
            let removed = types.filter(predicate)
            if !removed.isEmpty { setTypes(types.filter { !predicate($0) }) }
            return removed
        }

        mutating func rename(_ newName: String) {
            name = newName
            changed = true
        }

        mutating func setValue(_ newValue: String) {
            guard newValue != value else { return }
            value = newValue
            changed = true
        }

        mutating func drop() { dropped = true }
    }
}

// MARK: - A card's properties

extension VCardVersionConverter {
    struct Card {
        var properties: [Property] = []

        var lines: [String] {
            var out: [String] = []
            out.reserveCapacity(properties.count)
            for property in properties where !property.dropped {
                out.append(property.line)
                out.append(contentsOf: property.following.map(\.line))
            }
            return out
        }

        func firstIndex(of name: String) -> Int? {
            properties.firstIndex { !$0.dropped && $0.name == name }
        }

        // MARK: 2.1 syntax into 3.0

        /// vCard 2.1's syntax in 3.0's spelling (also the first step to 4.0): TYPE values from
        /// bare parameters, lower-cased where RFC 2426 defines them, `ENCODING=b` for BASE64 with
        /// the whitespace of 2.1's folding taken out, `VALUE=uri` for `VALUE=URL`, GEO's comma.
        mutating func from21(notes: inout Notes, escapingCommas: Bool = true) {
            for index in properties.indices where properties[index].parsed && properties[index].in21Syntax {
                var property = properties[index]
                if !property.parameters.isEmpty {
                    // A bare parameter reads like TYPE=; written again, it is one.
                    property.changed = true
                    property.setTypes(property.types.map { Types.lowercasedIfDefined($0, in: property.name) })
                }
                switch property.lowered("ENCODING") {
                case "base64", "b":
                    property.set("ENCODING", ["b"])
                    property.setValue(Binary.cleaned(property.value))
                case "8bit", "7bit":
                    property.remove("ENCODING")
                case nil: break
                case let other?:
                    property.remove("ENCODING")
                    notes.add(
                        "\(property.name): ENCODING=\(other.uppercased()) removed (not a vCard 3.0 or 4.0 encoding)")
                }
                switch property.lowered("VALUE") {
                case nil
                where ["PHOTO", "LOGO", "SOUND"].contains(property.name) && !property.has("ENCODING")
                    && Binary.looksLikeURI(property.value):
                    // 2.1 writers leave a link's VALUE=URL out (`PHOTO;GIF:http://...`); 3.0's default is binary.
                    property.set("VALUE", ["uri"])
                case "url": property.set("VALUE", ["uri"])
                case "inline": property.remove("VALUE")
                case "content-id", "cid":
                    notes.add(
                        "\(property.name): a 2.1 reference to a MIME part (VALUE=CONTENT-ID) has no meaning outside its message"
                    )
                default: break
                }
                if property.name == "GEO", let (latitude, longitude) = Geo.parse(property.value) {
                    property.setValue(latitude + ";" + longitude)
                }
                if escapingCommas && Self.textIn21.contains(property.name) {
                    property.setValue(
                        Self.text21As3(property.value, structured: Self.structuredIn21.contains(property.name)))
                }
                properties[index] = property
            }
        }

        /// Text properties whose commas 2.1 does not escape (it has no lists) and 3.0 and 4.0 do.
        static let textIn21: Set<String> = ["FN", "N", "NOTE", "TITLE", "ROLE", "LABEL", "ORG", "ADR"]

        /// Properties whose value is text a contact's field (or its label) reads.
        static let fieldText: Set<String> = textIn21.union(["NICKNAME", "EMAIL", "URL", "CATEGORIES", "X-ABLABEL"])

        /// The compound values among them: 2.1 escapes the `;` inside a component as `\;` (and
        /// Android's writer a backslash as `\\`).
        static let structuredIn21: Set<String> = ["N", "ADR", "ORG"]

        /// A 2.1 text value in 3.0's (and 4.0's) escaping. 2.1 has no escapes in text but the
        /// compound value's `\;` (and `\\`): any other backslash is the character itself, which
        /// 3.0 writes `\\` (`FN:A\C` is "A\C", not "AC"), and `;` and `,` are escaped. A `\n` stays a
        /// line break (the reader writes a quoted-printable line break so in the line it keeps) and
        /// `\,` a comma (some 2.1 writers escape it anyway).
        static func text21As3(_ value: String, structured: Bool) -> String {
            guard value.utf8.contains(where: { $0 == 0x5C || $0 == 0x2C || ($0 == 0x3B && !structured) }) else {
                return value
            }
            var components: [String] = [], current = ""
            var scalars = value.unicodeScalars.makeIterator()
            while let scalar = scalars.next() {
                switch scalar {
                case "\\":
                    guard let next = scalars.next() else { current.append("\\"); break }
                    switch next {
                    case "n", "N": current.append("\n")
                    // Written by some 2.1 writers anyway (Wikipedia's example), and meant so.
                    case ",": current.append(",")
                    case ";" where structured: current.append(";")
                    case "\\" where structured: current.append("\\")
                    case ";" where !structured:
                        current.append("\\"); current.append(";")
                    // `\<NUL>` escapes the control character, so the backslash goes with it, as
                    // `ControlCharacters.removed` does before a conversion (fuzz-vcard: `N:;A\<NUL>;B`).
                    case _ where ControlCharacters.isControl(next):
                        current.unicodeScalars.append(next)
                    default:
                        current.append("\\")
                        if next == "\\" { current.append("\\") } else { current.unicodeScalars.append(next) }
                    }
                case ";" where structured:
                    components.append(current)
                    current = ""
                default:
                    current.unicodeScalars.append(scalar)
                }
            }
            components.append(current)
            return components.map(VCardText.escape).joined(separator: ";")
        }

        // MARK: 3.0 into 4.0

        mutating func to4(notes: inout Notes) {
            let hasKind = properties.contains { $0.name == "KIND" || $0.name == "X-ADDRESSBOOKSERVER-KIND" }
            let hasAnniversary = properties.contains { $0.name == "ANNIVERSARY" }
            for index in properties.indices where properties[index].parsed {
                var property = properties[index]
                Self.parametersTo4(&property, notes: &notes)
                switch property.name {
                case "PHOTO", "LOGO", "SOUND", "KEY": Binary.to4(&property)
                case "LABEL": attachLabel(&property, notes: &notes)
                case "CLASS", "NAME", "MAILER", "PROFILE":
                    // PROFILE:VCARD is RFC 2425's (Lotus Notes writes it); RFC 6350 has none.
                    property.drop()
                    notes.add("\(property.name) dropped: vCard 4.0 has no \(property.name) property")
                case "AGENT": Self.agentTo4(&property, notes: &notes)
                case "SORT-STRING": sortStringTo4(&property, notes: &notes)
                case "X-ADDRESSBOOKSERVER-KIND":
                    property.rename("KIND")
                    property.setValue(property.value.lowercased())
                    notes.add("X-ADDRESSBOOKSERVER-KIND written as vCard 4.0's KIND")
                case "X-ADDRESSBOOKSERVER-MEMBER":
                    property.rename("MEMBER")
                    notes.add("X-ADDRESSBOOKSERVER-MEMBER written as vCard 4.0's MEMBER")
                case "X-ABSHOWAS" where !hasKind && property.value.uppercased() == "COMPANY":
                    property = Property(group: property.group, name: "KIND", value: "org")
                    notes.add("X-ABShowAs:COMPANY written as vCard 4.0's KIND:org")
                case "X-ANNIVERSARY" where !hasAnniversary:
                    if let date = DateValue(parsing: property.value)?.text4 {
                        property.rename("ANNIVERSARY")
                        property.setValue(date)
                        notes.add("X-ANNIVERSARY written as vCard 4.0's ANNIVERSARY")
                    }
                case "X-GENDER" where Self.isGender(property.value):
                    property.rename("GENDER")
                    notes.add("X-GENDER written as vCard 4.0's GENDER")
                case let name where name.hasPrefix("X-") && Names.onlyIn4.contains(String(name.dropFirst(2))):
                    // What `to3` wrote for a 4.0 property, back in its own name.
                    let own = String(name.dropFirst(2))
                    if own != "ANNIVERSARY" && own != "GENDER" {
                        property.rename(own)
                        notes.add("\(name) written as vCard 4.0's \(own)")
                    }
                case "BDAY", "ANNIVERSARY", "DEATHDATE": Self.dateTo4(&property, notes: &notes)
                case "REV":
                    if let date = DateValue(parsing: property.value), date.hasFullDate {
                        property.setValue(date.text4!)
                        property.remove("VALUE")
                    }
                case "GEO":
                    if let (latitude, longitude) = Geo.parse(property.value) {
                        property.setValue("geo:\(latitude),\(longitude)")
                        if property.lowered("VALUE") == "float" { property.remove("VALUE") }
                    }
                case "TZ":
                    if property.lowered("VALUE") ?? "utc-offset" == "utc-offset",
                        let offset = Offset(parsing: property.value)
                    {
                        property.setValue(offset.basic)
                        property.set("VALUE", ["utc-offset"])
                    }
                case "TEL":
                    if !property.has("VALUE") && property.value.lowercased().hasPrefix("tel:") {
                        property.set("VALUE", ["uri"])
                    }
                    Self.textTelephoneSaidToBeURI(&property, notes: &notes)
                default:
                    // A field's text said to be base64 (a 2.1 ADR's bare `b`) stays text, as it was read.
                    if property.lowered("ENCODING") == "b" || property.lowered("ENCODING") == "base64",
                        !Self.fieldText.contains(property.name)
                    {
                        property.setValue("data:application/octet-stream;base64," + Binary.cleaned(property.value))
                        property.remove("ENCODING")
                        property.set("VALUE", ["uri"])
                        notes.add("\(property.name): base64 value written as a data: URI (vCard 4.0 has no ENCODING)")
                    }
                }
                if property.has("ENCODING") {
                    notes.add("\(property.name): ENCODING parameter removed (vCard 4.0 has no ENCODING)")
                    property.remove("ENCODING")
                }
                properties[index] = property
            }
        }

        /// TYPE=pref as PREF=1; CONTEXT (RFC 2425's, gone with CHARSET in RFC 6350 Appendix A.2)
        /// dropped. The TYPE values RFC 6350 Appendix A took out of its lists (EMAIL's internet,
        /// TEL's msg, ADR's parcel...) are kept: RFC 6350 §5.6's grammar takes any iana-token or
        /// x-name as a TYPE value and a reader ignores one it does not know (§5), so dropping them
        /// only lost what a 3.0 client wrote, on the way back from 4.0.
        private static func parametersTo4(_ property: inout Property, notes: inout Notes) {
            if property.has("CONTEXT") {
                property.remove("CONTEXT")
                notes.add("\(property.name): CONTEXT parameter dropped (vCard 4.0 has no CONTEXT)")
            }
            guard property.has("TYPE") else { return }
            // The types read once (reading them is a split and a String per type).
            let types = property.types
            guard types.contains(where: Types.isPref) else { return }
            property.setTypes(types.filter { !Types.isPref($0) })
            if !property.has("PREF") { property.set("PREF", ["1"]) }
        }

        /// LABEL into the LABEL parameter of the ADR with the same group or TYPEs (or the only
        /// ADR of a card with one LABEL).
        private mutating func attachLabel(_ label: inout Property, notes: inout Notes) {
            label.drop()
            let reduced = { (property: Property) in
                Set(
                    property.types.map { $0.lowercased() }.filter {
                        !["pref", "dom", "intl", "postal", "parcel"].contains($0)
                    })
            }
            let addresses = properties.indices.filter { properties[$0].name == "ADR" && !properties[$0].dropped }
            let labels = properties.filter { $0.name == "LABEL" }.count
            let match =
                addresses.first { label.group != nil && properties[$0].group == label.group }
                ?? addresses.first { reduced(properties[$0]) == reduced(label) && !properties[$0].has("LABEL") }
                ?? (addresses.count == 1 && labels == 1 ? addresses.first : nil)
            guard let match else {
                return notes.add(
                    "LABEL dropped: vCard 4.0 has no LABEL property, and no address of the same type holds it")
            }
            guard !properties[match].has("LABEL") else {
                return notes.add("LABEL dropped: vCard 4.0 has no LABEL property, and its address has a label already")
            }
            properties[match].materialize(notes: &notes)
            properties[match].set("LABEL", [VCardText.unescape(label.value)])
            notes.add("LABEL dropped: vCard 4.0 has no LABEL property (kept as its ADR's LABEL parameter)")
        }

        /// A TEL that says VALUE=uri but holds no URI (khard's test card: `TEL;VALUE=URI:67545678`)
        /// is the text it is: no validator or reader takes it for a link.
        static func textTelephoneSaidToBeURI(_ tel: inout Property, notes: inout Notes) {
            guard tel.lowered("VALUE") == "uri", !Binary.looksLikeURI(tel.value) else { return }
            tel.remove("VALUE")
            notes.add("TEL: VALUE=uri removed from a number that is no URI (\(Property.excerpt(tel.value)))")
        }

        private static func agentTo4(_ agent: inout Property, notes: inout Notes) {
            let valueType = agent.lowered("VALUE")
            if agent.value.uppercased().hasPrefix("BEGIN:VCARD") || valueType == "vcard" {
                agent.drop()
                return notes.add(
                    "AGENT dropped: vCard 4.0 has no place for a card inside a card (only RELATED;TYPE=agent with a URI)"
                )
            }
            let isURI =
                valueType == "uri" || valueType == "url" || (valueType == nil && Binary.looksLikeURI(agent.value))
            agent.rename("RELATED")
            if isURI { agent.remove("VALUE") } else { agent.set("VALUE", ["text"]) }
            agent.setTypes(["agent"] + agent.types)
            notes.add("AGENT written as vCard 4.0's RELATED;TYPE=agent")
        }

        /// SORT-STRING as the SORT-AS parameter of N, or of ORG in a card without N.
        private mutating func sortStringTo4(_ sort: inout Property, notes: inout Notes) {
            sort.drop()
            guard let target = firstIndex(of: "N") ?? firstIndex(of: "ORG") else {
                return notes.add(
                    "SORT-STRING dropped: vCard 4.0 has no SORT-STRING, and the card has no N or ORG to sort by it")
            }
            let targetName = properties[target].name
            guard !properties[target].has("SORT-AS") else {
                return notes.add(
                    "SORT-STRING dropped: vCard 4.0 has no SORT-STRING, and \(targetName) has its SORT-AS already")
            }
            properties[target].materialize(notes: &notes)
            properties[target].set("SORT-AS", [VCardText.unescape(sort.value)])
            notes.add("SORT-STRING dropped: vCard 4.0 has no SORT-STRING (kept as \(targetName)'s SORT-AS parameter)")
        }

        private static func dateTo4(_ property: inout Property, notes: inout Notes) {
            let omitYear = property.values(of: "X-APPLE-OMIT-YEAR").first
            property.remove("X-APPLE-OMIT-YEAR")
            if property.lowered("VALUE") == "text" { return }
            guard var date = DateValue(parsing: property.value) else {
                property.set("VALUE", ["text"])
                return notes.add("\(property.name) is not a date; written as text")
            }
            if let omitYear, date.year == omitYear { date.year = nil }
            property.setValue(date.text4!)
            // 4.0 knows only VALUE=date-and-or-time (the default) or text for these.
            property.remove("VALUE")
        }

        private static func isGender(_ value: String) -> Bool {
            let sex = value.prefix { $0 != ";" }
            return sex.count <= 1 && (sex.isEmpty || "MFONUmfonu".contains(sex.first!))
        }

        // MARK: 4.0 into 3.0

        mutating func to3(notes: inout Notes) {
            var lowestPref: [String: Int] = [:]
            for property in properties {
                if let pref = property.values(of: "PREF").first.flatMap({ Int($0) }) {
                    lowestPref[property.name] = min(lowestPref[property.name] ?? pref, pref)
                }
            }
            var sortStringWritten = properties.contains { $0.name == "SORT-STRING" }
            var birthdayRead = false
            for index in properties.indices where properties[index].parsed {
                var property = properties[index]
                Self.parametersTo3(&property, lowestPref: lowestPref, notes: &notes)
                switch property.name {
                case "PHOTO", "LOGO", "SOUND", "KEY": Binary.to3(&property, notes: &notes)
                case "KIND": Self.kindTo3(&property, notes: &notes)
                case "MEMBER":
                    property.rename("X-ADDRESSBOOKSERVER-MEMBER")
                    notes.add("MEMBER written as X-ADDRESSBOOKSERVER-MEMBER (Apple's form; vCard 3.0 has no MEMBER)")
                case "AGENT"
                where !property.value.uppercased().hasPrefix("BEGIN:VCARD") && property.lowered("VALUE") != "vcard":
                    // 3.0's AGENT is a card or, with VALUE=uri, a link: 2.1 let it be any text.
                    if property.lowered("VALUE") == "uri" || Binary.looksLikeURI(property.value) {
                        property.set("VALUE", ["uri"])
                    } else {
                        property.rename("X-AGENT")
                        notes.add(
                            "AGENT written as X-AGENT: vCard 3.0's AGENT is a card or a link, and this one is neither")
                    }
                case "RELATED" where property.hasType("agent") && property.lowered("VALUE") == "text":
                    // What `agentTo4` made of a 2.1 AGENT that held text: the X-AGENT a 3.0 export writes for it.
                    property.rename("X-AGENT")
                    _ = property.removeTypes { $0.lowercased() == "agent" }
                    property.remove("VALUE")
                    notes.add(
                        "RELATED;TYPE=agent with a text value written as X-AGENT: vCard 3.0's AGENT is a card or a link"
                    )
                case "RELATED" where property.hasType("agent") && property.lowered("VALUE") != "text":
                    property.rename("AGENT")
                    _ = property.removeTypes { $0.lowercased() == "agent" }
                    property.set("VALUE", ["uri"])
                    notes.add("RELATED;TYPE=agent written as vCard 3.0's AGENT")
                case "ANNIVERSARY", "DEATHDATE":
                    if let date = DateValue(parsing: property.value), let text = date.text3 {
                        property.setValue(text)
                    }
                    property.remove("VALUE")
                    Self.renameTo3(&property, notes: &notes)
                case let name where Names.onlyIn4.contains(name):
                    Self.renameTo3(&property, notes: &notes)
                case "BDAY":
                    // The reader takes the first BDAY it reads as a date for the birthday (the others are kept).
                    let readsAsBirthday = !birthdayRead && Self.readsAsBirthday(property)
                    birthdayRead = birthdayRead || readsAsBirthday
                    Self.birthdayTo3(&property, isTheBirthday: readsAsBirthday, notes: &notes)
                case "TEL": Self.telTo3(&property, notes: &notes)
                case "GEO":
                    if let (latitude, longitude) = Geo.parse(property.value) {
                        property.setValue(latitude + ";" + longitude)
                        property.remove("VALUE")
                    } else {
                        property.drop()
                        notes.add("GEO dropped: not a position vCard 3.0 can hold")
                    }
                case "TZ":
                    switch property.lowered("VALUE") {
                    case "utc-offset":
                        if let offset = Offset(parsing: property.value) { property.setValue(offset.extended) }
                        property.remove("VALUE")
                    case "text": break
                    default:
                        // Text (4.0's default) or a URI: 3.0's default is a UTC offset.
                        if let offset = Offset(parsing: property.value) {
                            property.setValue(offset.extended)
                            property.remove("VALUE")
                        } else {
                            property.set("VALUE", ["text"])
                        }
                    }
                case "ADR":
                    if var label = property.values(of: "LABEL").first {
                        property.remove("LABEL")
                        // RFC 6350's own example writes the label's line breaks as `\n` (before RFC 6868's `^n`).
                        label = label.replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(
                            of: "\\N", with: "\n")
                        var types: [(name: String, values: [String])] = []
                        if !property.types.isEmpty { types = [("TYPE", property.types)] }
                        property.following.append(
                            Property(
                                group: property.group, name: "LABEL", parameters: types,
                                value: VCardText.escape(label)))
                    }
                case "N", "ORG":
                    // RFC 6350 §5.9's example quotes the whole list: `SORT-AS="Harten,Rene"`.
                    let sortAs = property.values(of: "SORT-AS").flatMap { $0.split(separator: ",").map(String.init) }
                    if !sortAs.isEmpty {
                        property.remove("SORT-AS")
                        if !sortStringWritten {
                            // SORT-AS holds one value per component (family, given); one string here.
                            property.following.append(
                                Property(
                                    group: nil, name: "SORT-STRING",
                                    value: VCardText.escape(sortAs.joined(separator: " "))))
                            sortStringWritten = true
                        }
                    }
                default:
                    // What `to4` wrote for another property's inline binary (Outlook's
                    // X-MS-CARDPICTURE): back in 3.0's ENCODING=b.
                    let value = property.value
                    if property.lowered("VALUE") == "uri", value.utf8.count > 5,
                        value.prefix(5).lowercased() == "data:",
                        let comma = value.firstIndex(of: ","), value[..<comma].lowercased().hasSuffix(";base64")
                    {
                        property.setValue(Binary.cleaned(String(value[value.index(after: comma)...])))
                        property.remove("VALUE")
                        property.set("ENCODING", ["b"])
                    }
                }
                if let valueType = property.lowered("VALUE"), !Names.valueTypes3.contains(valueType) {
                    property.remove("VALUE")
                    if valueType == "timestamp" { property.set("VALUE", ["date-time"]) }
                }
                properties[index] = property
            }
        }

        private static func parametersTo3(_ property: inout Property, lowestPref: [String: Int], notes: inout Notes) {
            if let pref = property.values(of: "PREF").first {
                property.remove("PREF")
                if Int(pref) == 1 || Int(pref) == lowestPref[property.name] {
                    if !property.hasType("pref") { property.setTypes(property.types + ["pref"]) }
                } else {
                    notes.add("\(property.name): PREF=\(pref) dropped (vCard 3.0 has only one preferred item)")
                }
            }
            for parameter in ["PID", "ALTID", "CALSCALE", "INDEX", "LEVEL", "CC"] where property.has(parameter) {
                property.remove(parameter)
                notes.add("\(property.name): \(parameter) parameter dropped (vCard 3.0 has no \(parameter))")
            }
            if property.name == "ADR" {
                for parameter in ["GEO", "TZ"] where property.has(parameter) {
                    property.remove(parameter)
                    notes.add(
                        "ADR: \(parameter) parameter dropped (vCard 3.0 has no \(parameter) parameter on an address)")
                }
            }
            if property.has("MEDIATYPE") && !Names.binary.contains(property.name) {
                property.remove("MEDIATYPE")
                notes.add("\(property.name): MEDIATYPE parameter dropped (vCard 3.0 has no MEDIATYPE)")
            }
            // TEL's text and textphone, which RFC 2426 does not list, are kept: its grammar takes
            // any iana-token as a TYPE value too (as 4.0's keeps 3.0's msg, `parametersTo4`).
            // 4.0's quoted list (`TYPE="work,voice"`, RFC 6350's own example) is one quoted value
            // to a 3.0 reader: written as the types it lists.
            if property.values(of: "TYPE").contains(where: { $0.contains(",") }) {
                property.set("TYPE", property.types)
            }
        }

        /// A 4.0-only property kept as an X- property, which 3.0 allows and readers keep.
        private static func renameTo3(_ property: inout Property, notes: inout Notes) {
            let own = property.name
            property.rename("X-" + own)
            notes.add("\(own) written as X-\(own) (vCard 3.0 has no \(own))")
        }

        private static func kindTo3(_ kind: inout Property, notes: inout Notes) {
            switch kind.value.lowercased() {
            case "individual":
                kind.drop()
                notes.add(
                    "KIND:individual dropped (vCard 3.0 has no KIND; a card is a person unless it says otherwise)")
            case "org":
                kind = Property(group: kind.group, name: "X-ABShowAs", value: "COMPANY")
                notes.add("KIND:org written as X-ABShowAs:COMPANY (Apple's form; vCard 3.0 has no KIND)")
            default:
                kind.rename("X-ADDRESSBOOKSERVER-KIND")
                notes.add("KIND written as X-ADDRESSBOOKSERVER-KIND (Apple's form; vCard 3.0 has no KIND)")
            }
        }

        private static func readsAsBirthday(_ property: Property) -> Bool {
            VCardReader.birthday(
                VCardText.unescape(property.value), omittedYear: property.values(of: "X-APPLE-OMIT-YEAR").first) != nil
        }

        private static func birthdayTo3(_ property: inout Property, isTheBirthday: Bool, notes: inout Notes) {
            guard property.lowered("VALUE") != "text", let date = DateValue(parsing: property.value) else {
                // The value the reader takes for the contact's birthday (`VALUE=text:1990-05-17`, a
                // date-time whose time is no time) stays the birthday it reads as, not an X-BDAY it
                // would lose. Another (FullContact's ALTID text form) is X-BDAY, as below.
                let omitted = property.values(of: "X-APPLE-OMIT-YEAR").first
                if isTheBirthday,
                    let birthday = VCardReader.birthday(VCardText.unescape(property.value), omittedYear: omitted)
                {
                    let monthDay = "-" + Birthday.padded(birthday.month, 2) + "-" + Birthday.padded(birthday.day, 2)
                    property.remove("VALUE")
                    property.remove("X-APPLE-OMIT-YEAR")
                    if let year = birthday.year {
                        property.setValue(Birthday.padded(year, 4) + monthDay)
                    } else {
                        property.setValue("1604" + monthDay)
                        property.set("X-APPLE-OMIT-YEAR", ["1604"])
                    }
                    return notes.add("BDAY written as the date it reads as (vCard 3.0's BDAY must be a whole date)")
                }
                property.remove("VALUE")
                return renameTo3Text(&property, notes: &notes)
            }
            if let text = date.text3 {
                property.setValue(text)
                property.remove("VALUE")
                if date.time != nil { property.set("VALUE", ["date-time"]) }
            } else if date.year == nil, let month = date.month, let day = date.day, date.time == nil {
                // Apple's year 1604 for a birthday without a year, which Apple, Google and sabre/vobject read.
                property.setValue("1604-\(month)-\(day)")
                property.remove("VALUE")
                property.set("X-APPLE-OMIT-YEAR", ["1604"])
            } else {
                renameTo3Text(&property, notes: &notes)
            }
        }

        private static func renameTo3Text(_ property: inout Property, notes: inout Notes) {
            let own = property.name
            property.rename("X-" + own)
            notes.add("\(own) written as X-\(own): vCard 3.0's \(own) must be a whole date, and this one is not")
        }

        /// `tel:+1-418-656-9254;ext=102` as `+1-418-656-9254 ext. 102`: 3.0's TEL is text, and
        /// " ext. " is how libphonenumber (Android, Google Contacts) writes and reads an extension.
        private static func telTo3(_ tel: inout Property, notes: inout Notes) {
            let isURI = tel.lowered("VALUE") == "uri" || tel.value.lowercased().hasPrefix("tel:")
            guard isURI else { return }
            tel.remove("VALUE")
            guard tel.value.lowercased().hasPrefix("tel:") else { return }
            // Unescaped as the reader reads it (a `\:` is a colon), since it is escaped again below.
            let parts = VCardText.unescape(tel.value).dropFirst(4).split(
                separator: ";", omittingEmptySubsequences: false)
            var number = String(parts.first ?? ""), extensionNumber = ""
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
                if pair.first?.lowercased() == "ext", pair.count == 2 {
                    extensionNumber = pair[1].trimmingSpaces
                } else if !parameter.isEmpty {
                    notes.add("TEL: the number's \(pair.first ?? "") parameter dropped (vCard 3.0's TEL is text)")
                }
            }
            // The number the reader shows for the URI (`VCardReader.phoneNumber`), so both versions
            // read the same: trimmed, its last extension after " ext. ", nothing percent-decoded.
            number = number.trimmingSpaces
            if !extensionNumber.isEmpty { number += " ext. " + extensionNumber }
            tel.setValue(VCardText.escape(number))
        }
    }
}

// MARK: - Values

extension VCardVersionConverter {
    enum Names {
        /// Whether a line of a card written in its own version is a property the version has not
        /// (`onlyIn4` in 3.0; in 4.0 those RFC 6350 removed, and a GEO that is no `geo:` URI). By
        /// the name's bytes: every line of every same-version export comes here.
        static func hasNoPlace(_ line: String, in version: VCardWriter.Version) -> Bool {
            func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { hasNoPlace(bytes, in: version, line: line) }
            return line.utf8.withContiguousStorageIfAvailable(scan) ?? Array(line.utf8).withUnsafeBufferPointer(scan)
        }

        /// `hasNoPlace` of a line's UTF-8 bytes; `line` is their text, made from them when nil (only
        /// a `TEL;VALUE=uri` is parsed).
        static func hasNoPlace(
            _ bytes: UnsafeBufferPointer<UInt8>, in version: VCardWriter.Version, line: String? = nil
        ) -> Bool {
            var start = 0, end = 0
            while end < bytes.count && bytes[end] != UInt8(ascii: ";") && bytes[end] != UInt8(ascii: ":") {
                if bytes[end] == UInt8(ascii: ".") { start = end + 1 }
                end += 1
            }
            let length = end - start
            guard length >= 3 && length <= 14 else { return false }
            let first = bytes[start] & 0xDF
            if length == 3 && first == UInt8(ascii: "T") && end < bytes.count && bytes[end] == UInt8(ascii: ";") {
                // TEL;VALUE=uri with a value that is no URI; parsed only when `VALUE=URI` is among
                // its parameters' bytes (a same-version export passes every TEL;TYPE=... here).
                guard bytes[start + 1] & 0xDF == UInt8(ascii: "E"), bytes[start + 2] & 0xDF == UInt8(ascii: "L"),
                    let colon = bytes[end...].firstIndex(of: UInt8(ascii: ":"))
                else { return false }
                let head = UnsafeBufferPointer(rebasing: bytes[end..<colon])
                guard Self.containsValueURI(head) else { return false }
                guard let property = try? VCardProperty(text: line ?? String(decoding: bytes, as: UTF8.self))
                else { return false }
                return property.values(of: "VALUE").first?.lowercased() == "uri"
                    && !Binary.looksLikeURI(property.value)
            }
            // Compared as bytes, case folded, with no string made: most lines are no candidate.
            let name = UnsafeBufferPointer(rebasing: bytes[start..<end])
            func isOne(of names: [[UInt8]]) -> Bool {
                names.contains { candidate in
                    candidate.count == length && candidate[0] == first
                        && zip(name, candidate).allSatisfy {
                            $0 & 0xDF == $1 || ($0 == $1 && $1 == UInt8(ascii: "-"))
                        }
                }
            }
            if version == .v3 { return isOne(of: onlyIn4Bytes) }
            if isOne(of: removedIn4Bytes) { return true }
            if isOne(of: geoBytes) {
                guard let colon = bytes[end...].firstIndex(of: UInt8(ascii: ":")) else { return false }
                let value = UnsafeBufferPointer(rebasing: bytes[(colon + 1)...])
                return !(value.count >= 4 && zip(value.prefix(4), "geo:".utf8).allSatisfy { $0 | 0x20 == $1 })
            }
            return false
        }

        /// 3.0's properties RFC 6350 has not, that a 4.0 card may still hold (dropped with a note).
        static let removedIn4: Set<String> = ["CLASS", "NAME", "MAILER", "PROFILE"]
        static let removedIn4List = Array(removedIn4)
        private static let removedIn4Bytes = removedIn4.map { Array($0.utf8) }
        private static let onlyIn4Bytes = onlyIn4.map { Array($0.utf8) }
        private static let geoBytes = [Array("GEO".utf8)]
        private static let valueURI = Array("VALUE=URI".utf8)

        /// Whether `VALUE=URI`, in any case, is among the bytes (a loop: every TEL of a
        /// same-version export is searched).
        private static func containsValueURI(_ head: UnsafeBufferPointer<UInt8>) -> Bool {
            let needle = valueURI
            guard head.count >= needle.count else { return false }
            for offset in 0...(head.count - needle.count) where head[offset] & 0xDF == UInt8(ascii: "V") {
                var index = 1
                while index < needle.count && head[offset + index] & 0xDF == needle[index] & 0xDF { index += 1 }
                if index == needle.count { return true }
            }
            return false
        }

        /// Properties RFC 6350 and its extensions (RFC 6474, RFC 6715) added, that 3.0 has not.
        /// CALURI, CALADRURI, FBURL (RFC 2739) and IMPP (RFC 4770) are in 3.0 too.
        static let onlyIn4: Set<String> = [
            "GENDER", "LANG", "RELATED", "CLIENTPIDMAP", "XML", "ANNIVERSARY",
            "BIRTHPLACE", "DEATHPLACE", "DEATHDATE", "EXPERTISE", "HOBBY", "INTEREST", "ORG-DIRECTORY",
        ]
        static let binary: Set<String> = ["PHOTO", "LOGO", "SOUND", "KEY"]
        /// Every property `from21`, `to4` or `to3` may change even without parameters; the
        /// others pass a conversion unparsed unless they have parameters.
        static let converted: Set<String> = binary.union(onlyIn4).union(onlyIn4.map { "X-" + $0 }).union([
            "LABEL", "CLASS", "NAME", "MAILER", "PROFILE", "AGENT", "SORT-STRING", "X-ADDRESSBOOKSERVER-KIND",
            "X-ADDRESSBOOKSERVER-MEMBER", "X-ABSHOWAS", "KIND", "MEMBER", "BDAY", "REV", "GEO", "TZ", "TEL",
        ])
        /// Whether a conversion may change a line of this property beyond its parameters: a
        /// name in `converted`, but for a TEL whose value is no `tel:` URI (4.0 marks those
        /// `VALUE=uri`, 3.0 writes them as text).
        static func mayConvert(_ name: String, _ line: String) -> Bool {
            guard converted.contains(name) else { return false }
            guard name == "TEL" else { return true }
            guard let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")) else { return true }
            let value = line.utf8[line.utf8.index(after: colon)...].prefix(4)
            return value.count == 4 && zip(value, "tel:".utf8).allSatisfy { $0 | 0x20 == $1 }
        }

        /// RFC 2426's value types (§4 and RFC 2425).
        static let valueTypes3: Set<String> = [
            "binary", "boolean", "date", "date-time", "float", "integer", "text", "time", "uri", "utc-offset", "vcard",
            "phone-number",
        ]
    }

    enum Types {
        static func isPref(_ type: String) -> Bool { type.utf8.count == 4 && type.lowercased() == "pref" }

        /// The TYPE values RFC 2426 defines for each property (and home/work for every one).
        private static let defined: [String: Set<String>] = [
            "TEL": [
                "home", "msg", "work", "pref", "voice", "fax", "cell", "video", "pager", "bbs", "modem", "car", "isdn",
                "pcs",
            ],
            "EMAIL": ["internet", "x400", "pref", "home", "work"],
            "ADR": ["dom", "intl", "postal", "parcel", "home", "work", "pref"],
            "LABEL": ["dom", "intl", "postal", "parcel", "home", "work", "pref"],
        ]

        /// The value lower-cased when the spec defines it (types are case-insensitive, and
        /// lower case is how RFC 6350 spells them); a media type (`JPEG`) or an unknown one is kept.
        static func lowercasedIfDefined(_ type: String, in name: String) -> String {
            let lower = type.lowercased()
            if Names.binary.contains(name) { return type }
            return (defined[name] ?? ["home", "work", "pref"]).contains(lower) ? lower : type
        }
    }

    /// PHOTO, LOGO, SOUND and KEY: 3.0's `ENCODING=b;TYPE=JPEG` and 4.0's `data:` URIs.
    enum Binary {
        static func cleaned(_ base64: String) -> String {
            base64.containsASCII(0x20) || base64.containsASCII(0x09) || base64.containsASCII(0x5C)
                ? String(base64.unicodeScalars.filter { $0 != " " && $0 != "\t" }).replacingOccurrences(
                    of: "\\n", with: "")
                : base64
        }

        static func looksLikeURI(_ value: String) -> Bool {
            guard let scheme = value.splitAtFirst(":")?.head, !scheme.isEmpty else { return false }
            return scheme.first!.isASCII && scheme.first!.isLetter
                && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        }

        static func to4(_ property: inout Property) {
            let encoding = property.lowered("ENCODING")
            let name = property.name
            let formatTypes = property.types.filter { !["home", "work", "pref"].contains($0.lowercased()) }
            if encoding == "b" || encoding == "base64" {
                let base64 = cleaned(property.value)
                let type =
                    formatTypes.lazy.compactMap { mediaType(of: $0, for: name) }.first
                    ?? sniff(base64, for: property.name)
                property.setValue("data:\(type);base64,\(base64)")
                property.remove("ENCODING")
                property.remove("VALUE")
                _ = property.removeTypes { formatTypes.contains($0) }
            } else if ["uri", "url"].contains(property.lowered("VALUE") ?? "") || looksLikeURI(property.value) {
                // A URI is 4.0's default for these: VALUE=uri says nothing (and a 4.0 card read
                // back would carry a parameter its 3.0 original had to have and it had not).
                if ["uri", "url"].contains(property.lowered("VALUE") ?? "") { property.remove("VALUE") }
                if let type = formatTypes.lazy.compactMap({ mediaType(of: $0, for: name) }).first {
                    _ = property.removeTypes { formatTypes.contains($0) }
                    if !property.has("MEDIATYPE") { property.set("MEDIATYPE", [type]) }
                }
            } else if property.name == "KEY" && !property.has("VALUE") {
                // 3.0's KEY may be text (an armoured PGP key); 4.0's default is a URI.
                property.set("VALUE", ["text"])
            }
        }

        static func to3(_ property: inout Property, notes: inout Notes) {
            var value = property.value
            if value.utf8.count >= 5, value.prefix(5).lowercased() == "data:", value.contains("\\,") {
                // khard writes a data: URI's comma escaped as text's (`base64\,iVBOR...`).
                value = value.replacingOccurrences(of: "\\,", with: ",")
            }
            if property.lowered("ENCODING") == "b" {
                // Inline already (a 3.0 line kept in a 4.0 card): 3.0's own form.
                property.setValue(cleaned(value))
                property.remove("VALUE")
            } else if value.count >= 5, value.prefix(5).lowercased() == "data:", let comma = value.firstIndex(of: ",") {
                let header = value[value.index(value.startIndex, offsetBy: 5)..<comma]
                let isBase64 = header.lowercased().hasSuffix(";base64")
                let mediaType = header.split(separator: ";").first.map { String($0).lowercased() } ?? ""
                let data = String(value[value.index(after: comma)...])
                let base64: String
                if isBase64 {
                    base64 = cleaned(data)
                } else {
                    base64 = Data((data.removingPercentEncoding ?? data).utf8).base64EncodedString()
                }
                property.setValue(base64)
                property.remove("VALUE")
                property.remove("MEDIATYPE")
                property.set("ENCODING", ["b"])
                if let format = format(of: mediaType) { property.setTypes(property.types + [format]) }
            } else if property.lowered("VALUE") == "text" {
                return
            } else if property.lowered("VALUE") != "uri" && !looksLikeURI(value) {
                // Neither inline data nor a link: a 2.1 key in armoured text is 3.0's VALUE=text.
                if property.name == "KEY" { property.set("VALUE", ["text"]) }
            } else if property.name == "KEY" {
                // 3.0's KEY is inline binary or text, never a link (RFC 2426 §3.7.2).
                property.set("VALUE", ["text"])
                property.remove("MEDIATYPE")
                property.setValue(VCardText.escape(property.value))
                notes.add("KEY: a link to a key written as text (vCard 3.0's KEY cannot be a link)")
            } else {
                // 3.0's default for these is inline binary: a link must say it is one.
                property.set("VALUE", ["uri"])
                if let mediaType = property.values(of: "MEDIATYPE").first {
                    property.remove("MEDIATYPE")
                    if let format = format(of: mediaType.lowercased()) { property.setTypes(property.types + [format]) }
                }
            }
        }

        private static let imageTypes: [String: String] = [
            "JPEG": "image/jpeg", "JPG": "image/jpeg", "PJPEG": "image/jpeg", "PNG": "image/png", "GIF": "image/gif",
            "BMP": "image/bmp", "TIFF": "image/tiff", "TIF": "image/tiff", "SVG": "image/svg+xml",
            "WEBP": "image/webp", "HEIC": "image/heic", "WBMP": "image/vnd.wap.wbmp",
        ]
        private static let soundTypes: [String: String] = [
            "WAVE": "audio/wav", "WAV": "audio/wav", "PCM": "audio/wav", "AIFF": "audio/aiff", "AIF": "audio/aiff",
            "BASIC": "audio/basic", "MP3": "audio/mpeg", "MPEG": "audio/mpeg", "OGG": "audio/ogg", "AAC": "audio/aac",
        ]
        private static let keyTypes: [String: String] = [
            "X509": "application/pkix-cert", "PGP": "application/pgp-keys", "GPG": "application/pgp-keys",
        ]

        /// A 3.0 TYPE such as `JPEG` (or a media type written as a TYPE) as a media type.
        static func mediaType(of type: String, for name: String) -> String? {
            if type.contains("/") { return type.lowercased() }
            let upper = type.uppercased()
            switch name {
            case "SOUND": return soundTypes[upper] ?? "audio/" + type.lowercased()
            case "KEY": return keyTypes[upper]
            default: return imageTypes[upper] ?? "image/" + type.lowercased()
            }
        }

        /// A media type as 3.0's TYPE (`image/jpeg` → `JPEG`); nil for one that has none.
        static func format(of mediaType: String) -> String? {
            switch mediaType {
            case "image/jpeg": return "JPEG"
            case "audio/wav", "audio/x-wav", "audio/wave": return "WAVE"
            case "audio/mpeg": return "MP3"
            case "application/pkix-cert", "application/x509-ca-cert", "application/x-x509-ca-cert": return "X509"
            case "application/pgp-keys": return "PGP"
            case "", "application/octet-stream": return nil
            default:
                guard let slash = mediaType.firstIndex(of: "/") else { return nil }
                let subtype = mediaType[mediaType.index(after: slash)...].prefix { $0 != "+" }
                return subtype.isEmpty ? nil : subtype.uppercased()
            }
        }

        /// The media type from the data's first bytes, for a 3.0 photo that did not say.
        static func sniff(_ base64: String, for name: String) -> String {
            let head = Data(base64Encoded: String(base64.prefix(16))).map { Array($0) } ?? []
            if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
            if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
            if head.starts(with: [0x47, 0x49, 0x46, 0x38]) { return "image/gif" }
            if head.starts(with: [0x42, 0x4D]) && name != "KEY" { return "image/bmp" }
            if name == "KEY" && head.first == 0x30 { return "application/pkix-cert" }
            return "application/octet-stream"
        }
    }

    /// GEO as 3.0's `lat;lon` (2.1's `lat,lon`) or 4.0's `geo:lat,lon` URI.
    enum Geo {
        static func parse(_ value: String) -> (String, String)? {
            var text = value.trimmingWhitespaces
            if text.lowercased().hasPrefix("geo:") {
                text = String(text.dropFirst(4).prefix { $0 != ";" })
            }
            // 3.0's `lat;lon` (perhaps escaped), 2.1's and the geo: URI's `lat,lon`.
            let parts = text.split(whereSeparator: { $0 == ";" || $0 == "," })
                .map { String($0.hasSuffix("\\") ? $0.dropLast() : $0).trimmingWhitespaces }
            guard parts.count >= 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                abs(latitude) <= 90, abs(longitude) <= 180
            else { return nil }
            return (parts[0], parts[1])
        }
    }

    /// A UTC offset, `-05:00` (3.0, extended) or `-0500` (4.0, basic).
    struct Offset {
        var sign: Character, hours: String, minutes: String

        init?(parsing text: String) {
            let trimmed = text.trimmingWhitespaces
            guard let first = trimmed.first, first == "+" || first == "-" else { return nil }
            let digits = trimmed.dropFirst().filter { $0 != ":" }
            guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return nil
            }
            sign = first
            hours = String(digits.prefix(2))
            minutes = digits.count == 4 ? String(digits.suffix(2)) : "00"
        }

        var basic: String { "\(sign)\(hours)\(minutes)" }
        var extended: String { "\(sign)\(hours):\(minutes)" }
    }

    /// A date and time in ISO 8601's basic (4.0) or extended (3.0) format, with 4.0's partial dates.
    struct DateValue {
        var year: String?
        var month: String?
        var day: String?
        /// Hour, minute, second, as written (minute and second may be missing in 4.0).
        var time: (hour: String, minute: String?, second: String?)?
        /// `Z` or an offset.
        var zone: String?

        var hasFullDate: Bool { year != nil && month != nil && day != nil }

        init?(parsing text: String) {
            let trimmed = text.trimmingWhitespaces
            let pieces = trimmed.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
            guard let datePart = pieces.first else { return nil }
            let isDigit = { (c: Character) in c.isASCII && c.isNumber }
            let plain = datePart.filter { $0 != "-" }
            guard plain.allSatisfy(isDigit) else { return nil }
            func slice(_ text: Substring, _ from: Int, _ count: Int) -> String {
                String(text.dropFirst(from).prefix(count))
            }
            if datePart.hasPrefix("---") {
                guard plain.count == 2 else { return nil }
                day = String(plain)
            } else if datePart.hasPrefix("--") {
                let rest = datePart.dropFirst(2)
                if rest.count == 2 && rest.allSatisfy(isDigit) {
                    month = String(rest)
                } else if rest.count == 4 && rest.allSatisfy(isDigit)
                    || rest.count == 5 && rest.dropFirst(2).first == "-"
                {
                    month = slice(plain[...], 0, 2)
                    day = slice(plain[...], 2, 2)
                } else {
                    return nil
                }
            } else if datePart.isEmpty {
                guard pieces.count == 2 else { return nil }
            } else {
                switch (datePart.count, plain.count) {
                case (8, 8), (10, 8):
                    if datePart.count == 10
                        && !(datePart.dropFirst(4).first == "-" && datePart.dropFirst(7).first == "-")
                    {
                        return nil
                    }
                    year = slice(plain[...], 0, 4); month = slice(plain[...], 4, 2); day = slice(plain[...], 6, 2)
                case (7, 6):
                    guard datePart.dropFirst(4).first == "-" else { return nil }
                    year = slice(plain[...], 0, 4); month = slice(plain[...], 4, 2)
                case (4, 4): year = String(plain)
                default: return nil
                }
            }
            if let m = month, !(1...12).contains(Int(m) ?? 0) { return nil }
            if let d = day, !(1...31).contains(Int(d) ?? 0) { return nil }
            if pieces.count == 2 {
                var timeText = Substring(pieces[1])
                if timeText.hasSuffix("Z") || timeText.hasSuffix("z") {
                    zone = "Z"; timeText = timeText.dropLast()
                } else if let sign = timeText.lastIndex(where: { $0 == "+" || $0 == "-" }) {
                    guard let offset = Offset(parsing: String(timeText[sign...])) else { return nil }
                    zone = offset.basic
                    timeText = timeText[..<sign]
                }
                // Fractions of a second are not in 4.0's grammar; they are dropped.
                let whole = timeText.prefix { $0 != "." && $0 != "," }.filter { $0 != ":" }
                guard [2, 4, 6].contains(whole.count), whole.allSatisfy(isDigit) else { return nil }
                time = (
                    slice(whole[...], 0, 2), whole.count >= 4 ? slice(whole[...], 2, 2) : nil,
                    whole.count == 6 ? slice(whole[...], 4, 2) : nil
                )
            }
        }

        /// RFC 6350 §4.3's basic format (`19960415`, `--0415`, `1996-04`, `19531015T231000Z`).
        var text4: String? {
            var out: String
            switch (year, month, day) {
            case let (y?, m?, d?): out = y + m + d
            case let (y?, m?, nil): out = y + "-" + m
            case (let y?, nil, nil): out = y
            case let (nil, m?, d?): out = "--" + m + d
            case (nil, let m?, nil): out = "--" + m
            case (nil, nil, let d?): out = "---" + d
            case (nil, nil, nil): out = ""
            default: return nil
            }
            if let time {
                out += "T" + time.hour + (time.minute ?? "") + (time.second ?? "")
                if let zone { out += zone }
            }
            return out
        }

        /// RFC 2426's form (`1996-04-15`, `1953-10-15T23:10:00Z`); nil for what it cannot hold.
        var text3: String? {
            guard let year, let month, let day else { return nil }
            var out = year + "-" + month + "-" + day
            if let time {
                out += "T" + time.hour + ":" + (time.minute ?? "00") + ":" + (time.second ?? "00")
                if let zone { out += zone == "Z" ? "Z" : Offset(parsing: zone)!.extended }
            }
            return out
        }
    }
}
