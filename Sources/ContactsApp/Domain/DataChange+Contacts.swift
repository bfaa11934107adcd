import SceneCore

extension DataChange {
    /// The notices for changes to contacts, `(kind, ids)` each; the empty ones left out, and all
    /// of them one `reload` when any names more than `ContactLimits.maximumNoticeIDs` contacts.
    static func contacts(_ changes: [(kind: String, ids: any Collection<Int64>)]) -> [DataChange] {
        let changed = changes.filter { !$0.ids.isEmpty }
        if changed.contains(where: { $0.ids.count > ContactLimits.maximumNoticeIDs }) {
            return [DataChange(topic: "contacts", kind: "reload", ids: [])]
        }
        return changed.map { DataChange(topic: "contacts", kind: $0.kind, ids: $0.ids.map(String.init)) }
    }
}
