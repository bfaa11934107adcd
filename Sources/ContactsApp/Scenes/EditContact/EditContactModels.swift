import SceneCore

/// The add and edit form (seed 001's AddContact with Done and Cancel): set and clear fields,
/// add and remove phones, emails, addresses and tags, then save or cancel.
public enum EditContact {
    /// What the form is for, passed into its DataStore by the Router that opens it.
    public enum Mode: Equatable {
        case add
        /// Editing a stored contact, from the version the form was opened on.
        case edit(Contact)
    }

    /// The scene that opened the form, by its DataStore: a save passes the saved contact back to
    /// it. Set by the Router that opens the form, so the form's Router never looks down the stack.
    public enum Origin {
        case list(ListContactsDataStore)
        case contact(ShowContactDataStore)
    }

    /// What a save of a new contact tells the list it returns to: the contact as stored, and
    /// where it landed in the list's order.
    public struct AddedContact: Equatable {
        public let contact: Contact
        /// 0-based place in the whole list, in the list's order.
        public let position: Int
        /// How many contacts the whole list holds, the new one among them.
        public let total: Int
        public init(contact: Contact, position: Int, total: Int) {
            self.contact = contact; self.position = position; self.total = total
        }
    }

    /// The single-valued fields, named as the form's actions name them (`ContactField.formAction`).
    public enum Field: String, CaseIterable, Sendable {
        case given, family, display, nickname, organization, title, birthday, notes
    }

    /// The repeated fields.
    public enum ItemKind: String, CaseIterable, Sendable {
        case phone, email, address, website, tag

        /// What `clear` calls all of them: "phones", "addresses".
        public var plural: String { self == .address ? "addresses" : rawValue + "s" }
    }

    /// What the user typed, unvalidated: the form keeps it until save so nothing typed is lost.
    public struct Draft: Equatable {
        public var fields: [Field: String] = [:]
        public var phones: [LabeledValue] = []
        public var emails: [LabeledValue] = []
        /// Addresses as typed: "street; city; region; postal code; country".
        public var addresses: [LabeledValue] = []
        public var websites: [LabeledValue] = []
        public var tags: [String] = []
        public var nameOrder: NameOrder = .givenFirst
        /// The card's `PHOTO` line as it came or as `photo FILE` made it; nil for none.
        public var photoLine: String?

        public subscript(field: Field) -> String {
            get { fields[field] ?? "" }
            set { fields[field] = newValue.isEmpty ? nil : newValue }
        }
    }

    public enum UpdateField {
        public struct Request: Equatable { public let field: Field; public let value: String }
        public struct Response { public let field: Field; public let value: String }
        public typealias ViewModel = ChangeViewModel
    }

    public enum AddItem {
        public struct Request: Equatable {
            public let kind: ItemKind; public let label: String?; public let value: String
        }
        public struct Response {
            public let kind: ItemKind; public let index: Int; public let item: LabeledValue
            /// The item it replaced (`phone 1 NUMBER`), or nil for one added.
            public var replaced: LabeledValue? = nil
        }
        public typealias ViewModel = ChangeViewModel
    }

    /// `tidy`: names typed all in lower or upper case, capitalised (particles kept lower).
    public enum TidyNames {
        public struct Request: Equatable {}
        public struct Response { public let tidied: [UpdateField.Response] }
        /// A line per name tidied, or, when none was, why.
        public struct ViewModel: Equatable {
            public let changes: [ChangeViewModel]
            public let nothingTidied: Message?
        }
    }

    /// `order given-first|family-first`: how the name is written out.
    public enum SetNameOrder {
        public struct Request: Equatable { public let order: NameOrder }
        public struct Response { public let order: NameOrder; public let draft: Draft }
        public typealias ViewModel = ChangeViewModel
    }

    public enum RemoveItem {
        public struct Request: Equatable { public let kind: ItemKind; public let index: Int }
        public struct Response { public let kind: ItemKind; public let index: Int; public let item: LabeledValue }
        public typealias ViewModel = ChangeViewModel
    }

    /// `photo FILE`: the picture a file holds, as the contact's photo.
    public enum SetPhoto {
        public struct Request: Equatable { public let path: String }
        public struct Response { public let photo: ContactPhoto }
        public typealias ViewModel = ChangeViewModel
    }

    public enum ClearField {
        /// A single field's name, or a repeated kind's plural ("phones").
        public struct Request: Equatable { public let name: String }
        public struct Response { public let name: String }
        public typealias ViewModel = ChangeViewModel
    }

    /// A change to the draft, shown as one line ("phone 1 (mobile): +1 (555) 123-4567"): the
    /// ViewModel of every use case that changes it.
    public struct ChangeViewModel: SceneCore.ViewModel, Equatable {
        public static let kind = "formChange"
        public let field: String
        /// The new value, formatted; empty when cleared or removed.
        public let value: String
        public let text: String
        public var layout: DisplayLayout { .lines([text]) }
    }

    public enum ReviewDraft {
        public struct Request: Equatable {}
        public struct Response { public let draft: Draft; public let mode: Mode }
        public struct ViewModel: SceneCore.ViewModel, Equatable {
            public static let kind = "form"
            public struct Field: Encodable, Equatable, Sendable {
                /// What to type to change it: "given", "phone 1", ...
                public let field: String
                public let label: String
                public let value: String
            }
            public let heading: String
            public let fields: [Field]
            public var layout: DisplayLayout {
                .record(
                    heading: heading,
                    fields: fields.isEmpty
                        ? [.init("(empty)", "set fields, then save or cancel")]
                        : fields.map { .init($0.label, $0.value) })
            }
        }
    }

    /// `save`: the contact checked and stored; the form closes, its outcome passed back to the
    /// scene that opened it (a new contact's place in the list: `AddedContact`).
    public enum SaveContact {
        public struct Request: Equatable {}
        public struct Response {
            public let contact: Contact
            public let mode: Mode
            /// For a new contact added from the list: where it landed.
            public var added: AddedContact? = nil
        }
        public struct ViewModel: Equatable { public let message: Message }
    }

    public enum Cancel {
        public struct Request: Equatable {
            /// The person agreed to drop the changes made (or nobody could be asked).
            public var confirmed = false
        }
        public struct Response {
            public let mode: Mode
            /// The fields changed, one entry per edit ("given", "phone 2"), in order.
            public var changes: [String] = []
        }
        public struct ViewModel: Equatable { public let message: Message }
        /// What to ask before unsaved changes are dropped (on cancel, or on quitting).
        public struct ConfirmationViewModel: Equatable {
            public let question: String
            public let declined: String
        }
    }

    /// Whether leaving now would lose changes, asked when the program is about to end.
    public enum ReviewUnsavedChanges {
        public struct Request: Equatable {}
    }
}
