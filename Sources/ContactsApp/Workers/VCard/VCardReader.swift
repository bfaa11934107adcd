import Foundation

/// Reads vCard 2.1, 3.0 and 4.0 files (RFC 2426, RFC 6350 and what real exports actually do)
/// into contacts.
///
/// Hand-written: no vCard package for Swift is available on the machines this builds on, and
/// the quirks of Apple, Google, Android and Outlook exports need care anyway (see
/// `VCardContentLines` for the byte-level part and `VCardProperty` for one line's syntax).
///
/// Properties the model has no field for are kept verbatim in `Contact.extraProperties`, so an
/// import followed by an export loses nothing. A card that cannot be read is reported with its
/// line and the reason; the other cards are still read.
public struct VCardReader {
    /// Longest logical (unfolded) line accepted; a longer one makes its card unreadable.
    /// Large enough for a photo, small enough that garbage cannot exhaust memory downstream.
    public var maximumLineBytes: Int

    /// Most bytes and lines one card may hold (`ContactLimits.maximumCardBytes`, `maximumCardLines`),
    /// with the cards it suspended and an AGENT's card inside it: a card is held until its
    /// END:VCARD. A card past them is named and skipped (its lines dropped as they come), the
    /// rest of the file read.
    public var maximumCardBytes: Int
    public var maximumCardLines: Int

    public init(
        maximumLineBytes: Int = ContactLimits.maximumLineBytes, maximumCardBytes: Int = ContactLimits.maximumCardBytes,
        maximumCardLines: Int = ContactLimits.maximumCardLines
    ) {
        self.maximumLineBytes = maximumLineBytes
        self.maximumCardBytes = maximumCardBytes
        self.maximumCardLines = maximumCardLines
    }

    /// Cards begun inside a card that has not ended, past which the outermost is taken for one
    /// whose END:VCARD is missing (Android's nested test card is two deep).
    static let maximumNesting = 64

    /// A line over `maximumLineBytes` outside any card: no card to skip, and no end to wait
    /// for (`/dev/zero` has no line break): a file read a chunk at a time stops there.
    public struct LineTooLong: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var limit: Int
        public var description: String {
            "line \(line) is longer than \(limit) bytes, outside any card: not a vCard file"
        }
    }

    /// The names of the extra properties that carry `N`'s honorific prefix and suffix, which
    /// the model has no field for; the writer puts them back into `N`.
    static let namePrefixProperty = "X-CONTACTSBOOK-NAME-PREFIX"
    static let nameSuffixProperty = "X-CONTACTSBOOK-NAME-SUFFIX"

    public func read(_ data: Data) -> ParsedContacts {
        var result = ParsedContacts()
        var cards = Cards(reader: self)
        for line in VCardContentLines.split(data, maximumLineBytes: maximumLineBytes) {
            cards.take(line, into: &result)
            if let long = cards.overlongOutside {
                // In memory already: named, and the rest read.
                cards.overlongOutside = nil
                result.problems.append(
                    .init(
                        line: long,
                        reason: LineTooLong(line: long, limit: maximumLineBytes).description
                            .replacingOccurrences(of: "line \(long) is", with: "the line is")))
            }
        }
        cards.finish(into: &result)
        return result
    }

    /// Reads a file a chunk at a time and hands out what it read in batches of about
    /// `batchSize` cards (problems travel with the batch they were found in; an empty file gives
    /// one empty batch): the whole file is
    /// never in memory. `nextChunk` fills its buffer and returns false at the end of the file.
    /// Same results as `read(_:)` on the whole file, but that a line over `maximumLineBytes`
    /// outside any card throws `LineTooLong` (the batches before it handed out).
    public func read(
        batchSize: Int, nextChunk: (inout [UInt8]) throws -> Bool,
        _ body: (ParsedContacts) throws -> Void
    ) throws {
        var batches = ParsedBatches(size: batchSize)
        var cards = Cards(reader: self)
        var splitter = VCardContentLines.Splitter(maximumLineBytes: maximumLineBytes)
        var chunk: [UInt8] = []
        func take(_ line: VCardContentLine) throws {
            cards.take(line, into: &batches.current)
            if let long = cards.overlongOutside { throw LineTooLong(line: long, limit: maximumLineBytes) }
            try batches.handOutIfFull(body)
        }
        while try nextChunk(&chunk) {
            try chunk.withUnsafeBufferPointer { try splitter.feed($0, take) }
        }
        try splitter.finish(take)
        cards.finish(into: &batches.current)
        try batches.finish(body)
    }

    /// The cards of a file, line after line.
    private struct Cards {
        let reader: VCardReader
        /// The lines of the card being read, and the line its BEGIN:VCARD is on.
        var card: [VCardContentLine]?
        var cardLine = 0
        /// Cards suspended by a card begun inside them that is not an AGENT's (Android's test
        /// card v21_nest.vcf): each goes on after the inner card's END:VCARD, and the cards it
        /// held, read as cards of their own, are named once it ends (if it never does, it was
        /// a card whose END:VCARD is missing, and they were simply the next cards).
        var outer: [(lines: [VCardContentLine], line: Int, inner: [Int], held: Held, over: String?)] = []
        /// The BEGIN:VCARD lines of the cards read inside the current card.
        var inner: [Int] = []
        /// The card of an AGENT (2.1: `AGENT:` and the card on the lines after it) being
        /// gathered, and how many cards deep in it we are.
        var agent: (lines: [VCardContentLine], depth: Int)?
        /// What the current card holds (its lines, its AGENT's, the cards read inside it) and,
        /// apart, what the cards it suspended hold: together under the reader's limits.
        var held = Held(), suspended = Held()
        /// Why the current card is skipped, once it passed a limit: its lines are dropped as they come.
        var over: String?
        /// Lines outside any card: where the run began and how many, named when it ends.
        var outside: (line: Int, count: Int)?
        /// An overlong line met outside any card (its number).
        var overlongOutside: Int?
        let charsets = VCardCharsets()

        init(reader: VCardReader) { self.reader = reader }

        struct Held {
            var lines = 0, bytes = 0
            static func + (a: Held, b: Held) -> Held { Held(lines: a.lines + b.lines, bytes: a.bytes + b.bytes) }
            static func - (a: Held, b: Held) -> Held { Held(lines: a.lines - b.lines, bytes: a.bytes - b.bytes) }
        }

        /// Counts a line the current card is about to keep; false once the card is over a limit
        /// (then it keeps nothing). Past a limit, the outermost suspended card goes first, taken
        /// for one whose END:VCARD is missing; with none left, the current card is over.
        private mutating func hold(_ bytes: Int, into result: inout ParsedContacts) -> Bool {
            guard over == nil else { return false }
            held.lines += 1
            held.bytes += bytes
            while held.lines + suspended.lines > reader.maximumCardLines
                || held.bytes + suspended.bytes > reader.maximumCardBytes
            {
                guard outer.isEmpty else { dropOutermost(into: &result); continue }
                over =
                    held.lines > reader.maximumCardLines
                    ? "the card has more than \(reader.maximumCardLines) lines, the limit for one card: skipped"
                    : "the card is larger than \(ContactLimits.words(bytes: reader.maximumCardBytes)), the limit for one card "
                        + "(\(ContactLimits.importCardVariable) sets it): skipped"
                card = []
                inner = []
                held = Held()
                if agent != nil { agent!.lines = [] }
                return false
            }
            return true
        }

        /// The outermost suspended card, named as one without END:VCARD (or over a limit already).
        private mutating func dropOutermost(into result: inout ParsedContacts) {
            let bottom = outer.removeFirst()
            suspended = suspended - bottom.held
            result.problems.append(
                .init(
                    line: bottom.line,
                    reason: bottom.over ?? "the card has no END:VCARD within the limit "
                        + "for one card (\(ContactLimits.words(bytes: reader.maximumCardBytes)), \(reader.maximumCardLines) lines and "
                        + "\(VCardReader.maximumNesting) cards inside it)"))
        }

        mutating func take(_ line: VCardContentLine, into result: inout ParsedContacts) {
            if agent != nil { return gatherAgent(line, into: &result) }
            if line.overlong && card == nil { overlongOutside = line.line; return }
            // A comment (some exports start with one; Android's tests hold them inside cards):
            // no property name starts with `#`.
            if line.bytes.first == UInt8(ascii: "#") {
                if card != nil && over == nil {
                    result.warnings.append(
                        .init(line: line.line, reason: "a comment line, not a property: skipped", kind: .changed))
                }
                return
            }
            switch VCardReader.marker(line.bytes) {
            case "BEGIN:VCARD":
                endOutside(into: &result)
                if let lines = card {
                    if let last = lines.last,
                        VCardReader.agentValue(last.bytes)?.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) == true
                    {
                        agent = ([line], 1)
                        if !hold(line.bytes.count, into: &result) { agent!.lines = [] }
                        return
                    }
                    outer.append((lines, cardLine, inner, held, over))
                    suspended = suspended + held
                    inner = []
                    if outer.count > VCardReader.maximumNesting { dropOutermost(into: &result) }
                }
                card = []
                cardLine = line.line
                held = Held()
                over = nil
                _ = hold(line.bytes.count, into: &result)
            case "END:VCARD":
                guard let lines = card else {
                    endOutside(into: &result)
                    result.warnings.append(
                        .init(line: line.line, reason: "END:VCARD without BEGIN:VCARD: skipped", kind: .skipped))
                    result.skippedLines += 1
                    return
                }
                if let over {
                    result.problems.append(.init(line: cardLine, reason: over))
                } else {
                    reader.readCard(lines, startingAt: cardLine, charsets: charsets, into: &result)
                }
                for begin in inner {
                    result.warnings.append(
                        .init(
                            line: begin,
                            reason:
                                "a card inside the card of line \(cardLine), not an AGENT's: read as a card of its own",
                            kind: .changed))
                }
                if let parent = outer.popLast() {
                    let ended = cardLine
                    card = parent.lines
                    inner = parent.inner
                    cardLine = parent.line
                    suspended = suspended - parent.held
                    held = parent.held
                    over = parent.over
                    // Named once it ends; counted with it, so a card that never does stays bounded.
                    if hold(0, into: &result) { inner.append(ended) }
                } else {
                    card = nil
                    inner = []
                    held = Held()
                    over = nil
                }
            case "BEGIN:VADDRESSBOOK", "END:VADDRESSBOOK":
                return
            default:
                if card != nil {
                    let keep = hold(line.bytes.count, into: &result)
                    if let value = VCardReader.agentValue(line.bytes), VCardReader.isBeginVCard(value) {
                        // 3.0 written as 2.1: `AGENT:BEGIN:VCARD` and the card's lines after it.
                        var opening = line
                        opening.bytes.removeLast(value.count)
                        if keep { card!.append(opening) }
                        agent = (keep ? [VCardContentLine(bytes: Array("BEGIN:VCARD".utf8), line: line.line)] : [], 1)
                        return
                    }
                    if keep {
                        card!.append(line)
                    } else if VCardReader.agentValue(line.bytes) != nil {
                        // A card over a limit keeps only an AGENT line, for the card that may follow it to stay its AGENT's.
                        card = [line]
                    } else if card?.isEmpty == false {
                        card = []
                    }
                } else if outside != nil {
                    outside!.count += 1
                } else {
                    outside = (line.line, 1)
                }
            }
        }

        /// A line of an AGENT's card: once its END:VCARD comes, the card becomes the AGENT's
        /// value, as 3.0 writes it (one text value, its lines joined by `\n`), so it stays with
        /// its parent and is written back with it.
        private mutating func gatherAgent(_ line: VCardContentLine, into result: inout ParsedContacts) {
            switch VCardReader.marker(line.bytes) {
            case "BEGIN:VCARD": agent!.depth += 1
            case "END:VCARD": agent!.depth -= 1
            default: break
            }
            if hold(line.bytes.count, into: &result) { agent!.lines.append(line) }
            guard agent!.depth == 0 else { return }
            // Its card over a limit: only where the AGENT's card ends mattered.
            guard over == nil else { agent = nil; return }
            let text = agent!.lines.map { line in
                (try? VCardProperty(line, charsets: charsets))?.raw ?? String(decoding: line.bytes, as: UTF8.self)
            }.joined(separator: "\n")
            agent = nil
            var opening = card!.removeLast()
            opening.bytes =
                Array(opening.bytes.prefix { $0 != UInt8(ascii: ":") }) + [UInt8(ascii: ":")]
                + Array(VCardText.escape(text).utf8)
            card!.append(opening)
        }

        /// Names the run of lines outside any card that just ended.
        private mutating func endOutside(into result: inout ParsedContacts) {
            guard let run = outside else { return }
            outside = nil
            let what = run.count == 1 ? "a line outside any card" : "\(run.count) lines outside any card"
            result.warnings.append(
                .init(line: run.line, reason: "\(what) (expected BEGIN:VCARD): skipped", kind: .skipped))
            result.skippedLines += run.count
        }

        mutating func finish(into result: inout ParsedContacts) {
            endOutside(into: &result)
            let open =
                outer.map { (line: $0.line, innermost: false, over: $0.over) }
                + (card != nil ? [(line: cardLine, innermost: true, over: over)] : [])
            for card in open {
                let reason =
                    card.over != nil
                    ? card.over!
                    : !card.innermost
                        ? "the card has no END:VCARD"
                        : agent != nil
                            ? "the card of its AGENT has no END:VCARD (is the file truncated?)"
                            : "the card has no END:VCARD (is the file truncated?)"
                result.problems.append(.init(line: card.line, reason: reason))
            }
        }
    }

    /// What follows `AGENT:` (or `AGENT;…:`) on a line, nil for any other property.
    fileprivate static func agentValue(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard bytes.count > 5, bytes[0] | 0x20 == UInt8(ascii: "a"),
            zip(bytes[1..<5], "GENT".utf8).allSatisfy({ $0 & 0xDF == $1 }),
            bytes[5] == UInt8(ascii: ":") || bytes[5] == UInt8(ascii: ";"),
            let colon = bytes.firstIndex(of: UInt8(ascii: ":"))
        else { return nil }
        return bytes[(colon + 1)...]
    }

    /// `BEGIN:VCARD` alone, in any case, spaces around it allowed.
    fileprivate static func isBeginVCard(_ value: ArraySlice<UInt8>) -> Bool {
        value.count <= 24 && String(decoding: value, as: UTF8.self).trimmingSpaces.uppercased() == "BEGIN:VCARD"
    }

    /// `BEGIN:VCARD` and the like, upper-cased, for lines short enough to be one.
    fileprivate static func marker(_ bytes: [UInt8]) -> String? {
        // Most lines are properties: only a line starting with B, E or a blank can be a marker.
        guard bytes.count <= 24, let first = bytes.first,
            first == UInt8(ascii: "B") || first == UInt8(ascii: "b") || first == UInt8(ascii: "E")
                || first == UInt8(ascii: "e") || first == 0x20 || first == 0x09
        else { return nil }
        // The markers as most files write them, without a string made, trimmed and upper-cased.
        if bytes.elementsEqual("END:VCARD".utf8) { return "END:VCARD" }
        if bytes.elementsEqual("BEGIN:VCARD".utf8) { return "BEGIN:VCARD" }
        // An ASCII line that has no colon, or a property name other than BEGIN/END, is no marker.
        if bytes.allSatisfy({ $0 < 0x80 }) {
            let trimmed = bytes.drop { $0 == 0x20 || $0 == 0x09 }
            guard trimmed.count >= 4 else { return nil }
            let head = trimmed.prefix(4).map { $0 & 0xDF } // upper-cased letters (and ':' to 0x1A)
            guard head == Array("END".utf8) + [0x1A] || head == Array("BEGI".utf8) else { return nil }
        }
        return String(decoding: bytes, as: UTF8.self).trimmingSpaces.uppercased()
    }

    // MARK: - One card

    /// Reads one card into `result`: its contact and what reading it changed, or why it could
    /// not be read.
    fileprivate func readCard(
        _ lines: [VCardContentLine], startingAt cardLine: Int, charsets: VCardCharsets,
        into result: inout ParsedContacts
    ) {
        switch contact(from: lines, startingAt: cardLine, charsets: charsets) {
        case .success(let (contact, warnings)):
            result.entries.append(.init(contact: contact, line: cardLine))
            result.warnings += warnings
        case .failure(let problem):
            result.problems.append(problem)
        }
    }

    fileprivate func contact(from lines: [VCardContentLine], startingAt cardLine: Int, charsets: VCardCharsets)
        -> Result<(Contact, [ParsedContacts.Problem]), ParsedContacts.Problem>
    {
        var properties: [VCardProperty] = []
        properties.reserveCapacity(lines.count)
        // The line of each property (a line left out has none).
        var propertyLines: [Int] = []
        propertyLines.reserveCapacity(lines.count)
        var warnings: [ParsedContacts.Problem] = []
        for line in lines {
            guard line.bytes.count <= maximumLineBytes && !line.overlong else {
                return .failure(.init(line: line.line, reason: "the line is longer than \(maximumLineBytes) bytes"))
            }
            do {
                properties.append(try VCardProperty(line, charsets: charsets))
            } catch let failure as VCardProperty.Failure where failure.costsTheLineOnly {
                // Written back, the line would make the export unreadable; the rest of the card is fine.
                warnings.append(.init(line: line.line, reason: failure.reason + ": the line left out", kind: .changed))
                continue
            } catch let failure as VCardProperty.Failure {
                return .failure(.init(line: line.line, reason: failure.reason))
            } catch {
                return .failure(.init(line: line.line, reason: "\(error)"))
            }
            propertyLines.append(line.line)
            // Read in place: a copy of each property retains and releases all its strings.
            let last = properties.count - 1
            for remark in line.remarks ?? [] {
                warnings.append(
                    .init(line: remark.line, reason: "\(properties[last].name): \(remark.reason)", kind: .changed))
            }
            for repair in properties[last].repairs ?? [] {
                warnings.append(.init(line: line.line, reason: "\(properties[last].name): \(repair)", kind: .changed))
            }
        }
        // The card as kept, first: its VERSION (`declaredVersion`) is the one the fields are read by.
        let card = Self.record(of: properties)
        let version = card.declaredVersion
        var builder = ContactBuilder()
        builder.read(properties, version: version)
        if var contact = builder.contact {
            contact.card = card
            let added = Self.namesAnExportAdds(properties, contact: contact, version: version, cardLine: cardLine)
            if !added.isEmpty { warnings = added + warnings }
            let rewritten = Self.propertiesAnExportRewrites(properties, lines: propertyLines, version: version)
            if !rewritten.isEmpty { warnings = Self.byLine(warnings + rewritten) }
            // Emails kept but not valid, by their own line: looked for only in a card that has one.
            guard contact.emails.contains(where: { !ContactRules.isEmail($0.value) }) else {
                return .success((contact, warnings))
            }
            var merged: [ParsedContacts.Problem] = [], next = 0
            for (property, line) in zip(properties, propertyLines) where property.name == "EMAIL" {
                let email = VCardText.unescape(property.value).trimmingSpaces // as ContactBuilder keeps it
                guard !ContactRules.isEmail(email) else { continue }
                while next < warnings.count && warnings[next].line <= line { merged.append(warnings[next]); next += 1 }
                merged.append(
                    .init(line: line, reason: "EMAIL \"\(email)\" is not an email address (kept)", kind: .invalid))
            }
            return .success((contact, merged + warnings[next...]))
        }
        guard let fallback = Self.fallbackName(properties, lines: propertyLines, cardLine: cardLine) else {
            return .failure(.init(line: cardLine, reason: "the card is empty: no name (N, FN or ORG) and nothing else"))
        }
        builder.fallbackName = fallback.name
        guard var contact = builder.contact else {
            return .failure(.init(line: cardLine, reason: "the card has no name (N or FN) and no organisation (ORG)"))
        }
        contact.card = card
        warnings.append(.init(line: fallback.line, reason: fallback.reason, kind: .changed))
        warnings += Self.namesAnExportAdds(properties, contact: contact, version: version, cardLine: cardLine)
        let rewritten = Self.propertiesAnExportRewrites(properties, lines: propertyLines, version: version)
        if !rewritten.isEmpty { warnings = Self.byLine(warnings + rewritten) }
        return .success((contact, warnings))
    }

    /// Warnings in the order of their lines (a stable sort: one line's stay as they were).
    private static func byLine(_ warnings: [ParsedContacts.Problem]) -> [ParsedContacts.Problem] {
        warnings.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
    }

    /// Properties that hold an instant-messaging handle, as `IMPP` or the X- forms before it.
    private static let handleProperties: Set<String> = [
        "IMPP", "X-JABBER", "X-AIM", "X-ICQ", "X-MSN", "X-YAHOO", "X-SKYPE", "X-SKYPE-USERNAME",
        "X-GOOGLE-TALK", "X-GTALK", "X-QQ", "X-GADUGADU", "X-TWITTER",
    ]

    /// A name for a card without one (no N, FN or ORG): its first email, IM handle (without
    /// its `xmpp:` scheme), nickname or phone, in that order, with the line it came from; for
    /// a card that holds something else (only a photo), "(no name)"; nil for an empty card.
    static func fallbackName(_ properties: [VCardProperty], lines: [Int], cardLine: Int, byNickname: Bool = true)
        -> (name: String, line: Int, reason: String)?
    {
        func first(_ names: Set<String>, _ value: (VCardProperty) -> String) -> (String, Int, String)? {
            for (offset, property) in properties.enumerated() where names.contains(property.name) {
                let line = offset < lines.count ? lines[offset] : cardLine
                let text = value(property)
                if !text.isEmpty { return (text, line, property.name) }
            }
            return nil
        }
        let text = { (property: VCardProperty) in
            ContactBuilder.withoutControlCharacters(VCardText.unescape(property.value)).trimmingSpaces
        }
        let found =
            first(["EMAIL"], text)
            ?? first(handleProperties) { property in
                let handle = text(property)
                guard let (scheme, rest) = handle.splitAtFirst(":"), scheme.allSatisfy({ $0.isLetter }) else {
                    return handle
                }
                return rest.trimmingSpaces
            }
            ?? first(byNickname ? ["NICKNAME"] : []) { VCardText.list($0.value).first?.trimmingSpaces ?? "" }
            ?? first(["TEL"]) { ContactBuilder.phoneNumber($0, text($0)) }
        if let (name, line, property) = found {
            return (name, line, "the card has no name (N, FN or ORG): named \"\(name)\" after its \(property)")
        }
        let nothing: Set<String> = ["VERSION", "PRODID", "REV", "UID", "N", "FN", "ORG"]
        guard properties.contains(where: { !nothing.contains($0.name) && !$0.value.isEmpty }) else { return nil }
        return (noName, cardLine, "the card has no name (N, FN or ORG) and nothing to name it by: named \"\(noName)\"")
    }

    /// The name of a card that has nothing to name it by (only a photo, say).
    static let noName = "(no name)"

    /// A name as the reader takes it from N's family or given part or from FN (unescaped): without
    /// control characters, as the export writes it, and trimmed; empty names nobody.
    static func nameText(_ text: String) -> String { ContactBuilder.withoutControlCharacters(text).trimmingSpaces }

    /// The card's lines as they are kept (`VCardProperty.appendKept`), in one text.
    static func record(of properties: [VCardProperty]) -> VCardRecord {
        var bytes: [UInt8] = []
        // By index: a copy of each property retained and released all its parts.
        var count = 0
        for index in properties.indices { count += properties[index].keptByteCount + 1 }
        bytes.reserveCapacity(count)
        for index in properties.indices {
            if index > 0 { bytes.append(0x0A) }
            properties[index].appendKept(to: &bytes)
        }
        return VCardRecord(text: String(decoding: bytes, as: UTF8.self))
    }

    /// The birthday a BDAY value reads as (`ContactBuilder.birthday`), for the converter.
    static func birthday(_ text: String, omittedYear: String?) -> Birthday? {
        ContactBuilder.birthday(text, omittedYear: omittedYear)
    }

    /// A stored card read again as the fields it gives, with where each field came from:
    /// what `CardPatch` compares a contact with before it touches the card.
    static func view(of record: VCardRecord) -> (contact: Contact, layout: CardLayout, properties: [VCardProperty])? {
        var properties: [VCardProperty] = []
        for (index, line) in record.lines.enumerated() {
            guard let property = try? VCardProperty(VCardContentLine(bytes: Array(line.utf8), line: index + 1)) else {
                return nil
            }
            properties.append(property)
        }
        var builder = ContactBuilder(recordingLayout: true)
        builder.read(properties, version: record.declaredVersion)
        if builder.contact == nil,
            let fallback = fallbackName(properties, lines: Array(1...max(1, properties.count)), cardLine: 1)
        {
            builder.fallbackName = fallback.name // named on import as it is here
        }
        guard let contact = builder.contact else { return nil }
        return (contact, builder.layout, properties)
    }
}

/// Where each field of a contact read from a card came from: the index of its property in the
/// card, for each item of the lists in the contact's order, and what each property is.
struct CardLayout {
    enum Slot: Equatable {
        /// VERSION, PRODID, REV: the card's own bookkeeping.
        case bookkeeping
        case uid, formattedName, name, nickname, organization, title, birthday, note, categories
        case phone, email, address, website
        /// An `X-ABLabel` that labels a phone, email, address or website in its group.
        case label
        /// A property with no field (`extraProperties`), or a second ORG, TITLE or NOTE: kept as it is.
        case kept

        /// A phone, email, address or website: what reads its group's `X-ABLabel` as its label.
        var takesGroupLabel: Bool { self == .phone || self == .email || self == .address || self == .website }
    }

    var slots: [Slot] = []
    var phones: [Int] = []
    var emails: [Int] = []
    var addresses: [Int] = []
    var websites: [Int] = []
}

/// Maps one card's properties onto a `Contact`.
private struct ContactBuilder {
    var contact: Contact? {
        var result = draft
        if result.givenName.isEmpty && result.familyName.isEmpty && result.organization.isEmpty {
            let words = formattedName.split(separator: " ").map(String.init)
            if words.isEmpty && !fallbackName.isEmpty {
                result.givenName = fallbackName // an email or a phone is not split into names
            } else if words.isEmpty {
                return nil
            } else if words.count == 1 || formattedName == result.organization || formattedName == VCardReader.noName
                || formattedName
                    == VCardReader.fallbackName(properties, lines: [], cardLine: 0, byNickname: false)?.name
            {
                // The FN an export writes for a nameless card reads back as the name it stands for
                // (an email or phone with a space in it too: not split into names; a nickname is a
                // name, and an FN the same as it is split as any other).
                result.givenName = formattedName
            } else {
                result.givenName = words.dropLast().joined(separator: " ")
                result.familyName = words[words.count - 1]
            }
        }
        result.nameOrder = PersonName.order(
            ofFormattedName: formattedName, given: result.givenName, family: result.familyName)
        // FN is kept as written when the name parts would not give it ("John Doe III").
        if !formattedName.isEmpty && formattedName != result.composedName { result.formattedName = formattedName }
        result.phones = Self.preferredFirstValues(phones)
        result.emails = Self.preferredFirstValues(emails)
        result.addresses = Self.preferredFirstValues(addresses)
        result.websites = Self.preferredFirstValues(websites)
        return result
    }

    /// The layout of what was read (`recordingLayout`), the lists in the contact's order.
    var layout: CardLayout {
        var layout = recorded
        layout.phones = Self.preferredFirst(phones).map(\.1)
        layout.emails = Self.preferredFirst(emails).map(\.1)
        layout.addresses = Self.preferredFirst(addresses).map(\.1)
        layout.websites = Self.preferredFirst(websites).map(\.1)
        return layout
    }

    /// The name for a card without N, FN or ORG (`VCardReader.fallbackName`), set by the reader.
    var fallbackName = ""
    private var draft = Contact()
    /// What was read: a card whose FN is all its name is looked at again for what named it.
    private var properties: [VCardProperty] = []
    private var formattedName = ""
    private var hasOrganization = false, hasTitle = false, hasNote = false
    /// Each item with the index of its property and whether it is preferred.
    private var phones: [(LabeledValue, Int, Bool)] = []
    private var emails: [(LabeledValue, Int, Bool)] = []
    private var addresses: [(PostalAddress, Int, Bool)] = []
    private var websites: [(LabeledValue, Int, Bool)] = []
    private let recordingLayout: Bool
    private var recorded = CardLayout()

    init(recordingLayout: Bool = false) { self.recordingLayout = recordingLayout }

    /// `version`: the card's own (`VCardRecord.declaredVersion`), which decides how its text is read.
    mutating func read(_ properties: [VCardProperty], version: VCardVersion?) {
        self.properties = properties
        // Apple and Google label a property by a sibling in the same group: item1.X-ABLabel.
        var groupLabels: [String: String] = [:]
        for property in properties where property.name == "X-ABLABEL" {
            if let group = property.group { groupLabels[group] = Self.cleanLabel(VCardText.unescape(property.value)) }
        }
        // Only an X-ABLabel needs to know which groups a TEL, EMAIL, ADR or URL took its label from.
        let consumedGroups: Set<String> =
            groupLabels.isEmpty
            ? []
            : Set(
                properties.filter {
                    $0.name == "TEL" || $0.name == "EMAIL" || $0.name == "ADR" || $0.name == "URL"
                }.compactMap(\.group))

        // 2.1's text has no escapes but a compound value's `\;`: read as the 3.0 a conversion
        // writes it (`FN:A\C` is "A\C"), so a card reads the same before and after an export.
        let is21 = version == .v21
        for index in properties.indices {
            let slot: CardLayout.Slot
            if is21 && VCardVersionConverter.Card.textIn21.contains(properties[index].name) {
                var property = properties[index]
                property.value = VCardVersionConverter.Card.text21As3(
                    property.value, structured: VCardVersionConverter.Card.structuredIn21.contains(property.name))
                slot = read(property, at: index, groupLabels: groupLabels, consumedGroups: consumedGroups)
            } else {
                // Read in place: a copy of each property retained and released all its parts.
                slot = read(properties[index], at: index, groupLabels: groupLabels, consumedGroups: consumedGroups)
            }
            if recordingLayout { recorded.slots.append(slot) }
        }
    }

    private mutating func read(
        _ property: VCardProperty, at index: Int, groupLabels: [String: String],
        consumedGroups: Set<String>
    ) -> CardLayout.Slot {
        let text = VCardText.unescape(property.value)
        let groupLabel = property.group.flatMap { groupLabels[$0] }
        switch property.name {
        case "VERSION", "PRODID", "REV":
            return .bookkeeping
        case "X-ABLABEL" where property.group.map(consumedGroups.contains) == true:
            return .label
        case "UID":
            draft.uid = Self.withoutControlCharacters(text).trimmingSpaces
            return .uid
        case "FN":
            guard formattedName.isEmpty else { break }
            formattedName = VCardReader.nameText(text)
            return .formattedName
        case "N":
            readName(VCardText.components(property.value))
            return .name
        case "NICKNAME":
            let names = VCardText.list(property.value).map(\.trimmingSpaces).filter { !$0.isEmpty }
            draft.nickname = ([draft.nickname].filter { !$0.isEmpty } + names).joined(separator: ", ")
            return .nickname
        case "ORG":
            // The first ORG is the contact's; later ones are kept in the card, as they came.
            guard !hasOrganization else { break }
            hasOrganization = true
            draft.organization = VCardText.components(property.value).filter { !$0.isEmpty }.joined(separator: ", ")
            return .organization
        case "TITLE":
            guard !hasTitle else { break }
            hasTitle = true
            draft.title = text
            return .title
        case "TEL":
            let types = property.types
            phones.append(
                (
                    LabeledValue(label: groupLabel ?? Self.label(types), value: Self.phoneNumber(property, text)),
                    index, property.isPreferred(types: types)
                ))
            return .phone
        case "EMAIL":
            let types = property.types
            emails.append(
                (
                    LabeledValue(label: groupLabel ?? Self.label(types), value: text.trimmingSpaces),
                    index, property.isPreferred(types: types)
                ))
            return .email
        case "ADR":
            let types = property.types
            addresses.append(
                (
                    Self.address(VCardText.components(property.value), label: groupLabel ?? Self.label(types)),
                    index, property.isPreferred(types: types)
                ))
            return .address
        case "URL":
            let types = property.types
            websites.append(
                (
                    LabeledValue(label: groupLabel ?? Self.label(types), value: text.trimmingSpaces),
                    index, property.isPreferred(types: types)
                ))
            return .website
        case "BDAY":
            guard draft.birthday == nil,
                let birthday = Self.birthday(text, omittedYear: property.values(of: "X-APPLE-OMIT-YEAR").first)
            else { break } // a form we do not model ("circa 1800"): kept
            draft.birthday = birthday
            return .birthday
        case "NOTE":
            // The first NOTE is the contact's; later ones are kept in the card as they came, each
            // its own property (an edit of the notes rewrites the first alone), and shown after it.
            guard !hasNote else { break }
            hasNote = true
            draft.notes = text
            return .note
        case "CATEGORIES":
            draft.tags += VCardText.list(property.value).map { $0.trimmingSpaces }.filter { !$0.isEmpty }
            return .categories
        default:
            break
        }
        draft.extraProperties.append(property.raw)
        return .kept
    }

    /// Without the control characters every export removes (`VCardVersionConverter`), so the UID
    /// read is the one written, and the next import of the file finds the contact by it.
    static func withoutControlCharacters(_ text: String) -> String {
        guard VCardVersionConverter.ControlCharacters.contains(text) else { return text }
        // A line break is kept: the export writes a raw one as `\n`, which reads as one.
        return String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter {
                    $0 == "\n" || !VCardVersionConverter.ControlCharacters.isControl($0)
                }))
    }

    /// The family and given names; additional names, prefix and suffix stay in the card's N
    /// (and in FN, which shows them), untouched by an edit of the other two.
    private mutating func readName(_ parts: [String]) {
        // Without control characters, as the export writes them: a name of NULs is none.
        func part(_ index: Int) -> String {
            index < parts.count ? VCardReader.nameText(parts[index]) : ""
        }
        draft.familyName = part(0)
        draft.givenName = part(1)
    }

    /// Labels from `TYPE`s: `cell` reads as "mobile"; `pref`, `internet` and `voice` say nothing
    /// a person calls a label. No type at all reads as "other".
    private static let ignoredTypes: Set<String> = [
        "pref", "internet", "voice", "x400", "dom", "intl", "postal", "parcel",
    ]

    static func label(_ types: [String]) -> String {
        if types.count == 1 && !ignoredTypes.contains(types[0]) { return types[0] == "cell" ? "mobile" : types[0] }
        let words = types.filter { !ignoredTypes.contains($0) }.map { $0 == "cell" ? "mobile" : $0 }
        var unique: [String] = []
        for word in words where !unique.contains(word) { unique.append(word) }
        return unique.isEmpty ? "other" : unique.joined(separator: " ")
    }

    /// Apple writes its built-in labels as `_$!<Mobile>!$_`; they read as "mobile".
    static func cleanLabel(_ label: String) -> String {
        guard label.hasPrefix("_$!<"), label.hasSuffix(">!$_") else { return label }
        return String(label.dropFirst(4).dropLast(4)).lowercased()
    }

    /// A `tel:` URI (`TEL;VALUE=uri:tel:+1-555-0100`) reads as the number it names.
    static func phoneNumber(_ property: VCardProperty, _ text: String) -> String {
        var number = text.trimmingSpaces
        if number.utf8.count >= 4, number.utf8.starts(with: "tel:".utf8, by: { $0 | 0x20 == $1 }) {
            number = String(number.dropFirst(4))
        }
        var extensionNumber = ""
        // `;ext=`, `;phone-context=`. Most numbers have no ";": the byte test spares them the
        // search by Character.
        if number.utf8.contains(UInt8(ascii: ";")), let semicolon = number.firstIndex(of: ";") {
            for parameter in number[number.index(after: semicolon)...].split(separator: ";")
            where parameter.lowercased().hasPrefix("ext=") {
                extensionNumber = String(parameter.dropFirst(4)).trimmingSpaces
            }
            number = String(number[..<semicolon])
        }
        // An extension is part of what a person dials: shown as libphonenumber (Android, Google)
        // writes it, and what the converter writes for 3.0.
        if !extensionNumber.isEmpty { return number.trimmingSpaces + " ext. " + extensionNumber }
        // Trimmed again: what stood around `tel:` or before `;` ("+1 ;x" is "+1", "tel: 5" is "5").
        return number.trimmingSpaces
    }

    /// `ADR`'s components: post-office box; extended address; street; locality; region; code; country.
    static func address(_ parts: [String], label: String) -> PostalAddress {
        func part(_ index: Int) -> String { index < parts.count ? parts[index].trimmingSpaces : "" }
        let street = [part(0), part(1), part(2)].filter { !$0.isEmpty }.joined(separator: ", ")
        return PostalAddress(
            label: label, street: street, city: part(3), region: part(4),
            postalCode: part(5), country: part(6))
    }

    /// `1990-05-17`, `19900517`, `--05-17`, `--0517`, a date-time (`1990-05-17T00:00:00Z`), or
    /// Apple's `1604-05-17` with `X-APPLE-OMIT-YEAR=1604` for a birthday without a year.
    static func birthday(_ text: String, omittedYear: String?) -> Birthday? {
        // The common forms, `YYYY-MM-DD`, `YYYYMMDD`, `--MM-DD` and `--MMDD`, read from their
        // bytes: the path below makes and parses four strings, 23,000 instructions a card
        // (bench/FINDINGS.md, branch `import5`).
        if omittedYear == nil, let date = text.utf8.withContiguousStorageIfAvailable(isoDate) ?? nil {
            return Birthday(validYear: date.year, month: date.month, day: date.day)
        }
        var date = text.trimmingSpaces
        if let t = date.firstIndex(where: { $0 == "T" || $0 == "t" }) { date = String(date[..<t]) }
        let noYear = date.hasPrefix("--")
        let digits = (noYear ? String(date.dropFirst(2)) : date).filter { $0 != "-" }
        guard digits.allSatisfy(\.isASCIIDigit) else { return nil }
        let iso: String
        switch (noYear, digits.count) {
        case (true, 4): iso = "--" + digits.prefix(2) + "-" + digits.suffix(2)
        case (false, 8):
            let year = String(digits.prefix(4))
            iso = (year == omittedYear ? "-" : year) + "-" + digits.dropFirst(4).prefix(2) + "-" + digits.suffix(2)
        default: return nil
        }
        return Birthday(parsing: iso)
    }

    /// The numbers of exactly `YYYY-MM-DD`, `YYYYMMDD`, `--MM-DD` or `--MMDD` (ASCII digits; no
    /// year in the last two); nil for any other text.
    static func isoDate(_ bytes: UnsafeBufferPointer<UInt8>) -> (year: Int?, month: Int, day: Int)? {
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard bytes[index] >= 0x30 && bytes[index] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        let dash = UInt8(ascii: "-")
        // Where the year, month and day start; nil when the text has none of the four forms.
        let starts: (year: Int?, month: Int, day: Int)? =
            switch bytes.count {
            case 10 where bytes[4] == dash && bytes[7] == dash: (0, 5, 8)
            case 8 where bytes[0] != dash: (0, 4, 6)
            case 7 where bytes[0] == dash && bytes[1] == dash && bytes[4] == dash: (nil, 2, 5)
            case 6 where bytes[0] == dash && bytes[1] == dash: (nil, 2, 4)
            default: nil
            }
        guard let starts, let month = number(starts.month..<starts.month + 2),
            let day = number(starts.day..<starts.day + 2)
        else { return nil }
        guard let yearStart = starts.year else { return (nil, month, day) }
        guard let year = number(yearStart..<yearStart + 4) else { return nil }
        return (year, month, day)
    }

    private static func preferredFirst<T>(_ items: [(T, Int, Bool)]) -> [(T, Int)] {
        items.filter { $0.2 }.map { ($0.0, $0.1) } + items.filter { !$0.2 }.map { ($0.0, $0.1) }
    }

    /// `preferredFirst(items).map(\.0)`; one map when nothing is preferred (most cards): the
    /// filters, maps and join were 3 % of an import's reading thread (bench/FINDINGS.md, branch `import6read`).
    private static func preferredFirstValues<T>(_ items: [(T, Int, Bool)]) -> [T] {
        guard items.contains(where: { $0.2 }) else { return items.map(\.0) }
        return items.filter { $0.2 }.map(\.0) + items.filter { !$0.2 }.map(\.0)
    }
}
