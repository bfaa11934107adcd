import Foundation

public protocol EditContactBusinessLogic {
    func updateField(request: EditContact.UpdateField.Request)
    func tidyNames(request: EditContact.TidyNames.Request)
    func setNameOrder(request: EditContact.SetNameOrder.Request)
    func addItem(request: EditContact.AddItem.Request)
    func removeItem(request: EditContact.RemoveItem.Request)
    func clearField(request: EditContact.ClearField.Request)
    func setPhoto(request: EditContact.SetPhoto.Request)
    func reviewDraft(request: EditContact.ReviewDraft.Request)
    func saveContact(request: EditContact.SaveContact.Request)
    func cancel(request: EditContact.Cancel.Request)
    func reviewUnsavedChanges(request: EditContact.ReviewUnsavedChanges.Request)
}

/// The form's data, read and written by Routers passing data between scenes.
public protocol EditContactDataStore: AnyObject {
    /// Add, or edit this contact: passed in by the Router that opens the form (the draft starts from it).
    var mode: EditContact.Mode { get set }
    /// The order of the list a new contact is added from, passed in by its Router, so the save
    /// can say where the contact landed; nil: not asked.
    var listOrder: SortOrder? { get set }
    var draft: EditContact.Draft { get }
    /// The contact as saved, for the scene the form returns to.
    var savedContact: Contact? { get }
    /// A new contact as saved and its place in the list, for the list the form returns to.
    var addedContact: EditContact.AddedContact? { get }
    /// The fields changed since the form opened, one entry per edit that changed the draft.
    var changes: [String] { get }
}

public final class EditContactInteractor: EditContactBusinessLogic, EditContactDataStore {
    var presenter: EditContactPresentationLogic?
    let contactsWorker: EditContactStorageLogic
    let worker: EditContactWorker
    let files: ContactFilesLogic
    public var mode: EditContact.Mode = .add {
        // A form opened on a contact starts from it, unchanged.
        didSet {
            if case .edit(let contact) = mode {
                draft = worker.draft(from: contact)
            } else {
                draft = EditContact.Draft()
            }
            changes = []
        }
    }
    public var listOrder: SortOrder?
    /// For capitalising names the person asks to tidy (Turkish dotted i and the like).
    let locale: Locale
    public private(set) var draft = EditContact.Draft()
    public private(set) var savedContact: Contact?
    public private(set) var addedContact: EditContact.AddedContact?
    public private(set) var changes: [String] = []

    /// Labels used when the user gives none.
    static let defaultLabels: [EditContact.ItemKind: String] = [
        .phone: "mobile", .email: "home", .address: "home", .website: "home",
    ]

    /// Largest photo file `photo FILE` takes: phones write contact photos of tens of KB, and
    /// every sync and export carries it.
    static let photoLimit = 1 << 20

    public init(
        contactsWorker: EditContactStorageLogic, worker: EditContactWorker = EditContactWorker(),
        locale: Locale = Locale(identifier: "en_US_POSIX"), files: ContactFilesLogic = ContactFilesWorker()
    ) {
        self.contactsWorker = contactsWorker; self.worker = worker; self.locale = locale; self.files = files
    }

    public func updateField(request: EditContact.UpdateField.Request) {
        let value = request.value.trimmingCharacters(in: .whitespaces)
        if draft[request.field] != value { changes.append(request.field.rawValue) }
        draft[request.field] = value
        presenter?.presentUpdatedField(response: .init(field: request.field, value: value))
    }

    /// Names are kept as typed; only a name typed all in lower or upper case is tidied, and only now.
    public func tidyNames(request: EditContact.TidyNames.Request) {
        var tidied: [EditContact.UpdateField.Response] = []
        for field in [EditContact.Field.given, .family] {
            guard let tidy = PersonName.tidied(draft[field], locale: locale) else { continue }
            draft[field] = tidy
            changes.append(field.rawValue)
            tidied.append(.init(field: field, value: tidy))
        }
        presenter?.presentTidiedNames(response: .init(tidied: tidied))
    }

    public func setNameOrder(request: EditContact.SetNameOrder.Request) {
        if draft.nameOrder != request.order { changes.append("order") }
        draft.nameOrder = request.order
        presenter?.presentNameOrder(response: .init(order: request.order, draft: draft))
    }

    public func addItem(request: EditContact.AddItem.Request) {
        // `phone 1 NUMBER`: a first word that numbers an item of the form sets that item, label
        // kept, as `remove phone 1` then `phone NUMBER` would; one path for every kind of item.
        if request.kind != .tag, let word = request.label, let number = Int(word),
            number >= 1, number <= items(request.kind).count,
            !request.value.trimmingCharacters(in: .whitespaces).isEmpty
        {
            return replaceItem(request.kind, number, with: request.value.trimmingCharacters(in: .whitespaces))
        }
        // A command line cannot tell "phone +1 555 123 4567" or "address 1 Main St" from a label
        // and a value: a "label" without a letter is where the value begins.
        var typedLabel = request.label, typedValue = request.value
        if let word = typedLabel, !word.contains(where: \.isLetter) {
            typedValue = word + " " + typedValue
            typedLabel = nil
        }
        let value = typedValue.trimmingCharacters(in: .whitespaces)
        let label = (typedLabel ?? Self.defaultLabels[request.kind] ?? "").trimmingCharacters(in: .whitespaces)
            .lowercased()
        let item = LabeledValue(label: label, value: value)
        let index: Int
        let before = draft
        switch request.kind {
        case .phone: draft.phones.append(item); index = draft.phones.count
        case .email: draft.emails.append(item); index = draft.emails.count
        case .address: draft.addresses.append(item); index = draft.addresses.count
        case .website: draft.websites.append(item); index = draft.websites.count
        case .tag:
            if let existing = draft.tags.firstIndex(where: { $0.caseInsensitiveCompare(value) == .orderedSame }) {
                index = existing + 1
            } else {
                draft.tags.append(value); index = draft.tags.count
            }
        }
        if draft != before { changes.append("\(request.kind.rawValue) \(index)") }
        presenter?.presentAddedItem(response: .init(kind: request.kind, index: index, item: item))
    }

    private func replaceItem(_ kind: EditContact.ItemKind, _ number: Int, with value: String) {
        let old = items(kind)[number - 1]
        let item = LabeledValue(label: old.label, value: value)
        switch kind {
        case .phone: draft.phones[number - 1] = item
        case .email: draft.emails[number - 1] = item
        case .address: draft.addresses[number - 1] = item
        case .website: draft.websites[number - 1] = item
        case .tag: return
        }
        if item != old { changes.append("\(kind.rawValue) \(number)") }
        presenter?.presentAddedItem(response: .init(kind: kind, index: number, item: item, replaced: old))
    }

    public func removeItem(request: EditContact.RemoveItem.Request) {
        let count = items(request.kind).count
        guard request.index >= 1, request.index <= count else {
            let kind = request.kind.rawValue
            presenter?.presentFailure(
                .badInput(
                    count == 0
                        ? "there is no \(kind) to remove"
                        : "there is no \(kind) \(request.index); the form has \(count)"))
            return
        }
        let item = items(request.kind)[request.index - 1]
        changes.append("\(request.kind.rawValue) \(request.index)")
        switch request.kind {
        case .phone: draft.phones.remove(at: request.index - 1)
        case .email: draft.emails.remove(at: request.index - 1)
        case .address: draft.addresses.remove(at: request.index - 1)
        case .website: draft.websites.remove(at: request.index - 1)
        case .tag: draft.tags.remove(at: request.index - 1)
        }
        presenter?.presentRemovedItem(response: .init(kind: request.kind, index: request.index, item: item))
    }

    public func clearField(request: EditContact.ClearField.Request) {
        let before = draft
        defer { if draft != before { changes.append(request.name) } }
        if let field = EditContact.Field(rawValue: request.name) {
            draft[field] = ""
        } else {
            if let kind = EditContact.ItemKind.allCases.first(where: { $0.plural == request.name }) {
                switch kind {
                case .phone: draft.phones = []
                case .email: draft.emails = []
                case .address: draft.addresses = []
                case .website: draft.websites = []
                case .tag: draft.tags = []
                }
            } else if request.name == "photo" {
                draft.photoLine = nil
            } else {
                presenter?.presentFailure(.badInput("'\(request.name)' is not a field of the form"))
                return
            }
        }
        presenter?.presentClearedField(response: .init(name: request.name))
    }

    public func setPhoto(request: EditContact.SetPhoto.Request) {
        do {
            let data = try files.read(request.path, limit: Self.photoLimit)
            guard let mediaType = ContactPhoto.mediaType(of: data) else {
                throw ContactsFailure.badInput("\(request.path) is not a JPEG, PNG, GIF, WebP or HEIC picture")
            }
            // Written in the card's own version, so the card stays valid for it.
            var version = VCardVersion.v4
            if case .edit(let contact) = mode, let card = contact.card { version = card.version }
            let line = ContactPhoto.line(for: data, mediaType: mediaType, version: version)
            if draft.photoLine != line { changes.append("photo") }
            draft.photoLine = line
            presenter?.presentPhoto(
                response: .init(photo: ContactPhoto(line: line) ?? ContactPhoto(mediaType: mediaType, data: data)))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    public func reviewDraft(request: EditContact.ReviewDraft.Request) {
        presenter?.presentDraft(response: .init(draft: draft, mode: mode))
    }

    /// Checks and stores the draft, and says what came of it: for a new contact added from the
    /// list, where it landed in the list's order (the list shows it when the form closes).
    public func saveContact(request: EditContact.SaveContact.Request) {
        let saved: Contact
        do {
            switch mode {
            case .add: saved = try contactsWorker.insert(try worker.contact(from: draft, base: Contact()))
            case .edit(let original): saved = try contactsWorker.update(try worker.contact(from: draft, base: original))
            }
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
            return
        }
        savedContact = saved
        guard case .add = mode, let listOrder, let id = saved.id else {
            presenter?.presentSavedContact(response: .init(contact: saved, mode: mode))
            return
        }
        do {
            let place = try contactsWorker.place(of: id, sort: listOrder)
            addedContact = EditContact.AddedContact(contact: saved, position: place.position, total: place.total)
            presenter?.presentSavedContact(response: .init(contact: saved, mode: mode, added: addedContact))
        } catch {
            // Saved all the same: the form closes as after any save, then says what could not be read.
            presenter?.presentSavedContact(response: .init(contact: saved, mode: mode))
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    /// Leaves without saving; with changes made, only once the person agreed to drop them.
    public func cancel(request: EditContact.Cancel.Request) {
        guard request.confirmed || changes.isEmpty else {
            presenter?.presentCancelConfirmation(response: .init(mode: mode, changes: changes))
            return
        }
        presenter?.presentCancelled(response: .init(mode: mode, changes: changes))
    }

    public func reviewUnsavedChanges(request: EditContact.ReviewUnsavedChanges.Request) {
        presenter?.presentUnsavedChanges(response: .init(mode: mode, changes: changes))
    }

    private func items(_ kind: EditContact.ItemKind) -> [LabeledValue] {
        switch kind {
        case .phone: return draft.phones
        case .email: return draft.emails
        case .address: return draft.addresses
        case .website: return draft.websites
        case .tag: return draft.tags.map { LabeledValue(label: "", value: $0) }
        }
    }
}
