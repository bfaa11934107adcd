import SceneCore

/// The add and edit form (seed 001's AddContact with Done and Cancel): set and clear fields,
/// add and remove phones, emails, addresses and tags, then save or cancel.
public enum EditContact {
    public enum Mode: Equatable {
        case add
        /// Editing a stored contact, from the version the form was opened on.
        case edit(Contact)
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
    }

    public enum AddItem {
        public struct Request: Equatable { public let kind: ItemKind; public let label: String?; public let value: String }
        public struct Response {
            public let kind: ItemKind; public let index: Int; public let item: LabeledValue
            /// The item it replaced (`phone 1 NUMBER`), or nil for one added.
            public var replaced: LabeledValue? = nil
        }
    }

    /// `tidy`: names typed all in lower or upper case, capitalised (particles kept lower).
    public enum TidyNames {
        public struct Request: Equatable {}
        public struct Response { public let tidied: [UpdateField.Response] }
    }

    /// `order given-first|family-first`: how the name is written out.
    public enum SetNameOrder {
        public struct Request: Equatable { public let order: NameOrder }
        public struct Response { public let order: NameOrder; public let draft: Draft }
    }

    public enum RemoveItem {
        public struct Request: Equatable { public let kind: ItemKind; public let index: Int }
        public struct Response { public let kind: ItemKind; public let index: Int; public let item: LabeledValue }
    }

    /// `photo FILE`: the picture a file holds, as the contact's photo.
    public enum SetPhoto {
        public struct Request: Equatable { public let path: String }
        public struct Response { public let photo: ContactPhoto }
    }

    public enum ClearField {
        /// A single field's name, or a repeated kind's plural ("phones").
        public struct Request: Equatable { public let name: String }
        public struct Response { public let name: String }
    }

    /// A change to the draft, shown as one line ("phone 1 (mobile): +1 (555) 123-4567").
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
                .record(heading: heading, fields: fields.isEmpty ? [.init("(empty)", "set fields, then save or cancel")]
                        : fields.map { .init($0.label, $0.value) })
            }
        }
    }

    public enum SaveContact {
        public struct Request: Equatable {}
        public struct Response { public let contact: Contact; public let mode: Mode }
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
