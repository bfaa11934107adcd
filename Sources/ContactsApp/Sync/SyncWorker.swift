import Foundation
import SceneCore

/// What one account's sync did, for the summary.
public struct SyncSummary: Equatable, Sendable {
    public var account: String
    /// Cards that came down: new or changed contacts here, and contacts deleted here.
    public var pulled = 0
    /// Contacts sent up: created, changed or deleted on the server.
    public var pushed = 0
    /// Contacts changed on both sides and merged field by field.
    public var merged = 0
    /// Fields changed differently on both sides (the winner's value kept, the other in the notes).
    public var conflicts = 0
    /// Contacts deleted on one side and edited on the other: kept (the edit wins).
    public var resurrected = 0
    /// The contacts with a conflict and their fields, for the report.
    public var conflicted: [Conflicted] = []
    /// The sync token was refused and the book compared by ETags instead.
    public var resynced = false
    /// hrefs the server named outside the address book: refused, nothing sent there.
    public var refused: [String] = []
    /// Cards of this address book with a UID another card of it has: each kept as a contact of
    /// its own, linked by its href (a warning; the sync goes on).
    public var sharedUIDs: [SharedUID] = []
    /// Cards that could not be sent (the server refused them) or read (the server's card is
    /// not a vCard we can read): the others went on; each is tried again at the next sync.
    public var failed: [Failed] = []

    /// One card the sync could not send or read, and why.
    public struct Failed: Equatable, Sendable {
        public enum Direction: String, Equatable, Sendable {
            /// A local contact (or its deletion) the server refused.
            case push
            /// A card on the server that could not be read here.
            case pull
        }
        /// The contact's name, or the card's resource name when it has none here.
        public var name: String
        public var direction: Direction
        /// The server's HTTP status when it refused the card; nil for a card not read here.
        public var status: Int?
        /// Why, in the server's words (sanitised) or the reader's.
        public var reason: String
        public init(name: String, direction: Direction, status: Int? = nil, reason: String) {
            self.name = name; self.direction = direction; self.status = status; self.reason = reason
        }
    }

    /// A card whose UID an earlier card of the same address book has (`href` is the earlier's).
    public struct SharedUID: Equatable, Sendable {
        public var uid: String
        /// The card already linked (or met first in this sync), then the one added beside it.
        public var first: String
        public var second: String
        public init(uid: String, first: String, second: String) {
            self.uid = uid; self.first = first; self.second = second
        }
    }

    /// A contact with fields changed differently on both sides.
    public struct Conflicted: Equatable, Sendable {
        public var name: String
        public var fields: [SyncMerge.Conflict]
        public init(name: String, fields: [SyncMerge.Conflict]) { self.name = name; self.fields = fields }
    }

    public init(account: String) { self.account = account }
}

/// Syncs the book with one CardDAV address book: pulls what changed on the server (merging
/// with local edits), then pushes what changed here.
///
/// The pull's local writes are one transaction with the new token: a sync cut off half way
/// leaves the book as it was and the next one starts again from the old token. A large pull is
/// written while it downloads, in that one transaction. Each push is
/// recorded as soon as the server took it, and a create that finds its name taken (412) reads
/// the card there instead of making a second one: a resumed sync makes no duplicates.
public final class SyncWorker {
    private let store: SyncStateStore & ContactStore
    private let now: () -> Date
    private let progress: ProgressReporter?
    /// Where a sync run in a session tells its clients what it changed here, like any other
    /// write (`session/dataChanged`, MCP's resource updates); other processes read the journal.
    private let changes: ChangeNotifier?

    public init(
        store: SyncStateStore & ContactStore, now: @escaping () -> Date = Date.init,
        progress: ProgressReporter? = nil, changes: ChangeNotifier? = nil
    ) {
        self.store = store; self.now = now; self.progress = progress; self.changes = changes
    }

    /// The current sync's links to group cards, read before its pull.
    private var groupLinks: [GroupLink] = []
    /// Whether the book keeps groups: a book that keeps none leaves group cards on the server alone.
    private var groupsKept = false
    /// Group cards the pull met (on its deciding thread, for a large pull).
    private let pulledGroups = PulledGroups()

    final class PulledGroups: @unchecked Sendable {
        private let lock = NSLock()
        private var cards: [(card: RemoteCard, group: ContactGroup)] = []
        func add(_ card: (card: RemoteCard, group: ContactGroup)) { lock.withLock { cards.append(card) } }
        @discardableResult
        func take() -> [(card: RemoteCard, group: ContactGroup)] {
            lock.withLock {
                defer { cards = [] }; return cards
            }
        }
    }

    public func sync(_ account: SyncAccount, book: CardDAVBookLogic) throws -> SyncSummary {
        var summary = SyncSummary(account: account.name)
        progress?.begin("Syncing \(account.name)")
        defer { progress?.end(nil) }
        let writer = VCardWriter(version: account.acceptsVCard4 ? .v4 : .v3)
        // Groups sync where the book keeps them (the SQLite one); cast once per sync.
        let groups = (store as? ContactGroupStore & GroupSyncStore).map {
            GroupSync(account: account, book: book, groups: $0, links: $0, writer: writer, now: now)
        }
        groupsKept = groups != nil
        groupLinks = try groups.map { try $0.links.groupLinks(account: account.name) } ?? []
        pulledGroups.take()
        let removed = try pull(account, book, &summary)
        try groups?.pulled(pulledGroups.take(), removed: removed, &summary)
        // A read-only book is only pulled: the server would refuse what we sent (edits of its
        // contacts are refused here before they start, `BooksWorker`).
        if !account.readOnly {
            try pushDeletions(account, book, writer, &summary)
            try pushChanges(account, book, writer, &summary)
            try groups?.push(&summary)
        }
        summary.refused = book.refused
        return summary
    }

    // MARK: - Pull

    /// Pulls the contacts; group cards met are kept in `pulledGroups` for `GroupSync`. Returns
    /// the hrefs removed on the server.
    @discardableResult
    private func pull(_ account: SyncAccount, _ book: CardDAVBookLogic, _ summary: inout SyncSummary) throws -> Set<
        String
    > {
        // A first download (nothing of this account here yet) asks for the cards in its listing.
        if account.syncToken == nil && groupLinks.isEmpty && store.readsDuringWrites,
            try store.itemsWithoutBase(account: account.name).isEmpty,
            try store.movingHrefs(book: account.name).isEmpty
        {
            try firstDownload(account, book, &summary)
            return []
        }
        var changes: CollectionChanges
        do {
            changes = try book.changes(since: account.syncToken)
        } catch DAVError.invalidSyncToken {
            summary.resynced = true
            changes = try book.listMembers()
        } catch DAVError.status(let code, "REPORT", _)
            where account.syncToken == nil && [400, 403, 405, 501].contains(code)
        {
            // A server without sync-collection: list the members by PROPFIND every time.
            changes = try book.listMembers()
        }
        // Cards whose contacts were moved to another book, still to delete here: not new cards.
        let moving = try store.movingHrefs(book: account.name)
        if !moving.isEmpty {
            changes.changed = changes.changed.filter { !moving.contains($0.key) }
            changes.removed.subtract(moving)
        }
        // Nothing changed there (the usual sync): no links to read (5,000 of them were most of
        // such a sync's instructions), only a new token to keep if the server gave one.
        if !changes.isComplete && changes.changed.isEmpty && changes.removed.isEmpty {
            if changes.token != account.syncToken { try apply(SyncPull(account: account.name, token: changes.token)) }
            return []
        }
        let groupETags = Dictionary(groupLinks.map { ($0.href, $0.etag) }, uniquingKeysWith: { a, _ in a })
        // Without their bases: read only for the few contacts merged.
        let items = Dictionary(
            try store.itemsWithoutBase(account: account.name).map { ($0.href, $0) },
            uniquingKeysWith: { a, _ in a })
        var removed = changes.removed
        if changes.isComplete {
            removed.formUnion(items.keys.filter { changes.changed[$0] == nil })
            removed.formUnion(groupETags.keys.filter { changes.changed[$0] == nil })
        }
        var wanted: [String] = []
        for (href, etag) in changes.changed
        where items[href].map({ !$0.onServer || $0.etag != etag }) ?? (groupETags[href] != etag) {
            wanted.append(href)
        }
        wanted.sort()
        let token = changes.token
        // The listing's ETags are not needed past here (each card comes with its own): a first
        // sync held 50,000 of them, and their table, until its end (bench/FINDINGS.md, issue 32).
        changes.changed = [:]
        progress?.report(completed: 0, of: wanted.count, message: "downloading")
        // A large pull (a first sync) is saved as its cards come: while the server prepares the
        // next multiget, a thread of its own writes the last batch, in one transaction all the
        // same (cut off, nothing is kept). Here: the download, progress, cancelling.
        if wanted.count >= Self.pipelinedPull && store.readsDuringWrites {
            var downloaded = 0
            let synced = try pipelinedPull(account, items, { token }, &summary) { sendCards in
                try book.cards(hrefs: wanted) { cards in
                    downloaded += cards.count
                    progress?.report(completed: downloaded, of: wanted.count, message: "downloading")
                    try sendCards(cards)
                }
                progress?.report(completed: downloaded, of: wanted.count, message: "downloaded")
            } removals: { summary in
                try self.removals(removed, account, items, &summary)
            }
            post(synced)
            // As below: a card not read here keeps the token where it was, to be asked for again.
            if summary.failed.contains(where: { $0.direction == .pull }) {
                try store.apply(SyncPull(account: account.name, token: account.syncToken))
            }
            return removed
        }
        let cards = try book.cards(hrefs: wanted)
        progress?.report(completed: cards.count, of: wanted.count, message: "downloaded")
        var matched = UIDMatches()
        var pull = SyncPull(
            account: account.name, writes: try writes(for: cards, account, items, &matched, &summary),
            token: token)
        pull.writes += try removals(removed, account, items, &summary)
        // A card not read here is asked for again next time: the token stays where it was (the
        // cards saved now are not downloaded again, their ETags match).
        if summary.failed.contains(where: { $0.direction == .pull }) { pull.token = account.syncToken }
        // Nothing to write and the same token: no write transaction, and the journal's clock
        // stays still, so sessions watching the book are not woken for nothing.
        if !pull.writes.isEmpty || pull.token != account.syncToken { try apply(pull) }
        try nameFirstCards(matched.unnamed, account.name, &summary)
        return removed
    }

    /// Pulls of this many cards or more are saved while they download (`pull`).
    static let pipelinedPull = 100

    /// A pull saved as its cards come, on three threads: this one downloads (`download` hands each
    /// batch of cards to its argument), one decides what each batch changes here, one writes, all
    /// in one transaction with the token and `removals`' writes (cut off, nothing is kept).
    private func pipelinedPull(
        _ account: SyncAccount, _ items: [String: SyncItem], _ token: @escaping () -> String?,
        _ summary: inout SyncSummary,
        download: (_ sendCards: @escaping ([RemoteCard]) throws -> Void) throws -> Void,
        removals: (inout SyncSummary) throws -> [SyncPull.Write] = { _ in [] }
    ) throws -> SyncedChanges {
        typealias Batch = (writes: [SyncPull.Write], prepared: [PreparedContact?])
        var unnamed: [(index: Int, uid: String)] = []
        let synced = try BatchPipe.runConsumingElsewhere(
            consume: { (next: () throws -> Batch?) in
                try self.store.apply(account: account.name, token: token, large: true) { write in
                    while let batch = try next() { try write(batch.writes, batch.prepared) }
                }
            },
            produce: { send in
                // A third thread works out what each batch changes here, so this one asks for the
                // next batch as soon as one has come: the server sat idle while the cards were
                // parsed and decided (perf, bench/FINDINGS.md "quiet host"). The decisions read
                // the book as it was before the pull (WAL), as they do below; what each insert
                // writes is worked out there too, so the writing thread only writes.
                let counted = summary
                // The deciding thread is waited for before this returns.
                (summary, unnamed) = try BatchPipe.runConsumingElsewhere(
                    consume: { (nextCards: () throws -> [RemoteCard]?) in
                        var decided = counted
                        var matched = UIDMatches()
                        while let cards = try nextCards() {
                            let writes = try self.writes(for: cards, account, items, &matched, &decided)
                            try send(
                                (
                                    writes,
                                    writes.map { write -> PreparedContact? in
                                        guard case .insert(let contact, _, _, _) = write else { return nil }
                                        return self.store.prepareForInsert(contact)
                                    }
                                ))
                        }
                        return (decided, matched.unnamed)
                    },
                    produce: { sendCards in try download(sendCards) })
                let removed = try removals(&summary)
                if !removed.isEmpty { try send((removed, [])) }
            })
        try nameFirstCards(unnamed, account.name, &summary)
        return synced
    }

    /// A first download: nothing of this account here (no link, no token), so every card listed
    /// comes down. The cards are asked for in the listing itself (`changesWithCards`): one request
    /// where the server took a listing and then a multiget per 500 cards, about 1.3 times the
    /// time of one (bench/FINDINGS.md, sync4); what a server lists without its card is fetched
    /// by multiget after. Saved as they come, in one transaction with the listing's token.
    private func firstDownload(_ account: SyncAccount, _ book: CardDAVBookLogic, _ summary: inout SyncSummary)
        throws
    {
        var downloaded = 0
        var token: String?
        let progress = self.progress
        let synced = try pipelinedPull(account, [:], { token }, &summary) { sendCards in
            let hand = { (cards: [RemoteCard]) throws in
                downloaded += cards.count
                progress?.report(completed: downloaded, message: "downloading")
                try sendCards(cards)
            }
            var changes: CollectionChanges
            do {
                changes = try book.changesWithCards(each: hand)
            } catch DAVError.status(let code, "REPORT", _) where [400, 403, 405, 501].contains(code) {
                // A server without sync-collection: its members by PROPFIND, then multigets.
                changes = try book.listMembers()
            }
            let rest = changes.changed.keys.sorted()
            progress?.report(completed: downloaded, of: downloaded + rest.count, message: "downloading")
            try book.cards(hrefs: rest) { cards in
                downloaded += cards.count
                progress?.report(completed: downloaded, of: downloaded + rest.count, message: "downloading")
                try sendCards(cards)
            }
            token = changes.token
            progress?.report(completed: downloaded, of: downloaded, message: "downloaded")
        }
        post(synced)
        // As in `pull`: a card not read here keeps the token where it was, to be asked for again.
        if summary.failed.contains(where: { $0.direction == .pull }) {
            try store.apply(SyncPull(account: account.name, token: account.syncToken))
        }
    }

    /// What one pull has met so far (its cards come in batches), so that a later card with a UID
    /// met before is added beside the first, and a contact linked nowhere joins one card only.
    ///
    /// It keeps a hash of each UID, not the UID and its first href: those were 250 bytes a card,
    /// 12 MB of a first download of 50,000 (bench/FINDINGS.md, sync5). A hash met again is a UID
    /// met before or another UID with the same hash; which, is told exactly: a card whose UID a
    /// contact linked nowhere holds is a second one only if an earlier card was merged into that
    /// contact (`mergedLocal`), and a card added beside is named with its first card once the
    /// pull is in the book (`nameFirstCards`), or not at all if no earlier card holds its UID.
    struct UIDMatches {
        var seen: Set<Int> = []
        /// The contacts linked nowhere that a card of this pull was merged into.
        var mergedLocal: Set<Int64> = []
        /// Cards added beside an earlier one of this pull: the index of each in the summary's
        /// `sharedUIDs` (its first href still empty) and its UID as the card has it.
        var unnamed: [(index: Int, uid: String)] = []
    }

    /// The hash `UIDMatches` keeps of a UID (tests make every UID's the same).
    var uidHash: (String) -> Int = { $0.hashValue }

    /// Names the first card of each UID a pull met twice (`UIDMatches`), from the book as the pull
    /// left it: the oldest contact of this account holding that UID (`holders` lists the oldest
    /// first: a contact merged into, or the first added). An entry that is that card itself
    /// met a hash of another UID (it was added as any new card is): it is taken out.
    private func nameFirstCards(_ unnamed: [(index: Int, uid: String)], _ account: String, _ summary: inout SyncSummary)
        throws
    {
        guard !unnamed.isEmpty else { return }
        var first: [String: String] = [:]
        for holder in try store.holders(uids: Array(Set(unnamed.map(\.uid)))) where holder.account == account {
            if first[holder.contact.uid] == nil, let href = holder.href { first[holder.contact.uid] = href }
        }
        var gone: [Int] = []
        for (index, uid) in unnamed {
            if let href = first[uid], href != summary.sharedUIDs[index].second {
                summary.sharedUIDs[index].first = href
            } else {
                gone.append(index)
            }
        }
        for index in gone.reversed() { summary.sharedUIDs.remove(at: index) }
    }

    /// What the cards that came down change here: new contacts, updates, merges.
    ///
    /// A card at an href not linked yet is matched by its UID only to a contact linked to no
    /// account (a local one, one of a removed account, or one whose push was cut off before its
    /// link was kept): a contact linked to another account, or to another href of this one, is
    /// never changed by it. Such a card is a contact of its own, so one UID on two servers is two
    /// contacts (`duplicates` shows them), and a second card with one UID in this address book
    /// is added beside the first, named in the summary (`SyncSummary.sharedUIDs`).
    private func writes(
        for cards: [RemoteCard], _ account: SyncAccount, _ items: [String: SyncItem],
        _ matched: inout UIDMatches, _ summary: inout SyncSummary
    ) throws -> [SyncPull.Write] {
        var writes: [SyncPull.Write] = []
        // Each card read once (a vCard parse is most of a first sync's own work). A card that
        // cannot be read is named in the summary; the others are saved.
        var parsed: [(RemoteCard, Contact)] = []
        parsed.reserveCapacity(cards.count)
        for card in cards {
            let read = card.unreadable.map { (contact: Contact?.none, problem: Optional($0)) } ?? Self.read(card.vcard)
            if let group = read.contact?.card.flatMap(GroupCard.read) {
                // A group's card: a group here, never a person (`GroupSync`).
                if groupsKept { pulledGroups.add((card, group)) }
            } else if let contact = read.contact {
                parsed.append((card, contact))
            } else {
                summary.failed.append(
                    .init(
                        name: Self.resourceName(card.href), direction: .pull,
                        reason: TerminalText.sanitize(read.problem ?? "not a vCard")))
            }
        }
        let byUID = Dictionary(
            grouping: try store.holders(uids: parsed.map(\.1.uid).filter { !$0.isEmpty }),
            by: \.contact.uid)
        for (card, parsedContact) in parsed {
            var remote = parsedContact
            let metBefore = !remote.uid.isEmpty && !matched.seen.insert(uidHash(remote.uid)).inserted
            if let item = items[card.href], let local = try store.contact(id: item.contactID) {
                if local.version == item.syncedVersion {
                    writes.append(
                        .update(
                            adopt(remote, into: local), href: card.href, etag: card.etag,
                            base: card.vcard, pushPending: false))
                    summary.pulled += 1
                } else {
                    let result = SyncMerge.merge(
                        base: try base(account, item.href), local: local, remote: remote,
                        winner: account.conflicts)
                    count(result, local, &summary)
                    writes.append(
                        .update(
                            stamped(result.contact), href: card.href, etag: card.etag,
                            base: card.vcard, pushPending: true))
                }
                continue
            }
            let holders = byUID[remote.uid] ?? []
            let local = holders.first(where: { $0.account == nil })?.contact
            // Met before in this pull: exactly so when a contact linked nowhere holds the UID (the
            // first card was merged into it), else as far as the hash says (`UIDMatches`).
            let earlier = metBefore && local.map { matched.mergedLocal.contains($0.id ?? -1) } ?? metBefore
            if let sibling = holders.first(where: { $0.account == account.name && $0.href != card.href })?.href {
                // One UID twice in this address book: both kept, each linked by its own href.
                summary.sharedUIDs.append(
                    .init(uid: TerminalText.sanitize(remote.uid), first: sibling, second: card.href))
            } else if earlier {
                // The same, the first card in this pull: named once the pull is in the book.
                matched.unnamed.append((summary.sharedUIDs.count, remote.uid))
                summary.sharedUIDs.append(.init(uid: TerminalText.sanitize(remote.uid), first: "", second: card.href))
            } else if let local {
                // Found here but linked nowhere: a sync cut off after the server took a card, the
                // same card imported before, or an account removed and added again. Merged with no base.
                if let id = local.id { matched.mergedLocal.insert(id) }
                let result = SyncMerge.merge(base: nil, local: local, remote: remote, winner: account.conflicts)
                count(result, local, &summary)
                writes.append(
                    .update(
                        stamped(result.contact), href: card.href, etag: card.etag,
                        base: card.vcard, pushPending: !SyncMerge.sameFields(result.contact, remote)))
                continue
            }
            if items[card.href] != nil { summary.resurrected += 1 }
            if remote.uid.isEmpty { remote.uid = card.href }
            remote.createdAt = now(); remote.updatedAt = now()
            writes.append(.insert(remote, href: card.href, etag: card.etag, base: card.vcard))
            summary.pulled += 1
        }
        return writes
    }

    /// What the cards removed on the server change here.
    private func removals(
        _ removed: Set<String>, _ account: SyncAccount, _ items: [String: SyncItem],
        _ summary: inout SyncSummary
    ) throws -> [SyncPull.Write] {
        var writes: [SyncPull.Write] = []
        for href in removed.sorted() {
            guard let item = items[href] else { continue }
            guard let local = try store.contact(id: item.contactID) else {
                writes.append(.forget(href: href)); continue
            }
            if local.version == item.syncedVersion && item.onServer {
                writes.append(.delete(contactID: item.contactID, version: local.version, href: href))
                summary.pulled += 1
            } else {
                // Deleted there, edited here: the edit wins, and the contact is created again.
                var kept = item
                kept.onServer = false
                writes.append(.link(kept))
                summary.resurrected += 1
            }
        }
        return writes
    }

    // MARK: - Push

    private func pushDeletions(
        _ account: SyncAccount, _ book: CardDAVBookLogic, _ writer: VCardWriter,
        _ summary: inout SyncSummary
    ) throws {
        for item in try store.orphanedItems(account: account.name) {
            guard item.onServer else { try store.forget(account: account.name, href: item.href); continue }
            do {
                try book.delete(href: item.href, etag: item.etag)
                try store.forget(account: account.name, href: item.href)
                summary.pushed += 1
            } catch DAVError.preconditionFailed {
                // Edited on the server since: the edit wins, the contact comes back here.
                guard let card = try book.card(href: item.href), var remote = Self.contact(from: card) else {
                    try store.forget(account: account.name, href: item.href)
                    continue
                }
                remote.createdAt = now(); remote.updatedAt = now()
                try apply(
                    SyncPull(
                        account: account.name,
                        writes: [
                            .forget(href: item.href),
                            .insert(remote, href: item.href, etag: card.etag, base: card.vcard),
                        ], token: try currentToken(account)))
                summary.resurrected += 1
            } catch DAVError.outsideBook {
                // Linked outside the book (by a server before this was refused): not sent there;
                // the book no longer holds it, so the link goes.
                try store.forget(account: account.name, href: item.href)
            } catch let error as DAVError where Self.refusesOneCard(error) {
                // Kept linked: the deletion is tried again at the next sync.
                let name = (try? base(account, item.href)).flatMap { $0?.fullName }
                summary.failed.append(
                    Self.failed(name.flatMap { $0.isEmpty ? nil : $0 } ?? Self.resourceName(item.href), error))
            }
        }
    }

    private func pushChanges(
        _ account: SyncAccount, _ book: CardDAVBookLogic, _ writer: VCardWriter,
        _ summary: inout SyncSummary
    ) throws {
        var pending = try store.changedContacts(account: account.name)
        pending += try store.unlinkedContacts(book: account.name, isDefault: account.isDefault)
        // Nothing edited here: the links are not read at all.
        let items =
            pending.isEmpty
            ? [:]
            : Dictionary(
                try store.itemsWithoutBase(account: account.name).map { ($0.contactID, $0) },
                uniquingKeysWith: { a, _ in a })
        progress?.report(completed: 0, of: pending.count, message: "uploading")
        for (index, contact) in pending.enumerated() {
            guard let id = contact.id else { continue }
            do {
                try push(contact, id: id, item: items[id], account, book, writer, &summary)
            } catch let error as DAVError where Self.refusesOneCard(error) {
                // Not recorded as pushed: the edit is sent again at the next sync; the others go on.
                summary.failed.append(Self.failed(contact.fullName.isEmpty ? contact.uid : contact.fullName, error))
            }
            progress?.report(completed: index + 1, of: pending.count, message: "uploading")
        }
    }

    private func push(
        _ contact: Contact, id: Int64, item: SyncItem?, _ account: SyncAccount, _ book: CardDAVBookLogic,
        _ writer: VCardWriter, _ summary: inout SyncSummary
    ) throws {
        let text = writer.card(for: contact)
        do {
            if let item, item.onServer {
                let etag = try book.update(href: item.href, vcard: text, etag: item.etag)
                try store.link(
                    SyncItem(
                        account: account.name, href: item.href, contactID: id, etag: etag ?? "",
                        base: text, syncedVersion: contact.version))
            } else {
                let created = try book.create(uid: contact.uid, vcard: text)
                try store.link(
                    SyncItem(
                        account: account.name, href: created.href, contactID: id,
                        etag: created.etag ?? "", base: text, syncedVersion: contact.version))
            }
            summary.pushed += 1
        } catch DAVError.preconditionFailed(let url) {
            // Changed on the server meanwhile (or, for a create, already there): read it, merge, try again.
            let href = item?.href ?? url.path
            guard let card = try book.card(href: href), let remote = Self.contact(from: card) else {
                throw DAVError.preconditionFailed(url: url)
            }
            let base = try item.flatMap { try self.base(account, $0.href) }
            let result = SyncMerge.merge(base: base, local: contact, remote: remote, winner: account.conflicts)
            count(result, contact, &summary)
            try apply(
                SyncPull(
                    account: account.name,
                    writes: [
                        .update(
                            stamped(result.contact), href: href, etag: card.etag, base: card.vcard, pushPending: true)
                    ], token: try currentToken(account)))
            guard let merged = try store.contact(id: id) else { return }
            let mergedText = writer.card(for: merged)
            let etag = try book.update(href: href, vcard: mergedText, etag: card.etag)
            try store.link(
                SyncItem(
                    account: account.name, href: href, contactID: id, etag: etag ?? "",
                    base: mergedText, syncedVersion: merged.version))
            summary.pushed += 1
        } catch DAVError.outsideBook {
            // Linked outside the book: nothing sent there (the summary names the href), the rest goes on.
        }
    }

    // MARK: - Helpers

    /// An answer about one card that need not stop the sync: the server refused that card (4xx
    /// or 5xx), or it changed again while we merged it. A refused password, a server that does
    /// not answer or an answer we cannot read stops the sync as before.
    static func refusesOneCard(_ error: DAVError) -> Bool {
        switch error {
        case .refused, .preconditionFailed: return true
        case .status(let code, let method, _):
            return ["PUT", "DELETE"].contains(method) && (400..<600).contains(code) && code != 401
        default: return false
        }
    }

    static func failed(_ name: String, _ error: DAVError) -> SyncSummary.Failed {
        switch error {
        case .refused(let code, _, _, let reason):
            return .init(name: TerminalText.sanitize(name), direction: .push, status: code, reason: reason)
        case .preconditionFailed:
            return .init(
                name: TerminalText.sanitize(name), direction: .push, status: 412,
                reason: "changed on the server again while it was merged")
        case .status(let code, _, _):
            return .init(
                name: TerminalText.sanitize(name), direction: .push, status: code, reason: DAVRefusal.phrase(code))
        default:
            return .init(name: TerminalText.sanitize(name), direction: .push, reason: TerminalText.sanitize("\(error)"))
        }
    }

    /// `ann.vcf` for `/alice/book/ann.vcf`: what names a card that has no contact here.
    static func resourceName(_ href: String) -> String {
        let name = href.split(separator: "/").last.map(String.init) ?? href
        return TerminalText.sanitize(name.removingPercentEncoding ?? name)
    }

    /// Saves a pull's writes and tells the session's clients what changed, as soon as it is
    /// committed (a push failing later does not take it back).
    private func apply(_ pull: SyncPull) throws { post(try store.apply(pull)) }

    private func post(_ synced: SyncedChanges) {
        for change in DataChange.contacts([
            ("created", synced.created), ("updated", synced.updated),
            ("deleted", synced.deleted),
        ]) {
            changes?.post(change)
        }
    }

    /// The contact as last synced at `href`, the base of a three-way merge.
    private func base(_ account: SyncAccount, _ href: String) throws -> Contact? {
        try store.base(account: account.name, href: href).flatMap(Self.contact(fromText:))
    }

    private func currentToken(_ account: SyncAccount) throws -> String? {
        try store.syncToken(book: account.name)
    }

    private func count(_ result: SyncMerge.Result, _ local: Contact, _ summary: inout SyncSummary) {
        summary.merged += 1
        summary.conflicts += result.conflicts.count
        if !result.conflicts.isEmpty {
            summary.conflicted.append(.init(name: local.fullName, fields: result.conflicts))
        }
    }

    /// The server's fields on the stored contact (its id, version and creation time kept).
    private func adopt(_ remote: Contact, into local: Contact) -> Contact {
        var contact = remote
        contact.id = local.id; contact.version = local.version; contact.createdAt = local.createdAt
        contact.uid = local.uid
        contact.updatedAt = now()
        return contact
    }

    private func stamped(_ contact: Contact) -> Contact {
        var contact = contact
        contact.updatedAt = now()
        return contact
    }

    static func contact(from card: RemoteCard) -> Contact? { contact(fromText: card.vcard) }

    static func contact(fromText text: String) -> Contact? { read(text).contact }

    /// A server's card as a contact, or the reader's reason why it is none.
    static func read(_ text: String) -> (contact: Contact?, problem: String?) {
        let read = VCardReader().read(Data(text.utf8))
        return (read.entries.first?.contact, read.problems.first?.reason)
    }
}
