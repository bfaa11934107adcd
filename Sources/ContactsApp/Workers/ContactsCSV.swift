import CSV
import Foundation

/// Contacts as CSV (RFC 4180, UTF-8, CRLF), parsed and quoted by the CSV.swift package.
///
/// Our columns, in this order: `uid` and each field's (`ContactField.Declaration.csvColumn`):
/// `given_name, family_name, display_name, nickname, organization, title, phones, emails,
/// addresses, websites, birthday, notes, tags`. `display_name` is the card's own display name
/// (FN) when the name parts do not give it, else empty. A multi-value column holds its items
/// joined by ` | `, each item `label:value`: `work:ann@example.org | home:ann@home.example`;
/// an address's value is `street; city; region; postal code; country`, as the form takes it.
/// Inside those columns (and `tags`) a backslash escapes the next `\\`, `|`, `:` or `;`, so
/// text holding the separators reads back whole; any other backslash is read as itself.
/// `birthday` is `YYYY-MM-DD` or `--MM-DD`. Properties kept from vCards are not in CSV.
///
/// Import also reads the CSV exports of Google Contacts (both the current `First Name`,
/// `E-mail 1 - Value` headers and the older `Given Name` ones) and of Outlook (`E-mail Address`,
/// `Business Phone`, `Home Street`, ...), mapping their columns onto the same fields.
enum ContactsCSV {
    /// `groups` last: the names of the groups a contact is a member of (not a field of its own
    /// card: a group is a card of its own).
    static let columns = ["uid"] + ContactField.allCases.map(\.declaration.csvColumn) + ["groups"]
    static let itemSeparator = " | "

    static var header: String {
        var bytes: [UInt8] = []
        append(row: columns, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The contacts as CSV rows, each ending in CRLF, added to `bytes`.
    static func append(_ contacts: [Contact], groups: [String: [String]] = [:], to bytes: inout [UInt8]) {
        for contact in contacts {
            let names = (groups[GroupCard.memberUID(contact.uid)] ?? []).map { escaped($0, value) }.joined(
                separator: itemSeparator)
            append(row: [contact.uid] + ContactField.allCases.map { cell($0, of: contact) } + [names], to: &bytes)
        }
    }

    /// One field's cell, by its shape.
    static func cell(_ field: ContactField, of contact: Contact) -> String {
        switch contact[field] {
        case .text(let text):
            // A second NOTE (kept in the card) goes with the first: CSV has one notes column.
            return field == .notes ? contact.allNotes : text
        case .date(let date): return date?.isoString ?? ""
        case .items(let items): return items.map(item).joined(separator: itemSeparator)
        case .addresses(let addresses):
            return addresses.map { address in
                escaped(address.label, label) + ":"
                    + [address.street, address.city, address.region, address.postalCode, address.country]
                    .map { escaped($0, addressPart) }.joined(separator: "; ")
            }.joined(separator: itemSeparator)
        case .words(let words): return words.map { escaped($0, value) }.joined(separator: itemSeparator)
        }
    }

    /// One row, ending in CRLF: RFC 4180 as CSV.swift's `CSVWriter` writes it (a field holding a
    /// quote, a comma, CR or LF is quoted, its quotes doubled; `ContactsCSVTests` holds the two
    /// to the same text). Written by hand, not with `CSVWriter`: on Linux it searches every
    /// field through `NSString` and collects the text in an `NSData` stream, read back byte by
    /// byte, and a CSV export of 10k contacts ran at 6,900 a second (vCard: 57,000).
    static func append(row fields: [String], to bytes: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(comma) }
            let utf8 = field.utf8
            guard utf8.contains(where: { $0 == quote || $0 == comma || $0 == cr || $0 == lf }) else {
                bytes.append(contentsOf: utf8)
                continue
            }
            bytes.append(quote)
            for byte in utf8 {
                if byte == quote { bytes.append(quote) }
                bytes.append(byte)
            }
            bytes.append(quote)
        }
        bytes.append(cr)
        bytes.append(lf)
    }

    private static let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    // MARK: - Escapes inside the multi-value columns

    /// What each part of an item escapes: a `|` anywhere (so ` | ` only ever separates items), a
    /// label's `:`, an address part's `;`, and the backslash itself.
    private static let value: Set<UInt8> = [backslash, UInt8(ascii: "|")]
    private static let label: Set<UInt8> = value.union([UInt8(ascii: ":")])
    private static let addressPart: Set<UInt8> = value.union([UInt8(ascii: ";")])
    private static let escapable: Set<UInt8> = label.union(addressPart)
    private static let backslash = UInt8(ascii: "\\")

    private static func item(_ labelled: LabeledValue) -> String {
        escaped(labelled.label, label) + ":" + escaped(labelled.value, value)
    }

    static func escaped(_ text: String, _ specials: Set<UInt8>) -> String {
        guard text.utf8.contains(where: specials.contains) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 4)
        for byte in text.utf8 {
            if specials.contains(byte) { bytes.append(backslash) }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` cut at each unescaped `separator` (at most `maxSplits` times), escapes removed. A
    /// backslash before anything but an escapable byte is kept, as files from before escapes
    /// (or from elsewhere) meant it.
    static func unescapedParts(_ text: String, splittingOn separator: UInt8?, maxSplits: Int = .max) -> [String] {
        guard text.utf8.contains(where: { $0 == backslash || $0 == separator }) else { return [text] }
        var parts: [String] = [], current: [UInt8] = []
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte == backslash {
                guard let next = bytes.next() else { current.append(byte); break }
                if !escapable.contains(next) { current.append(byte) }
                current.append(next)
            } else if byte == separator && parts.count < maxSplits {
                parts.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(byte)
            }
        }
        parts.append(String(decoding: current, as: UTF8.self))
        return parts
    }

    /// What follows the first unescaped `:` of `item`, escapes left in (`item` whole if none).
    static func rawRemainder(afterFirstUnescapedColonIn item: String) -> String {
        var bytes = item.utf8[...]
        while let byte = bytes.popFirst() {
            if byte == backslash {
                _ = bytes.popFirst()
            } else if byte == UInt8(ascii: ":") {
                return String(decoding: bytes, as: UTF8.self)
            }
        }
        return item
    }

    // MARK: - Reading

    /// The whole file read at once.
    static func read(_ data: Data) -> ParsedContacts {
        var result = ParsedContacts()
        read(data, batchSize: .max) { batch in
            result.entries += batch.entries
            result.problems += batch.problems
        }
        return result
    }

    /// `read(batchSize:nextChunk:_:)` over bytes already in memory.
    static func read(_ data: Data, batchSize: Int, _ body: (ParsedContacts) throws -> Void) rethrows {
        var offset = data.startIndex
        let stream = CSVInputStream { buffer in
            guard offset < data.endIndex else { return false }
            let end = data.index(offset, offsetBy: CSVInputStream.chunkSize, limitedBy: data.endIndex) ?? data.endIndex
            buffer.removeAll(keepingCapacity: true)
            buffer.append(contentsOf: data[offset..<end])
            offset = end
            return true
        }
        try read(stream, batchSize: batchSize, body)
        // In memory already: the overlong row is named, as a problem.
        if let tooLong = stream.readError as? CSVInputStream.RowTooLong {
            try body(ParsedContacts(problems: [.init(line: tooLong.line, reason: tooLong.description)]))
        }
    }

    /// Reads a file a chunk at a time (`nextChunk` fills its buffer and returns false at the end,
    /// as for `VCardReader`) and hands out the rows in batches of about `batchSize` contacts as
    /// they are parsed, so an import saves the first ones while the rest are still being read:
    /// neither the file nor its contacts are ever held whole (problems travel with the batch
    /// they were found in; a file with no rows gives one batch). An error from `nextChunk` is
    /// thrown once the rows read before it are handed out.
    static func read(
        batchSize: Int, maximumRowBytes: Int = ContactLimits.maximumLineBytes,
        maximumFields: Int = ContactLimits.maximumCSVFields,
        nextChunk: @escaping (inout [UInt8]) throws -> Bool, _ body: (ParsedContacts) throws -> Void
    ) throws {
        let stream = CSVInputStream(
            maximumRowBytes: maximumRowBytes, maximumFields: maximumFields, nextChunk: nextChunk)
        try read(stream, batchSize: batchSize, body)
        if let error = stream.readError { throw error }
    }

    private static func read(_ stream: CSVInputStream, batchSize: Int, _ body: (ParsedContacts) throws -> Void) rethrows
    {
        let reader: CSVReader
        do {
            stream.startRow(line: 1)
            reader = try CSVReader(stream: stream, codecType: UTF8.self, hasHeaderRow: true)
        } catch {
            return try body(
                ParsedContacts(problems: [.init(line: 1, reason: "not a CSV file with a header row: \(error)")]))
        }
        guard let header = reader.headerRow else { return try body(ParsedContacts()) }
        let columns = Columns(header)
        guard columns.isKnown else {
            return try body(
                ParsedContacts(problems: [
                    .init(line: 1, reason: "the header names none of the columns this reads (see `help import`)")
                ]))
        }
        var batches = ParsedBatches(size: batchSize)
        // The physical line each row starts on: a quoted field may hold line breaks.
        var line = 1, next = 2 + lineBreaks(in: header)
        while true {
            stream.startRow(line: next)
            guard let row = reader.next() else { break }
            line = next
            next += 1 + lineBreaks(in: row)
            if row.allSatisfy({ $0.trimmingWhitespaces.isEmpty }) { continue }
            let contact = columns.contact(from: row)
            if contact.givenName.isEmpty && contact.familyName.isEmpty && contact.organization.isEmpty {
                batches.current.problems.append(.init(line: line, reason: "the row has no name and no organisation"))
            } else {
                batches.current.entries.append(.init(contact: contact, line: line, groups: columns.groups(from: row)))
            }
            try batches.handOutIfFull(body)
        }
        if let error = reader.error {
            batches.current.problems.append(.init(line: next, reason: "the CSV cannot be read from here on: \(error)"))
        }
        try batches.finish(body)
    }

    /// The line breaks inside a row's fields (CRLF, CR or LF, each one break).
    private static func lineBreaks(in fields: [String]) -> Int {
        var count = 0
        for field in fields {
            var afterCR = false
            for byte in field.utf8 {
                if byte == cr || (byte == lf && !afterCR) { count += 1 }
                afterCR = byte == cr
            }
        }
        return count
    }

    /// Where each field is in a row, for our header, Google's and Outlook's.
    private struct Columns {
        let index: [String: Int]

        init(_ header: [String]) {
            var index: [String: Int] = [:]
            for (position, name) in header.enumerated() where index[name.trimmingWhitespaces.lowercased()] == nil {
                index[name.trimmingWhitespaces.lowercased()] = position
            }
            self.index = index
        }

        var isKnown: Bool {
            [
                "given_name", "family_name", "organization", "first name", "last name", "given name", "family name",
                "name", "company", "organization name", "organization 1 - name",
            ].contains { index[$0] != nil }
        }

        /// The first non-empty value among the named columns.
        func value(_ row: [String], _ names: String...) -> String {
            for name in names {
                if let position = index[name], position < row.count {
                    let value = row[position].trimmingWhitespaces
                    if !value.isEmpty { return value }
                }
            }
            return ""
        }

        /// Our `groups` column: the names of the groups the row's contact is a member of; or
        /// Google's labels (`Labels`, the older `Group Membership`: `* myContacts ::: Family`),
        /// which are Google's contact groups. Its system groups (`* myContacts`, every contact it
        /// keeps; `* starred`, a favourite mark) are left out: no one made them, and as groups
        /// here they would hold the whole book or stand for a flag.
        func groups(from row: [String]) -> [String] {
            let ours = value(row, "groups").splitting(onASCII: itemSeparator).map { unescaped($0) }
            let google = value(row, "labels", "group membership").splitting(onASCII: ":::").filter {
                !$0.trimmingWhitespaces.hasPrefix("* ")
            }
            var seen = Set<String>()
            return (ours + google).map(\.trimmingWhitespaces).filter {
                !$0.isEmpty && seen.insert(ContactKeys.fold($0)).inserted
            }
        }

        func contact(from row: [String]) -> Contact {
            var contact = Contact()
            contact.uid = value(row, "uid")
            for field in ContactField.allCases { read(field, from: row, into: &contact) }
            // As the vCard reader keeps FN: only when the name parts do not give it.
            if contact.formattedName == contact.composedName { contact.formattedName = "" }
            return contact
        }

        /// One field from our column and from Google's and Outlook's: a switch, so a new
        /// field is read on purpose.
        private func read(_ field: ContactField, from row: [String], into contact: inout Contact) {
            let column = field.declaration.csvColumn
            switch field {
            case .given:
                contact.givenName = [
                    value(row, column, "first name", "given name"),
                    value(row, "middle name", "additional name"),
                ].filter { !$0.isEmpty }.joined(separator: " ")
            case .family: contact.familyName = value(row, column, "last name", "family name")
            case .display: contact.formattedName = value(row, column)
            case .nickname: contact.nickname = value(row, column)
            case .organization:
                contact.organization = value(row, column, "organization name", "organization 1 - name", "company")
            case .title:
                contact.title = value(row, column, "organization title", "organization 1 - title", "job title")
                if index["given_name"] == nil && index["title"] != nil && index["job title"] != nil {
                    contact.title = value(row, "job title") // Outlook's "Title" is "Mr.", "Dr."
                }
            case .notes: contact.notes = value(row, column).normalizingLineBreaks
            case .birthday: contact.birthday = ContactsCSV.birthday(value(row, column))
            case .tag:
                // Outlook's categories are tags; Google's labels are its groups (`groups(from:)`).
                contact.tags =
                    (value(row, column).splitting(onASCII: itemSeparator).map { unescaped($0) }
                    + value(row, "categories").splitting(onASCII: ";"))
                    .map { $0.trimmingWhitespaces }.filter { !$0.isEmpty }
            case .email:
                contact.emails =
                    labelled(value(row, column)).map(unescapedValue) + numbered(row, "e-mail")
                    + outlook(
                        row,
                        [("e-mail address", "other"), ("e-mail 2 address", "other"), ("e-mail 3 address", "other")])
            case .phone:
                contact.phones =
                    labelled(value(row, column)).map(unescapedValue) + numbered(row, "phone")
                    + outlook(row, Self.outlookPhones)
            case .address:
                contact.addresses =
                    labelled(value(row, column)).map(ContactsCSV.address) + numberedAddresses(row)
                    + [("home", "home"), ("business", "work"), ("other", "other")].compactMap {
                        outlookAddress(row, $0.0, $0.1)
                    }
            case .website:
                // Google's `Website 1 - Value`; Outlook's `Web Page`.
                // An item written without a label ("https://a.example") is all value: its colon is the scheme's.
                contact.websites =
                    labelled(value(row, column)).map { item in
                        item.value.hasPrefix("//")
                            ? LabeledValue(label: "other", value: item.label + ":" + item.value) : item
                    }.map(unescapedValue) + numbered(row, "website")
                    + outlook(row, [("web page", "other")])
            }
        }

        /// The items of one of our multi-value cells, each split at its first unescaped `:`; the
        /// label is unescaped, the value not yet (an address still splits it at its `;`).
        private func labelled(_ cell: String) -> [LabeledValue] {
            guard !cell.isEmpty else { return [] }
            return cell.splitting(onASCII: itemSeparator).map { item in
                let parts = ContactsCSV.unescapedParts(item, splittingOn: UInt8(ascii: ":"), maxSplits: 1)
                guard parts.count == 2 else { return LabeledValue(label: "other", value: item.trimmingWhitespaces) }
                let label = parts[0].trimmingWhitespaces
                // The value part again from the raw item, escapes still in: after the first unescaped colon.
                let value = ContactsCSV.rawRemainder(afterFirstUnescapedColonIn: item).trimmingWhitespaces
                return LabeledValue(label: label.isEmpty ? "other" : label, value: value)
            }
        }

        private func unescaped(_ text: String) -> String {
            ContactsCSV.unescapedParts(text, splittingOn: nil)[0].trimmingWhitespaces
        }

        private func unescapedValue(_ item: LabeledValue) -> LabeledValue {
            LabeledValue(label: item.label, value: unescaped(item.value))
        }

        /// Google's `E-mail 1 - Label` / `E-mail 1 - Value` pairs (`- Type` in the older format);
        /// one cell may hold several values joined by ` ::: `.
        private func numbered(_ row: [String], _ kind: String) -> [LabeledValue] {
            var result: [LabeledValue] = []
            var number = 1
            while index["\(kind) \(number) - value"] != nil {
                let label = googleLabel(value(row, "\(kind) \(number) - label", "\(kind) \(number) - type"))
                for item in value(row, "\(kind) \(number) - value").splitting(onASCII: " ::: ")
                where !item.trimmingWhitespaces.isEmpty {
                    result.append(LabeledValue(label: label, value: item.trimmingWhitespaces))
                }
                number += 1
            }
            return result
        }

        private func numberedAddresses(_ row: [String]) -> [PostalAddress] {
            var result: [PostalAddress] = []
            var number = 1
            while index["address \(number) - street"] != nil || index["address \(number) - formatted"] != nil {
                let prefix = "address \(number) - "
                var address = PostalAddress(
                    label: googleLabel(value(row, prefix + "label", prefix + "type")),
                    street: [
                        value(row, prefix + "po box"), value(row, prefix + "extended address"),
                        value(row, prefix + "street"),
                    ]
                    .filter { !$0.isEmpty }.joined(separator: ", "),
                    city: value(row, prefix + "city"), region: value(row, prefix + "region"),
                    postalCode: value(row, prefix + "postal code"), country: value(row, prefix + "country"))
                if address.components.isEmpty { address.street = value(row, prefix + "formatted") }
                if !address.components.isEmpty { result.append(address) }
                number += 1
            }
            return result
        }

        /// Google writes "* Work" or "Work"; "* " marks its built-in labels. Trimmed as our own
        /// `label:value` items are, or "*  Home" would not read back the same from our CSV.
        private func googleLabel(_ label: String) -> String {
            let plain = (label.hasPrefix("* ") ? String(label.dropFirst(2)) : label).trimmingWhitespaces
            return plain.isEmpty ? "other" : plain.lowercased()
        }

        static let outlookPhones = [
            ("mobile phone", "mobile"), ("home phone", "home"), ("home phone 2", "home"),
            ("business phone", "work"), ("business phone 2", "work"), ("company main phone", "company"),
            ("primary phone", "main"), ("other phone", "other"), ("car phone", "car"), ("pager", "pager"),
            ("business fax", "work fax"), ("home fax", "home fax"), ("other fax", "fax"),
            ("assistant's phone", "assistant"),
        ]

        private func outlook(_ row: [String], _ columns: [(String, String)]) -> [LabeledValue] {
            columns.compactMap { column, label in
                let text = value(row, column)
                return text.isEmpty ? nil : LabeledValue(label: label, value: text)
            }
        }

        private func outlookAddress(_ row: [String], _ prefix: String, _ label: String) -> PostalAddress? {
            let address = PostalAddress(
                label: label,
                street: [
                    value(row, "\(prefix) street"), value(row, "\(prefix) street 2"), value(row, "\(prefix) street 3"),
                ]
                .filter { !$0.isEmpty }.joined(separator: ", "),
                city: value(row, "\(prefix) city"), region: value(row, "\(prefix) state"),
                postalCode: value(row, "\(prefix) postal code"),
                country: value(row, "\(prefix) country/region", "\(prefix) country"))
            return address.components.isEmpty ? nil : address
        }
    }

    /// An `addresses` item: `street; city; region; postal code; country`.
    private static func address(_ item: LabeledValue) -> PostalAddress {
        let parts = unescapedParts(item.value, splittingOn: UInt8(ascii: ";")).map { $0.trimmingWhitespaces }
        func part(_ index: Int) -> String { index < parts.count ? parts[index] : "" }
        return PostalAddress(
            label: item.label, street: part(0), city: part(1), region: part(2),
            postalCode: part(3), country: part(4))
    }

    /// `YYYY-MM-DD`, `--MM-DD`, or Outlook's `M/D/YYYY` (where `0/0/00` means none).
    static func birthday(_ text: String) -> Birthday? {
        if let iso = Birthday(parsing: text) { return iso }
        let parts = text.split(separator: "/").map { Int($0) }
        guard parts.count == 3, let month = parts[0], let day = parts[1], let year = parts[2], year > 0 else {
            return nil
        }
        return Birthday(validYear: year, month: month, day: day)
    }
}
