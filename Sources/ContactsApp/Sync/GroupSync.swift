import Foundation

/// The three-way merge of a group: its members as a set (both sides' additions kept, a removal
/// on either side applied; a member whose card is not in this book is kept like any other), its
/// name the side's that changed it (the server's when both did). The server's card is the
/// start, so what it keeps and we do not model stays.
public enum GroupMerge {
    public static func merge(base: ContactGroup?, local: ContactGroup, remote: ContactGroup) -> ContactGroup {
        let was = Set(base?.members ?? [])
        let here = Set(local.members), there = Set(remote.members)
        // In the server's order, less what was removed here; then what was added here and not removed there.
        var members = remote.members.filter { !(was.contains($0) && !here.contains($0)) }
        for member in local.members where !there.contains(member) && !was.contains(member) { members.append(member) }
        var merged = remote
        merged.id = local.id; merged.version = local.version; merged.createdAt = local.createdAt
        merged.updatedAt = local.updatedAt
        if let base, local.name != base.name, remote.name == base.name { merged.name = local.name }
        merged.members = members
        return GroupCard.updated(merged)
    }
}

/// The groups' part of a sync, after the contacts' pull and before their push: group cards the
/// pull met are saved as groups (merged with ours), groups removed there go here unless changed
/// here, and ours new or changed since the last sync are sent in the server's convention
/// (`writer`: Apple's form to a 3.0 server, KIND/MEMBER to a 4.0 one); ours deleted are deleted there.
struct GroupSync {
    let account: SyncAccount
    let book: CardDAVBookLogic
    let groups: ContactGroupStore
    let links: GroupSyncStore
    let writer: VCardWriter
    let now: () -> Date

    func pulled(
        _ cards: [(card: RemoteCard, group: ContactGroup)], removed: Set<String>,
        _ summary: inout SyncSummary
    ) throws {
        let linked = Dictionary(
            try links.groupLinks(account: account.name).map { ($0.href, $0) }, uniquingKeysWith: { a, _ in a })
        for (card, remote) in cards {
            let stored = try groups.groups().map(\.group).first { $0.uid == remote.uid }
            let base = linked[card.href].flatMap { SyncWorker.contact(fromText: $0.base)?.card }.flatMap(GroupCard.read)
            let saved: ContactGroup
            if let stored {
                let merged = GroupMerge.merge(base: base, local: stored, remote: remote)
                saved =
                    merged.card == stored.card
                    ? stored
                    : try groups.saveGroup(
                        merged, kind: .sync, summary: "synced group \(merged.name) from \(account.name)")
            } else {
                var new = remote
                new.createdAt = now(); new.updatedAt = new.createdAt
                saved = try groups.saveGroup(
                    new, kind: .sync, summary: "synced group \(remote.name) from \(account.name)")
            }
            // Ours as the server has it: pushed only if the merge changed it.
            let ours = saved.card == remote.card ? saved.card.text : ""
            try links.linkGroup(
                GroupLink(
                    account: account.name, href: card.href, uid: remote.uid, etag: card.etag,
                    base: card.vcard, card: ours))
            summary.pulled += 1
        }
        for href in removed.sorted() {
            guard let link = linked[href] else { continue }
            try links.forgetGroup(account: account.name, href: href)
            guard let stored = try groups.groups().map(\.group).first(where: { $0.uid == link.uid }) else { continue }
            // Changed here since: kept, and sent again by the push.
            if stored.card.text == link.card {
                try groups.deleteGroup(stored, summary: "synced: group \(stored.name) deleted on \(account.name)")
                summary.pulled += 1
            }
        }
    }

    func push(_ summary: inout SyncSummary) throws {
        let all = try groups.groups().map(\.group)
        let byUID = Dictionary(all.map { ($0.uid, $0) }, uniquingKeysWith: { a, _ in a })
        let linked = try links.groupLinks(account: account.name)
        let linkedUIDs = Set(linked.map(\.uid))
        for link in linked where byUID[link.uid] == nil {
            do {
                try book.delete(href: link.href, etag: link.etag)
                try links.forgetGroup(account: account.name, href: link.href)
                summary.pushed += 1
            } catch let error as DAVError where SyncWorker.refusesOneCard(error) {
                summary.failed.append(SyncWorker.failed(link.uid, error))
            }
        }
        for link in linked {
            guard let group = byUID[link.uid], group.card.text != link.card else { continue }
            let text = card(group)
            do {
                let etag = try book.update(href: link.href, vcard: text, etag: link.etag)
                try links.linkGroup(
                    GroupLink(
                        account: account.name, href: link.href, uid: group.uid, etag: etag ?? "",
                        base: text, card: group.card.text))
                summary.pushed += 1
            } catch let error as DAVError where SyncWorker.refusesOneCard(error) {
                // Changed there meanwhile: the next sync's pull merges the members, then pushes.
                summary.failed.append(SyncWorker.failed(group.name, error))
            }
        }
        // A group linked nowhere goes to the book chosen when it was made (`group new --book`),
        // else to the default book, as a contact does.
        let chosen = try links.chosenGroupBooks()
        let linkedElsewhere = try Set(links.allGroupUIDs())
        for group in all
        where !linkedUIDs.contains(group.uid) && !linkedElsewhere.contains(group.uid)
            && (chosen[group.uid].map { $0 == account.name } ?? account.isDefault)
        {
            let text = card(group)
            do {
                let created = try book.create(uid: group.uid, vcard: text)
                try links.linkGroup(
                    GroupLink(
                        account: account.name, href: created.href, uid: group.uid,
                        etag: created.etag ?? "", base: text, card: group.card.text))
                summary.pushed += 1
            } catch let error as DAVError where SyncWorker.refusesOneCard(error) {
                summary.failed.append(SyncWorker.failed(group.name, error))
            }
        }
    }

    /// The group's card as the server's version writes it (the writer converts the convention).
    private func card(_ group: ContactGroup) -> String {
        writer.card(for: Contact(uid: group.uid, formattedName: group.name, card: group.card))
    }
}
