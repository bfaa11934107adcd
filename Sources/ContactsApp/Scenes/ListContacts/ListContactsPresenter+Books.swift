import SceneCore

public protocol ListContactsBooksPresentationLogic {
    func presentBooks(response: ListContacts.ShowBooks.Response)
    func presentMovedContacts(response: ListContacts.MoveContacts.Response)
}

extension ListContactsPresenter: ListContactsBooksPresentationLogic {
    public func presentBooks(response: ListContacts.ShowBooks.Response) {
        typealias Book = ListContacts.ShowBooks.ViewModel.Book
        let books = response.books.map { book in
            Book(
                name: book.name, account: book.account, url: book.url, contacts: book.count,
                readOnly: book.serverReadOnly ? "server" : book.markedReadOnly ? "marked" : nil,
                isDefault: book.isDefault)
        }
        let count = books.count == 1 ? "1 book" : "\(books.count) books"
        let target = response.books.first(where: \.isDefault).map { "; new contacts go to \($0.name)" } ?? ""
        booksViewController?.displayBooks(viewModel: .init(books: books, caption: count + target))
    }

    /// "Moved Ann Lee and 1 more to work (their cards leave home at the next sync)".
    public func presentMovedContacts(response: ListContacts.MoveContacts.Response) {
        let moved = response.moved
        let first = moved.contacts.first.map(formatter.displayName) ?? ""
        let who = moved.contacts.count == 1 ? first : "\(first) and \(moved.contacts.count - 1) more"
        var text = "\(moved.copied ? "Copied" : "Moved") \(who) to \(moved.book.name)"
        if moved.copied {
            if !moved.book.isLocal { text += " (on its server at the next sync)" }
        } else if moved.leavingServers > 0 || !moved.book.isLocal {
            text += " (on the servers at the next sync: the new book gets the card first, then the old one loses it)"
        }
        booksViewController?.displayMovedContacts(
            viewModel: .init(
                ids: moved.contacts.compactMap(\.id), book: moved.book.name, text: text))
    }
}
