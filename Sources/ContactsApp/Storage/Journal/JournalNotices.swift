import Foundation
import SceneCore

/// What other processes changed in the book since this session last asked, read from the
/// journal (its clock and change sets), as the core's `DataChange`s marked external. A front
/// end's `ChangeWatch` asks when the book's files were written.
public final class JournalNotices {
    private let journal: ContactJournal
    private var seen: Int64

    public init(journal: ContactJournal) {
        self.journal = journal
        seen = (try? journal.lastSequence()) ?? 0
    }

    /// The changes since the last call (none when the book cannot be read just now: asked again
    /// at the next write).
    public func changes() -> [DataChange] {
        guard let (changes, sequence) = try? journal.changes(after: seen) else { return [] }
        seen = sequence
        return changes.map {
            DataChange(topic: "contacts", kind: $0.kind, ids: $0.ids.map(String.init), external: true)
        }
    }
}
