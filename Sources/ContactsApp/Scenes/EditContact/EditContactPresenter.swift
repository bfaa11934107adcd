import SceneCore

public protocol EditContactPresentationLogic {
    func presentUpdatedField(response: EditContact.UpdateField.Response)
    func presentTidiedNames(response: EditContact.TidyNames.Response)
    func presentNameOrder(response: EditContact.SetNameOrder.Response)
    func presentAddedItem(response: EditContact.AddItem.Response)
    func presentRemovedItem(response: EditContact.RemoveItem.Response)
    func presentClearedField(response: EditContact.ClearField.Response)
    func presentDraft(response: EditContact.ReviewDraft.Response)
    func presentPhoto(response: EditContact.SetPhoto.Response)
    func presentSavedContact(response: EditContact.SaveContact.Response)
    func presentCancelled(response: EditContact.Cancel.Response)
    func presentCancelConfirmation(response: EditContact.Cancel.Response)
    func presentUnsavedChanges(response: EditContact.Cancel.Response)
    func presentFailure(_ failure: ContactsFailure)
}

public final class EditContactPresenter: EditContactPresentationLogic {
    weak var viewController: EditContactDisplayLogic?
    let formatter: ContactFormatter

    public init(formatter: ContactFormatter) { self.formatter = formatter }

    /// The field's name as the table declares it (`ContactField.Declaration.name`).
    static func label(_ field: EditContact.Field) -> String {
        ContactField(field).declaration.name
    }

    public func presentUpdatedField(response: EditContact.UpdateField.Response) {
        viewController?.displayUpdatedField(viewModel: updatedField(response))
    }

    private func updatedField(_ response: EditContact.UpdateField.Response) -> EditContact.ChangeViewModel {
        let label = Self.label(response.field)
        let value = format(response.field, response.value)
        return .init(
            field: response.field.rawValue, value: value,
            text: value.isEmpty ? "\(label): cleared" : "\(label): \(value)")
    }

    public func presentTidiedNames(response: EditContact.TidyNames.Response) {
        viewController?.displayTidiedNames(
            viewModel: .init(
                changes: response.tidied.map(updatedField),
                nothingTidied: response.tidied.isEmpty
                    ? .info("Nothing to tidy: only names typed all in lower or upper case are capitalised") : nil))
    }

    /// "name order: family name first (山田 太郎)"
    public func presentNameOrder(response: EditContact.SetNameOrder.Response) {
        let preview = Contact(
            givenName: response.draft[.given], familyName: response.draft[.family],
            organization: response.draft[.organization], nameOrder: response.order
        ).fullName
        let order = response.order == .familyFirst ? "family name first" : "given name first"
        viewController?.displayNameOrder(
            viewModel: .init(
                field: "order", value: response.order.rawValue,
                text: "name order: \(order)" + (preview.isEmpty ? "" : " (\(preview))")))
    }

    public func presentAddedItem(response: EditContact.AddItem.Response) {
        let (field, value) = describe(response.kind, response.index, response.item)
        let was = response.replaced.map { " (was \(describe(response.kind, response.index, $0).1))" } ?? ""
        viewController?.displayAddedItem(viewModel: .init(field: field, value: value, text: "\(field): \(value)\(was)"))
    }

    public func presentRemovedItem(response: EditContact.RemoveItem.Response) {
        let (field, value) = describe(response.kind, response.index, response.item)
        viewController?.displayRemovedItem(
            viewModel: .init(field: field, value: "", text: "removed \(field): \(value)"))
    }

    public func presentClearedField(response: EditContact.ClearField.Response) {
        let label = EditContact.Field(rawValue: response.name).map(Self.label) ?? response.name
        viewController?.displayClearedField(
            viewModel: .init(field: response.name, value: "", text: "\(label): cleared"))
    }

    public func presentPhoto(response: EditContact.SetPhoto.Response) {
        let value = response.photo.summary
        viewController?.displayPhoto(viewModel: .init(field: "photo", value: value, text: "photo: \(value)"))
    }

    public func presentDraft(response: EditContact.ReviewDraft.Response) {
        typealias Row = EditContact.ReviewDraft.ViewModel.Field
        let draft = response.draft
        var rows: [Row] = EditContact.Field.allCases.compactMap { field in
            let value = draft[field]
            return value.isEmpty
                ? nil
                : Row(
                    field: field.rawValue, label: Self.label(field),
                    value: format(field, value))
        }
        for (kind, items) in [
            (EditContact.ItemKind.phone, draft.phones), (.email, draft.emails), (.address, draft.addresses),
            (.website, draft.websites),
        ] {
            for (index, item) in items.enumerated() {
                let (field, value) = describe(kind, index + 1, item)
                rows.append(Row(field: "\(kind.rawValue) \(index + 1)", label: field, value: value))
            }
        }
        for (index, tag) in draft.tags.enumerated() {
            rows.append(Row(field: "tag \(index + 1)", label: "tag \(index + 1)", value: tag))
        }
        if draft.nameOrder == .familyFirst {
            rows.append(Row(field: "order", label: "name order", value: "family name first"))
        }
        if let photo = draft.photoLine.flatMap(ContactPhoto.init(line:)) {
            rows.append(Row(field: "photo", label: "photo", value: photo.summary))
        }
        let heading: String
        switch response.mode {
        case .add: heading = "New contact"
        case .edit(let contact): heading = "Editing #\(contact.id ?? 0) \(formatter.displayName(contact))"
        }
        viewController?.displayDraft(viewModel: .init(heading: heading, fields: rows))
    }

    public func presentSavedContact(response: EditContact.SaveContact.Response) {
        let name = formatter.displayName(response.contact)
        let text: String
        switch response.mode {
        case .add: text = "Added \(name) as #\(response.contact.id ?? 0)"
        case .edit: text = "Saved \(name)"
        }
        viewController?.displaySavedContact(viewModel: .init(message: .success(text)))
    }

    /// "Cancelled: Ann Lee is unchanged", or with edits made "Cancelled: 3 changes to Ann Lee dropped".
    public func presentCancelled(response: EditContact.Cancel.Response) {
        let text: String
        let dropped = Self.count(response.changes.count, "change")
        switch (response.mode, response.changes.isEmpty) {
        case (.add, true): text = "Cancelled: no contact was added"
        case (.add, false): text = "Cancelled: no contact was added; \(dropped) dropped"
        case (.edit(let contact), true): text = "Cancelled: \(formatter.displayName(contact)) is unchanged"
        case (.edit(let contact), false): text = "Cancelled: \(dropped) to \(formatter.displayName(contact)) dropped"
        }
        viewController?.displayCancelled(viewModel: .init(message: .info(text)))
    }

    /// "Drop 3 changes to Ann Lee (given, phone 1, email 1)?"
    public func presentCancelConfirmation(response: EditContact.Cancel.Response) {
        viewController?.displayCancelConfirmation(viewModel: confirmation("Drop", response))
    }

    /// What quitting now would lose, or nothing to ask when nothing would be lost.
    public func presentUnsavedChanges(response: EditContact.Cancel.Response) {
        viewController?.displayUnsavedChanges(
            viewModel: response.changes.isEmpty ? nil : confirmation("Quit and drop", response))
    }

    private func confirmation(_ verb: String, _ response: EditContact.Cancel.Response)
        -> EditContact.Cancel.ConfirmationViewModel
    {
        var fields: [String] = []
        for field in response.changes where !fields.contains(field) { fields.append(field) }
        let changes = Self.count(response.changes.count, "change")
        let name: String
        switch response.mode {
        case .add: name = "the new contact"
        case .edit(let contact): name = formatter.displayName(contact)
        }
        return .init(
            question: "\(verb) \(changes) to \(name) (\(fields.joined(separator: ", ")))?",
            declined: "Still editing \(name): 'save' keeps the changes, 'review' shows them")
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        number == 1 ? "1 \(noun)" : "\(number) \(noun)s"
    }

    public func presentFailure(_ failure: ContactsFailure) {
        viewController?.displayMessage(formatter.message(for: failure))
    }

    /// Values as typed: names too (`tidy` capitalises them when asked).
    private func format(_ field: EditContact.Field, _ value: String) -> String { value }

    /// ("phone 1 (mobile)", "+1 (555) 123-4567")
    private func describe(_ kind: EditContact.ItemKind, _ index: Int, _ item: LabeledValue) -> (String, String) {
        switch kind {
        case .tag: return ("tag \(index)", item.value)
        case .phone: return ("phone \(index) (\(item.label))", formatter.phone(item.value))
        case .email, .address, .website: return ("\(kind.rawValue) \(index) (\(item.label))", item.value)
        }
    }
}
