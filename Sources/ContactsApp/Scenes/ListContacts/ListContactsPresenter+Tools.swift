import SceneCore

public protocol ListContactsToolsPresentationLogic {
    func presentDuplicates(response: ListContacts.FindDuplicates.Response)
    func presentMergedContacts(response: ListContacts.MergeContacts.Response)
    func presentUpcomingBirthdays(response: ListContacts.UpcomingBirthdays.Response)
}

extension ListContactsPresenter: ListContactsToolsPresentationLogic {
    public func presentDuplicates(response: ListContacts.FindDuplicates.Response) {
        typealias Model = ListContacts.FindDuplicates.ViewModel
        let groups = response.groups.enumerated().map { index, group in
            Model.Group(number: index + 1, reasons: group.reasons.map(reason), rows: group.contacts.map { row($0) },
                        merge: "merge " + group.contacts.map { "\($0.id ?? 0)" }.joined(separator: " "))
        }
        let caption: String
        if let first = groups.first {
            caption = (groups.count == 1 ? "1 group" : "\(groups.count) groups") + " of possible duplicates; "
                + "merge one into its first contact with '\(first.merge)'"
        } else {
            caption = "No duplicates found"
        }
        toolsViewController?.displayDuplicates(viewModel: .init(groups: groups, caption: caption))
    }

    private func reason(_ reason: DuplicateReason) -> ListContacts.FindDuplicates.ViewModel.Reason {
        let text: String
        switch reason.kind {
        case .uid: text = "same UID \(reason.value)"
        case .email: text = "same email \(reason.value)"
        case .phone: text = "same phone \(formatter.phone(reason.value))"
        case .name: text = "nearly the same name, both \(reason.value.hasPrefix("@") ? "with" : "at") \(reason.value)"
        }
        return .init(kind: reason.kind.rawValue, value: reason.value, text: text)
    }

    public func presentMergedContacts(response: ListContacts.MergeContacts.Response) {
        let result = response.result
        let removed = result.removed.map { "#\($0.id ?? 0) \(formatter.displayName($0))" }.joined(separator: ", ")
        let kept = "#\(result.merged.id ?? 0) \(formatter.displayName(result.merged))"
        let differences = result.differences.map {
            ListContacts.MergeContacts.ViewModel.Difference(field: $0.field, kept: $0.kept, dropped: $0.dropped, from: $0.from.id ?? 0)
        }
        let lines = differences.map { "  \($0.field): kept \"\($0.kept)\", not \"\($0.dropped)\" from #\($0.from)" }
        var text = "Merged \(removed) into \(kept)"
        if !lines.isEmpty { text += "; values that differed:" }
        toolsViewController?.displayMergedContacts(viewModel: .init(
            id: result.merged.id ?? 0, name: formatter.displayName(result.merged), removed: result.removed.map { $0.id ?? 0 },
            differences: differences, text: text, differenceLines: lines))
    }

    public func presentUpcomingBirthdays(response: ListContacts.UpcomingBirthdays.Response) {
        let entries = response.birthdays.map { upcoming in
            ListContacts.UpcomingBirthdays.ViewModel.Entry(
                id: upcoming.contact.id ?? 0, name: formatter.displayName(upcoming.contact), date: upcoming.date.isoString,
                age: upcoming.age, daysAway: upcoming.daysAway, when: when(upcoming.daysAway))
        }
        let span = response.days == 0 ? "today" : response.days == 1 ? "today or tomorrow" : "in the next \(response.days) days"
        let caption = entries.isEmpty ? "No birthdays \(span)"
            : (entries.count == 1 ? "1 birthday" : "\(entries.count) birthdays") + " \(span)"
        toolsViewController?.displayUpcomingBirthdays(viewModel: .init(
            today: response.today.isoString, days: response.days, entries: entries, caption: caption))
    }

    private func when(_ daysAway: Int) -> String {
        switch daysAway {
        case 0: return "today"
        case 1: return "tomorrow"
        default: return "in \(daysAway) days"
        }
    }
}
