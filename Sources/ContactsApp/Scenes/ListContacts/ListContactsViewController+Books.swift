import SceneCore

public protocol ListContactsBooksDisplayLogic: AnyObject {
    func displayBooks(viewModel: ListContacts.ShowBooks.ViewModel)
    func displayMovedContacts(viewModel: ListContacts.MoveContacts.ViewModel)
}

extension ListContactsViewController: ListContactsBooksDisplayLogic {
    static let bookViewModels: [any ViewModel.Type] = [
        ListContacts.ShowBooks.ViewModel.self, ListContacts.MoveContacts.ViewModel.self,
    ]

    func performBooks(_ action: ListContacts.Action, _ call: ActionCall) {
        switch action {
        case .books: booksInteractor?.showBooks(request: .init())
        case .move, .copy:
            let text = call.string("contacts") ?? ""
            var references = (try? CommandLineParser.splitWords(text)) ?? [text]
            var book = call.string("book")
            // `move work` alone, or JSON-RPC without `book`: the book is the last word.
            if book == nil, references.count > 1 { book = references.removeLast() }
            booksInteractor?.moveContacts(
                request: .init(references: references, book: book ?? "", copy: action == .copy))
        default: break
        }
    }

    public func displayBooks(viewModel: ListContacts.ShowBooks.ViewModel) { output.display(viewModel) }
    public func displayMovedContacts(viewModel: ListContacts.MoveContacts.ViewModel) { output.display(viewModel) }
}
