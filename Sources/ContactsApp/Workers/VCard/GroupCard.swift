import Foundation

/// Reading and writing group cards in either convention (`GroupConvention`). A group's card is
/// kept as it came: an edit rewrites its `FN` (and `N` when it has one) and adds or removes
/// member lines, leaving every other line, and every member line kept, as it was.
public enum GroupCard {
    static let kindNames: Set<String> = ["KIND", "X-ADDRESSBOOKSERVER-KIND"]
    static let memberNames: Set<String> = ["MEMBER", "X-ADDRESSBOOKSERVER-MEMBER"]

    /// Whether a card is a group's: `KIND:group` or `X-ADDRESSBOOKSERVER-KIND:group`, any case.
    /// A cheap byte test first: nearly every card of an import has no KIND at all.
    public static func isGroup(_ card: VCardRecord) -> Bool {
        guard card.text.utf8.count >= 10, mentionsKind(card.text) else { return false }
        return card.lines.contains { line in
            guard let property = try? VCardProperty(text: line) else { return false }
            return kindNames.contains(property.name)
                && property.value.trimmingCharacters(in: .whitespaces).lowercased() == "group"
        }
    }

    /// Whether `KIND:` occurs in the text, any ASCII case. Each colon is found by `memchr` and the
    /// four bytes before it compared: stepping every byte of every card was 4 % of an import's
    /// reading thread (bench/FINDINGS.md, branch `import5`).
    static func mentionsKind(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count >= 5 else { return false }
            var at = 4
            while at < bytes.count, let found = memchr(base + at, 0x3A, bytes.count - at) {
                let colon = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                // `| 0x20` lower-cases the letters and maps no other byte onto one.
                if base[colon - 4] | 0x20 == 0x6B, base[colon - 3] | 0x20 == 0x69, base[colon - 2] | 0x20 == 0x6E,
                    base[colon - 1] | 0x20 == 0x64
                {
                    return true
                }
                at = colon + 1
            }
            return false
        }
    }

    public static func convention(of card: VCardRecord) -> GroupConvention {
        card.lines.contains {
            ($0.uppercased().split(separator: ":").first ?? "").hasSuffix("X-ADDRESSBOOKSERVER-KIND")
        }
            ? .apple : .kind
    }

    /// The group a card holds: its UID, name (`FN`, else `N`'s first part) and members, with the
    /// card kept whole. Nil when the card is not a group's.
    public static func read(_ card: VCardRecord) -> ContactGroup? {
        guard isGroup(card) else { return nil }
        var uid = "", name = "", family = ""
        var members: [String] = []
        var seen = Set<String>()
        for line in card.lines {
            guard let property = try? VCardProperty(text: line) else { continue }
            switch property.name {
            case "UID": uid = uidValue(property.value)
            case "FN" where name.isEmpty: name = VCardText.unescape(property.value).trimmingCharacters(in: .whitespaces)
            case "N" where family.isEmpty:
                family = VCardText.unescape(
                    String(property.value.split(separator: ";", omittingEmptySubsequences: false).first ?? ""))
            case let member where memberNames.contains(member):
                let value = memberUID(property.value)
                if !value.isEmpty, seen.insert(value).inserted { members.append(value) }
            default: break
            }
        }
        return ContactGroup(uid: uid, name: name.isEmpty ? family : name, members: members, card: card)
    }

    /// `urn:uuid:X` → `X`; any other URI (`mailto:`, `https:`) as it is.
    public static func memberUID(_ value: String) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        return trimmed.lowercased().hasPrefix("urn:uuid:") ? String(trimmed.dropFirst(9)) : trimmed
    }

    private static func uidValue(_ value: String) -> String {
        let trimmed = VCardText.unescape(value).trimmingCharacters(in: .whitespaces)
        return trimmed.lowercased().hasPrefix("urn:uuid:") ? String(trimmed.dropFirst(9)) : trimmed
    }

    /// The member value written for a UID: `urn:uuid:` and the UID, unless it is a URI already.
    static func memberValue(_ uid: String) -> String {
        let lower = uid.lowercased()
        return lower.hasPrefix("mailto:") || lower.hasPrefix("urn:") || lower.contains("://") ? uid : "urn:uuid:" + uid
    }

    /// A new group's card, in `convention`: 4.0 `KIND:group` with `MEMBER`, or Apple's 3.0 form
    /// (which also carries `N`, as Apple's own group cards do).
    public static func new(uid: String, name: String, members: [String] = [], convention: GroupConvention)
        -> ContactGroup
    {
        let escaped = VCardText.escape(name)
        var lines: [String]
        switch convention {
        case .kind:
            lines = ["VERSION:4.0", "KIND:group", "FN:" + escaped]
            lines += members.map { "MEMBER:" + memberValue($0) }
        case .apple:
            lines = ["VERSION:3.0", "N:" + escaped + ";;;;", "FN:" + escaped, "X-ADDRESSBOOKSERVER-KIND:group"]
            lines += members.map { "X-ADDRESSBOOKSERVER-MEMBER:" + memberValue($0) }
        }
        lines.append("UID:" + uid)
        return ContactGroup(uid: uid, name: name, members: members, card: VCardRecord(lines: lines))
    }

    /// The group's card with its name and members as `group` says: `FN` (and a first `N`)
    /// rewritten when the name changed, the member lines of members removed dropped, and lines for
    /// members added appended after the last member line (or the kind line), in the card's own
    /// convention. Every other line is left as it came.
    public static func updated(_ group: ContactGroup) -> ContactGroup {
        guard let stored = read(group.card) else {
            return new(uid: group.uid, name: group.name, members: group.members, convention: .kind)
        }
        let convention = convention(of: group.card)
        let keep = Set(group.members)
        let added = group.members.filter { !Set(stored.members).contains($0) }
        var lines: [String] = []
        var insertAt: Int?
        let renamed = stored.name != group.name
        var namedN = false, namedFN = false
        for line in group.card.lines {
            guard let property = try? VCardProperty(text: line) else { lines.append(line); continue }
            let prefix = property.group.map { $0 + "." } ?? ""
            switch property.name {
            case let member where memberNames.contains(member):
                if keep.contains(memberUID(property.value)) { lines.append(line); insertAt = lines.count }
            case let kind where kindNames.contains(kind):
                lines.append(line)
                if insertAt == nil { insertAt = lines.count }
            case "FN" where renamed:
                namedFN = true
                lines.append(prefix + "FN:" + VCardText.escape(group.name))
            case "N" where renamed && !namedN:
                namedN = true
                lines.append(prefix + "N:" + VCardText.escape(group.name) + ";;;;")
            default: lines.append(line)
            }
        }
        if renamed && !namedFN { lines.append("FN:" + VCardText.escape(group.name)) }
        let name = convention == .apple ? "X-ADDRESSBOOKSERVER-MEMBER:" : "MEMBER:"
        lines.insert(contentsOf: added.map { name + memberValue($0) }, at: insertAt ?? lines.count)
        var result = group
        result.card = VCardRecord(lines: lines)
        result.members = group.members
        return result
    }
}
