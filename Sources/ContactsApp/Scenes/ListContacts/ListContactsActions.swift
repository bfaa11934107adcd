import SceneCore

extension ListContacts {
    /// The list's actions, declared once: the words typed in a session, JSON-RPC's `contacts/…`
    /// methods, the actions MCP's tools run, in the order `help` lists them. Adding one is adding a
    /// case: the compiler then asks for its declaration below and its dispatch in
    /// `ListContactsViewController.perform` (ARCHITECTURE.md, "How an action is added").
    public enum Action: String, SceneActions {
        case list, next, previous, page, sort, search, show, edit, add, delete, `import`, export, undo, redo, history,
            trash, restore, purge, sync
        // The everyday tools: scenes of their own shown in the list's place (`Scenes/Duplicates/`, `Scenes/Birthdays/`).
        case duplicates, merge, birthdays
        // Groups (`ListContactsViewController+Groups.swift`).
        case groups, group
        // Several address books (`ListContactsViewController+Books.swift`).
        case books, move
        // Into another book, or from the organisation's directory (`ListContactsViewController+Directory.swift`).
        case copy

        public var declaration: ActionSpec {
            switch self {
            case .list:
                ActionSpec(
                    self, summary: "show all contacts (clears a search), or one page of them",
                    parameters: [
                        ParameterSpec("page", .integer(min: 1, max: nil), required: false, help: "page number, from 1"),
                        ParameterSpec(
                            "limit", .integer(min: 1, max: ContactLimits.maximumPageSize), required: false,
                            help: "contacts per page"),
                        ParameterSpec(
                            "group", .string, help: "only this group's members (its name, or the start of it)",
                            completion: .named("group"), flag: true),
                        ParameterSpec("ungrouped", .boolean, help: "only the contacts in no group", flag: true),
                        ParameterSpec(
                            "book", .string, help: "only this address book's contacts (as 'books' names them)",
                            flag: true),
                    ],
                    details:
                        "A search and the pages that follow keep the group. Example: list 2 50   ·   list --group Family   ·   list --ungrouped   ·   list --book work"
                )
            case .next: ActionSpec(self, summary: "show the next page")
            case .previous: ActionSpec(self, aliases: ["prev"], summary: "show the previous page")
            case .page:
                ActionSpec(
                    self, summary: "show a page of the current listing",
                    parameters: [
                        ParameterSpec("number", .integer(min: 1, max: nil), help: "page number, from 1")
                    ])
            case .sort:
                ActionSpec(
                    self, summary: "sort by first or last name",
                    parameters: [
                        ParameterSpec("by", .choice(["first", "last"]), help: "first or last name")
                    ])
            case .search:
                ActionSpec(
                    self, aliases: ["find"],
                    summary: "show contacts matching names, organisation, emails or phone digits",
                    parameters: [
                        ParameterSpec(
                            "text", .text, help: "words that must all match (prefixes of words, or 3+ phone digits)")
                    ],
                    details: "Example: search lee acme   ·   search 555 12")
            case .show:
                ActionSpec(
                    self, aliases: ["open"], summary: "open a contact",
                    parameters: [
                        ParameterSpec(
                            "contact", .text, help: "the contact's number (#), its UID or a name",
                            completion: .named("contact"),
                            acceptsNumber: true)
                    ], details: "Example: show 3   ·   show ann lee")
            case .edit:
                ActionSpec(
                    self, summary: "edit a contact (opens the form)",
                    parameters: [
                        ParameterSpec(
                            "contact", .text, help: "the contact's number (#) or a name", completion: .named("contact"),
                            acceptsNumber: true)
                    ], details: "Example: edit 3   ·   edit ann lee")
            case .add: ActionSpec(self, aliases: ["new"], summary: "add a contact (opens the form)")
            case .delete:
                ActionSpec(
                    self, summary: "delete a contact",
                    parameters: [
                        ParameterSpec(
                            "contact", .text,
                            help: "the contact's number (#), UID or full name; part of a name asks first",
                            completion: .named("contact"), acceptsNumber: true),
                        ParameterSpec(
                            "confirm", .boolean, required: false,
                            help: "yes to delete a contact named by part of its name"),
                    ], details: "Example: delete 3   ·   delete ann lee   ·   delete ann yes")
            case .import:
                ActionSpec(
                    self, summary: "add or update contacts from a vCard (.vcf) or CSV file",
                    parameters: [
                        ParameterSpec("path", .string, help: "the file to read", completion: .files),
                        ParameterSpec(
                            "format", .choice(ImportFormat.allCases.map(\.rawValue)), required: false,
                            help: "auto (the default: csv for a .csv file, else vcard), vcard or csv"),
                    ],
                    details: """
                        vCard 2.1, 3.0 and 4.0, or CSV (our columns, or Google's or Outlook's export). A card whose UID \
                        is in the book updates that contact; cards without a UID are added. Cards that cannot be read \
                        are listed by line and the rest imported. Example: import ~/contacts.vcf
                        """)
            case .export:
                ActionSpec(
                    self, summary: "write contacts to a vCard or CSV file, or show them (-)",
                    parameters: [
                        ParameterSpec(
                            "path", .string, help: "the file to write, or - for the text itself", completion: .files),
                        ParameterSpec(
                            "format", .choice(ExportFormat.allCases.map(\.rawValue)), required: false,
                            help: "vcard4 (the default; csv for a .csv file), vcard3 or csv"),
                        ParameterSpec(
                            "contacts", .choice(ListContacts.ExportContacts.Scope.allCases.map(\.rawValue)),
                            required: false,
                            help: "all (the default) or search: the contacts of the current search"),
                        ParameterSpec(
                            "overwrite", .boolean, required: false, help: "yes to replace an existing file (default no)"
                        ),
                    ], details: "Example: export ~/book.vcf   ·   export lee.csv csv search   ·   export - vcard3")
            case .undo:
                ActionSpec(
                    self,
                    summary: "take back the most recent change (a save, a delete, a whole import), in any session",
                    parameters: [
                        ParameterSpec(
                            "change", .integer(min: 1, max: nil), required: false,
                            help: "an older change's number, as history shows it")
                    ],
                    details:
                        "Refused, naming it, when a later change touched the same contact. Example: undo   ·   undo 12")
            case .redo: ActionSpec(self, summary: "apply again the change undone last")
            case .history:
                ActionSpec(
                    self, summary: "show what changed, newest first: when, from where, field by field",
                    parameters: [
                        ParameterSpec(
                            "contact", .text, required: false,
                            help: "only this contact's changes (# or a name; deleted ones too)",
                            completion: .named("contact"), acceptsNumber: true)
                    ], details: "Example: history   ·   history bob stone")
            case .trash: ActionSpec(self, summary: "show the deleted contacts")
            case .restore:
                ActionSpec(
                    self, summary: "bring a deleted contact back, whole (same UID, every field)",
                    parameters: [
                        ParameterSpec(
                            "contact", .text, help: "the deleted contact's number (#) or name, as 'trash' shows",
                            acceptsNumber: true)
                    ])
            case .purge:
                ActionSpec(
                    self, summary: "erase deleted contacts for good, with their history (asks first)",
                    parameters: [
                        ParameterSpec(
                            "contact", .text, required: false,
                            help: "one deleted contact (# or name, as 'trash' shows), or none for the whole trash",
                            acceptsNumber: true),
                        ParameterSpec("confirm", .boolean, required: false, help: "yes to erase without being asked"),
                    ], details: "Example: purge #12 (asks)   ·   purge #12 yes   ·   purge yes (the whole trash)")
            case .sync:
                ActionSpec(
                    self, summary: "sync with the CardDAV accounts (all, or one)",
                    parameters: [
                        ParameterSpec(
                            "account", .string, required: false, help: "an account's name (default: every account)")
                    ],
                    details: """
                        Pulls what changed on each server, merges it with what changed here field by field, and pushes \
                        the rest; says what moved (pulled, pushed, merged, conflicts). Accounts are added with \
                        'contactsbook account add'. Example: sync   ·   sync home
                        """)
            // The everyday tools.
            case .duplicates:
                ActionSpec(
                    self, summary: "show groups of contacts that are probably one person, and why",
                    details: """
                        Strongest first: the same email (any case), the same phone (compared in one international \
                        form with the book's country, CONTACTSBOOK_COUNTRY), or nearly the same name with a shared \
                        organisation or email domain. Merge a group with the command shown under it.
                        """)
            case .merge:
                ActionSpec(
                    self, summary: "merge contacts into the first",
                    parameters: [
                        ParameterSpec(
                            "contacts", .text, help: "two or more numbers (#) or quoted names; the first is kept",
                            completion: .namedWords("contact"))
                    ],
                    details: """
                        Emails, phones, addresses and tags: all of them, without repeats. Other fields: the first \
                        contact's unless empty; differing values are listed. The others are deleted. \
                        Example: merge 3 7   ·   merge "ann lee" "anne lee"
                        """)
            case .birthdays:
                ActionSpec(
                    self, summary: "show birthdays from today through the next DAYS days, soonest first",
                    parameters: [
                        ParameterSpec(
                            "days", .integer(min: 0, max: 366), required: false,
                            help: "how many days ahead (default \(BirthdaysInteractor.defaultDays))")
                    ], details: "29 February birthdays fall on 28 February in other years. Example: birthdays 7")
            // Groups: the REPL, the line session and JSON-RPC (`contacts/groups`, `contacts/group`).
            case .groups: ActionSpec(self, summary: "show the groups with their sizes")
            case .group:
                ActionSpec(
                    self, summary: "make, rename or delete a group, or add and remove its members",
                    parameters: [
                        ParameterSpec(
                            "action", .choice(ListContacts.ChangeGroup.Action.allCases.map(\.rawValue)),
                            help: "new, rename, delete, add or remove"),
                        ParameterSpec(
                            "name", .string, help: "the group's name (quoted when it has spaces), or the start of it",
                            completion: .named("group")),
                        ParameterSpec(
                            "values", .text, required: false,
                            help: "rename: the new name; add, remove: the contacts, by number (#), UID or quoted name",
                            completion: .namedWords("contact"), acceptsNumber: true),
                        ParameterSpec(
                            "book", .string, help: "new: the address book the group goes to (else the default book)",
                            flag: true),
                    ],
                    details: """
                        A group is a card of its own (vCard 4.0 KIND:group, or Apple's X-ADDRESSBOOKSERVER form in a 3.0 \
                        book) listing its members by UID; it syncs, imports and exports as any card. Tags stay tags. \
                        Example: group new Family   ·   group add Family 3 "ann lee"   ·   group remove Family 3   ·   \
                        group rename Family Kin   ·   group delete Kin   ·   group new Team --book work
                        """)
            case .copy:
                ActionSpec(
                    self,
                    summary: "copy contacts into another address book, or a directory's search result into the book",
                    parameters: [
                        ParameterSpec(
                            "contacts", .text,
                            help:
                                "numbers (#) or quoted names; or one directory result as the search labelled it (corp:2)",
                            completion: .namedWords("contact")),
                        ParameterSpec(
                            "book", .string, required: false, help: "the book to copy contacts to (last word)"),
                    ],
                    details: """
                        Contacts become new contacts in the book (the originals stay; works from a read-only book too). \
                        A directory's entry becomes a new contact in the default book, journalled like any other change \
                        ('undo' takes it back); its card keeps where it came from (SOURCE and X-CONTACTSBOOK-DIRECTORY). \
                        Example: copy 12 local   ·   search lee, then copy corp:2
                        """)
            case .books:
                ActionSpec(
                    self, summary: "show the address books: this file's and each account's, with their contacts",
                    details:
                        "A contact is in one book; new ones go to the default book. Filter the list with 'list --book BOOK'."
                )
            case .move:
                ActionSpec(
                    self, summary: "move contacts to another address book",
                    parameters: [
                        ParameterSpec(
                            "contacts", .text, help: "numbers (#) or quoted names", completion: .namedWords("contact")),
                        ParameterSpec("book", .string, required: false, help: "the book to move them to (last word)"),
                    ],
                    details: """
                        On servers the card is put in the new book at the next sync, then deleted from the old one; \
                        if that second step fails, it is tried again at the following sync (nothing is lost). \
                        Contacts of a read-only book cannot be moved out. Example: move 3 7 work   ·   move "ann lee" local
                        """)
            }
        }
    }
}
