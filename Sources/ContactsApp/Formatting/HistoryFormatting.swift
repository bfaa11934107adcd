import Foundation
import SceneCore

/// The change sets of the journal as `history` shows them, newest first: when, which front end,
/// what, and field by field what changed ("organization: (empty) → Acme").
public struct HistoryViewModel: SceneCore.ViewModel, Equatable {
    public static let kind = "history"

    public struct Change: Encodable, Equatable, Sendable {
        public let id: Int64
        public let when: String
        public let origin: String
        public let summary: String
        public let undone: Bool
        /// "Ann Lee: organization: (empty) → Acme", one per changed field.
        public let details: [String]
    }

    public let changes: [Change]
    /// "No history for Bob Stone yet", or empty.
    public let caption: String

    public var layout: DisplayLayout {
        guard !changes.isEmpty else { return .lines([caption]) }
        return .lines(
            changes.flatMap { change in
                [
                    "#\(change.id)  \(change.when)  \(change.origin)  \(change.summary)\(change.undone ? "  (undone)" : "")"
                ]
                    + change.details.map { "    " + $0 }
            })
    }
}

/// The trash: deleted contacts, most recently deleted first.
public struct TrashViewModel: SceneCore.ViewModel, Equatable {
    public static let kind = "trash"

    public struct Row: Encodable, Equatable, Sendable {
        public let id: Int64
        public let name: String
        public let deleted: String
    }

    public let rows: [Row]
    public let caption: String

    public var layout: DisplayLayout {
        .table(
            columns: [.init("#", alignRight: true), .init("Name"), .init("Deleted")],
            rows: rows.map { [String($0.id), $0.name, $0.deleted] }, caption: caption)
    }
}

extension ContactFormatter {
    /// At most this many contacts' details per change set (an import can hold thousands).
    static let historyDetailLimit = 10

    /// `history`'s ViewModel; with `contactID`, only that contact's part of each change set.
    public func history(_ changes: [ChangeSetRecord], contactID: Int64?, emptyCaption: String) -> HistoryViewModel {
        HistoryViewModel(
            changes: changes.map { change in
                let entries = change.entries.filter { contactID == nil || $0.contactID == contactID }
                var details: [String] = []
                for entry in entries.prefix(Self.historyDetailLimit) {
                    let name = displayName(entry.after ?? entry.before ?? Contact())
                    let prefix = entries.count > 1 ? "\(name) (#\(entry.contactID)): " : ""
                    details += fieldChanges(from: entry.before, to: entry.after).map { prefix + $0 }
                }
                if entries.count > Self.historyDetailLimit {
                    details.append("… and \(entries.count - Self.historyDetailLimit) more contacts")
                }
                let moves = change.moves.filter { contactID == nil || $0.contactID == contactID }
                for move in moves.prefix(Self.historyDetailLimit) {
                    details.append("#\(move.contactID): book \(move.from) → \(move.to)")
                }
                if moves.count > Self.historyDetailLimit {
                    details.append("… and \(moves.count - Self.historyDetailLimit) more contacts")
                }
                if let range = change.addedIDs, contactID == nil,
                    !change.entries.contains(where: { range.contains($0.contactID) })
                {
                    details.append("added #\(range.lowerBound) to #\(range.upperBound)")
                }
                return HistoryViewModel.Change(
                    id: change.id, when: timestamp(change.at), origin: change.origin,
                    summary: change.summary, undone: change.undone, details: details)
            }, caption: changes.isEmpty ? emptyCaption : "")
    }

    /// "organization: (empty) → Acme" for each field that differs; "added" and "deleted" for
    /// a contact that came or went.
    public func fieldChanges(from before: Contact?, to after: Contact?) -> [String] {
        guard let after else { return before == nil ? [] : ["deleted"] }
        let old = fields(before ?? Contact()), new = fields(after)
        let changed = zip(old, new).filter { $0.1 != $1.1 }.map { old, new in
            "\(old.0): \(old.1.isEmpty ? "(empty)" : old.1) → \(new.1.isEmpty ? "(empty)" : new.1)"
        }
        return before == nil ? ["added"] + changed : changed
    }

    /// Every field a person sees or a card keeps, as text, in the order the contact screen shows them.
    func fields(_ contact: Contact) -> [(String, String)] {
        // The field table's, by their history labels, then what the card keeps beside them.
        ContactField.allCases.map { field -> (String, String) in
            let text: String
            switch contact[field] {
            case .text(let value): text = value
            case .date(let date): text = date.map(birthday) ?? ""
            case .items(let items): text = items.map { "\($0.label): \($0.value)" }.joined(separator: ", ")
            case .addresses(let addresses):
                text = addresses.map { "\($0.label): \(address($0))" }.joined(separator: "; ")
            case .words(let words): text = words.joined(separator: ", ")
            }
            return (field.declaration.historyLabel, text)
        } + [
            ("photo", ContactPhoto(of: contact)?.summary ?? ""),
            ("other vCard properties", contact.extraProperties.isEmpty ? "" : "\(contact.extraProperties.count)"),
        ]
    }

    /// The trash as a table.
    public func trash(_ items: [TrashedContact]) -> TrashViewModel {
        TrashViewModel(
            rows: items.map {
                TrashViewModel.Row(
                    id: $0.contact.id ?? 0, name: displayName($0.contact),
                    deleted: timestamp($0.deletedAt))
            },
            caption: items.isEmpty
                ? "The trash is empty"
                : "\(items.count == 1 ? "1 deleted contact" : "\(items.count) deleted contacts") · restore CONTACT · purge [CONTACT]"
        )
    }
}
