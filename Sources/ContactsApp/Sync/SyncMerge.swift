import Foundation

/// The field-by-field three-way merge of a contact changed both here and on the server,
/// against the version last synced (the base).
///
/// - A field changed on one side only takes that side's value.
/// Each field as the field table says (`ContactField`), single values and lists alike.
/// - Lists (phones, emails, addresses, websites, tags, unknown vCard properties) merge item by item:
///   what either side added is kept, what either side removed goes; never a conflict.
/// - A single-valued field changed differently on both sides is a conflict: the account's
///   setting (`ConflictWinner`) says whose value wins, the server's by default (what phones
///   show). The losing value is kept visibly, as a line at the end of the notes
///   (`sync conflict: FIELD here was: VALUE`, or `FIELD on the server was: VALUE`), so it is in
///   the contact's history whichever side won; when the server won, `undo` of the sync brings the
///   local value back too.
/// - Without a base (a contact found on both sides before they were ever linked), every field
///   that differs counts as changed on both sides.
public enum SyncMerge {
    /// One field changed differently on both sides: which value was kept and which lost.
    public struct Conflict: Equatable, Sendable {
        /// The field's name (`title`, `birthday`, ...).
        public var field: String
        public var winner: ConflictWinner
        /// The values as text (empty for a cleared field).
        public var kept: String
        public var lost: String

        public init(field: String, winner: ConflictWinner, kept: String, lost: String) {
            self.field = field; self.winner = winner; self.kept = kept; self.lost = lost
        }
    }

    public struct Result: Equatable, Sendable {
        public var contact: Contact
        /// The fields in conflict, in the contact screen's order.
        public var conflicts: [Conflict]
    }

    /// `local` with the server's changes merged in; keeps `local`'s id, version and creation time.
    /// `winner` decides the fields changed differently on both sides.
    public static func merge(base: Contact?, local: Contact, remote: Contact, winner: ConflictWinner = .server)
        -> Result
    {
        var merged = local
        // The server's card is the one to patch: the fields merged below rewrite only what
        // changed here, and the properties the server keeps that we do not model stay as they are.
        if remote.card != nil { merged.card = remote.card }
        var conflicts: [Conflict] = []
        var lostLines: [String] = []
        func shown(_ value: ContactFieldValue) -> String { ContactMerger.text(value) }
        for field in ContactField.allCases {
            let l = local[field], r = remote[field], was = base?[field]
            switch (l, r) {
            case (.items(let l), .items(let r)):
                if case .items(let b)? = was {
                    merged[field] = .items(list(b, l, r))
                } else {
                    merged[field] = .items(list(nil, l, r))
                }
                continue
            case (.addresses(let l), .addresses(let r)):
                if case .addresses(let b)? = was {
                    merged[field] = .addresses(list(b, l, r))
                } else {
                    merged[field] = .addresses(list(nil, l, r))
                }
                continue
            case (.words(let l), .words(let r)):
                if case .words(let b)? = was {
                    merged[field] = .words(list(b, l, r))
                } else {
                    merged[field] = .words(list(nil, l, r))
                }
                continue
            default:
                break
            }
            // A single value.
            if l == r { continue }
            if let was, was == l { merged[field] = r; continue }
            if let was, was == r { continue }
            let name = field.declaration.name
            let (kept, lost) = winner == .server ? (r, l) : (l, r)
            merged[field] = kept
            conflicts.append(Conflict(field: name, winner: winner, kept: shown(kept), lost: shown(lost)))
            let value = shown(lost)
            if !value.isEmpty {
                lostLines.append("sync conflict: \(name) \(winner == .server ? "here" : "on the server") was: \(value)")
            }
        }
        merged.extraProperties = list(base?.extraProperties, local.extraProperties, remote.extraProperties)
        if !lostLines.isEmpty {
            merged.notes = ([merged.notes].filter { !$0.isEmpty } + lostLines).joined(separator: "\n")
        }
        return Result(contact: merged, conflicts: conflicts)
    }

    /// Whether two contacts hold the same fields (their ids, UIDs, versions and times aside).
    public static func sameFields(_ a: Contact, _ b: Contact) -> Bool {
        func fields(_ c: Contact) -> Contact {
            var c = c
            c.id = nil; c.uid = ""; c.version = 0
            c.card = nil // what the card says is the fields; its lines are the server's own
            c.createdAt = Date(timeIntervalSince1970: 0); c.updatedAt = c.createdAt
            return c
        }
        return fields(a) == fields(b)
    }

    /// The server's list, less what was removed here, plus what was added here, in order.
    static func list<T: Equatable>(_ base: [T]?, _ local: [T], _ remote: [T]) -> [T] {
        let base = base ?? []
        let removedHere = base.filter { !local.contains($0) }
        let addedHere = local.filter { !base.contains($0) }
        var result = remote.filter { !removedHere.contains($0) }
        for item in addedHere where !result.contains(item) { result.append(item) }
        return result
    }
}
