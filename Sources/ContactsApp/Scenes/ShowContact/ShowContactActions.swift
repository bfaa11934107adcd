import SceneCore

extension ShowContact {
    /// The detail's actions, declared once (see `ListContacts.Action`): adding one is adding a case,
    /// then its declaration here and its dispatch in `ShowContactViewController.perform`.
    public enum Action: String, SceneActions {
        case show, edit, delete, history, photo

        public var declaration: ActionSpec {
            switch self {
            case .show:
                ActionSpec(
                    self, aliases: ["refresh"], summary: "show the contact again, as stored now, or another one",
                    parameters: [
                        ParameterSpec(
                            "contact", .text, required: false, help: "another contact's number (#) or name",
                            completion: .named("contact"),
                            acceptsNumber: true)
                    ], details: "Example: show   ·   show 3   ·   show ann lee")
            case .edit:
                ActionSpec(
                    self, summary: "edit this contact, or another one (opens the form)",
                    parameters: [
                        ParameterSpec(
                            "contact", .text, required: false, help: "another contact's number (#) or name",
                            completion: .named("contact"),
                            acceptsNumber: true)
                    ], details: "Example: edit   ·   edit 3")
            case .delete: ActionSpec(self, summary: "delete this contact and go back to the list")
            case .history: ActionSpec(self, summary: "show what changed in this contact, newest first, field by field")
            case .photo:
                ActionSpec(
                    self, summary: "save the contact's photo to a new file",
                    parameters: [
                        ParameterSpec("what", .choice(["save"]), help: "save"),
                        ParameterSpec("file", .text, help: "the file to write (an existing file is not replaced)"),
                    ],
                    details:
                        "Example: photo save ~/ann.jpg   ·   set or remove a photo in the form: edit, then photo FILE or clear photo"
                )
            }
        }
    }
}
