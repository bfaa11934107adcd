import Foundation

/// The list's groups, a use case each: `groups` and `group ACTION`. Filtering the list by a
/// group is `fetchContacts`' (its `ListFilter`).
public protocol ListContactsGroupsBusinessLogic {
    func listGroups(request: ListContacts.ListGroups.Request)
    func changeGroup(request: ListContacts.ChangeGroup.Request)
}

extension ListContactsInteractor: ListContactsGroupsBusinessLogic {
    public func listGroups(request: ListContacts.ListGroups.Request) {
        do {
            groupsPresenter?.presentGroups(response: .init(groups: try groupsLogic().groups()))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    public func changeGroup(request: ListContacts.ChangeGroup.Request) {
        do {
            let worker = try groupsLogic()
            let response: ListContacts.ChangeGroup.Response
            // A name of several words may come unquoted: `group new Book club`.
            let wholeName = ([request.name] + request.values).joined(separator: " ")
            if request.book != nil && request.action != .new {
                throw ContactsFailure.badInput(
                    "--book goes with group new: a group's book is where it was made or found")
            }
            switch request.action {
            case .new:
                response = .init(action: .new, group: try worker.newGroup(named: wholeName, book: request.book))
            case .delete:
                response = .init(action: .delete, group: try worker.deleteGroup(named: wholeName))
            case .rename:
                guard !request.values.isEmpty else {
                    throw ContactsFailure.badInput("name the new name: group rename OLD NEW")
                }
                let (old, group) = try worker.renameGroup(request.name, to: request.values.joined(separator: " "))
                response = .init(action: .rename, group: group, oldName: old)
            case .add:
                let change = try worker.addMembers(request.values, to: request.name)
                response = .init(
                    action: .add, group: change.group, changed: change.changed, unchanged: change.unchanged)
            case .remove:
                let change = try worker.removeMembers(request.values, from: request.name)
                response = .init(
                    action: .remove, group: change.group, changed: change.changed, unchanged: change.unchanged)
            }
            groupsPresenter?.presentChangedGroup(response: response)
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    func groupsLogic() throws -> ListContactsGroupsLogic {
        guard let groupsWorker else { throw ContactsFailure.badInput("this book keeps no groups") }
        return groupsWorker
    }

    /// The store's filter for a `list`'s `ListFilter`, and the group's name for the caption.
    func resolve(_ filter: ListContacts.ListFilter) throws -> (GroupFilter?, String?) {
        if filter.ungrouped {
            guard filter.group == nil else {
                throw ContactsFailure.badInput("list either --group NAME or --ungrouped, not both")
            }
            return (.ungrouped, nil)
        }
        guard let name = filter.group else { return (nil, nil) }
        let group = try groupsLogic().groupID(named: name)
        return (.members(of: group.id), group.name)
    }
}
