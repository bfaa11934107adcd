import SceneCore

extension EditContact {
    /// The form's actions, declared once (see `ListContacts.Action`): one per field, from the field
    /// table (`ContactField.formAction`), then the form's own. Adding one of its own is adding a
    /// case, its name in `own`, its declaration below and its dispatch in
    /// `EditContactViewController.perform`; the compiler asks for the last two.
    public enum Action: SceneActions, Hashable {
        /// `given VALUE`, `phone [LABEL] VALUE`: the single-valued fields first, then the repeated ones.
        case field(ContactField.FormAction)
        case remove, clear, photo, tidy, order, review, save, cancel

        /// The form's own actions, in the order `help` lists them after the fields.
        private static let own: [Action] = [.remove, .clear, .photo, .tidy, .order, .review, .save, .cancel]

        public static let allCases: [Action] = {
            let fields = ContactField.allCases.map(\.formAction)
            let setters = fields.filter { if case .set = $0 { true } else { false } }
            let adders = fields.filter { if case .add = $0 { true } else { false } }
            return (setters + adders).map(Action.field) + own
        }()

        public init?(rawValue: String) {
            guard let action = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
            self = action
        }

        public var rawValue: String {
            switch self {
            case .field(.set(let field)): field.rawValue
            case .field(.add(let kind)): kind.rawValue
            case .remove: "remove"
            case .clear: "clear"
            case .photo: "photo"
            case .tidy: "tidy"
            case .order: "order"
            case .review: "review"
            case .save: "save"
            case .cancel: "cancel"
            }
        }

        public var declaration: ActionSpec {
            switch self {
            case .field(let action): ContactField.allCases.first { $0.formAction == action }!.formActionDeclaration
            case .remove:
                ActionSpec(
                    self, summary: "remove a phone, email, address, website or tag by its number",
                    parameters: [
                        ParameterSpec(
                            "kind", .choice(EditContact.ItemKind.allCases.map(\.rawValue)), help: "what to remove"),
                        ParameterSpec("number", .integer(min: 1, max: nil), help: "its number, as 'review' shows it"),
                    ], details: "Example: remove phone 2")
            case .clear:
                ActionSpec(
                    self, summary: "empty a field, or remove all phones, emails, addresses, websites or tags",
                    parameters: [
                        ParameterSpec(
                            "field",
                            .choice(
                                EditContact.Field.allCases.map(\.rawValue) + EditContact.ItemKind.allCases.map(\.plural)
                                    + ["photo"]),
                            help: "the field")
                    ])
            case .photo:
                ActionSpec(
                    self, summary: "set the photo from a picture file (JPEG, PNG, GIF, WebP or HEIC, at most 1 MB)",
                    parameters: [
                        ParameterSpec("file", .text, help: "the picture file")
                    ],
                    details:
                        "Example: photo ~/ann.jpg   ·   clear photo removes it   ·   photo save FILE on the contact saves it"
                )
            case .tidy:
                ActionSpec(
                    self, summary: "capitalise the given and family names if typed all in lower or upper case",
                    details:
                        "Names are kept as typed otherwise; particles stay lower case: ludwig van beethoven → Ludwig van Beethoven"
                )
            case .order:
                ActionSpec(
                    self, summary: "write the name given name first or family name first",
                    parameters: [
                        ParameterSpec(
                            "order", .choice(NameOrder.allCases.map(\.rawValue)),
                            help: "given-first (Ann Lee) or family-first (山田 太郎)")
                    ], details: "Example: order family-first")
            case .review: ActionSpec(self, summary: "show the form as filled in so far")
            case .save: ActionSpec(self, aliases: ["done"], summary: "check and save the contact, then close the form")
            // `back` in a form cancels it out loud, so no draft is dropped without a word.
            case .cancel:
                ActionSpec(
                    self, aliases: ["back"],
                    summary: "close the form without saving (asks first if you changed something)",
                    parameters: [
                        ParameterSpec(
                            "confirm", .boolean, required: false, help: "yes to drop the changes without asking")
                    ])
            }
        }
    }
}
