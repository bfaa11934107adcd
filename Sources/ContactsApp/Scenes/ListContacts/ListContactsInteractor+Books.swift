import Foundation

/// The address books (issue 30): `books` lists them, `move` takes contacts to another.
public protocol ListContactsBooksBusinessLogic {
    func showBooks(request: ListContacts.ShowBooks.Request)
    func moveContacts(request: ListContacts.MoveContacts.Request)
}

extension ListContactsInteractor: ListContactsBooksBusinessLogic {
    public func showBooks(request: ListContacts.ShowBooks.Request) {
        do {
            booksPresenter?.presentBooks(response: .init(books: try booksLogic().addressBooks()))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    public func moveContacts(request: ListContacts.MoveContacts.Request) {
        guard !request.book.isEmpty else {
            presenter?.presentFailure(.badInput("name the contacts, then the book: move 3 7 work"))
            return
        }
        do {
            let moved =
                request.copy
                ? try booksLogic().copy(request.references, to: request.book)
                : try booksLogic().move(request.references, to: request.book)
            booksPresenter?.presentMovedContacts(response: .init(moved: moved))
        } catch {
            presenter?.presentFailure(ContactsFailure(error))
        }
    }

    /// Said rather than nothing done when the Interactor was built without books.
    private func booksLogic() throws -> ListContactsBooksLogic {
        guard let booksWorker else { throw ContactsFailure.badInput("this book keeps no address books") }
        return booksWorker
    }
}
