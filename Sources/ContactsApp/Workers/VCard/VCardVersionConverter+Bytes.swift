import Foundation

/// A 3.0 card's conversion to 4.0 read off the record's bytes: what `convert(_:from:to:)` gives,
/// line for line and note for note, without a String, a `Property` and an array entry per line.
/// An iPhone's 3.0 card exported as 4.0 cost 1.8× the program before the card was kept
/// (bench/FINDINGS.md, "card record"), nearly all of it in those per-line objects.
extension VCardVersionConverter {
    /// One line of the card written out.
    enum PlannedLine {
        /// The record's bytes in this range, as they are.
        case kept(Range<Int>)
        /// The record's bytes in this range, a `Syntax.plainTypes` line whose `pref` is `PREF=1`:
        /// `colon` within the line, `name` the range of its name (written upper-cased).
        case preferred(Range<Int>, colon: Int, name: Range<Int>)
        /// What converting the line as a property gave (none when it was dropped).
        case converted([String])
    }

    /// The lines of the 3.0 card whose record's bytes these are, in 4.0, and the conversion's
    /// notes in `convert`'s order. Nil for a card this does not read, which `convert` must do:
    /// one whose conversion looks across its lines (a LABEL goes into an ADR, a SORT-STRING into
    /// N or ORG, X-ABShowAs and X-ANNIVERSARY depend on KIND and ANNIVERSARY), or one holding a
    /// control character or a property name that is not ASCII.
    static func plan3To4(_ bytes: UnsafeBufferPointer<UInt8>, notes: inout Notes) -> [PlannedLine]? {
        var plan: [PlannedLine] = []
        // `convert` reads every line, then converts from 2.1's syntax, then into 4.0: each step's
        // notes are kept apart so that they come out in its order.
        var reading = Notes(), from21 = Notes(), into4 = Notes()
        guard !bytes.isEmpty else { return [] } // `VCardRecord.lines` of an empty text
        var start = 0
        while true {
            // The record's lines are joined by LF, which no line holds (`VCardRecord.lines`).
            let end =
                UnsafeBufferPointer(rebasing: bytes[start...]).firstIndex(of: 0x0A).map { start + $0 } ?? bytes.count
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if ControlCharacters.contains(line) { return nil }
            switch classify(line) {
            case .unreadable: return nil
            case .writersOwn: break
            case .kept: plan.append(.kept(start..<end))
            case .preferred(let colon, let name):
                plan.append(
                    .preferred(start..<end, colon: colon, name: (start + name.lowerBound)..<(start + name.upperBound)))
            case .parsed:
                // As `convert` does for a line it parses.
                let text = String(decoding: line, as: UTF8.self)
                if isUnreadableRevision(text, notes: &reading) { break }
                guard var property = Property(parsing: text, notes: &reading) else {
                    reading.add("A line that is not a vCard property was dropped: \(Property.excerpt(text))")
                    break
                }
                let needsRepair = Syntax.needsRepair(text, in: .v3)
                property.in21Syntax = needsRepair
                if needsRepair { property.changed = true }
                var card = Card(properties: [property])
                card.from21(notes: &from21, escapingCommas: false)
                card.to4(notes: &into4)
                plan.append(.converted(card.lines))
            }
            if end == bytes.count { break }
            start = end + 1
        }
        for sentence in reading.sentences + from21.sentences + into4.sentences { notes.add(sentence) }
        return plan
    }

    /// The lines of a card whose record's bytes these are, written in the card's own version:
    /// what the writer gives for `convert(lines, from: version, to: version)` of the record's
    /// lines less its VERSION lines, line for line and note for note. A line `convert` would
    /// give back as it is (most lines of most cards) is kept as the record's bytes; any other
    /// (a control character, a name that is not ASCII, a REV, a repair, a property the version
    /// has no place for) goes through `sameVersion` as a String. A String per line was most of
    /// a same-version export's time (bench/FINDINGS.md, branch export5).
    static func planSameVersion(
        _ bytes: UnsafeBufferPointer<UInt8>, in version: VCardWriter.Version, notes: inout Notes
    ) -> [PlannedLine] {
        var plan: [PlannedLine] = []
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return [] } // `VCardRecord.lines` of an empty text
        plan.reserveCapacity(16)
        var start = 0
        while true {
            // The record's lines are joined by LF, which no line holds (`VCardRecord.lines`).
            var end = bytes.count
            if let newline = memchr(base + start, 0x0A, bytes.count - start) {
                end = UnsafePointer<UInt8>(newline.assumingMemoryBound(to: UInt8.self)) - base
            }
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            // The writer leaves out the card's VERSION lines before converting (`isVersionLine`).
            if !(line.count <= 16 && VCardRecord.startsWithVersionName(line)) {
                switch sameVersionKind(line, in: version) {
                case .writersOwn: break
                case .kept: plan.append(.kept(start..<end))
                default:
                    var converted: [String] = []
                    sameVersion(String(decoding: line, as: UTF8.self), in: version, notes: &notes, to: &converted)
                    plan.append(.converted(converted))
                }
            }
            if end == bytes.count { break }
            start = end + 1
        }
        return plan
    }

    /// Whether `sameVersion` gives a line back as it is (`.kept`) or drops it as BEGIN, END or
    /// VERSION (`.writersOwn`), decided by its bytes; `.parsed` when the String's way must decide.
    private static func sameVersionKind(_ line: UnsafeBufferPointer<UInt8>, in version: VCardWriter.Version)
        -> LineKind
    {
        // The group and name end at the first `;` or `:` (`isWritersOwn`).
        var separator = 0
        while separator < line.count, line[separator] != UInt8(ascii: ";"), line[separator] != UInt8(ascii: ":") {
            if line[separator] >= 0x80 { return .parsed } // upper-cased by Unicode's rules in `isWritersOwn`
            separator += 1
        }
        guard separator < line.count, !ControlCharacters.contains(line) else { return .parsed }
        let head = UnsafeBufferPointer(rebasing: line[..<separator])
        if isUpperCased(head, "BEGIN") || isUpperCased(head, "END") || isUpperCased(head, "VERSION") {
            return .writersOwn
        }
        // A REV is read as a date (`isUnreadableRevision`): one line a card, the String's way.
        if line[0] | 0x20 == UInt8(ascii: "r") { return .parsed }
        if Syntax.needsRepair(line, in: version) || Names.hasNoPlace(line, in: version) { return .parsed }
        return .kept
    }

    private enum LineKind {
        case unreadable, writersOwn, kept, parsed
        case preferred(colon: Int, name: Range<Int>)
    }

    /// Properties whose 3.0 → 4.0 conversion reads or changes other lines (`Card.to4`).
    private static let acrossLines: [[UInt8]] = ["LABEL", "SORT-STRING", "X-ABSHOWAS", "X-ANNIVERSARY"].map {
        Array($0.utf8)
    }

    /// `Names.converted` by length, as upper-case bytes.
    private static let convertedByLength: [Int: [[UInt8]]] = Dictionary(
        grouping: Names.converted.map { Array($0.utf8) }, by: \.count)

    /// What `convert`'s loop does with one line of a 3.0 card going to 4.0, decided by its bytes.
    private static func classify(_ line: UnsafeBufferPointer<UInt8>) -> LineKind {
        // The group and name end at the first `;` or `:` (`Property.head`).
        var separator = 0, lastDot = -1
        while separator < line.count, line[separator] != UInt8(ascii: ";"), line[separator] != UInt8(ascii: ":") {
            if line[separator] >= 0x80 { return .unreadable } // upper-cased by Unicode's rules in `convert`
            if line[separator] == UInt8(ascii: ".") { lastDot = separator }
            separator += 1
        }
        let head = UnsafeBufferPointer(rebasing: line[..<separator])
        if isUpperCased(head, "BEGIN") || isUpperCased(head, "END") || isUpperCased(head, "VERSION") {
            return .writersOwn
        }
        guard separator < line.count else { return .parsed } // no property: `convert` drops it with a note
        let nameRange = (lastDot + 1)..<separator
        let name = UnsafeBufferPointer(rebasing: line[nameRange])
        if acrossLines.contains(where: { isUpperCased(name, $0) }) { return .unreadable }
        var mayConvert = convertedByLength[name.count]?.contains { isUpperCased(name, $0) } ?? false
        if mayConvert && isUpperCased(name, Array("TEL".utf8)) {
            // `Names.mayConvert`: a TEL only when its value is a `tel:` URI.
            if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                let value = UnsafeBufferPointer(rebasing: line[(colon + 1)...]).prefix(4)
                mayConvert = value.count == 4 && zip(value, "tel:".utf8).allSatisfy { $0 | 0x20 == $1 }
            }
        }
        if mayConvert { return .parsed }
        if line[separator] == UInt8(ascii: ":") { return .kept }
        guard let plain = Syntax.plainTypes(line) else { return .parsed }
        return plain.hasPref ? .preferred(colon: plain.colon, name: nameRange) : .kept
    }

    private static func isUpperCased(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        isUpperCased(bytes, UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    private static func isUpperCased(_ bytes: UnsafeBufferPointer<UInt8>, _ name: [UInt8]) -> Bool {
        name.withUnsafeBufferPointer { isUpperCased(bytes, $0) }
    }

    /// Whether the bytes are the upper-case ASCII `name`, in any case.
    private static func isUpperCased(_ bytes: UnsafeBufferPointer<UInt8>, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == name.count else { return false }
        for index in 0..<bytes.count {
            let byte = bytes[index], letter = name[index]
            guard byte == letter || (letter >= 0x41 && letter <= 0x5A && byte == letter | 0x20) else { return false }
        }
        return true
    }
}
