import SceneCore

/// The form's actions for the contact's fields, from the field table (`ContactField`).
extension ContactField {
    /// What the form does for the field: set it, or add one item to it.
    public enum FormAction: Hashable, Sendable {
        case set(EditContact.Field)
        case add(EditContact.ItemKind)
    }

    /// A switch, so a new field cannot go without its place in the form.
    public var formAction: FormAction {
        switch self {
        case .given: return .set(.given)
        case .family: return .set(.family)
        case .display: return .set(.display)
        case .nickname: return .set(.nickname)
        case .organization: return .set(.organization)
        case .title: return .set(.title)
        case .birthday: return .set(.birthday)
        case .notes: return .set(.notes)
        case .phone: return .add(.phone)
        case .email: return .add(.email)
        case .address: return .add(.address)
        case .website: return .add(.website)
        case .tag: return .add(.tag)
        }
    }

    /// The field a form action sets.
    init(_ field: EditContact.Field) {
        self = ContactField.allCases.first { $0.formAction == .set(field) }!
    }

    /// The field a form action adds to.
    init(_ kind: EditContact.ItemKind) {
        self = ContactField.allCases.first { $0.formAction == .add(kind) }!
    }
}

extension ContactField {
    /// The form's action for the field (`given VALUE`, `phone [LABEL] VALUE`, `tag VALUE`),
    /// declared from the field table.
    var formActionDeclaration: ActionSpec {
        let declaration = self.declaration
        switch formAction {
        case .set(let action):
            return ActionSpec(
                action.rawValue, summary: declaration.formSummary,
                parameters: [
                    ParameterSpec(
                        "value", .text,
                        help: "\(declaration.formValueHelp) (use 'clear \(action.rawValue)' to empty it)")
                ],
                details: "Example: \(action.rawValue) \(declaration.formExample)")
        case .add(let kind):
            // Plain words (tags) have no label.
            let label =
                declaration.shape == .words
                ? []
                : [
                    ParameterSpec(
                        "label", .string, required: false, help: "a label such as work, home, mobile",
                        completion: .named("label"))
                ]
            return ActionSpec(
                kind.rawValue, summary: declaration.formSummary,
                parameters: label + [ParameterSpec("value", .text, help: declaration.formValueHelp)],
                details: "Example: \(kind.rawValue) \(declaration.formExample)")
        }
    }
}
