import SceneCore

/// The contacts list (the root scene): paging, sort, search, show, add, delete.
public enum ListContacts {
    /// One row of the list, formatted.
    public struct Row: Encodable, Equatable, Sendable {
        public let id: Int64
        public let name: String
        public let organization: String
        public let email: String
        public let phone: String
        /// Every email and phone (phones formatted as `phone`), so a program that picks an
        /// address from a search needs no second call per contact.
        public let emails: [LabeledValue]
        public let phones: [LabeledValue]
        /// Where a search found the contact when the row does not show it already, briefly:
        /// "tag: friends", "note: Met at the Lisbon…".
        public var matched: String? = nil
        /// The contact's address book, when the file has more than one in use (issue 30).
        public var book: String? = nil

        public init(id: Int64, name: String, organization: String, emails: [LabeledValue], phones: [LabeledValue]) {
            self.id = id; self.name = name; self.organization = organization
            self.emails = emails; self.phones = phones
            email = emails.first?.value ?? ""
            phone = phones.first?.value ?? ""
        }
    }

    public enum FetchContacts {
        /// What changes about the listing; nil fields keep their current value.
        public struct Request: Equatable {
            public enum PageChange: Equatable { case first, next, previous, number(Int) }
            public var page: PageChange?
            public var limit: Int?
            public var search: String?
            public var sort: SortOrder?
            /// All contacts, a group's or those in none; nil keeps the listing's.
            public var filter: ListFilter?
            /// `list`'s book: `.some(nil)` every book, `.some(NAME)` one; nil keeps it.
            public var book: String?? = nil
        }
        public struct Response {
            public let page: ContactPage
            public let query: ContactQuery
            /// The group whose members are listed (`query.group`), by name.
            public var groupName: String? = nil
        }
        public struct ViewModel: SceneCore.ViewModel, Equatable {
            public static let kind = "contactList"
            public let rows: [Row]
            public let page: Int
            public let pageCount: Int
            public let total: Int
            public let search: String
            public let sort: String
            /// "Page 1 of 3 · 42 contacts · by last name"
            public let caption: String
            /// The group whose members are listed (`list --group`), else absent.
            public var group: String? = nil
            /// Whether only contacts in no group are listed (`list --ungrouped`).
            public var ungrouped = false
            /// The book the listing is filtered by (`list --book NAME`); absent for every book.
            public var book: String? = nil

            public init(
                rows: [Row], page: Int, pageCount: Int, total: Int, search: String, sort: String, caption: String,
                group: String? = nil, ungrouped: Bool = false, book: String? = nil
            ) {
                self.rows = rows; self.page = page; self.pageCount = pageCount; self.total = total
                self.search = search; self.sort = sort; self.caption = caption
                self.group = group; self.ungrouped = ungrouped; self.book = book
            }

            public var layout: DisplayLayout {
                // A "Matched" column only when a search found someone by another field; a
                // "Book" column only when the file has more than one book in use.
                let matched = rows.contains { $0.matched != nil }
                let books = rows.contains { $0.book != nil }
                return .table(
                    columns: [
                        .init("#", alignRight: true), .init("Name"), .init("Organization"),
                        .init("Email"), .init("Phone"),
                    ] + (books ? [.init("Book")] : [])
                        + (matched ? [.init("Matched")] : []),
                    rows: rows.map { row in
                        ["\(row.id)", row.name, row.organization, row.email, row.phone]
                            + (books ? [row.book ?? ""] : [])
                            + (matched ? [row.matched ?? ""] : [])
                    },
                    caption: caption)
            }
        }
    }

    /// `show CONTACT` and `edit CONTACT`: find the contact, then open it or its form.
    public enum SelectContact {
        public enum Purpose: Equatable, Sendable { case show, edit }
        public struct Request: Equatable {
            public let reference: String
            public var purpose: Purpose = .show
        }
        public struct Response { public let contact: Contact; public var purpose: Purpose = .show }
        public struct ViewModel: Equatable { public let id: Int64; public var purpose: Purpose = .show }
    }

    public enum DeleteContact {
        public struct Request: Equatable {
            public let reference: String
            /// The person confirmed: a contact named by part of its name is deleted too.
            public var confirmed = false
        }
        public struct Response { public let contact: Contact }
        /// "Deleted Ann Lee", a message in every front end.
        public struct ViewModel: Equatable { public let message: Message }
        /// Deleting a contact named by part of its name ("bo" for Bob Smith) waits for a yes.
        public struct ConfirmationResponse {
            public let contact: Contact
            public let reference: String
        }
        /// What the ViewController asks, with the contact's number to name it exactly on yes.
        public struct ConfirmationViewModel: Equatable {
            public let id: Int64
            public let question: String
            public let declined: String
            public let refusal: String
        }
    }

    /// Where a contact just added from the form landed in the list (seed 001's inserted row).
    public enum ShowInsertedContact {
        public struct Request: Equatable {}
        public struct Response {
            public let contact: Contact
            /// 0-based place in the whole list.
            public let position: Int
            public let total: Int
            public let query: ContactQuery
        }
        public struct ViewModel: SceneCore.ViewModel, Equatable {
            public static let kind = "contactInserted"
            public let row: Row
            /// 1-based.
            public let position: Int
            public let page: Int
            public let text: String
            public var layout: DisplayLayout { .lines([text]) }
        }
    }

    /// Contacts in from a vCard or CSV file.
    public enum ImportContacts {
        public struct Request: Equatable {
            public let path: String
            public let format: ImportFormat
        }
        public struct Response {
            public let path: String
            public let report: ImportReport
        }
        /// "Imported book.vcf: …", its problems by line in the message's details.
        public struct ViewModel: Equatable { public let message: Message }
    }

    /// The book synced with every CardDAV account, or one (`account`).
    public enum SyncContacts {
        public struct Request: Equatable {
            public let account: String?
            public init(account: String?) { self.account = account }
        }
        public struct Response {
            public let results: [Result<SyncSummary, SyncAccountsWorker.Failure>]
        }
        /// One sync's outcome for every front end: sessions (the REPL, JSON-RPC, MCP) show `message`;
        /// `contactsbook sync` shows each account's line on stdout and its error on stderr.
        public struct ViewModel: Equatable {
            public struct Account: Equatable {
                /// The account's summary line; nil when the account failed as a whole.
                public let summary: String?
                /// Why the account, or some of its cards, did not sync; nil when all did.
                public let error: String?
            }
            public let accounts: [Account]
            public let message: Message
        }
    }

    /// Contacts out to a vCard or CSV file, or as text for the front end to print (`-`).
    public enum ExportContacts {
        public enum Scope: String, Equatable, CaseIterable { case all, search }
        public struct Request: Equatable {
            public let path: String
            /// nil: from the file name (`.csv`), else vCard 4.0.
            public let format: ExportFormat?
            public let scope: Scope
            public let overwrite: Bool
        }
        public struct Response {
            public let report: ExportReport
        }
        /// "Exported 3 contacts to book.vcf as vCard 4.0", with what writing them in that version
        /// changed as details: an export to a file.
        public struct FileViewModel: Equatable { public let message: Message }
        /// The exported text itself, for `export -`: the app never prints, so the front end
        /// writes `text` out (a line session prints it; JSON-RPC returns it in the result).
        public struct ViewModel: SceneCore.ViewModel, Equatable {
            public static let kind = "exportedContacts"
            public let format: String
            /// `text/vcard` or `text/csv`.
            public let mediaType: String
            public let count: Int
            /// The whole file: CRLF line endings, as the format wants.
            public let text: String
            /// What writing kept cards in the format's version changed, a line per kind of change
            /// with its count and first contacts; not in the layout, which is the file alone.
            public var changes: [String] = []
            public var layout: DisplayLayout {
                var lines = text.components(separatedBy: "\r\n")
                if lines.last == "" { lines.removeLast() }
                return .lines(lines)
            }
        }
    }

    /// Completion of a contact's name while typing (Tab in the REPL).
    public enum CompleteReference {
        public struct Request: Equatable { public let prefix: String }
        public struct Response: Equatable { public let names: [String] }
        /// Not displayed: the ViewController hands the candidates back to the front end that asked.
        public struct ViewModel: Equatable { public let candidates: [String] }
    }

    /// `undo` and `redo`: the most recent change set taken back, or the last undone one applied again.
    public enum UndoChange {
        public struct Request: Equatable {
            public let redo: Bool
            /// For an undo: the change's number in `history`; nil for the most recent.
            public let changeSet: Int64?
            public init(redo: Bool, changeSet: Int64? = nil) { self.redo = redo; self.changeSet = changeSet }
        }
        public struct Response { public let change: ChangeSetRecord; public let redo: Bool }
        /// "Undid: deleted Bob Stone".
        public struct ViewModel: Equatable { public let message: Message }
    }
}
