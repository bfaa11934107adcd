import Foundation

/// Keeps a contact's card (`Contact.card`) in step with its fields: the card is read again as
/// fields (`VCardReader.view`), and only the properties of the fields that differ are rewritten.
/// Every other property, with its parameters, group, label and place, stays as it came, so a
/// card edited here goes back to the phone or server that wrote it with nothing else changed.
///
/// Called by the store on every update, whatever made it (the form, a merge, a sync merge, an
/// undo), so no path can save fields that its card does not say.
public enum CardPatch {
    /// The contact with its card patched to say what its fields say (and its display name
    /// following a renamed person: "John Doe III" becomes "Jon Doe III").
    public static func reconciled(_ contact: Contact) -> Contact {
        guard let record = contact.card else { return contact }
        var contact = contact
        guard let (view, layout, properties) = VCardReader.view(of: record) else {
            // A card that no longer reads (never expected: it was read once) must not go out
            // stale beside fields edited since: written from the fields instead.
            contact.card = nil
            return contact
        }
        contact.formattedName = renamedDisplayName(contact, view)
        contact = notesKeptApart(contact, view)
        guard !sameFields(contact, view) else { return contact }
        var patch = Patch(lines: record.lines, version: record.version, properties: properties, layout: layout)
        patch.apply(from: view, to: contact)
        contact.card = VCardRecord(lines: patch.result)
        return contact
    }

    /// A contact imported between the card becoming the record and each NOTE being kept apart
    /// (commits 13f2dd7..c07495e) has its NOTEs joined into its notes, one per line, while its
    /// card still holds each NOTE: patched as they are, the joined text would become the first
    /// NOTE and the others would go. Told apart only when the notes are exactly that join and
    /// nothing else differs there (no later NOTE kept beside them, the other kept lines the
    /// card's): the notes become the first NOTE again and the others are kept, shown after it.
    /// Notes edited since are an edit like any other.
    static func notesKeptApart(_ contact: Contact, _ view: Contact) -> Contact {
        let later = view.laterValues(of: .notes)
        guard !later.isEmpty, !view.notes.isEmpty, contact.notes != view.notes,
            contact.notes == ([view.notes] + later).joined(separator: "\n"),
            contact.laterValues(of: .notes).isEmpty
        else { return contact }
        let laterNotes = view.extraProperties.filter { line in
            (try? VCardProperty(text: line))?.name == "NOTE"
        }
        guard contact.extraProperties == view.extraProperties.filter({ !laterNotes.contains($0) }) else {
            return contact
        }
        var separated = contact
        separated.notes = view.notes
        separated.extraProperties = view.extraProperties
        return separated
    }

    /// FN written by a person holds the name parts: when a part is renamed, so is its word in FN.
    /// A display name without the old part (a company's "Acme Support") is kept as it is.
    static func renamedDisplayName(_ contact: Contact, _ view: Contact) -> String {
        var name = contact.formattedName
        guard !name.isEmpty, name == view.formattedName else { return name }
        var renamed = false
        for (old, new) in [(view.givenName, contact.givenName), (view.familyName, contact.familyName)]
        where old != new && !old.isEmpty {
            guard let range = name.range(of: old) else { return "" } // no longer says who it is: derive it
            name.replaceSubrange(range, with: new)
            renamed = true
        }
        // Spaces are tidied only around a renamed part: an unchanged "Ann  Lee" saves as it came.
        guard renamed else { return name }
        let collapsed = name.split(separator: " ").joined(separator: " ")
        return collapsed == contact.composedName ? "" : collapsed
    }

    /// Whether a contact's fields are what its card says (times, ids and versions aside).
    static func sameFields(_ a: Contact, _ b: Contact) -> Bool {
        a.uid == b.uid && a.givenName == b.givenName && a.familyName == b.familyName && a.fullName == b.fullName
            && a.nickname == b.nickname && a.organization == b.organization && a.title == b.title
            && a.phones == b.phones && a.emails == b.emails && a.addresses == b.addresses && a.websites == b.websites
            && a.birthday == b.birthday
            && a.notes == b.notes && a.tags == b.tags && a.extraProperties == b.extraProperties
    }

    /// The card's lines, each replaced by zero or more lines, lines added after each, and lines
    /// added at the end.
    private struct Patch {
        var slots: [[String]]
        /// Lines added after each line: kept apart from `slots`, so a line replaced or removed
        /// later (the email a new birthday was put after) does not take them with it.
        var after: [[String]]
        var tail: [String] = []
        let original: [String]
        let version: VCardVersion
        let properties: [VCardProperty]
        let layout: CardLayout
        var changed = false
        /// Items written anew outside their group (`change`): they no longer read its label.
        var movedOut: Set<Int> = []

        init(lines: [String], version: VCardVersion, properties: [VCardProperty], layout: CardLayout) {
            original = lines
            slots = lines.map { [$0] }
            after = Array(repeating: [], count: lines.count)
            self.version = version
            self.properties = properties
            self.layout = layout
        }

        var result: [String] { zip(slots, after).flatMap { $0 + $1 } + tail }

        var writer: VCardWriter { VCardWriter(version: version == .v4 ? .v4 : .v3) }

        func indices(of slot: CardLayout.Slot) -> [Int] { layout.slots.indices.filter { layout.slots[$0] == slot } }

        mutating func replace(_ index: Int, with lines: [String]) { slots[index] = lines; changed = true }

        /// After the last property of these slots, else after the name, else after VERSION.
        mutating func insert(_ lines: [String], near kinds: [CardLayout.Slot]) {
            let anchors = kinds + [.nickname, .name, .formattedName, .uid, .bookkeeping]
            for kind in anchors {
                if let index = indices(of: kind).last { after[index] += lines; changed = true; return }
            }
            tail += lines
            changed = true
        }

        /// One single-valued text field: the first property rewritten (or added), the others removed.
        mutating func single(_ slot: CardLayout.Slot, name: String, value: String?, near: [CardLayout.Slot]) {
            let found = indices(of: slot)
            guard let value else { for index in found { replace(index, with: []) }; return }
            if let first = found.first {
                replace(first, with: [Self.withValue(original[first], value)])
                for index in found.dropFirst() { replace(index, with: []) }
            } else {
                insert([name + ":" + value], near: near)
            }
        }

        /// The order fields are patched in: where two add lines after the same property, the
        /// first patched comes first. A switch, so a new field cannot go unpatched.
        static let order: [ContactField] = ContactField.allCases.sorted { rank($0) < rank($1) }

        static func rank(_ field: ContactField) -> Int {
            switch field {
            case .given: return 0
            case .family: return 1
            case .display: return 2
            case .nickname: return 3
            case .organization: return 4
            case .title: return 5
            case .birthday: return 6
            case .notes: return 7
            case .tag: return 8
            case .phone: return 9
            case .email: return 10
            case .address: return 11
            case .website: return 12
            }
        }

        mutating func apply(from view: Contact, to contact: Contact) {
            if contact.uid != view.uid {
                single(.uid, name: "UID", value: contact.uid.isEmpty ? nil : contact.uid, near: [.bookkeeping])
            }
            // A card that names nobody (read with a name taken from its email or phone) states the
            // name once it is edited: read again without that email, it would be named otherwise.
            // An N, FN or ORG without a name in it (`N:;;street`, or control characters alone, which
            // the reader drops) names nobody either.
            // Of several N, the reader reads the last (`ContactBuilder.readName`): that one names or not.
            let namesSomeone =
                indices(of: .name).last.map { index in
                    VCardText.components(properties[index].value).prefix(2).contains {
                        !VCardReader.nameText($0).isEmpty
                    }
                } == true
                || indices(of: .formattedName).contains {
                    !VCardReader.nameText(VCardText.unescape(properties[$0].value)).isEmpty
                }
                || indices(of: .organization).contains {
                    VCardText.components(properties[$0].value).contains { !$0.isEmpty }
                }
            let nameless = !namesSomeone && !(contact.givenName.isEmpty && contact.familyName.isEmpty)
            for field in Self.order { patch(field, from: view, to: contact, nameless: nameless) }
            if contact.extraProperties != view.extraProperties { extras(contact.extraProperties) }
            if changed, let rev = indices(of: .bookkeeping).first(where: { properties[$0].name == "REV" }) {
                replace(rev, with: ["REV:" + VCardWriter.timestamp(contact.updatedAt)])
            }
        }

        /// One field's properties made to say what the contact says, if the view says otherwise.
        mutating func patch(_ field: ContactField, from view: Contact, to contact: Contact, nameless: Bool) {
            switch field {
            case .given:
                guard nameless || contact.givenName != view.givenName || contact.familyName != view.familyName else {
                    return
                }
                if let index = indices(of: .name).last {
                    var parts = Self.parts(of: properties[index].value, count: 5)
                    parts[0] = escaped(contact.familyName, in: "N")
                    parts[1] = escaped(contact.givenName, in: "N")
                    replace(index, with: [Self.withValue(original[index], parts.joined(separator: ";"))])
                } else {
                    insert(
                        [
                            "N:" + escaped(contact.familyName, in: "N") + ";" + escaped(contact.givenName, in: "N")
                                + ";;;"
                        ],
                        near: [.formattedName])
                }
            case .family:
                return // in N, with the given name
            case .display:
                if nameless || contact.fullName != view.fullName {
                    single(.formattedName, name: "FN", value: escaped(contact.fullName, in: "FN"), near: [.name])
                }
            case .nickname:
                guard contact.nickname != view.nickname else { return }
                let names = contact.nickname.components(separatedBy: ", ").filter { !$0.isEmpty }
                single(
                    .nickname, name: "NICKNAME",
                    value: names.isEmpty ? nil : names.map(VCardText.escape).joined(separator: ","),
                    near: [.name])
            case .organization:
                guard contact.organization != view.organization else { return }
                single(
                    .organization, name: "ORG",
                    value: contact.organization.isEmpty ? nil : escaped(contact.organization, in: "ORG"),
                    near: [.nickname])
            case .title:
                guard contact.title != view.title else { return }
                single(
                    .title, name: "TITLE", value: contact.title.isEmpty ? nil : escaped(contact.title, in: "TITLE"),
                    near: [.organization])
            case .birthday:
                guard contact.birthday != view.birthday else { return }
                let found = indices(of: .birthday)
                if let birthday = contact.birthday {
                    let line = writer.birthday(birthday)
                    if let first = found.first {
                        replace(first, with: [line])
                    } else {
                        insert([line], near: [.address, .email, .phone])
                    }
                } else {
                    for index in found { replace(index, with: []) }
                }
            case .notes:
                // The first NOTE only: later ones are kept properties, each left as it came.
                guard contact.notes != view.notes else { return }
                single(
                    .note, name: "NOTE", value: contact.notes.isEmpty ? nil : escaped(contact.notes, in: "NOTE"),
                    near: [.birthday, .address, .email, .phone])
            case .tag:
                guard contact.tags != view.tags else { return }
                single(
                    .categories, name: "CATEGORIES",
                    value: contact.tags.isEmpty ? nil : contact.tags.map(VCardText.escape).joined(separator: ","),
                    near: [.note])
            case .phone: list(view.phones, contact.phones, layout.phones, kind: .phone) { .phone($0) }
            case .email: list(view.emails, contact.emails, layout.emails, kind: .email) { .email($0) }
            case .address: list(view.addresses, contact.addresses, layout.addresses, kind: .address) { .address($0) }
            case .website: list(view.websites, contact.websites, layout.websites, kind: .website) { .website($0) }
            }
        }

        // MARK: Lists

        /// Phones, emails, addresses or websites: the items both lists hold stay as they are; an item
        /// changed in place keeps its property's group and parameters; removed items go, with
        /// their label; new items are written after the last of their kind.
        mutating func list<T: Equatable>(
            _ old: [T], _ new: [T], _ at: [Int], kind: CardLayout.Slot,
            item: (T) -> VCardWriter.CardItem
        ) {
            guard old != new else { return }
            var lastIndex = at.max()
            var pendingOld: [Int] = [], pendingNew: [Int] = []
            func flush(_ patch: inout Patch) {
                for (o, n) in zip(pendingOld, pendingNew) { patch.change(at[o], from: item(old[o]), to: item(new[n])) }
                for o in pendingOld.dropFirst(pendingNew.count) { patch.remove(at[o]) }
                let added = pendingNew.dropFirst(pendingOld.count).flatMap {
                    patch.writer.lines(for: item(new[$0]), taken: patch.result)
                }
                if !added.isEmpty {
                    if let anchor = pendingOld.last.map({ at[$0] }) ?? lastIndex {
                        patch.after[anchor] += added; patch.changed = true
                    } else {
                        patch.insert(added, near: [kind, .address, .email, .phone])
                    }
                }
                pendingOld = []; pendingNew = []
            }
            for step in Self.align(old, new) {
                switch step {
                case .both(let o, _):
                    flush(&self)
                    lastIndex = at[o]
                case .old(let o): pendingOld.append(o)
                case .new(let n): pendingNew.append(n)
                }
            }
            lastIndex = at.max()
            flush(&self)
        }

        /// One item's property given a new value: in place when its label is unchanged (or is
        /// its group's `X-ABLabel`), else written anew in its place.
        mutating func change(_ index: Int, from old: VCardWriter.CardItem, to new: VCardWriter.CardItem) {
            let property = properties[index]
            // Of two X-ABLabel in a group, the reader reads the last (`ContactBuilder.read`).
            let labelIndex = property.group.flatMap { group in
                layout.slots.indices.last { layout.slots[$0] == .label && properties[$0].group == group }
            }
            let (oldLabel, newLabel) = (old.label, new.label)
            // A label another item of the group reads too stays that item's: this one moves out.
            let shared = labelIndex != nil && sharesGroupLabel(index)
            var lines: [String]
            if oldLabel == newLabel
                || (labelIndex != nil && !shared && !VCardWriter.isTypeLabel(newLabel, known: new.knownTypes))
            {
                lines = [Self.withValue(original[index], value(of: new, replacing: property, old: old))]
                if oldLabel != newLabel, let labelIndex {
                    replace(labelIndex, with: [Self.withValue(original[labelIndex], VCardText.escape(newLabel))])
                }
            } else {
                lines = writer.lines(for: new, taken: result)
                // Written anew for its new label, it stays the preferred one if it was.
                if property.isPreferred, let first = lines.first {
                    lines[0] = Self.withValue(
                        Self.head(of: first) + (version == .v4 ? ";PREF=1" : ";TYPE=pref"),
                        String(first[first.index(after: Self.colon(in: first))...]))
                }
                if labelIndex != nil, !shared { removeGroupLabels(of: index) }
                movedOut.insert(index)
            }
            replace(index, with: lines)
        }

        /// Text for a property of the card, in its version's escaping: a 2.1 card's text has none
        /// but a component's `\;` and `\\`, and a line break as `\n` (`VCardVersionConverter.Card.
        /// text21As3`, which reads it), so a patched 2.1 card reads as the fields it was given.
        func escaped(_ text: String, in name: String) -> String {
            guard version == .v21, VCardVersionConverter.Card.textIn21.contains(name) else {
                return VCardText.escape(text)
            }
            let component = VCardVersionConverter.Card.structuredIn21.contains(name)
            var out = String.UnicodeScalarView()
            var afterCR = false
            for scalar in text.unicodeScalars {
                defer { afterCR = scalar == "\r" }
                switch scalar {
                case "\r": out.append(contentsOf: "\\n".unicodeScalars)
                case "\n": if !afterCR { out.append(contentsOf: "\\n".unicodeScalars) }
                case "\\" where component: out.append(contentsOf: "\\\\".unicodeScalars)
                case ";" where component: out.append(contentsOf: "\\;".unicodeScalars)
                default: out.append(scalar)
                }
            }
            return String(out)
        }

        /// The new value, keeping what the fields do not show: a `tel:` URI stays one, an
        /// address's post-office box and extended address stay while its street is unchanged.
        func value(of item: VCardWriter.CardItem, replacing property: VCardProperty, old: VCardWriter.CardItem)
            -> String
        {
            switch (item, old) {
            case (.phone(let phone), _):
                guard property.value.lowercased().hasPrefix("tel:") else { return VCardText.escape(phone.value) }
                // A tel: URI stays one, its extension as `;ext=` (RFC 3966).
                let parts = phone.value.components(separatedBy: " ext. ")
                let number = "tel:" + parts[0].filter { $0 != " " }
                return parts.count > 1 ? number + ";ext=" + parts[1].filter { $0 != " " } : number
            case (.email(let email), _), (.website(let email), _):
                return VCardText.escape(email.value)
            case (.address(let address), .address(let before)):
                var parts = Self.parts(of: property.value, count: 7)
                if address.street != before.street {
                    parts[0] = ""; parts[1] = ""; parts[2] = escaped(address.street, in: "ADR")
                }
                let fields = [
                    (address.city, before.city), (address.region, before.region),
                    (address.postalCode, before.postalCode), (address.country, before.country),
                ]
                for (offset, (now, was)) in fields.enumerated() where now != was {
                    parts[3 + offset] = escaped(now, in: "ADR")
                }
                return parts.joined(separator: ";")
            case (.address(let address), _):
                return ";;"
                    + [address.street, address.city, address.region, address.postalCode, address.country]
                    .map { escaped($0, in: "ADR") }.joined(separator: ";")
            }
        }

        /// A removed item's property, and its label when no other phone, email, address or website
        /// of the group remains: a kept property in the group (`item1.X-FOO`) does not take a label
        /// when read, so the label would come back as a property of its own.
        mutating func remove(_ index: Int) {
            replace(index, with: [])
            if !sharesGroupLabel(index) { removeGroupLabels(of: index) }
        }

        /// Every `X-ABLabel` of the property's group, not only the last the reader reads: with no
        /// item left to read them, any one left would come back as a property of its own.
        mutating func removeGroupLabels(of index: Int) {
            guard let group = properties[index].group else { return }
            for labelIndex in layout.slots.indices
            where layout.slots[labelIndex] == .label && properties[labelIndex].group == group {
                replace(labelIndex, with: [])
            }
        }

        /// Whether another phone, email, address or website of the property's group, still in the
        /// card, reads the group's `X-ABLabel` as its label too.
        func sharesGroupLabel(_ index: Int) -> Bool {
            guard let group = properties[index].group else { return false }
            return layout.slots.indices.contains {
                $0 != index && properties[$0].group == group && layout.slots[$0].takesGroupLabel && !slots[$0].isEmpty
                    && !movedOut.contains($0)
            }
        }

        // MARK: Kept properties

        /// The kept properties the contact no longer has are removed; those it gained take the
        /// removed ones' places in order (a new photo where the old one was), the rest go at the
        /// end (never the writer's own bookkeeping lines).
        mutating func extras(_ wanted: [String]) {
            var remaining: [String: Int] = [:]
            for line in wanted { remaining[line, default: 0] += 1 }
            var freed: [Int] = []
            for index in indices(of: .kept) {
                let raw = properties[index].raw
                if let count = remaining[raw], count > 0 {
                    remaining[raw] = count - 1
                } else {
                    replace(index, with: []); freed.append(index)
                }
            }
            for line in wanted where !line.hasPrefix("X-CONTACTSBOOK-") {
                guard let count = remaining[line], count > 0 else { continue }
                remaining[line] = count - 1
                if freed.isEmpty {
                    tail.append(line); changed = true
                } else {
                    replace(freed.removeFirst(), with: [line])
                }
            }
        }

        // MARK: Helpers

        /// The line's group, name and parameters with a new value, but a base64 `ENCODING`: the
        /// value written here is text, which read as base64 would lose its spaces.
        static func withValue(_ line: String, _ value: String) -> String {
            let head = head(of: line)
            let segments = VCardProperty.split(head, on: ";")
            let kept = segments.enumerated().filter { offset, segment in
                offset == 0 || !["B", "BASE64", "ENCODING=B", "ENCODING=BASE64"].contains(segment.uppercased())
            }
            guard kept.count < segments.count else { return head + ":" + value }
            return kept.map(\.element).joined(separator: ";") + ":" + value
        }

        /// Group, name and parameters: what stands before the first colon outside quotes.
        static func head(of line: String) -> String { String(line[..<colon(in: line)]) }

        static func colon(in line: String) -> String.Index {
            var quoted = false
            for index in line.utf8.indices {
                let byte = line.utf8[index]
                if byte == UInt8(ascii: "\"") { quoted.toggle() }
                if byte == UInt8(ascii: ":") && !quoted { return index }
            }
            return line.endIndex
        }

        /// A compound value's parts as written, at least `count` of them, to be joined again with
        /// some replaced. The last part read may end in a lone backslash, a backslash only at the
        /// value's end: followed by parts, it would escape their `;`, so it is written `\\`.
        static func parts(of value: String, count: Int) -> [String] {
            var parts = VCardText.split(value, on: ";")
            if let last = parts.last, last.reversed().prefix(while: { $0 == "\\" }).count % 2 == 1 {
                parts[parts.count - 1] = last + "\\"
            }
            while parts.count < count { parts.append("") }
            return parts
        }

        enum Step { case both(Int, Int), old(Int), new(Int) }

        /// The longest common subsequence of two short lists, as steps in order. Where two
        /// alignments keep as many, an old item goes before a new one, so the two pair as a change
        /// in place: of two equal addresses, the first edited stays first (`[A, A]` to `[A', A]`).
        static func align<T: Equatable>(_ a: [T], _ b: [T]) -> [Step] {
            var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in stride(from: a.count - 1, through: 0, by: -1) {
                for j in stride(from: b.count - 1, through: 0, by: -1) {
                    table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
                }
            }
            var steps: [Step] = [], i = 0, j = 0
            while i < a.count || j < b.count {
                if i < a.count, j < b.count, a[i] == b[j] {
                    steps.append(.both(i, j)); i += 1; j += 1
                } else if j < b.count, i == a.count || table[i][j + 1] > table[i + 1][j] {
                    steps.append(.new(j)); j += 1
                } else {
                    steps.append(.old(i)); i += 1
                }
            }
            return steps
        }
    }
}

extension VCardWriter.CardItem {
    var label: String {
        switch self {
        case .phone(let value), .email(let value), .website(let value): return value.label
        case .address(let address): return address.label
        }
    }

    var knownTypes: Set<String> {
        if case .phone = self { return VCardWriter.phoneTypes }
        return VCardWriter.placeTypes
    }
}
