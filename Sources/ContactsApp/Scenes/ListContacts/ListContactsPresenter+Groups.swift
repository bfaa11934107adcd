import Foundation

public protocol ListContactsGroupsPresentationLogic {
    func presentGroups(response: ListContacts.ListGroups.Response)
    func presentChangedGroup(response: ListContacts.ChangeGroup.Response)
}

public protocol ListContactsGroupsDisplayLogic: AnyObject {
    func displayGroups(viewModel: ListContacts.ListGroups.ViewModel)
    func displayChangedGroup(viewModel: ListContacts.ChangeGroup.ViewModel)
}

extension ListContactsPresenter: ListContactsGroupsPresentationLogic {
    public func presentGroups(response: ListContacts.ListGroups.Response) {
        let groups = response.groups.map { summary in
            ListContacts.ListGroups.ViewModel.Group(
                id: summary.group.id ?? 0, uid: summary.group.uid, name: summary.group.name,
                size: summary.group.members.count,
                inBook: summary.inBook, members: summary.group.members, convention: summary.group.convention.rawValue)
        }
        let caption =
            groups.isEmpty
            ? "No groups yet; make one with 'group new NAME'"
            : groups.count == 1 ? "1 group" : "\(groups.count) groups"
        groupsViewController?.displayGroups(viewModel: .init(groups: groups, caption: caption))
    }

    public func presentChangedGroup(response: ListContacts.ChangeGroup.Response) {
        let group = response.group
        let size = group.members.count == 1 ? "1 member" : "\(group.members.count) members"
        let names = response.changed.map(formatter.displayName).joined(separator: ", ")
        let text: String
        switch response.action {
        case .new: text = "Made group \(group.name)"
        case .rename: text = "Renamed group \(response.oldName ?? "") to \(group.name)"
        case .delete: text = "Deleted group \(group.name) (its \(size) stay in the book)"
        case .add:
            text =
                response.changed.isEmpty
                ? "Nothing added to \(group.name) (\(size))" : "Added \(names) to \(group.name) (\(size))"
        case .remove:
            text =
                response.changed.isEmpty
                ? "Nothing removed from \(group.name) (\(size))" : "Removed \(names) from \(group.name) (\(size))"
        }
        let notes = response.unchanged.map { contact in
            "\(formatter.displayName(contact)) \(response.action == .add ? "was a member already" : "was not a member")"
        }
        groupsViewController?.displayChangedGroup(
            viewModel: .init(
                action: response.action.rawValue, id: group.id ?? 0, uid: group.uid, name: group.name,
                members: group.members,
                changed: response.changed.compactMap(\.id), text: text, notes: notes))
    }
}
