import SceneCore

public protocol ListContactsBooksDisplayLogic: AnyObject {
    func displayBooks(viewModel: ListContacts.ShowBooks.ViewModel)
    func displayMovedContacts(viewModel: ListContacts.MoveContacts.ViewModel)
}

extension ListContactsViewController: ListContactsBooksDisplayLogic {
    /// The books' actions (`contacts/books`, `contacts/move`), declared once for every front end.
    static let bookActions = [
        ActionSpec("books", summary: "show the address books: this file's and each account's, with their contacts",
                   details: "A contact is in one book; new ones go to the default book. Filter the list with 'list 1 50 BOOK'."),
        ActionSpec("move", summary: "move contacts to another address book", parameters: [
            ParameterSpec("contacts", .text, help: "numbers (#) or quoted names", completion: .namedWords("contact")),
            ParameterSpec("book", .string, required: false, help: "the book to move them to (last word)"),
        ], details: """
            On servers the card is put in the new book at the next sync, then deleted from the old one; \
            if that second step fails, it is tried again at the following sync (nothing is lost). \
            Contacts of a read-only book cannot be moved out. Example: move 3 7 work   ·   move "ann lee" local
            """),
        ActionSpec("copy", summary: "copy contacts into another address book (new contacts; the originals stay)", parameters: [
            ParameterSpec("contacts", .text, help: "numbers (#) or quoted names", completion: .namedWords("contact")),
            ParameterSpec("book", .string, required: false, help: "the book to copy them to (last word)"),
        ], details: "Works from a read-only book too. Example: copy 12 local"),
    ]

    static let bookViewModels: [any ViewModel.Type] = [
        ListContacts.ShowBooks.ViewModel.self, ListContacts.MoveContacts.ViewModel.self,
    ]

    func performBooks(_ call: ActionCall) {
        switch call.name {
        case "books": booksInteractor?.showBooks(request: .init())
        case "move", "copy":
            let text = call.string("contacts") ?? ""
            var references = (try? CommandLineParser.splitWords(text)) ?? [text]
            var book = call.string("book")
            // `move work` alone, or JSON-RPC without `book`: the book is the last word.
            if book == nil, references.count > 1 { book = references.removeLast() }
            booksInteractor?.moveContacts(request: .init(references: references, book: book ?? "", copy: call.name == "copy"))
        default: break
        }
    }

    public func displayBooks(viewModel: ListContacts.ShowBooks.ViewModel) { output.display(viewModel) }
    public func displayMovedContacts(viewModel: ListContacts.MoveContacts.ViewModel) { output.display(viewModel) }
}
