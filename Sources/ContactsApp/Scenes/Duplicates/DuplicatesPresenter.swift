import SceneCore

public protocol DuplicatesPresentationLogic {
    func presentDuplicates(response: Duplicates.FindDuplicates.Response)
    func presentMergedContacts(response: Duplicates.MergeContacts.Response)
    func presentFailure(_ failure: ContactsFailure)
}

/// The groups as tables with their reasons, a merge as a line per value not kept.
public final class DuplicatesPresenter: DuplicatesPresentationLogic {
    weak var viewController: DuplicatesDisplayLogic?
    let formatter: ContactFormatter

    public init(formatter: ContactFormatter) { self.formatter = formatter }

    public func presentDuplicates(response: Duplicates.FindDuplicates.Response) {
        typealias Model = Duplicates.FindDuplicates.ViewModel
        let groups = response.groups.enumerated().map { index, group in
            Model.Group(
                number: index + 1, reasons: group.reasons.map(reason), rows: group.contacts.map(formatter.row),
                merge: "merge " + group.contacts.map { "\($0.id ?? 0)" }.joined(separator: " "))
        }
        let caption: String
        if let first = groups.first {
            caption =
                (groups.count == 1 ? "1 group" : "\(groups.count) groups") + " of possible duplicates; "
                + "merge one into its first contact with '\(first.merge)'"
        } else {
            caption = "No duplicates found"
        }
        viewController?.displayDuplicates(viewModel: .init(groups: groups, caption: caption))
    }

    private func reason(_ reason: DuplicateReason) -> Duplicates.FindDuplicates.ViewModel.Reason {
        let text: String
        switch reason.kind {
        case .uid: text = "same UID \(reason.value)"
        case .email: text = "same email \(reason.value)"
        case .phone where reason.withoutCountryCode:
            text = "same phone \(formatter.phone(reason.value)), once written without its country code"
        case .phone: text = "same phone \(formatter.phone(reason.value))"
        case .name: text = "nearly the same name, both \(reason.value.hasPrefix("@") ? "with" : "at") \(reason.value)"
        }
        return .init(kind: reason.kind.rawValue, value: reason.value, text: text)
    }

    public func presentMergedContacts(response: Duplicates.MergeContacts.Response) {
        let result = response.result
        let removed = result.removed.map { "#\($0.id ?? 0) \(formatter.displayName($0))" }.joined(separator: ", ")
        let kept = "#\(result.merged.id ?? 0) \(formatter.displayName(result.merged))"
        let differences = result.differences.map {
            Duplicates.MergeContacts.ViewModel.Difference(
                field: $0.field, kept: $0.kept, dropped: $0.dropped, from: $0.from.id ?? 0)
        }
        let lines = differences.map { "  \($0.field): kept \"\($0.kept)\", not \"\($0.dropped)\" from #\($0.from)" }
        var text = "Merged \(removed) into \(kept)"
        if !lines.isEmpty { text += "; values that differed:" }
        viewController?.displayMergedContacts(
            viewModel: .init(
                id: result.merged.id ?? 0, name: formatter.displayName(result.merged),
                removed: result.removed.map { $0.id ?? 0 },
                differences: differences, text: text, differenceLines: lines))
    }

    public func presentFailure(_ failure: ContactsFailure) {
        viewController?.displayMessage(formatter.message(for: failure))
    }
}
