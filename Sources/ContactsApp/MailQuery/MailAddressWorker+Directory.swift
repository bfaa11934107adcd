import Foundation

extension MailAddressWorker {
    /// The organisation's directories' addresses for `text`, after the book's (issue 31), each
    /// with the entry as a contact (no id: it is not in the book). What a directory could not
    /// answer is said through `directoryNotices`.
    func directoryCompletions(for text: String) -> [AddressCompletion] {
        guard let directories else { return [] }
        let found = directories.search(text)
        directoryNotices?(found.notices)
        return found.entries.flatMap { entry -> [AddressCompletion] in
            let contact = DirectoryMapping.contact(from: entry)
            return DirectoryPresenter().mailMatches(DirectorySearch(answers: [DirectoryAnswer(entries: [entry])]))
                .map { AddressCompletion(match: $0, contact: contact) }
        }
    }
}
